// Command mutate measures how much of the engine the test suite guards:
// it runs gremlins (a mutation tool, pinned in go.mod as a tool) over sim/
// and views/ (the engine and the read-only aggregates computed on it),
// with each package's own specs and the ladder suite as the test suite, and
// writes the score per package. `make mutate` runs it from the repository
// root:
//
//	go run ./tools/mutate [-suites both,ladder] [-workers 2] [-out reports/mutation] [-shard k/n]
//	go run ./tools/mutate -merge shard-1,shard-2 -out reports/mutation
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
// covered mutants. In the ladder pass, the mutants of
// tools/mutate/beyond-ladder.txt — killed by their package's specs, and
// changing no output a run has — are set apart the same way, with the
// score counting them against it printed beside (beyond.go).
package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	reports "github.com/chronicle/ladder/ladder/report"
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
	beyondList := fl.String("beyond-ladder", "tools/mutate/beyond-ladder.txt", "the list of mutants no rung can see (the ladder pass counts them apart from its score)")
	summarize := fl.Bool("summarize", false, "run no pass: summarise the reports a previous run left in -out (gremlins-<suite>.json for each of -suites), against the equivalent list as it is now; the sources must be those the pass mutated")
	dry := fl.Bool("dry-run", false, "find the mutants and check the equivalent list against them (ambiguous or stale entries) without testing any: one coverage run, minutes rather than hours")
	shardSpec := fl.String("shard", "", "mutate part k/n of the packages (e.g. 2/4; of -scope's when given), balanced by source size, so a full run spreads over a CI matrix; join the parts' -out directories with -merge")
	merge := fl.String("merge", "", "run no pass: join the reports shards left in these -out directories (joined by commas) into -out and summarise them")
	scope := fl.String("scope", "", "the package directories to mutate, joined by commas (e.g. ./sim/social or ./sim/claims,./sim/rules), each covered and tested by its own specs and the ladder; default: every package under sim/ and views/")
	if err := fl.Parse(args); err != nil {
		return err
	}
	eq, err := readEquivalents(*equivalents)
	if err != nil {
		return err
	}
	beyond, err := readList("the beyond-the-ladder list", *beyondList)
	if err != nil {
		return err
	}
	dirs, err := packageDirs()
	if err != nil {
		return err
	}
	scopes := normScope(*scope)
	if *shardSpec != "" {
		if scopes, err = shardScope(*shardSpec, dirs, scopes, sourceBytes); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "mutate: shard %s: scope %s\n", *shardSpec, strings.Join(scopes, ","))
	}
	exclude, err := excludeFiles(dirs, scopes)
	if err != nil {
		return err
	}
	// -out is below reports/ by default, which a later make ladder clears
	// only when a run (or this) made it.
	if err := reports.Adopt(filepath.Dir(*out)); err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	if *merge != "" {
		if err := mergeShards(*out, strings.Split(*merge, ","), strings.Split(*suites, ",")); err != nil {
			return err
		}
		*summarize = true
	}
	wrapper, err := filepath.Abs("tools/mutate/exec.sh")
	if err != nil {
		return err
	}
	// reachFile records which mutants the full suite (a package's specs
	// and the ladder) reaches: a dry run's report. The ladder and unit
	// passes count a mutant only their part of the suite misses as not
	// reached, which is not killed, rather than as not covered.
	reachFile := filepath.Join(*out, "gremlins-reach.json")
	dryRun := func() error {
		fmt.Fprintln(stdout, "mutate: dry run (coverage only: no mutant is tested)")
		if err := unleash("both", wrapper, scopes, exclude, *workers, *coefficient, reachFile, stdout, stderr, "--dry-run"); err != nil {
			return fmt.Errorf("dry run: %w", err)
		}
		return nil
	}
	if *dry {
		if err := dryRun(); err != nil {
			return err
		}
		r, err := load(reachFile, eq, nil)
		if err != nil {
			return fmt.Errorf("dry run: %w", err)
		}
		fmt.Fprint(stdout, renderDry(r))
		if len(r.stale) > 0 {
			return fmt.Errorf("%d stale entries in %s", len(r.stale), *equivalents)
		}
		return nil
	}
	results := map[string]*report{}
	var order []string
	for _, suite := range strings.Split(*suites, ",") {
		if suite != "both" && suite != "unit" && suite != "ladder" {
			return fmt.Errorf("unknown suite %q (both, unit, ladder)", suite)
		}
		file := filepath.Join(*out, "gremlins-"+suite+".json")
		var reach map[place]bool
		if suite != "both" {
			src := reachFile
			if results["both"] != nil {
				src = filepath.Join(*out, "gremlins-both.json")
			} else if !*summarize {
				if err := dryRun(); err != nil {
					return err
				}
			}
			if reach, err = loadReach(src); err != nil {
				return fmt.Errorf("pass %s needs what the full suite reaches (run -dry-run with this -out first): %w", suite, err)
			}
		}
		if !*summarize {
			fmt.Fprintf(stdout, "mutate: pass %q (this takes a while: every mutant is built and tested)\n", suite)
			if err := unleash(suite, wrapper, scopes, exclude, *workers, *coefficient, file, stdout, stderr); err != nil {
				return fmt.Errorf("pass %s: %w", suite, err)
			}
		}
		r, err := load(file, eq, reach)
		if err != nil {
			return fmt.Errorf("pass %s: %w", suite, err)
		}
		if suite == "ladder" {
			if err := r.setBeyond(beyond); err != nil {
				return fmt.Errorf("pass %s: %w", suite, err)
			}
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
// always runs from the module root with coverage taken over the engine
// (`-coverpkg ./sim/...,./views/...`), so a line that only the ladder reaches counts as
// covered; exclude lists the files left unmutated. exec.sh, told the scope,
// runs only the specs a mutant will face (the scoped package's, or all of
// sim/'s, and the ladder) in the coverage run.
func unleash(suite, wrapper string, scopes, exclude []string, workers, coefficient int, out string, stdout, stderr io.Writer, extra ...string) error {
	cmd := exec.Command("go", "tool", "gremlins", "unleash",
		"--workers", fmt.Sprint(workers),
		// The coverage run sets the time budget; a mutant's run builds and
		// runs its package and the ladder, so it gets a multiple of it.
		"--timeout-coefficient", fmt.Sprint(coefficient),
		"--output", out,
		"--coverpkg", "./sim/...,./views/...")
	for _, re := range exclude {
		cmd.Args = append(cmd.Args, "--exclude-files", re)
	}
	cmd.Args = append(cmd.Args, extra...)
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
	cmd.Env = append(os.Environ(), "GOFLAGS=-exec="+wrapper, "MUTATE_SUITE="+suite, "MUTATE_SCOPE="+strings.Join(scopes, " "), "LADDER_REPORTS="+ladderReports, "MUTATE_TOOL="+self)
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

// normScope turns a -scope flag (./sim/social, sim/social/, or several
// joined by commas) into the package directories it names, sorted and
// each once; "" gives none (all of sim/).
func normScope(scope string) []string {
	var out []string
	for _, s := range strings.Split(scope, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(filepath.Clean(s)), "./"), "/"))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// excludeFiles returns gremlins --exclude-files patterns (matched against
// paths relative to the module root) that leave every package directory
// unmutated except the mutated ones: the scoped ones, or with no scope
// every package under sim/ and views/. One pattern per directory, anchored and
// stopping at the next slash, because RE2 cannot say "not under
// sim/social" and a pattern for sim/ must not reach sim/social/. A scope
// that is no package directory under sim/, or no package left to mutate,
// is an error: the pass would examine nothing of what it scores.
func excludeFiles(dirs []string, scopes []string) ([]string, error) {
	for _, s := range scopes {
		if !slices.Contains(dirs, s) {
			return nil, fmt.Errorf("scope %s is not a package directory of this module", s)
		}
		if !engine(s) {
			return nil, fmt.Errorf("scope %s is not under sim/ or views/, whose mutants the score counts", s)
		}
	}
	mutated := func(d string) bool {
		if len(scopes) > 0 {
			return slices.Contains(scopes, d)
		}
		return engine(d)
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
		return nil, errors.New("no package under sim/ or views/ to mutate")
	}
	return out, nil
}

// engine reports whether a package directory is the engine's, whose
// mutants the score counts: sim/ and its packages, and views/.
func engine(dir string) bool {
	return dir == "sim" || strings.HasPrefix(dir, "sim/") || dir == "views" || strings.HasPrefix(dir, "views/")
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
	TextColumn         int    // Column counted from the start of Source
	Func               string // the enclosing function, as funcLines names it
}

// tally counts one package's mutants by outcome.
type tally struct {
	Killed, Lived, NotCovered, TimedOut, NotViable, Equivalent int
	// NotReached counts, in a pass run with part of the suite, the
	// non-equivalent mutants the full suite reaches and that part does not.
	NotReached int
	// Beyond counts, in the ladder pass, the survivors (lived, timed out or
	// not reached) that the beyond-the-ladder list names: mutants that
	// change no output a run has, so no rung can see them. They are out of
	// the score, like equivalent mutants, and listed with their reasons.
	Beyond   int
	Runnable int // a dry run's covered mutants, Equivalent among them
}

// Score is killed over killed plus the non-equivalent survivors (lived,
// timed out and, in a pass with part of the suite, not reached by it count
// against; not-viable mutants do not compile and are not mutants of
// behaviour). Uncovered mutants are reported beside it.
func (t tally) Score() float64 {
	den := t.Killed + t.Lived + t.TimedOut + t.NotReached
	if den == 0 {
		return 0
	}
	return float64(t.Killed) / float64(den)
}

// WithBeyond is the score with the beyond-the-ladder survivors counted
// against it, as lived mutants are.
func (t tally) WithBeyond() float64 {
	den := t.Killed + t.Lived + t.TimedOut + t.NotReached + t.Beyond
	if den == 0 {
		return 0
	}
	return float64(t.Killed) / float64(den)
}

type report struct {
	packages   map[string]*tally
	lived      []mutant
	notCovered []mutant // each is dead code or a path no spec or rung takes
	stale      []equivalent
	// notReached are the mutants counted NotReached: listed in the
	// summary, and set apart by setBeyond when its list names them.
	notReached []mutant
	// beyond, in the ladder pass, are the survivors the beyond-the-ladder
	// list names, with its reasons; beyondStale its entries that name no
	// survivor of the pass (the ladder kills the mutant now, or its line
	// changed).
	beyond      []listed
	beyondStale []equivalent
}

// place identifies a mutant within one version of the sources.
type place struct {
	file, kind   string
	line, column int
}

func readReport(path string) (*gremlinsReport, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var g gremlinsReport
	if err := json.Unmarshal(b, &g); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &g, nil
}

// loadReach reads which mutants of the engine a report (a dry run's, or the
// both pass's) found reached by the full suite.
func loadReach(path string) (map[place]bool, error) {
	g, err := readReport(path)
	if err != nil {
		return nil, err
	}
	reach := map[place]bool{}
	for _, f := range g.Files {
		for _, m := range f.Mutations {
			if m.Status != "NOT COVERED" && m.Status != "NOT VIABLE" {
				reach[place{filepath.ToSlash(f.Name), m.Type, m.Line, m.Column}] = true
			}
		}
	}
	if len(reach) == 0 {
		return nil, fmt.Errorf("%s: the full suite reaches no mutant", path)
	}
	return reach, nil
}

// load reads a gremlins report. File names in it are relative to the
// module root, where gremlins runs. reach, for a pass run with part of
// the suite (ladder, unit), holds the mutants the full suite reaches: one
// of those this pass's part does not reach is counted not reached (in the
// denominator: the part did not kill it), not not covered.
func load(path string, eq []equivalent, reach map[place]bool) (*report, error) {
	g, err := readReport(path)
	if err != nil {
		return nil, err
	}
	var muts []mutant
	for _, f := range g.Files {
		name := filepath.ToSlash(f.Name)
		if !engine(filepath.ToSlash(filepath.Dir(name))) {
			continue
		}
		lines, err := readLines(name)
		if err != nil {
			return nil, err
		}
		funcs, err := funcLines(name)
		if err != nil {
			return nil, err
		}
		for _, m := range f.Mutations {
			mu := mutant{File: name, Type: m.Type, Status: m.Status, Line: m.Line, Column: m.Column, Func: funcs(m.Line)}
			if m.Line >= 1 && m.Line <= len(lines) {
				text := lines[m.Line-1]
				mu.Source = strings.TrimSpace(text)
				mu.TextColumn = m.Column - (len(text) - len(strings.TrimLeft(text, " \t")))
			}
			muts = append(muts, mu)
		}
	}
	if len(muts) == 0 {
		return nil, fmt.Errorf("%s: no mutant in sim/ or views/: the pass examined nothing", path)
	}
	isEq, stale, err := classify(muts, eq)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r := &report{packages: map[string]*tally{}, stale: stale}
	for i, mu := range muts {
		pkg := filepath.Dir(mu.File)
		t := r.packages[pkg]
		if t == nil {
			t = &tally{}
			r.packages[pkg] = t
		}
		// A NOT COVERED mutant the full suite reaches was judged, by the
		// part of the suite this pass ran: not reached, not killed.
		judged := mu.Status == "LIVED" || mu.Status == "TIMED OUT" ||
			mu.Status == "NOT COVERED" && reach[place{mu.File, mu.Type, mu.Line, mu.Column}]
		switch {
		case mu.Status == "KILLED":
			t.Killed++
		case mu.Status == "RUNNABLE": // a dry run's covered mutant
			t.Runnable++
			if isEq[i] {
				t.Equivalent++
			}
		case judged && isEq[i]:
			t.Equivalent++
		case mu.Status == "LIVED":
			t.Lived++
			r.lived = append(r.lived, mu)
		case mu.Status == "TIMED OUT":
			t.TimedOut++
			r.lived = append(r.lived, mu)
		case judged:
			t.NotReached++
			r.notReached = append(r.notReached, mu)
		case mu.Status == "NOT COVERED":
			t.NotCovered++
			r.notCovered = append(r.notCovered, mu)
		case mu.Status == "NOT VIABLE":
			t.NotViable++
		}
	}
	byPlace := func(a, b mutant) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), cmp.Compare(a.Type, b.Type))
	}
	slices.SortFunc(r.lived, byPlace)
	slices.SortFunc(r.notCovered, byPlace)
	return r, nil
}

// funcLines parses a Go file and returns the name of the function
// declaration a line lies in ("Recv.Name" for a method), "" for a line
// outside every function.
func funcLines(path string) (func(line int) string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	type span struct {
		from, to int
		name     string
	}
	var spans []span
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			name = receiverType(fd.Recv.List[0].Type) + "." + name
		}
		spans = append(spans, span{fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line, name})
	}
	return func(line int) string {
		for _, sp := range spans {
			if sp.from <= line && line <= sp.to {
				return sp.name
			}
		}
		return ""
	}, nil
}

// receiverType names a method's receiver type: T for T, *T, T[K] or *T[K].
func receiverType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}

func readLines(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return strings.Split(string(b), "\n"), nil
}

// equivalent is one entry of the equivalent list. It names a mutant
// independently of line numbers: by file, the mutated line's text
// (trimmed) and the mutation type, and, where the line holds more than one
// mutant of that type, the column within that text (1-based; 0 when the
// entry gives none).
type equivalent struct {
	file, source, kind string
	// fn is the enclosing function ("appendIntegral", "Store.EndPhase"),
	// given where the same text is mutated in more than one; "" otherwise.
	fn     string
	column int
	reason string
	at     string // where the entry is written, for errors: list:line
}

// matches reports whether the entry names m.
func (e equivalent) matches(m mutant) bool {
	if e.whole() {
		return e.file == m.File && e.fn == m.Func
	}
	return e.file == m.File && e.source == m.Source && e.kind == m.Type &&
		(e.fn == "" || e.fn == m.Func) && (e.column == 0 || e.column == m.TextColumn)
}

// whole reports whether the entry names every mutant of one function
// (`file:function | * | * | reason`): for code no path under test takes
// at all, where a line-by-line list would say the same thing thirty times.
func (e equivalent) whole() bool { return e.source == "*" && e.kind == "*" }

// readEquivalents reads lines of the form
//
//	file[:function] | source line text | MUTATION_TYPE[@column] | reason
//	file:function | * | * | reason          (every mutant of the function)
//
// Blank lines and lines starting with # are comments. A missing list is
// an error: a pass without it would count every equivalent mutant as a
// survivor and report a score that says nothing.
func readEquivalents(path string) ([]equivalent, error) { return readList("the equivalent list", path) }

// readList reads a list in the equivalent list's form; name is what
// errors call it.
func readList(name, path string) ([]equivalent, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	defer f.Close()
	var out []equivalent
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		at := fmt.Sprintf("%s:%d", path, n)
		parts := strings.Split(line, " | ")
		if len(parts) != 4 || parts[3] == "" {
			return nil, fmt.Errorf("%s: want `file[:function] | source | TYPE[@column] | reason`", at)
		}
		e := equivalent{file: parts[0], source: parts[1], kind: parts[2], reason: parts[3], at: at}
		e.file, e.fn, _ = strings.Cut(parts[0], ":")
		if (e.source == "*") != (e.kind == "*") || e.whole() && e.fn == "" {
			return nil, fmt.Errorf("%s: a whole function is written `file:function | * | * | reason`", at)
		}
		if kind, col, ok := strings.Cut(parts[2], "@"); ok {
			c, err := strconv.Atoi(col)
			if err != nil || c < 1 || c > len(e.source) {
				return nil, fmt.Errorf("%s: column %q is not a position in the line's text (1 to %d)", at, col, len(e.source))
			}
			e.kind, e.column = kind, c
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// classify marks the mutants the list names as equivalent. An entry
// without a column that names two or more of the report's mutants is an
// error (one of them may be a real survivor the entry would hide); an
// entry for a file the report mutated that names none is returned as
// stale, to be reported: its line changed or is gone.
func classify(muts []mutant, eq []equivalent) (isEq []bool, stale []equivalent, err error) {
	isEq = make([]bool, len(muts))
	mutated := map[string]bool{}
	for _, m := range muts {
		mutated[m.File] = true
	}
	for _, e := range eq {
		var hits []int
		for i, m := range muts {
			if e.matches(m) {
				hits = append(hits, i)
			}
		}
		if len(hits) > 1 && !e.whole() {
			var where []string
			for _, i := range hits {
				where = append(where, fmt.Sprintf("line %d column %d in %s", muts[i].Line, muts[i].TextColumn, cmp.Or(muts[i].Func, "no function")))
			}
			fix := fmt.Sprintf("write %s@<column> for the one that is equivalent, and a line for each other that is", e.kind)
			if m0 := muts[hits[0]]; e.column != 0 || m0.TextColumn == muts[hits[1]].TextColumn {
				fix = fmt.Sprintf("the text is on more than one line: write %s:<function> for the one that is equivalent, and a line for each other that is", e.file)
				if e.fn != "" || m0.Func == muts[hits[1]].Func {
					fix = "the text is on more than one line of one function, and the list cannot tell the copies apart"
				}
			}
			return nil, nil, fmt.Errorf("%s: names %d mutants of %s (%s; columns count from the start of the line's trimmed text): %s", e.at, len(hits), e.kind, strings.Join(where, ", "), fix)
		}
		if len(hits) == 0 && mutated[e.file] {
			stale = append(stale, e)
		}
		for _, i := range hits {
			isEq[i] = true
		}
	}
	return isEq, stale, nil
}

// renderDry summarises a dry run: how many mutants a pass would test, and
// what the equivalent list made of them.
func renderDry(r *report) string {
	var b strings.Builder
	var sum tally
	for _, t := range r.packages {
		sum.Runnable += t.Runnable
		sum.NotCovered += t.NotCovered
		sum.Equivalent += t.Equivalent
	}
	fmt.Fprintf(&b, "dry run: %d packages, %d mutants covered (%d of them listed as equivalent), %d not covered\n",
		len(r.packages), sum.Runnable, sum.Equivalent, sum.NotCovered)
	if len(r.stale) == 0 {
		b.WriteString("equivalent list: every entry for a mutated file names exactly one mutant\n")
	}
	for _, e := range r.stale {
		fmt.Fprintf(&b, "stale equivalent entry %s: `%s | %s | %s` names no mutant\n", e.at, e.file, e.source, e.kind)
	}
	return b.String()
}

func render(order []string, results map[string]*report) string {
	var b strings.Builder
	b.WriteString("# Mutation score of the engine (sim/ and views/)\n\n")
	for _, suite := range order {
		r := results[suite]
		fmt.Fprintf(&b, "## Suite: %s\n\n", suite)
		if suite != "both" {
			part := "the ladder alone does"
			if suite == "unit" {
				part = "the packages' own specs alone do"
			}
			fmt.Fprintf(&b, "*Not reached*: mutants the full suite reaches and %s not; they count against the score.\n\n", part)
		}
		ladder := suite == "ladder"
		if ladder {
			b.WriteString("*Beyond the ladder*: survivors tools/mutate/beyond-ladder.txt lists, each with why no run's output changes; out of the score, like equivalent mutants. *With them*: the score counting them against it.\n\n")
			b.WriteString("| package | killed | lived | timed out | not reached | beyond the ladder | equivalent | not covered | not viable | score | with them |\n")
			b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
		} else {
			b.WriteString("| package | killed | lived | timed out | not reached | equivalent | not covered | not viable | score |\n")
			b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
		}
		row := func(name string, t tally, bold bool) {
			score := fmt.Sprintf("%.1f%%", 100*t.Score())
			if bold {
				score = "**" + score + "**"
			}
			if ladder {
				fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %s | %.1f%% |\n", name, t.Killed, t.Lived, t.TimedOut, t.NotReached, t.Beyond, t.Equivalent, t.NotCovered, t.NotViable, score, 100*t.WithBeyond())
				return
			}
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %s |\n", name, t.Killed, t.Lived, t.TimedOut, t.NotReached, t.Equivalent, t.NotCovered, t.NotViable, score)
		}
		var sum tally
		pkgs := make([]string, 0, len(r.packages))
		for p := range r.packages {
			pkgs = append(pkgs, p)
		}
		slices.Sort(pkgs)
		for _, p := range pkgs {
			t := *r.packages[p]
			row(p, t, false)
			sum.Killed += t.Killed
			sum.Lived += t.Lived
			sum.TimedOut += t.TimedOut
			sum.NotReached += t.NotReached
			sum.Equivalent += t.Equivalent
			sum.NotCovered += t.NotCovered
			sum.NotViable += t.NotViable
			sum.Beyond += t.Beyond
		}
		row("**all**", sum, true)
		b.WriteString("\n")
		for _, list := range []struct {
			title   string
			mutants []mutant
		}{{"Survivors", r.lived}, {"Not reached", r.notReached}, {"Not covered", r.notCovered}} {
			if len(list.mutants) == 0 {
				continue
			}
			b.WriteString(list.title + ":\n\n")
			for _, m := range list.mutants {
				fmt.Fprintf(&b, "- `%s:%d:%d` %s %s: `%s`\n", m.File, m.Line, m.Column, m.Type, m.Status, m.Source)
			}
			b.WriteString("\n")
		}
		renderBeyond(&b, r)
		if len(r.stale) > 0 {
			b.WriteString("Equivalent entries that named no mutant (the line changed or is gone: update or remove them):\n\n")
			for _, e := range r.stale {
				fmt.Fprintf(&b, "- %s: `%s | %s | %s`\n", e.at, e.file, e.source, e.kind)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}
