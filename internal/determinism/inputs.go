package determinism

import (
	"go/ast"
	"go/types"
	"reflect"
	"strconv"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// WallClock refuses a read of the wall clock or a timer. The tick is the
// only clock a deterministic run has; a tool that needs the time takes a
// Now func() time.Time from outside the deterministic packages.
var WallClock = &analysis.Analyzer{
	Name:       "wallclock",
	Doc:        "refuse reading the wall clock or waiting on a timer",
	URL:        analyzersURL,
	Requires:   []*analysis.Analyzer{inspect.Analyzer},
	Run:        names("wallclock", "reads the wall clock", wallClock),
	ResultType: reflect.TypeFor[*Result](),
}

var wallClock = map[string]bool{
	"time.Now": true, "time.Since": true, "time.Until": true, "time.Sleep": true,
	"time.Tick": true, "time.After": true, "time.AfterFunc": true, "time.NewTimer": true, "time.NewTicker": true,
}

// Environ refuses a read of the process's environment or of the machine
// it runs on: what a run writes must follow from its fixture alone, not
// from a variable, the host, the CPU count or the platform's name.
var Environ = &analysis.Analyzer{
	Name:       "environ",
	Doc:        "refuse reading the environment, the command line, the host or the platform",
	URL:        analyzersURL,
	Requires:   []*analysis.Analyzer{inspect.Analyzer},
	Run:        names("environ", "reads the process's environment or machine", environ),
	ResultType: reflect.TypeFor[*Result](),
}

var environ = map[string]bool{
	"os.Getenv": true, "os.LookupEnv": true, "os.Environ": true, "os.ExpandEnv": true, "syscall.Getenv": true,
	"os.Args": true, "os.Hostname": true, "os.Getpid": true, "os.Getppid": true, "os.Getuid": true,
	"os.Getwd": true, "os.Executable": true, "os.TempDir": true, "os.UserHomeDir": true,
	"runtime.NumCPU": true, "runtime.GOMAXPROCS": true, "runtime.NumGoroutine": true,
	"runtime.GOOS": true, "runtime.GOARCH": true, "runtime.Version": true,
}

// FileSystem refuses the file system in the engine: a world is built
// from a fixture's values, and what it knows comes from them alone.
// (The ladder's writers, which are not the engine, write files.)
var FileSystem = &analysis.Analyzer{
	Name:       "filesystem",
	Doc:        "refuse opening, reading or writing files in the engine",
	URL:        analyzersURL,
	Requires:   []*analysis.Analyzer{inspect.Analyzer},
	Run:        names("filesystem", "touches the file system", fileSystem),
	ResultType: reflect.TypeFor[*Result](),
}

var fileSystem = map[string]bool{
	"os.Open": true, "os.OpenFile": true, "os.Create": true, "os.CreateTemp": true, "os.ReadFile": true,
	"os.WriteFile": true, "os.ReadDir": true, "os.Stat": true, "os.Lstat": true, "os.Mkdir": true,
	"os.MkdirAll": true, "os.MkdirTemp": true, "os.Remove": true, "os.RemoveAll": true, "os.Rename": true,
	"os.DirFS": true, "os.Stdin": true, "os.Stdout": true, "os.Stderr": true,
}

// Randomness refuses every source of randomness but the keyed rolls:
// math/rand and crypto/rand, and hash/maphash, whose seed is random per
// process. A roll is a pure function of its key (sim/keyed), so nothing
// else may draw one.
var Randomness = &analysis.Analyzer{
	Name:       "randomness",
	Doc:        "refuse importing math/rand, math/rand/v2, crypto/rand or hash/maphash",
	URL:        analyzersURL,
	Run:        runRandomness,
	ResultType: reflect.TypeFor[*Result](),
}

var random = map[string]bool{"math/rand": true, "math/rand/v2": true, "crypto/rand": true, "hash/maphash": true}

func runRandomness(pass *analysis.Pass) (any, error) {
	ds := collect(pass, "randomness")
	for _, f := range pass.Files {
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err == nil && random[path] && !ds.covers(pass.Fset, imp.Pos()) {
				pass.Reportf(imp.Pos(), "imports %s: every roll is keyed (sim/keyed), nothing else may draw one; justify a use that reaches no output with //determinism:randomness <why>", path)
			}
		}
	}
	return ds.finish(pass), nil
}

// analyzersURL is where the rules and their exceptions are explained, from
// the repository's root.
const analyzersURL = "docs/determinism.md#the-analyzers"

// names returns a Run that refuses every use — a call or a reference —
// of the package-level functions and variables in refused, keyed
// package.Name, under the justification rule.
func names(rule, what string, refused map[string]bool) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (any, error) {
		ds := collect(pass, rule)
		in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		in.Preorder([]ast.Node{(*ast.Ident)(nil)}, func(n ast.Node) {
			id := n.(*ast.Ident)
			name := qualified(pass.TypesInfo.Uses[id])
			if refused[name] && !ds.covers(pass.Fset, id.Pos()) {
				pass.Reportf(id.Pos(), "%s %s: a deterministic run may not; justify a use that decides no byte of an output with //determinism:%s <why>", name, what, rule)
			}
		})
		return ds.finish(pass), nil
	}
}

// qualified is a package-level object's package path and name, "" for
// anything else (a field, a method, a local).
func qualified(obj types.Object) string {
	if obj == nil || obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() {
		return ""
	}
	return obj.Pkg().Path() + "." + obj.Name()
}
