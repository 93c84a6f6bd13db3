package determinism

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Prefix starts every justification comment: //determinism:<rule> <why>,
// with no space after the slashes, like //go:build. go/doc treats such a
// line as a directive and leaves it out of the documentation.
const Prefix = "//determinism:"

// Justification is one //determinism:<rule> <why> comment: a written
// reason why code an analyzer would refuse cannot let an order, a clock
// or a platform reach an output. The driver lists every one with its
// count, so the exceptions stay few and visible.
type Justification struct {
	Rule   string // the analyzer's directive name, e.g. "order-free"
	Reason string // the text after the rule
	Pos    token.Position
	Uses   int // findings it covers
}

// directive is a justification and the span of source it covers.
type directive struct {
	Justification
	pos      token.Pos
	from, to token.Pos // the node it covers
	line     int       // or, for a comment inside a body: findings starting on this line
}

// directives are the justifications of one rule in one package.
type directives struct {
	rule string
	list []*directive
}

// collect reads the justifications of rule from the package's files. Its
// scope is, in order of precedence:
//
//   - a comment that is a top-level declaration's doc comment covers the
//     declaration;
//   - a comment at the top level outside any declaration (the file's
//     doc comment included) covers the whole file;
//   - a comment inside a declaration covers what starts on its own line
//     (a trailing comment) or on the line after its comment group.
func collect(pass *analysis.Pass, rule string) *directives {
	ds := &directives{rule: rule}
	for _, f := range pass.Files {
		for _, g := range f.Comments {
			for _, c := range g.List {
				text, ok := strings.CutPrefix(c.Text, Prefix)
				if !ok {
					continue
				}
				name, reason, _ := strings.Cut(text, " ")
				if name != rule {
					continue
				}
				d := &directive{Justification: Justification{Rule: rule, Reason: strings.TrimSpace(reason), Pos: pass.Fset.Position(c.Pos())}, pos: c.Pos()}
				d.scope(pass.Fset, f, g)
				ds.list = append(ds.list, d)
			}
		}
	}
	return ds
}

func (d *directive) scope(fset *token.FileSet, f *ast.File, g *ast.CommentGroup) {
	for _, decl := range f.Decls {
		var doc *ast.CommentGroup
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			doc = decl.Doc
		case *ast.GenDecl:
			doc = decl.Doc
		}
		if doc == g {
			d.from, d.to = decl.Pos(), decl.End()
			return
		}
		if decl.Pos() <= g.Pos() && g.End() <= decl.End() {
			d.line = fset.Position(g.End()).Line + 1
			if fset.Position(g.Pos()).Line == fset.Position(d.pos).Line && lineHasCode(fset, decl, d.pos) {
				d.line = fset.Position(d.pos).Line // a trailing comment
			}
			return
		}
	}
	d.from, d.to = f.FileStart, f.FileEnd
}

// lineHasCode reports whether some node of decl starts on pos's line
// before pos: the comment then trails code.
func lineHasCode(fset *token.FileSet, decl ast.Decl, pos token.Pos) bool {
	line, found := fset.Position(pos).Line, false
	ast.Inspect(decl, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if n.Pos() < pos && fset.Position(n.Pos()).Line == line {
			found = true
		}
		return n.Pos() < pos
	})
	return found
}

// covers reports whether a justification covers a finding at pos, and
// counts the use.
func (ds *directives) covers(fset *token.FileSet, pos token.Pos) bool {
	for _, d := range ds.list {
		if d.Reason == "" {
			continue // reported by finish; it justifies nothing
		}
		if (d.line == 0 && d.from <= pos && pos < d.to) ||
			(d.line != 0 && fset.File(pos) == fset.File(d.pos) && fset.Position(pos).Line == d.line) {
			d.Uses++
			return true
		}
	}
	return false
}

// Result is what an analyzer found acceptable in a package: the
// justified exceptions, and (MapOrder) the ranges over maps it could see
// were order-free, with the shape that showed it.
type Result struct {
	Justified []Justification
	OrderFree []OrderFree
}

// OrderFree is a range over a map that MapOrder accepted by its shape.
type OrderFree struct {
	Pos   token.Position
	Shape string // e.g. "collects into keys, sorted at line 40"
}

// finish reports a justification without a reason and one that covers
// no finding (so a stale one cannot outlive the code it excused), and
// returns the package's justifications in source order (collect reads the
// files in the order go list gives them, sorted by name).
func (ds *directives) finish(pass *analysis.Pass) *Result {
	var out []Justification
	for _, d := range ds.list {
		switch {
		case d.Reason == "":
			pass.Reportf(d.pos, "%s%s needs a reason: %s%s <why this cannot reach an output>", Prefix, ds.rule, Prefix, ds.rule)
		case d.Uses == 0:
			pass.Reportf(d.pos, "%s%s justifies nothing here: no finding of %s is in its scope; remove it", Prefix, ds.rule, ds.rule)
		default:
			out = append(out, d.Justification)
		}
	}
	return &Result{Justified: out}
}
