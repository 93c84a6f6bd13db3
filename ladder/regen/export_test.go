package regen

// SetStep installs a hook the workspace calls at each named point of a
// switch ("stage <path>", "journal", "switch <path>"), so a test can stop
// a child process at an exact point and kill it there.
func (w *Workspace) SetStep(f func(point string)) { w.step = f }

// SetTestStep installs f as the step of every workspace opened after, so
// a child process can be stopped inside Open (a FINISH=1) or Abandon.
func SetTestStep(f func(point string)) { testStep = f }
