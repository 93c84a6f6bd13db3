package sim

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/chronicle/ladder/internal/frames"
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

// panicFrames returns up to four frames of the module below the panic
// being recovered, innermost first: those the runtime unwinds past the
// deferred call that recovers it.
func panicFrames() []string {
	pcs := make([]uintptr, 64)
	stack := runtime.CallersFrames(pcs[:runtime.Callers(0, pcs)])
	var out []string
	panicking := false
	for len(out) < 4 {
		f, more := stack.Next()
		switch {
		case f.Function == "runtime.gopanic":
			panicking = true
		case panicking:
			if name, ok := frames.Name(f.Function, fmt.Sprintf("%s:%d", f.File, f.Line)); ok {
				out = append(out, name)
			}
		}
		if !more {
			break
		}
	}
	return out
}
