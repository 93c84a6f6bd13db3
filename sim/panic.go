package sim

import (
	"fmt"
	"path"
	"runtime"
	"strings"
)

// PanicError is a step that broke: the engine (or its sink) panicked,
// which is a bug in the code, never a property of the input. Step turns
// the panic into this error so that whoever drives the world reports the
// failure as its own (the ladder: a failed run naming the tick and the
// line) and goes on with everything else, rather than dying with it. The
// world is unusable after: every later Step returns the same error.
type PanicError struct {
	Tick  int64
	Value any
	// Where is the innermost frames of the panic in this module, as
	// "sim/claims/store.go:121 claims.(*Store).Derive", innermost first.
	Where []string
}

func (e *PanicError) Error() string {
	at := "no frame in the module"
	if len(e.Where) > 0 {
		at = strings.Join(e.Where, " ← ")
	}
	return fmt.Sprintf("tick %d: the engine panicked: %v (at %s)", e.Tick, e.Value, at)
}

// module is the import path every frame Where names is under.
const module = "github.com/chronicle/ladder/"

// panicFrames returns up to four frames of the module below the panic
// being recovered, innermost first: those the runtime unwinds past the
// deferred call that recovers it.
func panicFrames() []string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(0, pcs)])
	var out []string
	panicking := false
	for len(out) < 4 {
		f, more := frames.Next()
		switch {
		case f.Function == "runtime.gopanic":
			panicking = true
		case panicking && strings.HasPrefix(f.Function, module):
			// "sim/claims.(*Store).Derive": the package is sim/claims
			// (an external test package, sim_test, lives in sim).
			dir, name := path.Split(strings.TrimPrefix(f.Function, module))
			pkg, _, _ := strings.Cut(name, ".")
			pkg = strings.TrimSuffix(pkg, "_test")
			out = append(out, fmt.Sprintf("%s%s/%s:%d %s", dir, pkg, path.Base(f.File), f.Line, name))
		}
		if !more {
			break
		}
	}
	return out
}
