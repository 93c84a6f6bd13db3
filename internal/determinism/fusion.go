package determinism

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Fusion refuses a floating-point product that meets an addition or a
// subtraction unguarded. The Go specification lets the compiler fuse
// x*y + z (and x*y - z, z - x*y) into one FMA instruction, which rounds
// once where the written arithmetic rounds twice; it does on arm64,
// ppc64le, s390x, riscv64 and on amd64 built with GOAMD64=v3, so the last
// bit of such a sum depends on the platform. An explicit conversion,
// float64(x*y) + z, rounds the product and forbids the fusion.
//
// It sees a product written as an operand of + or - (or on the right of
// += and -=), and a local variable that holds an unguarded product and
// is then added (the compiler fuses across statements). A product
// returned by a function that is inlined into a sum is beyond it: guard
// such a return too.
var Fusion = &analysis.Analyzer{
	Name:       "fusion",
	Doc:        "refuse a float product added or subtracted without a float64() conversion, which the compiler may fuse into an FMA",
	URL:        analyzersURL,
	Requires:   []*analysis.Analyzer{inspect.Analyzer},
	Run:        runFusion,
	ResultType: reflect.TypeFor[*Result](),
}

func runFusion(pass *analysis.Pass) (any, error) {
	ds := collect(pass, "fusion")
	info := pass.TypesInfo
	report := func(n ast.Node, product ast.Expr) {
		if !ds.covers(pass.Fset, n.Pos()) {
			pass.Reportf(n.Pos(), "%s is a float product added or subtracted unguarded: the compiler may fuse it into an FMA on arm64 or GOAMD64=v3 and change the last bit; write float64(%s), or justify with //determinism:fusion <why>",
				types.ExprString(product), types.ExprString(product))
		}
	}
	// held are the local variables whose value is an unguarded product.
	held := map[types.Object]ast.Expr{}
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	in.Preorder([]ast.Node{(*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil)}, func(n ast.Node) {
		var lhs []*ast.Ident
		var rhs []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE && n.Tok != token.ASSIGN {
				return
			}
			for _, l := range n.Lhs {
				id, _ := l.(*ast.Ident)
				lhs = append(lhs, id)
			}
			rhs = n.Rhs
		case *ast.ValueSpec:
			lhs, rhs = n.Names, n.Values
		}
		if len(lhs) != len(rhs) {
			return
		}
		for i, id := range lhs {
			if id == nil {
				continue
			}
			if obj, ok := info.ObjectOf(id).(*types.Var); ok && obj.Parent() != nil && obj.Parent() != obj.Pkg().Scope() && product(info, rhs[i]) {
				held[obj] = rhs[i]
			}
		}
	})
	operand := func(n ast.Node, e ast.Expr) {
		if product(info, e) {
			report(n, ast.Unparen(e))
			return
		}
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if p, ok := held[info.Uses[id]]; ok {
				report(n, ast.Unparen(p))
			}
		}
	}
	in.Preorder([]ast.Node{(*ast.BinaryExpr)(nil), (*ast.AssignStmt)(nil)}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if (n.Op == token.ADD || n.Op == token.SUB) && isFloat(info.TypeOf(n)) {
				operand(n, n.X)
				operand(n, n.Y)
			}
		case *ast.AssignStmt:
			if (n.Tok == token.ADD_ASSIGN || n.Tok == token.SUB_ASSIGN) && isFloat(info.TypeOf(n.Lhs[0])) {
				operand(n, n.Rhs[0])
			}
		}
	})
	return ds.finish(pass), nil
}

// product reports whether e is a float multiplication not wrapped in a
// conversion: (x*y), not float64(x*y).
func product(info *types.Info, e ast.Expr) bool {
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	return ok && b.Op == token.MUL && isFloat(info.TypeOf(b)) && info.Types[b].Value == nil
}

func isFloat(t types.Type) bool {
	b, ok := typeUnder(t).(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}
