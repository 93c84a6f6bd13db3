package determinism

import (
	"go/ast"
	"reflect"
	"strconv"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// PlatformMath refuses the math functions whose last bits depend on the
// platform: math.Exp has assembly on amd64, arm64, loong64 and s390x, and
// the amd64 one picks its algorithm by whether the CPU has FMA, so one
// binary gives different bits on two machines; Log, Pow and the
// trigonometric and hyperbolic functions have the same problem or call
// those that do. sim/detmath holds the pure-Go versions a state path
// uses. math.FMA is correctly rounded but is fusion made explicit, which
// only detmath may choose. Exact operations (Sqrt, Abs, Floor, Ldexp,
// Float64bits, …) are allowed.
var PlatformMath = &analysis.Analyzer{
	Name:       "platformmath",
	Doc:        "refuse math functions whose results differ across platforms (Exp, Log, Pow, …), and math.FMA, outside sim/detmath",
	URL:        analyzersURL,
	Requires:   []*analysis.Analyzer{inspect.Analyzer},
	Run:        runPlatformMath,
	ResultType: reflect.TypeFor[*Result](),
}

var platformMath = func() map[string]bool {
	m := map[string]bool{}
	for _, name := range []string{
		"Exp", "Exp2", "Expm1", "Log", "Log2", "Log10", "Log1p", "Logb", "Ilogb", "Pow",
		"Sin", "Cos", "Tan", "Sincos", "Asin", "Acos", "Atan", "Atan2",
		"Sinh", "Cosh", "Tanh", "Asinh", "Acosh", "Atanh", "Cbrt", "Hypot",
		"Erf", "Erfc", "Erfinv", "Erfcinv", "Gamma", "Lgamma", "J0", "J1", "Jn", "Y0", "Y1", "Yn", "FMA",
	} {
		m["math."+name] = true
	}
	return m
}()

func runPlatformMath(pass *analysis.Pass) (any, error) {
	ds := collect(pass, "platform-math")
	for _, f := range pass.Files {
		for _, imp := range f.Imports {
			if path, err := strconv.Unquote(imp.Path.Value); err == nil && path == "math/cmplx" && !ds.covers(pass.Fset, imp.Pos()) {
				pass.Reportf(imp.Pos(), "imports math/cmplx, whose functions are built on the platform's Exp, Log and trigonometry; use sim/detmath, or justify with //determinism:platform-math <why>")
			}
		}
	}
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	in.Preorder([]ast.Node{(*ast.Ident)(nil)}, func(n ast.Node) {
		id := n.(*ast.Ident)
		if name := qualified(pass.TypesInfo.Uses[id]); platformMath[name] && !ds.covers(pass.Fset, id.Pos()) {
			pass.Reportf(id.Pos(), "%s may give different last bits on another platform or CPU; use sim/detmath (Exp, Exp2), or justify a use that reaches no output with //determinism:platform-math <why>", name)
		}
	})
	return ds.finish(pass), nil
}
