// Command mutate measures how much of the engine the test suite guards:
// it runs gremlins (a mutation tool, pinned in go.mod as a tool) over sim/,
// with each package's own specs and the ladder suite as the test suite, and
// writes the score per package. `make mutate` runs it from the repository
// root:
//
//	go run ./tools/mutate [-suites both,ladder] [-workers 2] [-out reports/mutation]
//
// Suites (each a full gremlins pass over the same mutants):
//
//	both    the mutated package's specs, then the ladder (the score)
//	unit    the mutated package's specs only
//	ladder  the ladder only (how much the ladder alone kills)
//
// The ladder runs through tools/mutate/exec.sh, a `go test -exec` wrapper:
// gremlins builds each mutant in a working copy and runs `go test <pkg>`
// there, so the wrapper finds the copy's module root and runs the ladder
// built from the same mutated code.
//
// Some mutants cannot change behaviour (equivalent mutants: `x <= 0` →
// `x < 0` where x = 0 gives the same result either way). They are listed,
// each with the reason, in tools/mutate/equivalent.txt, keyed by file, the
// source line's text and the mutation type so the list survives edits
// elsewhere in the file; the score counts killed over non-equivalent
// covered mutants.
package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

func main() {
	if len(os.Args) == 4 && os.Args[1] == "cover-cases" {
		// Called by exec.sh in the coverage run (see cases.go).
		if err := coverCasesFile(os.Args[2], os.Args[3]); err != nil {
			fmt.Fprintln(os.Stderr, "mutate:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("mutate", flag.ContinueOnError)
	fl.SetOutput(stderr)
	suites := fl.String("suites", "both,ladder", "comma-separated passes to run: both, unit, ladder")
	workers := fl.Int("workers", 2, "gremlins workers (parallel mutants)")
	coefficient := fl.Int("timeout-coefficient", 4, "a mutant's time budget, as a multiple of the coverage run's (which runs the same specs and the ladder, instrumented, with the ladder not failing fast)")
	out := fl.String("out", "reports/mutation", "directory for the reports")
	equivalents := fl.String("equivalent", "tools/mutate/equivalent.txt", "the list of equivalent mutants")
	scope := fl.String("scope", "", "one package directory to mutate (e.g. ./sim/social), covered and tested by its own specs and the ladder; default: every package under sim/")
	if err := fl.Parse(args); err != nil {
		return err
	}
	eq, err := readEquivalents(*equivalents)
	if err != nil {
		return err
	}
	dirs, err := packageDirs()
	if err != nil {
		return err
	}
	exclude, err := excludeFiles(dirs, normScope(*scope))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	wrapper, err := filepath.Abs("tools/mutate/exec.sh")
	if err != nil {
		return err
	}
	results := map[string]*report{}
	var order []string
	for _, suite := range strings.Split(*suites, ",") {
		if suite != "both" && suite != "unit" && suite != "ladder" {
			return fmt.Errorf("unknown suite %q (both, unit, ladder)", suite)
		}
		file := filepath.Join(*out, "gremlins-"+suite+".json")
		fmt.Fprintf(stdout, "mutate: pass %q (this takes a while: every mutant is built and tested)\n", suite)
		if err := unleash(suite, wrapper, normScope(*scope), exclude, *workers, *coefficient, file, stdout, stderr); err != nil {
			return fmt.Errorf("pass %s: %w", suite, err)
		}
		r, err := load(file, eq)
		if err != nil {
			return fmt.Errorf("pass %s: %w", suite, err)
		}
		results[suite] = r
		order = append(order, suite)
	}
	summary := render(order, results)
	if err := os.WriteFile(filepath.Join(*out, "summary.md"), []byte(summary), 0o644); err != nil {
		return err
	}
	fmt.Fprint(stdout, summary)
	return nil
}

// unleash runs one gremlins pass and writes its JSON results. Gremlins
// always runs from the module root with coverage taken over sim/
// (`-coverpkg ./sim/...`), so a line that only the ladder reaches counts as
// covered; exclude lists the files left unmutated. exec.sh, told the scope,
// runs only the specs a mutant will face (the scoped package's, or all of
// sim/'s, and the ladder) in the coverage run.
func unleash(suite, wrapper, scope string, exclude []string, workers, coefficient int, out string, stdout, stderr io.Writer) error {
	cmd := exec.Command("go", "tool", "gremlins", "unleash",
		"--workers", fmt.Sprint(workers),
		// The coverage run sets the time budget; a mutant's run builds and
		// runs its package and the ladder, so it gets a multiple of it.
		"--timeout-coefficient", fmt.Sprint(coefficient),
		"--output", out,
		"--coverpkg", "./sim/...")
	for _, re := range exclude {
		cmd.Args = append(cmd.Args, "--exclude-files", re)
	}
	cmd.Args = append(cmd.Args, ".")
	// The coverage run runs the ladder in this module, and the ladder
	// empties its reports directory (reports/, where this pass's own
	// results go) before it starts: it gets a directory of its own.
	ladderReports, err := os.MkdirTemp("", "mutate-ladder-reports-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(ladderReports)
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd.Env = append(os.Environ(), "GOFLAGS=-exec="+wrapper, "MUTATE_SUITE="+suite, "MUTATE_SCOPE="+scope, "LADDER_REPORTS="+ladderReports, "MUTATE_TOOL="+self)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	return cmd.Run()
}

// packageDirs lists the module's package directories, relative to the
// module root (the current directory) and slash-separated.
func packageDirs() ([]string, error) {
	root, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	b, err := exec.Command("go", "list", "-f", "{{.Dir}}", "./...").Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	var dirs []string
	for _, d := range strings.Fields(string(b)) {
		rel, err := filepath.Rel(root, d)
		if err != nil {
			return nil, err
		}
		dirs = append(dirs, filepath.ToSlash(rel))
	}
	return dirs, nil
}

// normScope turns a -scope flag (./sim/social, sim/social/) into the
// package directory it names; "" stays "" (all of sim/).
func normScope(scope string) string {
	if scope == "" {
		return ""
	}
	return strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(filepath.Clean(scope)), "./"), "/")
}

// excludeFiles returns gremlins --exclude-files patterns (matched against
// paths relative to the module root) that leave every package directory
// unmutated except the mutated ones: scope alone, or with scope "" every
// package under sim/. One pattern per directory, anchored and stopping at
// the next slash, because RE2 cannot say "not under sim/social" and a
// pattern for sim/ must not reach sim/social/. A scope that is no package
// directory, or no package left to mutate, is an error: the pass would
// examine nothing.
func excludeFiles(dirs []string, scope string) ([]string, error) {
	mutated := func(d string) bool {
		if scope != "" {
			return d == scope
		}
		return d == "sim" || strings.HasPrefix(d, "sim/")
	}
	var out []string
	kept := 0
	for _, d := range slices.Sorted(slices.Values(dirs)) {
		if mutated(d) {
			kept++
			continue
		}
		if d == "." {
			out = append(out, `^[^/]+\.go$`)
			continue
		}
		out = append(out, "^"+regexp.QuoteMeta(d)+`/[^/]+\.go$`)
	}
	if kept == 0 {
		if scope != "" {
			return nil, fmt.Errorf("scope %s is not a package directory of this module", scope)
		}
		return nil, errors.New("no package under sim/ to mutate")
	}
	return out, nil
}

// gremlinsReport is the part of gremlins' JSON output this tool reads.
type gremlinsReport struct {
	Files []struct {
		Name      string `json:"file_name"`
		Mutations []struct {
			Type   string `json:"type"`
			Status string `json:"status"`
			Line   int    `json:"line"`
			Column int    `json:"column"`
		} `json:"mutations"`
	} `json:"files"`
}

// mutant is one mutation with what gremlins made of it.
type mutant struct {
	File, Type, Status string
	Line, Column       int
	Source             string // the mutated line's text, trimmed
}

// tally counts one package's mutants by outcome.
type tally struct {
	Killed, Lived, NotCovered, TimedOut, NotViable, Equivalent int
}

// Score is killed over killed plus the non-equivalent survivors (lived
// and timed out count against; not-viable mutants do not compile and are
// not mutants of behaviour). Uncovered mutants are reported beside it.
func (t tally) Score() float64 {
	den := t.Killed + t.Lived + t.TimedOut
	if den == 0 {
		return 0
	}
	return float64(t.Killed) / float64(den)
}

type report struct {
	packages   map[string]*tally
	lived      []mutant
	notCovered []mutant // each is dead code or a path no spec or rung takes
}

// load reads a gremlins report. File names in it are relative to the
// module root, where gremlins runs.
func load(path string, eq map[equivalentKey]string) (*report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var g gremlinsReport
	if err := json.Unmarshal(b, &g); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r := &report{packages: map[string]*tally{}}
	total := 0
	for _, f := range g.Files {
		name := filepath.ToSlash(f.Name)
		if !strings.HasPrefix(name, "sim/") {
			continue
		}
		lines, err := readLines(name)
		if err != nil {
			return nil, err
		}
		pkg := filepath.Dir(name)
		t := r.packages[pkg]
		if t == nil {
			t = &tally{}
			r.packages[pkg] = t
		}
		for _, m := range f.Mutations {
			total++
			mu := mutant{File: name, Type: m.Type, Status: m.Status, Line: m.Line, Column: m.Column}
			if m.Line >= 1 && m.Line <= len(lines) {
				mu.Source = strings.TrimSpace(lines[m.Line-1])
			}
			_, isEq := eq[equivalentKey{mu.File, mu.Source, mu.Type}]
			switch {
			case m.Status == "KILLED":
				t.Killed++
			case isEq && (m.Status == "LIVED" || m.Status == "TIMED OUT"):
				t.Equivalent++
			case m.Status == "LIVED":
				t.Lived++
				r.lived = append(r.lived, mu)
			case m.Status == "TIMED OUT":
				t.TimedOut++
				r.lived = append(r.lived, mu)
			case m.Status == "NOT COVERED":
				t.NotCovered++
				r.notCovered = append(r.notCovered, mu)
			case m.Status == "NOT VIABLE":
				t.NotViable++
			}
		}
	}
	if total == 0 {
		return nil, fmt.Errorf("%s: no mutant in sim/: the pass examined nothing", path)
	}
	byPlace := func(a, b mutant) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), cmp.Compare(a.Type, b.Type))
	}
	slices.SortFunc(r.lived, byPlace)
	slices.SortFunc(r.notCovered, byPlace)
	return r, nil
}

func readLines(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return strings.Split(string(b), "\n"), nil
}

// equivalentKey identifies a mutant independently of line numbers.
type equivalentKey struct{ file, source, kind string }

// readEquivalents reads lines of the form
//
//	file | source line text | MUTATION_TYPE | reason
//
// Blank lines and lines starting with # are comments.
func readEquivalents(path string) (map[equivalentKey]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[equivalentKey]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[equivalentKey]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, " | ")
		if len(parts) != 4 || parts[3] == "" {
			return nil, fmt.Errorf("%s:%d: want `file | source | TYPE | reason`", path, n)
		}
		out[equivalentKey{parts[0], parts[1], parts[2]}] = parts[3]
	}
	return out, sc.Err()
}

func render(order []string, results map[string]*report) string {
	var b strings.Builder
	b.WriteString("# Mutation score of sim/\n\n")
	for _, suite := range order {
		r := results[suite]
		fmt.Fprintf(&b, "## Suite: %s\n\n", suite)
		b.WriteString("| package | killed | lived | timed out | equivalent | not covered | not viable | score |\n")
		b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
		var sum tally
		pkgs := make([]string, 0, len(r.packages))
		for p := range r.packages {
			pkgs = append(pkgs, p)
		}
		slices.Sort(pkgs)
		for _, p := range pkgs {
			t := *r.packages[p]
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %.1f%% |\n", p, t.Killed, t.Lived, t.TimedOut, t.Equivalent, t.NotCovered, t.NotViable, 100*t.Score())
			sum.Killed += t.Killed
			sum.Lived += t.Lived
			sum.TimedOut += t.TimedOut
			sum.Equivalent += t.Equivalent
			sum.NotCovered += t.NotCovered
			sum.NotViable += t.NotViable
		}
		fmt.Fprintf(&b, "| **all** | %d | %d | %d | %d | %d | %d | **%.1f%%** |\n\n", sum.Killed, sum.Lived, sum.TimedOut, sum.Equivalent, sum.NotCovered, sum.NotViable, 100*sum.Score())
		for _, list := range []struct {
			title   string
			mutants []mutant
		}{{"Survivors", r.lived}, {"Not covered", r.notCovered}} {
			if len(list.mutants) == 0 {
				continue
			}
			b.WriteString(list.title + ":\n\n")
			for _, m := range list.mutants {
				fmt.Fprintf(&b, "- `%s:%d:%d` %s %s: `%s`\n", m.File, m.Line, m.Column, m.Type, m.Status, m.Source)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}
