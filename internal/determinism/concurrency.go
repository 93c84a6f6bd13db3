package determinism

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strconv"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Concurrency refuses goroutines, channels, select and the sync packages
// in the engine. A tick's phases run in one goroutine in a fixed order;
// anything that ran beside them would let the scheduler, which no seed
// controls, decide an order.
var Concurrency = &analysis.Analyzer{
	Name:       "concurrency",
	Doc:        "refuse goroutines, channels, select and the sync packages in the engine's tick phases and state packages",
	URL:        analyzersURL,
	Requires:   []*analysis.Analyzer{inspect.Analyzer},
	Run:        runConcurrency,
	ResultType: reflect.TypeFor[*Result](),
}

func runConcurrency(pass *analysis.Pass) (any, error) {
	ds := collect(pass, "concurrency")
	report := func(pos token.Pos, what string) {
		if !ds.covers(pass.Fset, pos) {
			pass.Reportf(pos, "%s: the engine steps on one goroutine, so the scheduler never decides an order; justify an exception that decides no byte with //determinism:concurrency <why>", what)
		}
	}
	for _, f := range pass.Files {
		for _, imp := range f.Imports {
			if path, err := strconv.Unquote(imp.Path.Value); err == nil && (path == "sync" || path == "sync/atomic") {
				report(imp.Pos(), "imports "+path)
			}
		}
	}
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	in.Preorder([]ast.Node{(*ast.GoStmt)(nil), (*ast.SelectStmt)(nil), (*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.ChanType)(nil), (*ast.RangeStmt)(nil)}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.GoStmt:
			report(n.Pos(), "a go statement starts a goroutine")
		case *ast.SelectStmt:
			report(n.Pos(), "a select lets the scheduler choose")
		case *ast.SendStmt:
			report(n.Pos(), "a channel send")
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				report(n.Pos(), "a channel receive")
			}
		case *ast.ChanType:
			report(n.Pos(), "a channel type")
		case *ast.RangeStmt:
			if _, ok := typeUnder(pass.TypesInfo.TypeOf(n.X)).(*types.Chan); ok {
				report(n.Pos(), "a range over a channel")
			}
		}
	})
	return ds.finish(pass), nil
}
