// Command ladder runs, checks, triages and regenerates ladder rungs from
// the command line. Run it from the repository root (the Makefile does):
//
//	go run ./tools/ladder help          every command, one line each
//	go run ./tools/ladder help CMD      one command's usage, flags and examples
//
// The commands are one table (commands.go), from which the help and
// docs/cli.md are made. `make ladder` is the CI gate and runs the Ginkgo
// suite, not this tool.
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
		return errors.New("usage: ladder <" + strings.Join(names(), "|") + "> [flags] (ladder help: what each does)")
	}
	c, ok := lookup(args[0])
	if !ok {
		return fmt.Errorf("unknown command %q (commands: %s)", args[0], strings.Join(names(), ", "))
	}
	return c.Run(args[1:], stdout, stderr)
}

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
