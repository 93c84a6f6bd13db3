// Package frames names a stack frame of this module as the ladder's
// failures print it — "sim/claims/store.go:121 claims.(*Store).Derive":
// the file's directory from the repository root, its name and line, and
// the function without its import path — so that an engine panic's
// frames (sim.PanicError) and a hung run's (ladder.StallError) read
// alike.
package frames

import (
	"path"
	"strings"
)

// Module is the import path every named frame is under.
const Module = "github.com/chronicle/ladder/"

// Name names the frame of function (its full name, as the runtime gives
// it: "github.com/chronicle/ladder/sim/claims.(*Store).Derive") at
// fileLine ("/abs/path/store.go:121"); false for a function outside the
// module. An external test package's functions ("harness_test.(*x).Emit")
// are named in the directory of the package they test.
func Name(function, fileLine string) (string, bool) {
	if !strings.HasPrefix(function, Module) {
		return "", false
	}
	dir, name := path.Split(strings.TrimPrefix(function, Module))
	pkg, _, _ := strings.Cut(name, ".")
	pkg = strings.TrimSuffix(pkg, "_test")
	return dir + pkg + "/" + path.Base(fileLine) + " " + name, true
}
