// Command detcheck runs the determinism analyzers (internal/determinism)
// over the module's packages, each package under the analyzers of its
// area, and prints every finding as file:line:column: [analyzer] message,
// then one summary line with the justified exceptions counted by rule and
// one line for each. It exits 1 when anything is found, 2 when the
// packages cannot be loaded. `make check` runs it:
//
//	go run ./tools/detcheck            # the whole module
//	go run ./tools/detcheck ./sim/...  # some packages
//
// Packages outside every area are loaded but not checked; the summary
// counts them.
package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/chronicle/ladder/internal/determinism"
)

func main() {
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: detcheck [packages] (default ./...)")
		flag.PrintDefaults()
	}
	verbose := flag.Bool("v", false, "also list every range over a map found order-free by its shape, and the shape")
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	os.Exit(run(patterns, *verbose, os.Stdout, os.Stderr))
}

// finding is one diagnostic, placed.
type finding struct {
	pos      string // file:line:column, relative to the working directory
	file     string
	line     int
	col      int
	analyzer string
	message  string
}

func run(patterns []string, verbose bool, stdout, stderr io.Writer) int {
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "detcheck: %v\n", err)
		return 2
	}
	cfg := &packages.Config{Mode: packages.LoadSyntax | packages.NeedModule}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		fmt.Fprintf(stderr, "detcheck: load %s: %v\n", strings.Join(patterns, " "), err)
		return 2
	}
	n := 0
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			fmt.Fprintf(stderr, "%s\n", e)
			n++
		}
	})
	if n > 0 {
		fmt.Fprintf(stderr, "detcheck: %d errors loading the packages\n", n)
		return 2
	}
	// Group the packages by area: each area's analyzers run over its own.
	byArea := map[string][]*packages.Package{}
	var areas []determinism.Area
	outside := 0
	for _, p := range pkgs {
		a, ok := determinism.AreaOf(relPath(p))
		if !ok {
			outside++
			continue
		}
		if _, seen := byArea[a.Pattern]; !seen {
			areas = append(areas, a)
		}
		byArea[a.Pattern] = append(byArea[a.Pattern], p)
	}
	var found []finding
	var justified []determinism.Justification
	var free []determinism.OrderFree
	checked := 0
	for _, a := range areas {
		graph, err := checker.Analyze(a.Analyzers, byArea[a.Pattern], nil)
		if err != nil {
			fmt.Fprintf(stderr, "detcheck: analyze %s: %v\n", a.Pattern, err)
			return 2
		}
		checked += len(byArea[a.Pattern])
		for _, act := range graph.Roots {
			if act.Err != nil {
				fmt.Fprintf(stderr, "detcheck: %s: %v\n", act, act.Err)
				return 2
			}
			for _, d := range act.Diagnostics {
				found = append(found, place(act, d, wd))
			}
			if r, ok := act.Result.(*determinism.Result); ok {
				for _, j := range r.Justified {
					j.Pos.Filename = rel(wd, j.Pos.Filename)
					justified = append(justified, j)
				}
				for _, o := range r.OrderFree {
					o.Pos.Filename = rel(wd, o.Pos.Filename)
					free = append(free, o)
				}
			}
		}
	}
	slices.SortFunc(found, func(x, y finding) int {
		return cmp.Or(cmp.Compare(x.file, y.file), cmp.Compare(x.line, y.line), cmp.Compare(x.col, y.col), cmp.Compare(x.analyzer, y.analyzer))
	})
	found = slices.Compact(found)
	slices.SortFunc(justified, func(x, y determinism.Justification) int {
		return cmp.Or(cmp.Compare(x.Pos.Filename, y.Pos.Filename), cmp.Compare(x.Pos.Line, y.Pos.Line))
	})
	for _, f := range found {
		fmt.Fprintf(stdout, "%s: [%s] %s\n", f.pos, f.analyzer, f.message)
	}
	fmt.Fprintln(stdout, summary(len(found), checked, outside, justified))
	for _, j := range justified {
		fmt.Fprintf(stdout, "  %s:%d %s (%d): %s\n", j.Pos.Filename, j.Pos.Line, j.Rule, j.Uses, j.Reason)
	}
	if verbose {
		slices.SortFunc(free, func(x, y determinism.OrderFree) int {
			return cmp.Or(cmp.Compare(x.Pos.Filename, y.Pos.Filename), cmp.Compare(x.Pos.Line, y.Pos.Line))
		})
		fmt.Fprintf(stdout, "%d ranges over maps found order-free by their shape:\n", len(free))
		for _, o := range free {
			fmt.Fprintf(stdout, "  %s:%d %s\n", o.Pos.Filename, o.Pos.Line, o.Shape)
		}
	}
	if len(found) > 0 {
		return 1
	}
	return 0
}

// summary is the line make check prints: findings, packages and the
// justified exceptions counted by rule.
func summary(findings, checked, outside int, justified []determinism.Justification) string {
	count := map[string]int{}
	var rules []string
	for _, j := range justified {
		if count[j.Rule] == 0 {
			rules = append(rules, j.Rule)
		}
		count[j.Rule]++
	}
	slices.Sort(rules)
	var byRule []string
	for _, r := range rules {
		byRule = append(byRule, fmt.Sprintf("%s %d", r, count[r]))
	}
	ex := "none"
	if len(byRule) > 0 {
		ex = strings.Join(byRule, ", ")
	}
	return fmt.Sprintf("determinism: %d findings in %d packages (%d outside the scope); %d justified exceptions: %s",
		findings, checked, outside, len(justified), ex)
}

// place turns a diagnostic into a finding with a path relative to wd.
func place(act *checker.Action, d analysis.Diagnostic, wd string) finding {
	p := act.Package.Fset.Position(d.Pos)
	file := rel(wd, p.Filename)
	return finding{pos: fmt.Sprintf("%s:%d:%d", file, p.Line, p.Column), file: file, line: p.Line, col: p.Column, analyzer: act.Analyzer.Name, message: d.Message}
}

func rel(wd, path string) string {
	if r, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return path
}

// relPath is a package's path relative to its module ("sim/claims"), or
// its import path when it is in no module.
func relPath(p *packages.Package) string {
	if p.Module == nil {
		return p.PkgPath
	}
	if p.PkgPath == p.Module.Path {
		return "."
	}
	return strings.TrimPrefix(p.PkgPath, p.Module.Path+"/")
}
