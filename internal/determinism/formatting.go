package determinism

import (
	"go/ast"
	"go/constant"
	"go/types"
	"reflect"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Formatting refuses formatting an address or a map with the fmt family:
// %p, and any verb applied to a map, a channel, a function, an
// unsafe.Pointer or a pointer to anything but a struct — all of which fmt
// writes as a memory address, or (a map) in an order that is fmt's
// choice, not the contract's. An address differs on every run; what a
// run writes (a trace field, an id, an error a rung compares) must be
// spelt from values.
var Formatting = &analysis.Analyzer{
	Name:       "formatting",
	Doc:        "refuse %p and formatting a map, channel, function or pointer with the fmt functions",
	URL:        analyzersURL,
	Requires:   []*analysis.Analyzer{inspect.Analyzer},
	Run:        runFormatting,
	ResultType: reflect.TypeFor[*Result](),
}

// printers are the fmt functions, by name, and the index of their format
// argument (-1 for those that format their operands with %v).
var printers = map[string]int{
	"fmt.Printf": 0, "fmt.Sprintf": 0, "fmt.Errorf": 0, "fmt.Fprintf": 1, "fmt.Appendf": 1,
	"fmt.Print": -1, "fmt.Sprint": -1, "fmt.Println": -1, "fmt.Sprintln": -1,
	"fmt.Fprint": -1, "fmt.Fprintln": -1, "fmt.Append": -1, "fmt.Appendln": -1,
}

func runFormatting(pass *analysis.Pass) (any, error) {
	ds := collect(pass, "formatting")
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	in.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
		call := n.(*ast.CallExpr)
		name := calleeName(pass.TypesInfo, call)
		at, ok := printers[name]
		if !ok || call.Ellipsis.IsValid() {
			return
		}
		report := func(arg ast.Expr, format string, args ...any) {
			if !ds.covers(pass.Fset, arg.Pos()) {
				pass.Reportf(arg.Pos(), format+"; spell it from values, or justify with //determinism:formatting <why>", args...)
			}
		}
		first := 0
		var verbs map[int]rune // operand index → its verb
		switch {
		case at < 0:
		case at >= len(call.Args):
			return
		default:
			first = at + 1
			if tv := pass.TypesInfo.Types[call.Args[at]]; tv.Value != nil && tv.Value.Kind() == constant.String {
				verbs = formatVerbs(constant.StringVal(tv.Value))
			}
		}
		for i, arg := range call.Args[first:] {
			verb, known := verbs[i]
			if at >= 0 && !known {
				verb = 'v' // a format that is not a constant: judge by the operand alone
			}
			if verb == 'p' {
				report(arg, "%s formats %s with %%p, a memory address", name, types.ExprString(arg))
				continue
			}
			if verb == 'T' {
				continue
			}
			if what := addressLike(pass.TypesInfo.TypeOf(arg)); what != "" {
				report(arg, "%s formats %s, %s", name, types.ExprString(arg), what)
			}
		}
	})
	return ds.finish(pass), nil
}

// addressLike says how fmt writes a value of type t when that is not
// fixed by the value: "" for everything else. A type with a String or
// Error method formats itself.
func addressLike(t types.Type) string {
	if t == nil || types.Implements(t, stringer) || types.Implements(t, errorType) {
		return ""
	}
	switch u := t.Underlying().(type) {
	case *types.Map:
		return "a map (fmt chooses the order of its entries, and writes pointer keys as addresses)"
	case *types.Chan:
		return "a channel (fmt writes its address)"
	case *types.Signature:
		return "a function (fmt writes its address)"
	case *types.Pointer:
		if _, ok := u.Elem().Underlying().(*types.Struct); !ok {
			return "a pointer (fmt writes its address)"
		}
	case *types.Basic:
		if u.Kind() == types.UnsafePointer {
			return "an unsafe.Pointer (fmt writes its address)"
		}
	}
	return ""
}

var (
	errorType = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	stringer  = types.NewInterfaceType([]*types.Func{
		types.NewFunc(0, nil, "String", types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(0, nil, "", types.Typ[types.String])), false)),
	}, nil).Complete()
)

// formatVerbs maps each operand a format consumes (counted from 0 after
// the format) to its verb; a * width or precision consumes an operand as
// '*'. Explicit indexes ([n]) are followed as fmt follows them.
func formatVerbs(format string) map[int]rune {
	out := map[int]rune{}
	arg := 0
	index := func(s string) (string, bool) {
		// [n] sets the next operand to n-1.
		if !strings.HasPrefix(s, "[") {
			return s, false
		}
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return s, false
		}
		n := 0
		for _, c := range s[1:end] {
			if c < '0' || c > '9' {
				return s, false
			}
			n = n*10 + int(c-'0')
		}
		arg = n - 1
		return s[end+1:], true
	}
	for s := format; ; {
		i := strings.IndexByte(s, '%')
		if i < 0 || i+1 >= len(s) {
			return out
		}
		s = s[i+1:]
		if s[0] == '%' {
			s = s[1:]
			continue
		}
		s = strings.TrimLeft(s, "+-# 0")
		s, _ = index(s)
		if strings.HasPrefix(s, "*") {
			out[arg], arg, s = '*', arg+1, s[1:]
		} else {
			s = strings.TrimLeft(s, "0123456789")
		}
		if strings.HasPrefix(s, ".") {
			s, _ = index(s[1:])
			if strings.HasPrefix(s, "*") {
				out[arg], arg, s = '*', arg+1, s[1:]
			} else {
				s = strings.TrimLeft(s, "0123456789")
			}
		}
		s, _ = index(s)
		if s == "" {
			return out
		}
		verb, size := utf8.DecodeRuneInString(s)
		out[arg], arg, s = verb, arg+1, s[size:]
	}
}
