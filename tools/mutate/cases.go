package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Go's coverage blocks are statement lists: a switch clause's block starts
// after the colon of its `case`, so the case expression itself lies in no
// block, and gremlins, which only tries a mutant inside a block some test
// ran, reports every mutant of a case expression as not covered and never
// tries it. A switch evaluates its case expressions in order until one
// holds, so a case expression was evaluated when its own body ran, when a
// later case's body ran, or when the default's did; and every case was
// evaluated when the switch ran more often than all its bodies together
// (a switch with no default that fell through every case, as a guard
// clause's refusals do on every call that passes them). coverCases adds,
// for every case clause so evaluated, a block from the start of its `case`
// line to the start of its body, with the most runs it can be sure of.
// (Where the profile cannot tell — a mode that only says whether a block
// ran, with some body run — a case stays not covered: erring toward fewer
// mutants tried, never toward a mutant wrongly counted.)

// coverCases rewrites a text coverage profile (one "file:L.C,L.C stmts
// count" per block after the mode line) with those blocks added, after the
// profile's own. lines returns the lines of a profile file name (an
// import path).
func coverCases(profile []byte, lines func(file string) ([]string, error)) ([]byte, error) {
	var out bytes.Buffer
	type start struct{ line, col int }
	type block struct {
		from, to start
		count    int64
	}
	ran := map[string]map[start]int64{} // file → block start → count, for blocks that ran
	blocks := map[string][]block{}      // file → the blocks that ran
	var files []string
	sc := bufio.NewScanner(bytes.NewReader(profile))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		out.WriteString(line)
		out.WriteByte('\n')
		if n == 1 || line == "" {
			continue
		}
		file, startLine, startCol, endLine, endCol, count, err := parseBlock(line)
		if err != nil {
			return nil, fmt.Errorf("profile line %d: %w", n, err)
		}
		if count == 0 {
			continue
		}
		if ran[file] == nil {
			ran[file] = map[start]int64{}
			files = append(files, file)
		}
		b := start{startLine, startCol}
		ran[file][b] = max(ran[file][b], count)
		blocks[file] = append(blocks[file], block{b, start{endLine, endCol}, count})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, file := range files {
		src, err := lines(file)
		if err != nil {
			return nil, err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, strings.Join(src, "\n"), parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		for b := range ran[file] {
			if b.line < 1 || b.line > len(src) || b.col < 1 || b.col-1 > len(src[b.line-1]) {
				return nil, fmt.Errorf("block %d.%d is outside %s", b.line, b.col, file)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var body *ast.BlockStmt
			switch s := n.(type) {
			case *ast.SwitchStmt:
				body = s.Body
			case *ast.TypeSwitchStmt:
				body = s.Body
			default:
				return true
			}
			// bodyRan is how often a clause's body ran: the count of the
			// block that starts just after its colon.
			bodyRan := func(c *ast.CaseClause) int64 {
				p := fset.Position(c.Colon)
				return ran[file][start{p.Line, p.Column + 1}]
			}
			var dflt, bodies int64
			for _, st := range body.List {
				c := st.(*ast.CaseClause)
				if c.List == nil {
					dflt = bodyRan(c)
				}
				bodies += bodyRan(c)
			}
			// The switch ran as often as the block holding its keyword;
			// what its bodies do not account for fell through every case.
			sw := fset.Position(n.Pos())
			at := start{sw.Line, sw.Column}
			var reached int64
			for _, b := range blocks[file] {
				if !before(at, b.from) && before(at, b.to) {
					reached = max(reached, b.count)
				}
			}
			fellThrough := max(reached-bodies, 0)
			later := max(dflt, fellThrough) // the most any body after this clause, the default, or a fall-through ran
			for i := len(body.List) - 1; i >= 0; i-- {
				c := body.List[i].(*ast.CaseClause)
				if c.List == nil {
					continue
				}
				later = max(later, bodyRan(c))
				if later == 0 {
					continue
				}
				from, colon := fset.Position(c.Case), fset.Position(c.Colon)
				fmt.Fprintf(&out, "%s:%d.1,%d.%d 0 %d\n", file, from.Line, colon.Line, colon.Column+1, later)
			}
			return true
		})
	}
	return out.Bytes(), nil
}

// parseBlock reads "file:L.C,L.C stmts count".
func parseBlock(line string) (file string, startLine, startCol, endLine, endCol int, count int64, err error) {
	bad := func(err error) (string, int, int, int, int, int64, error) {
		if err != nil {
			return "", 0, 0, 0, 0, 0, fmt.Errorf("not a block: %q: %w", line, err)
		}
		return "", 0, 0, 0, 0, 0, fmt.Errorf("not a block: %q", line)
	}
	colon := strings.LastIndexByte(line, ':')
	fields := strings.Fields(line[colon+1:])
	if colon < 0 || len(fields) != 3 {
		return bad(nil)
	}
	from, to, ok := strings.Cut(fields[0], ",")
	if !ok {
		return bad(nil)
	}
	pos := func(s string) (int, int, error) {
		l, c, ok := strings.Cut(s, ".")
		if !ok {
			return 0, 0, fmt.Errorf("no column in %q", s)
		}
		ln, errL := strconv.Atoi(l)
		col, errC := strconv.Atoi(c)
		return ln, col, errors.Join(errL, errC)
	}
	if startLine, startCol, err = pos(from); err != nil {
		return bad(err)
	}
	if endLine, endCol, err = pos(to); err != nil {
		return bad(err)
	}
	if count, err = strconv.ParseInt(fields[2], 10, 64); err != nil {
		return bad(err)
	}
	return line[:colon], startLine, startCol, endLine, endCol, count, nil
}

// coverCasesFile is the wrapper's `cover-cases <profile> <module root>`:
// it rewrites the profile in place (a temporary file, then a rename),
// reading sources under the module root.
func coverCasesFile(profile, root string) error {
	mod, err := modulePath(root)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(profile)
	if err != nil {
		return err
	}
	cache := map[string][]string{}
	out, err := coverCases(b, func(file string) ([]string, error) {
		if src, ok := cache[file]; ok {
			return src, nil
		}
		rel, ok := strings.CutPrefix(file, mod+"/")
		if !ok {
			return nil, fmt.Errorf("%s is not in module %s", file, mod)
		}
		src, err := readLines(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		cache[file] = src
		return src, nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", profile, err)
	}
	tmp := profile + ".cases"
	if err := os.WriteFile(tmp, out, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, profile)
}

// modulePath reads the module path from root's go.mod.
func modulePath(root string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if p, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
			return strings.Trim(strings.TrimSpace(p), `"`), nil
		}
	}
	return "", fmt.Errorf("%s/go.mod: no module line", root)
}

// before reports whether position a comes before b in its file.
func before(a, b struct{ line, col int }) bool {
	return a.line < b.line || a.line == b.line && a.col < b.col
}
