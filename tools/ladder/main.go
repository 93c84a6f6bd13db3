// Command ladder runs, checks and regenerates ladder rungs from the command
// line. Run it from the repository root (the Makefile does):
//
//	go run ./tools/ladder check [fixture.yaml ...]   validate fixtures; exit 1 on any error
//	go run ./tools/ladder goldens [-rung T0.2] [-reason "…"]
//	                                                 regenerate goldens (make goldens); -rung takes T2.3/swapped too;
//	                                                 -reason (REASON=) is required when a set changes;
//	                                                 -finish or -abandon: only finish or undo a killed run's switch
//	go run ./tools/ladder render -out DIR [-rung R]  write a rendering laid out like goldens/;
//	                                                 -exact: a rung's name renders it without its cases
//	go run ./tools/ladder explain -rung T1.1 -at 12 -holder neighbor -claim theft@2
//	                                                 a belief's provenance as of a tick
//	go run ./tools/ladder compare [-n N | -all] A B  two runs (rung[/case] or trace.jsonl) aligned by
//	                                                 roll key: value, threshold and control-flow drift,
//	                                                 first divergent roll, belief set, dense cell;
//	                                                 -against-golden R: R's goldens against a fresh run;
//	                                                 -require-same-values|-keys|-rolls: exit 1 on that drift
//	go run ./tools/ladder curve -rung T2.1 -claim theft@10 [-format yaml|csv]
//	                                                 a claim's believer curve, as a curve:
//	                                                 expectation or as CSV for plotting
//	go run ./tools/ladder rules -rung T3.1 [-fired=false] [-rule NAME]
//	                                                 the rule-firing log: every evaluation,
//	                                                 declined ones with their values
//	go run ./tools/ladder diff -rung T3.3 -from 10 -to 30
//	                                                 every social-state change between two
//	                                                 ticks (grudges, obligations, reputation,
//	                                                 pair weights, roles, schedules), with
//	                                                 its rule and its cause
//	go run ./tools/ladder schedule -rung T4a.1 -npc frida
//	                                                 an NPC's base and effective schedule side
//	                                                 by side, and the events that rewrote it
//	go run ./tools/ladder role -rung T5.1 -at 20     every role at a tick: holder or vacant,
//	                                                 duties, references, the events so far
//	go run ./tools/ladder fear -rung T6 -at 120 [-location temple]
//	                                                 collective fear as of a tick, per location:
//	                                                 the view, its recomputation within regime 3,
//	                                                 and the beliefs that contribute
//	go run ./tools/ladder review [T2.1 ...]          the pending changes the last run left:
//	                                                 first divergence, columns, cells, ticks,
//	                                                 trace records by kind
//	go run ./tools/ladder accept [-reason "…"] T2.3/swapped | -all
//	                                                 copy reviewed artifacts into goldens/; -reason, why
//	                                                 (recorded in the set's history), is required of a
//	                                                 set that changes
//	go run ./tools/ladder reject T2.1 | -all         discard pending changes
//	go run ./tools/ladder blame R -tick T -column C | -record SEQ | -line N
//	                                                 the commit that last changed a committed golden
//	                                                 cell or trace record, with the entry it added to
//	                                                 the set's history (reason, drift class); git only
//	go run ./tools/ladder diff-golden [-run] T2.1    the dense change cell by cell, in runs
//	go run ./tools/ladder textconv dense.csv         one line per cell (git diff driver)
//	go run ./tools/ladder convert-trace [-expand] [-o OUT] trace.jsonl
//	                                                 a version 1 or 2 trace in version 3, or with
//	                                                 -expand a version-3 trace as version 2 spelt it
//	go run ./tools/ladder shard [-rung R] 2/4        the label filter of part 2 of 4 (make ladder SHARD=2/4)
//	go run ./tools/ladder costs [-from FILE]         refresh ladder/shard/costs.json from a run's report
//	go run ./tools/ladder merge-reports -out DIR A B join shards' reports into one
//	go run ./tools/ladder schema [-o FILE|-]         regenerate docs/fixture.schema.json from the loader
//	go run ./tools/ladder verify [-golden] [R ...]  replay runs from reports/<R>/events.jsonl: the engine
//	                                                 must append exactly the logged records and reach the
//	                                                 recorded state digests and log head (make verify)
//	go run ./tools/ladder state -rung R [-at T]      the canonical engine state at a tick (its digest on stderr)
//	go run ./tools/ladder audit [-lenient] [-full] [R ...]
//	                                                 regime 2's invariant audit: what each invariant
//	                                                 examined, every finding with its grade
//	go run ./tools/ladder pilot [-seeds 200] T2.8   a sweep rung's pilot: each aggregate's mean and
//	                                                 sd over seeds disjoint from the rung's, as its bounds
//	go run ./tools/ladder coverage [-unreached] [-rule NAME]
//	                                                 every rule's regimes with the runs of the last
//	                                                 make ladder that reached each (reports/coverage.json)
//	go run ./tools/ladder explore [-seed S] [-time 60s] [-shard k/N]
//	                                                 generated worlds checked by properties; a failure
//	                                                 shrunk to reports/explore/; -replay FILE, -promote FILE RUNG
//	go run ./tools/ladder explore-merge -out DIR A B ...
//	                                                 join a campaign's explore -shard k/N outputs into
//	                                                 what one exploration of their worlds writes
//	go run ./tools/ladder page [-compare A,B]...    rebuild reports/index.html from the last ladder run,
//	                                                 running nothing; -compare adds a run comparison
//	go run ./tools/ladder why-not -rung T2.7 -npc m1 -claim theft@9 [-at 100] [-reports DIR | -golden] [-json]
//	                                                 why an NPC does not hold a claim at a tick (or why it
//	                                                 does), from a run's written files: reports/, a CI
//	                                                 artifact laid out like it, or the goldens
//
// `make ladder` is the CI gate and runs the Ginkgo suite, not this tool.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/history"
	"github.com/chronicle/ladder/ladder/pending"
	"github.com/chronicle/ladder/ladder/regen"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: ladder <" + strings.Join(commands, "|") + "> [flags]")
	}
	switch args[0] {
	case "check":
		return check(args[1:], stdout)
	case "goldens":
		return goldens(args[1:], stdout, stderr)
	case "render":
		return render(args[1:], stderr)
	case "explain":
		return explain(args[1:], stdout, stderr)
	case "compare":
		return compare(args[1:], stdout, stderr)
	case "curve":
		return curve(args[1:], stdout, stderr)
	case "rules":
		return rulesLog(args[1:], stdout, stderr)
	case "diff":
		return socialDiff(args[1:], stdout, stderr)
	case "schedule":
		return scheduleView(args[1:], stdout, stderr)
	case "role":
		return roleView(args[1:], stdout, stderr)
	case "fear":
		return fearView(args[1:], stdout, stderr)
	case "review":
		return review(args[1:], stdout)
	case "accept":
		return accept(args[1:], stdout, stderr)
	case "reject":
		return reject(args[1:], stdout, stderr)
	case "blame":
		return blame(args[1:], stdout, stderr)
	case "diff-golden":
		return diffGolden(args[1:], stdout, stderr)
	case "textconv":
		return textconv(args[1:], stdout)
	case "convert-trace":
		return convertTrace(args[1:], stdout, stderr)
	case "shard":
		return shardFilter(args[1:], stdout, stderr)
	case "costs":
		return costs(args[1:], stdout, stderr)
	case "merge-reports":
		return mergeReports(args[1:], stdout, stderr)
	case "schema":
		return fixtureSchema(args[1:], stdout, stderr)
	case "verify":
		return verify(args[1:], stdout, stderr)
	case "state":
		return state(args[1:], stdout, stderr)
	case "audit":
		return auditRuns(args[1:], stdout, stderr)
	case "pilot":
		return pilot(args[1:], stdout, stderr)
	case "coverage":
		return coverageTable(args[1:], stdout, stderr)
	case "explore":
		return exploreCmd(args[1:], stdout, stderr)
	case "explore-merge":
		return exploreMerge(args[1:], stdout, stderr)
	case "page":
		return pageCmd(args[1:], stdout, stderr)
	case "why-not":
		return whyNot(args[1:], stdout, stderr)
	}
	return fmt.Errorf("unknown command %q (commands: %s)", args[0], strings.Join(commands, ", "))
}

var commands = []string{"check", "goldens", "render", "explain", "compare", "curve", "rules", "diff", "schedule", "role", "fear", "review", "accept", "reject", "blame", "diff-golden",
	"textconv", "convert-trace", "shard", "costs", "merge-reports", "verify", "state", "audit", "schema", "pilot", "coverage", "explore", "explore-merge", "page", "why-not"}

type rungList []string

func (r *rungList) String() string     { return strings.Join(*r, ",") }
func (r *rungList) Set(v string) error { *r = append(*r, strings.Split(v, ",")...); return nil }

// check validates fixture files (all of fixtures/ when none are named).
func check(args []string, stdout io.Writer) error {
	paths := args
	if len(paths) == 0 {
		var err error
		if paths, err = filepath.Glob("fixtures/*.yaml"); err != nil {
			return err
		}
		if len(paths) == 0 {
			return errors.New("no fixtures under fixtures/")
		}
	}
	var failed bool
	for _, p := range paths {
		fs, err := fixture.Load(p)
		if err != nil {
			fmt.Fprintln(stdout, err)
			failed = true
			continue
		}
		fmt.Fprintf(stdout, "%s: ok (%s, %d case(s) besides the rung)\n", p, fs[0].Rung, len(fs)-1)
		for _, f := range fs {
			if f.Case == "" || f.Cost != fs[0].Cost {
				fmt.Fprintf(stdout, "  %s costs %s\n", f.Name(), f.Cost)
			}
		}
	}
	if failed {
		return errors.New("check: some fixtures are invalid")
	}
	return nil
}

func render(args []string, stderr io.Writer) error {
	fl := flag.NewFlagSet("render", flag.ContinueOnError)
	fl.SetOutput(stderr)
	out := fl.String("out", "", "directory to write the rendering into (laid out like goldens/)")
	var rungs, after rungList
	fl.Var(&rungs, "rung", "rung (T2.3) or case (T2.3/swapped) to render (repeatable; default all)")
	fl.Var(&after, "after", "case to run first, in this process, and throw away (repeatable): the selection then renders after other worlds were built")
	exact := fl.Bool("exact", false, "each -rung names one run: a rung's name renders the rung without its cases (as the determinism proof renders)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("render: -out is required")
	}
	fixtures, err := regen.Select(".", rungs)
	if err != nil {
		return err
	}
	if *exact && len(rungs) > 0 {
		fixtures = slices.DeleteFunc(fixtures, func(f *fixture.Fixture) bool { return !slices.Contains(rungs, f.Name()) })
	}
	var prelude []*fixture.Fixture
	if len(after) > 0 {
		if prelude, err = regen.Select(".", after); err != nil {
			return err
		}
		// A rung's name selects its cases too; -after names exactly one run each.
		prelude = slices.DeleteFunc(prelude, func(f *fixture.Fixture) bool { return !slices.Contains(after, f.Name()) })
	}
	return regen.RenderAfter(prelude, fixtures, *out)
}

// goldens proves determinism with two renderings made differently — run 1
// renders, in one process, another rung's case (the prelude) and then
// every selected fixture in file order; run 2 renders each fixture alone
// in a fresh process — so that state leaking from one world into the next
// shows as a difference, even for a single rung; then, unless a rung is
// refused, it switches what changed into goldens/ in one commit.
func goldens(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("goldens", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var names rungList
	fl.Var(&names, "rung", "rung (T2.3) or case (T2.3/swapped) to regenerate (repeatable; default all)")
	abandon := fl.Bool("abandon", false, "regenerate nothing: discard a switch a killed run committed, putting back every file it touched as it was before (make goldens ABANDON=1)")
	finish := fl.Bool("finish", false, "regenerate nothing: finish a switch a killed run committed (make goldens FINISH=1)")
	reason := fl.String("reason", "", "why the goldens change, recorded in each changed set's history (make goldens REASON=…; required when a set changes)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *abandon && *finish {
		return errors.New("goldens: -abandon and -finish are two answers to one question: pick one")
	}
	if p := regen.Interrupted("."); p != nil {
		fmt.Fprintf(stdout, "workspace: %s\n", p.Advice())
	}
	switch {
	case *abandon:
		a, err := regen.Abandon(".")
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, a)
		return nil
	case *finish:
		ws, rec, err := regen.Open(".")
		if err != nil {
			return err
		}
		if rec.Empty() {
			fmt.Fprintln(stdout, "no interrupted switch to finish")
		} else {
			fmt.Fprintf(stdout, "workspace: %s\n", rec)
		}
		return ws.Close()
	}
	fixtures, err := regen.Select(".", names)
	if err != nil {
		return err
	}
	if len(names) > 0 {
		if fixtures, err = withExtenders(fixtures, names, stdout); err != nil {
			return err
		}
	}
	ws, rec, err := regen.Open(".")
	if !rec.Empty() {
		fmt.Fprintf(stdout, "workspace: %s\n", rec)
	}
	if err != nil {
		return err
	}
	defer ws.Close()
	all, err := regen.Select(".", nil)
	if err != nil {
		return err
	}
	prelude := regen.Prelude(all, fixtures)
	run1 := regen.Rendering{Dir: ws.RunDir(1), Name: "run 1", How: "every selected rung in one process, in file order"}
	if prelude != nil {
		run1.How = "every selected rung in one process, in file order, after " + prelude.Name()
	}
	run2 := regen.Rendering{Dir: ws.RunDir(2), Name: "run 2", How: "each rung and case alone in a fresh process"}
	code, err := pending.CodeHash(".")
	if err != nil {
		return err
	}
	if err := renderTwice(prelude, fixtures, run1, run2, ws.Inherit(), stderr); err != nil {
		return err
	}
	statuses, err := regen.Regenerate(ws, fixtures, run1, run2, regen.Note{By: "goldens", Reason: strings.TrimSpace(*reason), CodeHash: code})
	var refused *regen.RefusedError
	var unexplained *regen.ReasonError
	if err != nil && !errors.As(err, &refused) && !errors.As(err, &unexplained) {
		return err
	}
	fmt.Fprintf(stdout, "determinism: %d rung(s) rendered identically by %s (%s) and %s (%s)\n",
		len(fixtures), run1.Name, run1.How, run2.Name, run2.How)
	for _, s := range statuses {
		fmt.Fprintln(stdout, s)
		if s.History != nil && s.History.State == history.Changed {
			fmt.Fprintf(stdout, "  history: %s\n", s.History)
		}
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "review the change before committing: git diff --stat goldens/ && git diff goldens/")
	fmt.Fprintln(stdout, "then run make test: specs outside the ladder read the goldens too, and an intended change must leave it green")
	return nil
}

// withExtenders adds the rungs that extend a selected rung, saying so: a
// change that moves a rung's goldens moves those of the rungs that are
// its run with other assertions.
func withExtenders(fixtures []*fixture.Fixture, names []string, stdout io.Writer) ([]*fixture.Fixture, error) {
	ext, err := regen.Extenders(".", fixtures)
	if err != nil || len(ext) == 0 {
		return fixtures, err
	}
	all := slices.Clone(names)
	for _, f := range ext {
		fmt.Fprintf(stdout, "%s extends a selected rung: regenerating it too\n", f.Name())
		all = append(all, f.Name())
	}
	return regen.Select(".", all)
}

// renderTwice makes the two renderings concurrently, each in processes of
// this same executable, which inherit the workspace's lock: if this
// process is killed, the workspace stays locked until they finish. Each
// renders exactly the runs it is named (-exact): a rung's name alone
// would bring its cases into run 2's process for the rung, rendering
// each case a second time, not alone, into the directory its own process
// writes — and its failures.txt, written only when expectations fail,
// would outlive the rendering that wrote it.
func renderTwice(prelude *fixture.Fixture, fixtures []*fixture.Fixture, run1, run2 regen.Rendering, lock *os.File, stderr io.Writer) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	render := func(out string, after *fixture.Fixture, fs ...*fixture.Fixture) error {
		args := []string{"render", "-out", out, "-exact"}
		if after != nil {
			args = append(args, "-after", after.Name())
		}
		for _, f := range fs {
			args = append(args, "-rung", f.Name())
		}
		cmd := exec.Command(self, args...)
		cmd.Stderr = stderr
		cmd.ExtraFiles = []*os.File{lock}
		return cmd.Run()
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	wg.Go(func() {
		if err := render(run1.Dir, prelude, fixtures...); err != nil {
			errs[0] = fmt.Errorf("%s: %w", run1.Name, err)
		}
	})
	wg.Go(func() {
		for _, f := range fixtures {
			if err := render(run2.Dir, nil, f); err != nil {
				errs[1] = fmt.Errorf("%s, rendering %s: %w", run2.Name, f.Name(), err)
				return
			}
		}
	})
	wg.Wait()
	return errors.Join(errs...)
}
