package regen

// SetStep installs a hook the workspace calls at each named point of a
// switch ("stage <path>", "journal", "switch <path>"), so a test can stop
// a child process at an exact point and kill it there.
func (w *Workspace) SetStep(f func(point string)) { w.step = f }
