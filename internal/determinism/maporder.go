package determinism

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// MapOrder refuses a range over a map whose order can reach anything: an
// output, an id, a roll key, a float sum, a choice. Go randomises a map's
// iteration order on every range, so such a loop is a leak that a rerun
// catches only when the dice show it (a tie broken one way in one world
// in eight passes most reruns).
//
// A range is accepted when the analyzer can see that its order cannot
// matter, by the shape of its body:
//
//   - it collects into a slice that is sorted before anything else reads
//     it (slices.Sort, slices.SortFunc, sort.Strings, sort.Slice, …);
//   - it counts: integer sums (n++, n += e, hist[x]++), |=, &=, ^=, or
//     builtin min and max, each variable kept to one of them;
//   - it writes an entry keyed by the map's own key (out[k] = f(v)),
//     the element itself (v.seen = true), a constant anywhere
//     (found = true, seen[x] = true), or deletes;
//   - it asks a membership question: it returns constants, or breaks,
//     having changed nothing that depends on which element came first.
//
// Everything the body reads must not be something the body writes (a
// counter read into an id is a numbering in map order). A call whose
// result is used is taken to be a read; a call made for its effects (a
// statement), a float sum, a string concatenation, an assignment of an
// element to an outer variable (a choice), an append nothing sorts, a
// send or a goroutine is refused. A range the analyzer cannot see into
// carries //determinism:order-free <why> on the line above, and the
// driver lists every such reason.
//
// Ranges over maps.Keys, maps.Values and maps.All are ranges over the
// map; those iterators are accepted elsewhere only inside slices.Sorted
// or slices.SortedFunc. reflect's MapKeys and MapRange and sync.Map's
// Range have no order either and are refused.
var MapOrder = &analysis.Analyzer{
	Name:       "maporder",
	Doc:        "refuse a range over a map whose iteration order can reach an output, an id, a roll, a sum or a choice",
	URL:        analyzersURL,
	Requires:   []*analysis.Analyzer{inspect.Analyzer},
	Run:        runMapOrder,
	ResultType: reflect.TypeFor[*Result](),
}

func runMapOrder(pass *analysis.Pass) (any, error) {
	ds := collect(pass, "order-free")
	var free []OrderFree
	report := func(pos token.Pos, format string, args ...any) {
		if !ds.covers(pass.Fset, pos) {
			pass.Reportf(pos, format+"; collect the keys and sort them first, or justify it with //determinism:order-free <why>", args...)
		}
	}
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	ranged := map[*ast.CallExpr]bool{} // maps.Keys(m) and the like, ranged over
	in.WithStack([]ast.Node{(*ast.RangeStmt)(nil), (*ast.CallExpr)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		switch n := n.(type) {
		case *ast.RangeStmt:
			if call, ok := ast.Unparen(n.X).(*ast.CallExpr); ok && mapsIterator(pass.TypesInfo, call) != "" {
				ranged[call] = true
			} else if _, ok := typeUnder(pass.TypesInfo.TypeOf(n.X)).(*types.Map); !ok {
				return true
			}
			shape, why := orderReaches(pass, n, stack)
			if why != "" {
				report(n.For, "range over a map: %s", why)
			} else {
				free = append(free, OrderFree{Pos: pass.Fset.Position(n.For), Shape: shape})
			}
		case *ast.CallExpr:
			if ranged[n] {
				return true
			}
			if it := mapsIterator(pass.TypesInfo, n); it != "" {
				switch target, ok := collected(pass.TypesInfo, stack); {
				case sortedArg(pass.TypesInfo, stack):
				case ok && sortedAfter(pass, target, stack[:len(stack)-2]):
					free = append(free, OrderFree{Pos: pass.Fset.Position(n.Pos()), Shape: "collects into " + target.expr + ", sorted before it is read"})
				default:
					report(n.Pos(), "%s yields a map's entries in no order and nothing here sorts them (use slices.Sorted or slices.SortedFunc)", it)
				}
			}
			if fn := calleeName(pass.TypesInfo, n); fn == "reflect.Value.MapKeys" || fn == "reflect.Value.MapRange" || fn == "(*sync.Map).Range" {
				report(n.Pos(), "%s visits a map in no order", fn)
			}
		}
		return true
	})
	r := ds.finish(pass)
	r.OrderFree = free
	return r, nil
}

// collected returns the variable a maps iterator on top of stack is
// collected into by x := slices.Collect(it) or x = slices.Collect(it),
// with the assignment on top of the stack it returns.
func collected(info *types.Info, stack []ast.Node) (appendTarget, bool) {
	if len(stack) < 3 {
		return appendTarget{}, false
	}
	call, ok := stack[len(stack)-2].(*ast.CallExpr)
	if !ok || calleeName(info, call) != "slices.Collect" {
		return appendTarget{}, false
	}
	as, ok := stack[len(stack)-3].(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Rhs[0] != call {
		return appendTarget{}, false
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return appendTarget{}, false
	}
	return appendTarget{expr: id.Name, obj: info.ObjectOf(id)}, true
}

// mapsIterator names the maps function that call is (maps.Keys,
// maps.Values, maps.All), "" for any other call.
func mapsIterator(info *types.Info, call *ast.CallExpr) string {
	switch name := calleeName(info, call); name {
	case "maps.Keys", "maps.Values", "maps.All":
		return name
	}
	return ""
}

// sortedArg reports whether the call on top of stack is the argument of
// slices.Sorted or slices.SortedFunc, which give its entries an order.
func sortedArg(info *types.Info, stack []ast.Node) bool {
	if len(stack) < 2 {
		return false
	}
	parent, ok := stack[len(stack)-2].(*ast.CallExpr)
	if !ok {
		return false
	}
	switch calleeName(info, parent) {
	case "slices.Sorted", "slices.SortedFunc", "slices.SortedStableFunc":
		return len(parent.Args) > 0 && parent.Args[0] == stack[len(stack)-1]
	}
	return false
}

// calleeName is a call's function as package.Name, package.Type.Method
// or (*package.Type).Method; "" for a builtin, a conversion or a value.
func calleeName(info *types.Info, call *ast.CallExpr) string {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return ""
	}
	sig := fn.Signature()
	if recv := sig.Recv(); recv != nil {
		t := recv.Type()
		ptr := ""
		if p, ok := t.(*types.Pointer); ok {
			t, ptr = p.Elem(), "*"
		}
		named, ok := t.(*types.Named)
		if !ok {
			return ""
		}
		if ptr != "" {
			return fmt.Sprintf("(*%s.%s).%s", fn.Pkg().Path(), named.Obj().Name(), fn.Name())
		}
		return fmt.Sprintf("%s.%s.%s", fn.Pkg().Path(), named.Obj().Name(), fn.Name())
	}
	return fn.Pkg().Path() + "." + fn.Name()
}

func typeUnder(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}

// orderReaches returns what the order of the range over a map at the top
// of stack can reach, "" when the body's shape shows it reaches nothing;
// then shape says what that shape is.
func orderReaches(pass *analysis.Pass, loop *ast.RangeStmt, stack []ast.Node) (shape, why string) {
	b := &body{pass: pass, loop: loop, consts: map[string]string{}, family: map[string]string{}, written: map[types.Object]bool{}}
	b.key, b.value = b.object(loop.Key), b.object(loop.Value)
	b.writes(loop.Body)
	b.stmts(loop.Body.List, 0)
	switch {
	case b.why != "":
		return "", b.why
	case b.exits != "" && b.effects != "":
		return "", fmt.Sprintf("it stops early (%s) after %s: what changed before it depends on which elements came first", b.exits, b.effects)
	}
	for _, a := range b.appended {
		if !sortedAfter(pass, a, stack) {
			return "", fmt.Sprintf("it appends to %s in map order and nothing sorts %s before it is read", a.expr, a.expr)
		}
		b.did("collects into " + a.expr + ", sorted before it is read")
	}
	if b.exits != "" {
		b.did("stops early having changed nothing (" + b.exits + ")")
	}
	if len(b.shape) == 0 {
		return "reads only", ""
	}
	return strings.Join(b.shape, "; "), ""
}

// body is what a map range's body does to the state outside it.
type body struct {
	pass       *analysis.Pass
	loop       *ast.RangeStmt
	key, value types.Object
	why        string                // the first thing the order reaches, "" while none
	exits      string                // "break" or "return" when the body stops the loop early
	effects    string                // the first write that depends on which elements were visited
	consts     map[string]string     // outer targets set to a constant: their constant
	family     map[string]string     // outer counters, as written: "sum", "or", "and", "xor", "min", "max"
	written    map[types.Object]bool // outer variables the body writes
	appended   []appendTarget        // outer slices it appends to
	shape      []string              // what it does that was found order-free
}

// did notes one order-free thing the body does, once.
func (b *body) did(what string) {
	if !slices.Contains(b.shape, what) {
		b.shape = append(b.shape, what)
	}
}

// appendTarget is an outer slice a map range appends to: it must be
// sorted before it is read.
type appendTarget struct {
	expr string       // as written: keys, out.list
	obj  types.Object // the variable it belongs to
}

func (b *body) object(e ast.Expr) types.Object {
	if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
		return b.pass.TypesInfo.ObjectOf(id)
	}
	return nil
}

// inner reports whether obj is declared inside the loop (the range's own
// variables included): fresh on every iteration.
func (b *body) inner(obj types.Object) bool {
	return obj != nil && b.loop.Pos() <= obj.Pos() && obj.Pos() < b.loop.End()
}

// root is the variable an lvalue or operand is part of: x for x, x.f,
// x[i], *x, x.f[i].g; nil for anything else (a call's result).
func (b *body) root(e ast.Expr) types.Object {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return b.pass.TypesInfo.ObjectOf(x)
		case *ast.SelectorExpr:
			if _, ok := b.pass.TypesInfo.Selections[x]; !ok {
				return b.pass.TypesInfo.ObjectOf(x.Sel) // a package-level name
			}
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// writes notes every variable through which the body assigns state
// outside it, so that reading one anywhere in the body can be refused:
// its value then depends on the elements visited before.
func (b *body) writes(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		var lhs []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				lhs = n.Lhs
			}
		case *ast.IncDecStmt:
			lhs = []ast.Expr{n.X}
		}
		for _, l := range lhs {
			// An outer variable, or one of this iteration through which
			// shared storage is reached (g := groups[k]; g.n++).
			if obj := b.root(l); obj != nil && (!b.inner(obj) || (obj != b.key && obj != b.value && !b.local(l, obj))) {
				b.written[obj] = true
			}
		}
		return true
	})
}

func (b *body) refuse(format string, args ...any) {
	if b.why == "" {
		b.why = fmt.Sprintf(format, args...)
	}
}

func (b *body) effect(what string) {
	if b.effects == "" {
		b.effects = what
	}
}

func (b *body) line(n ast.Node) int { return b.pass.Fset.Position(n.Pos()).Line }

// stmts checks a list of statements; depth counts the for, switch and
// select statements between them and the loop, which an unlabelled break
// leaves instead of the loop.
func (b *body) stmts(list []ast.Stmt, depth int) {
	for _, s := range list {
		b.stmt(s, depth)
	}
}

func (b *body) stmt(s ast.Stmt, depth int) {
	switch s := s.(type) {
	case nil, *ast.EmptyStmt:
	case *ast.BlockStmt:
		b.stmts(s.List, depth)
	case *ast.LabeledStmt:
		b.stmt(s.Stmt, depth)
	case *ast.DeclStmt:
		b.read(s)
	case *ast.IfStmt:
		if b.lazyInit(s) {
			return
		}
		b.stmt(s.Init, depth)
		b.read(s.Cond)
		b.stmt(s.Body, depth)
		b.stmt(s.Else, depth)
	case *ast.SwitchStmt:
		b.stmt(s.Init, depth)
		if s.Tag != nil {
			b.read(s.Tag)
		}
		b.clauses(s.Body, depth+1)
	case *ast.TypeSwitchStmt:
		b.stmt(s.Init, depth)
		b.stmt(s.Assign, depth)
		b.clauses(s.Body, depth+1)
	case *ast.ForStmt:
		b.stmt(s.Init, depth+1)
		if s.Cond != nil {
			b.read(s.Cond)
		}
		b.stmt(s.Post, depth+1)
		b.stmt(s.Body, depth+1)
	case *ast.RangeStmt:
		b.read(s.X)
		b.stmt(s.Body, depth+1)
	case *ast.BranchStmt:
		switch {
		case s.Tok == token.CONTINUE && s.Label == nil, s.Tok == token.FALLTHROUGH:
		case s.Tok == token.BREAK && s.Label == nil && depth > 0:
		case s.Tok == token.BREAK && s.Label == nil:
			b.exit("break", s)
		default:
			b.refuse("it leaves the loop by %s %s at line %d", s.Tok, s.Label, b.line(s))
		}
	case *ast.ReturnStmt:
		for _, r := range s.Results {
			if b.mentionsElement(r) {
				b.refuse("it returns an element at line %d: which one is returned depends on the order (a choice)", b.line(s))
				return
			}
			b.read(r)
		}
		b.exit("return", s)
	case *ast.ExprStmt:
		b.call(s)
	case *ast.IncDecStmt:
		b.accumulate(s.X, token.ADD_ASSIGN, s)
	case *ast.AssignStmt:
		b.assign(s)
	default:
		b.refuse("it runs a %s at line %d in map order", kindOf(s), b.line(s))
	}
}

// lazyInit reports whether s is if x == nil { x = <new value> }: the
// same on every iteration, whichever comes first.
func (b *body) lazyInit(s *ast.IfStmt) bool {
	cond, ok := ast.Unparen(s.Cond).(*ast.BinaryExpr)
	if s.Init != nil || s.Else != nil || !ok || cond.Op != token.EQL || len(s.Body.List) != 1 {
		return false
	}
	if tv, ok := b.pass.TypesInfo.Types[cond.Y]; !ok || !tv.IsNil() {
		return false
	}
	as, ok := s.Body.List[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || types.ExprString(as.Lhs[0]) != types.ExprString(cond.X) {
		return false
	}
	switch r := ast.Unparen(as.Rhs[0]).(type) {
	case *ast.CompositeLit:
		return len(r.Elts) == 0
	case *ast.CallExpr:
		id, ok := ast.Unparen(r.Fun).(*ast.Ident)
		if !ok {
			return false
		}
		bi, ok := b.pass.TypesInfo.ObjectOf(id).(*types.Builtin)
		return ok && (bi.Name() == "make" || bi.Name() == "new") && !b.mentionsElement(r)
	}
	return false
}

func (b *body) clauses(body *ast.BlockStmt, depth int) {
	for _, c := range body.List {
		switch c := c.(type) {
		case *ast.CaseClause:
			for _, e := range c.List {
				b.read(e)
			}
			b.stmts(c.Body, depth)
		default:
			b.refuse("it selects at line %d in map order", b.line(c))
		}
	}
}

func (b *body) exit(how string, s ast.Node) {
	if b.exits == "" {
		b.exits = fmt.Sprintf("%s at line %d", how, b.line(s))
	}
}

// call checks a call made for its effects: only delete and a panic that
// names no element are order-free.
func (b *body) call(s *ast.ExprStmt) {
	call, ok := ast.Unparen(s.X).(*ast.CallExpr)
	if !ok {
		b.refuse("it evaluates %s at line %d in map order", kindOf(s.X), b.line(s))
		return
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if bi, ok := b.pass.TypesInfo.ObjectOf(id).(*types.Builtin); ok {
			switch bi.Name() {
			case "delete":
				for _, a := range call.Args {
					b.read(a)
				}
				b.effect(fmt.Sprintf("a delete at line %d", b.line(s)))
				b.did("deletes")
				return
			case "panic":
				if len(call.Args) == 1 && b.mentionsElement(call.Args[0]) {
					b.refuse("it panics naming an element at line %d: which one is named depends on the order", b.line(s))
					return
				}
				b.read(call.Args[0])
				b.exit("panic", s)
				return
			}
		}
	}
	if sortFunc[calleeName(b.pass.TypesInfo, call)] && len(call.Args) > 0 {
		if obj := b.root(call.Args[0]); obj != nil && (obj == b.key || obj == b.value) {
			for _, a := range call.Args[1:] {
				b.read(a)
			}
			b.effect(fmt.Sprintf("a sort of %s at line %d", types.ExprString(call.Args[0]), b.line(s)))
			b.did("sorts each element's own " + types.ExprString(call.Args[0]))
			return
		}
	}
	b.refuse("it calls %s at line %d for each element, in map order", types.ExprString(call.Fun), b.line(s))
}

// sortFunc are the functions that sort a slice in place, by name.
var sortFunc = map[string]bool{
	"slices.Sort": true, "slices.SortFunc": true, "slices.SortStableFunc": true, "sort.Strings": true, "sort.Ints": true,
	"sort.Float64s": true, "sort.Slice": true, "sort.SliceStable": true, "sort.Sort": true, "sort.Stable": true,
}

// assign checks an assignment (or a definition, whose variables are
// fresh each iteration).
func (b *body) assign(s *ast.AssignStmt) {
	switch {
	case s.Tok == token.DEFINE:
		for _, r := range s.Rhs {
			b.read(r)
		}
	case s.Tok != token.ASSIGN:
		b.read(s.Rhs[0])
		b.accumulate(s.Lhs[0], s.Tok, s)
	case len(s.Rhs) != len(s.Lhs):
		b.read(s.Rhs[0])
		for _, l := range s.Lhs {
			b.store(l, nil, s)
		}
	default:
		for i, l := range s.Lhs {
			b.store(l, s.Rhs[i], s)
		}
	}
}

// store checks one target of an assignment; r is its value, nil when a
// call assigns several at once (and was read).
func (b *body) store(l, r ast.Expr, s ast.Stmt) {
	if id, ok := ast.Unparen(l).(*ast.Ident); ok && id.Name == "_" {
		b.read(r)
		return
	}
	obj := b.root(l)
	target := types.ExprString(l)
	if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
		b.read(ix.Index)
	}
	switch {
	case obj == nil:
		b.refuse("it assigns %s at line %d in map order", target, b.line(s))
	case b.local(l, obj):
		b.read(r) // a variable of this iteration
	case obj == b.value || obj == b.key:
		b.read(r)
		if _, ok := ast.Unparen(l).(*ast.Ident); !ok {
			b.effect(fmt.Sprintf("a write to %s at line %d", target, b.line(s)))
			b.did("writes each element's own " + target)
		}
	case r != nil && b.constant(r):
		v := types.ExprString(r)
		if c, ok := b.consts[target]; ok && c != v {
			b.refuse("it sets %s to %s and to %s: which stays depends on the order", target, c, v)
			return
		}
		b.consts[target] = v
		if _, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
			b.effect(fmt.Sprintf("a write to %s at line %d", target, b.line(s)))
		}
		b.did("sets " + target + " to " + v)
	case r != nil && b.selfCall(l, r, "append"):
		if !slices.ContainsFunc(b.appended, func(a appendTarget) bool { return a.expr == target }) {
			b.appended = append(b.appended, appendTarget{expr: target, obj: obj})
		}
		b.effect(fmt.Sprintf("an append to %s at line %d", target, b.line(s)))
	case r != nil && (b.selfCall(l, r, "min") || b.selfCall(l, r, "max")):
		fn := types.ExprString(ast.Unparen(r).(*ast.CallExpr).Fun)
		b.family1(target, fn, s)
		b.did("keeps the " + fn + " in " + target)
	default:
		b.read(r)
		if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok && b.keyedByElement(ix) {
			b.effect(fmt.Sprintf("a write to %s at line %d", target, b.line(s)))
			b.did("writes " + target + ", one entry per element")
			return
		}
		b.refuse("it assigns %s from the elements at line %d: which element's value stays depends on the order (a choice)", target, b.line(s))
	}
}

// keyedByElement reports whether an indexed target is keyed by the
// map's key, so that distinct elements write distinct entries: the key
// itself, a string made by adding loop-invariant strings to it, or a
// composite value holding it. A slice or array indexed by anything the
// iteration gives is taken to be (an element's own number).
func (b *body) keyedByElement(ix *ast.IndexExpr) bool {
	if _, ok := typeUnder(b.pass.TypesInfo.TypeOf(ix.X)).(*types.Map); ok {
		return b.holdsKey(ix.Index)
	}
	return b.mentionsElement(ix.Index)
}

// holdsKey reports whether e is the range's key or an injective
// function of it (with the rest invariant across the loop).
func (b *body) holdsKey(e ast.Expr) bool {
	if b.key == nil {
		return false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return b.pass.TypesInfo.Uses[x] == b.key
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return false
		}
		if t, ok := typeUnder(b.pass.TypesInfo.TypeOf(x)).(*types.Basic); !ok || t.Info()&types.IsString == 0 {
			return false
		}
		return b.holdsKey(x.X) && !b.mentionsElement(x.Y) || b.holdsKey(x.Y) && !b.mentionsElement(x.X)
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			if b.holdsKey(el) {
				return true
			}
		}
	}
	return false
}

// selfCall reports whether r is fn(l, …), the builtin, with l the
// target itself (an append to it, a running min or max), and reads its
// other arguments.
func (b *body) selfCall(l, r ast.Expr, fn string) bool {
	call, ok := ast.Unparen(r).(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	if bi, ok := b.pass.TypesInfo.ObjectOf(id).(*types.Builtin); !ok || bi.Name() != fn {
		return false
	}
	if types.ExprString(call.Args[0]) != types.ExprString(l) {
		return false
	}
	for _, a := range call.Args[1:] {
		b.read(a)
	}
	return true
}

// accumulate checks x op= e and x++: commutative integer arithmetic, one
// kind per variable, is order-free; a float or a string is not.
func (b *body) accumulate(x ast.Expr, op token.Token, s ast.Stmt) {
	obj := b.root(x)
	if obj == nil {
		b.refuse("it updates %s at line %d in map order", types.ExprString(x), b.line(s))
		return
	}
	if b.local(x, obj) {
		return
	}
	t := typeUnder(b.pass.TypesInfo.TypeOf(x))
	basic, ok := t.(*types.Basic)
	switch {
	case ok && basic.Info()&types.IsFloat != 0:
		b.refuse("it sums floats into %s at line %d: a float sum depends on the order it is taken in", types.ExprString(x), b.line(s))
	case ok && basic.Info()&types.IsString != 0:
		b.refuse("it concatenates onto %s at line %d in map order", types.ExprString(x), b.line(s))
	case !ok || basic.Info()&types.IsInteger == 0:
		b.refuse("it updates %s at line %d in map order", types.ExprString(x), b.line(s))
	default:
		family := map[token.Token]string{token.ADD_ASSIGN: "sum", token.SUB_ASSIGN: "sum", token.OR_ASSIGN: "or", token.AND_ASSIGN: "and", token.XOR_ASSIGN: "xor"}[op]
		if family == "" {
			b.refuse("it applies %s to %s at line %d in map order", op, types.ExprString(x), b.line(s))
			return
		}
		if _, ok := ast.Unparen(x).(*ast.Ident); !ok && obj != b.key && obj != b.value {
			// A count kept in an entry or field of an outer value.
			if ix, ok := ast.Unparen(x).(*ast.IndexExpr); ok {
				b.read(ix.Index)
			}
		}
		b.family1(types.ExprString(x), family, s)
		b.effect(fmt.Sprintf("a count in %s at line %d", types.ExprString(x), b.line(s)))
		b.did("counts into " + types.ExprString(x))
	}
}

// family1 keeps each outer counter to one commutative operation.
func (b *body) family1(target, family string, s ast.Stmt) {
	if f, ok := b.family[target]; ok && f != family {
		b.refuse("it updates %s both by %s and by %s at line %d: the result depends on the order", target, f, family, b.line(s))
		return
	}
	b.family[target] = family
}

// local reports whether target, rooted at obj, is storage of this
// iteration alone: a variable declared in the body, or a part of one
// reached without a pointer, map, slice or interface (a pointer got in
// the body may point at what another iteration writes, and is held to
// the rules of outer state).
func (b *body) local(target ast.Expr, obj types.Object) bool {
	if !b.inner(obj) || obj == b.key || obj == b.value {
		return false
	}
	for e := ast.Unparen(target); ; {
		var inner ast.Expr
		switch x := e.(type) {
		case *ast.Ident:
			return true
		case *ast.SelectorExpr:
			inner = x.X
		case *ast.IndexExpr:
			inner = x.X
		case *ast.StarExpr:
			return false
		default:
			return false
		}
		switch typeUnder(b.pass.TypesInfo.TypeOf(inner)).(type) {
		case *types.Pointer, *types.Map, *types.Slice, *types.Interface:
			return false
		}
		e = ast.Unparen(inner)
	}
}

// read refuses an expression that reads an outer variable the body
// writes (its value is then the running result of the elements visited
// so far) or receives from a channel.
func (b *body) read(n ast.Node) {
	if n == nil {
		return
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if obj := b.pass.TypesInfo.Uses[n]; obj != nil && b.written[obj] {
				b.refuse("it reads %s at line %d, which it also writes: the value read depends on the elements visited before", n.Name, b.line(n))
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				b.refuse("it receives from a channel at line %d in map order", b.line(n))
			}
		case *ast.FuncLit:
			return false
		}
		return true
	})
}

// constant reports whether e is a constant (true, 0, "x", nil, a named
// constant): setting an outer variable to one is idempotent.
func (b *body) constant(e ast.Expr) bool {
	if tv, ok := b.pass.TypesInfo.Types[e]; ok && (tv.Value != nil || tv.IsNil()) {
		return true
	}
	return false
}

// mentionsElement reports whether e uses the range's key or value, or a
// variable of the iteration (which is, near enough always, made from
// them).
func (b *body) mentionsElement(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := b.pass.TypesInfo.Uses[id]; b.inner(obj) {
				found = true
			}
		}
		return !found
	})
	return found
}

func kindOf(n ast.Node) string {
	switch n.(type) {
	case *ast.GoStmt:
		return "go statement"
	case *ast.DeferStmt:
		return "defer"
	case *ast.SendStmt:
		return "send"
	case *ast.SelectStmt:
		return "select"
	}
	return fmt.Sprintf("%T", n)
}

// sortedAfter reports whether the first statement after the node on top
// of stack that reads an appended slice's variable sorts that slice,
// looking past the end of each enclosing block to the statements after
// it (a loop over a list of maps sorts once, after the outer loop). A
// statement that only appends more to the slice (x = append(x, …), the
// next range over a map) is not a read.
func sortedAfter(pass *analysis.Pass, a appendTarget, stack []ast.Node) bool {
	for i := len(stack) - 1; i > 0; i-- {
		var list []ast.Stmt
		switch p := stack[i-1].(type) {
		case *ast.BlockStmt:
			list = p.List
		case *ast.CaseClause:
			list = p.Body
		case *ast.CommClause:
			list = p.Body
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		default:
			continue
		}
		at := slices.IndexFunc(list, func(s ast.Stmt) bool { return s == stack[i] })
		for _, s := range list[at+1:] {
			if reads(pass.TypesInfo, s, a) {
				return sorts(pass.TypesInfo, s, a.expr)
			}
		}
	}
	return false
}

// reads reports whether n uses an appended slice's variable other than
// to append to it.
func reads(info *types.Info, n ast.Node, a appendTarget) bool {
	all, appends := 0, 0
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if info.Uses[n] == a.obj {
				all++
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 && types.ExprString(n.Lhs[0]) == a.expr {
				if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && len(call.Args) > 0 && types.ExprString(call.Args[0]) == a.expr {
					if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "append" {
						appends += 2 // the target and append's first argument
					}
				}
			}
		}
		return true
	})
	return all > appends
}

// sorts reports whether s sorts the slice written target.
func sorts(info *types.Info, s ast.Stmt, target string) bool {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return false
	}
	if !sortFunc[calleeName(info, call)] {
		return false
	}
	arg := ast.Unparen(call.Args[0])
	if conv, ok := arg.(*ast.CallExpr); ok && len(conv.Args) == 1 {
		if tv, ok := info.Types[conv.Fun]; ok && tv.IsType() {
			arg = ast.Unparen(conv.Args[0]) // sort.Sort(byName(list))
		}
	}
	return types.ExprString(arg) == target
}
