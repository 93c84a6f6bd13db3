// Command ladder runs, checks and regenerates ladder rungs from the command
// line. Run it from the repository root (the Makefile does):
//
//	go run ./tools/ladder check [fixture.yaml ...]   validate fixtures; exit 1 on any error
//	go run ./tools/ladder goldens [-rung T0.2]       regenerate goldens (make goldens)
//	go run ./tools/ladder render -out DIR [-rung R]  write a rendering laid out like goldens/
//	go run ./tools/ladder explain -rung T1.1 -at 12 -holder neighbor -claim theft@2
//	                                                 a belief's provenance as of a tick
//	go run ./tools/ladder compare A B                two runs (rung[/case] or trace.jsonl):
//	                                                 first divergent record, roll differences
//	go run ./tools/ladder curve -rung T2.1 -claim theft@10 [-format yaml|csv]
//	                                                 a claim's believer curve, as a curve:
//	                                                 expectation or as CSV for plotting
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
	"strings"
	"sync"

	"github.com/chronicle/ladder/ladder/fixture"
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
		return errors.New("usage: ladder <check|goldens|render|explain|compare|curve> [flags]")
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
		return compare(args[1:], stdout)
	case "curve":
		return curve(args[1:], stdout, stderr)
	}
	return fmt.Errorf("unknown command %q (commands: check, goldens, render, explain, compare, curve)", args[0])
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
	var rungs rungList
	fl.Var(&rungs, "rung", "rung id to render (repeatable; default all)")
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
	return regen.Render(fixtures, *out)
}

// goldens proves determinism with two renderings in two separate processes
// of this same binary, then writes what changed.
func goldens(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("goldens", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var rungs rungList
	fl.Var(&rungs, "rung", "rung id to regenerate (repeatable; default all)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	fixtures, err := regen.Select(".", rungs)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "ladder-goldens-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	dirs := [2]string{filepath.Join(tmp, "a"), filepath.Join(tmp, "b")}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, d := range dirs {
		wg.Go(func() {
			cmdArgs := []string{"render", "-out", d}
			for _, r := range rungs {
				cmdArgs = append(cmdArgs, "-rung", r)
			}
			cmd := exec.Command(self, cmdArgs...)
			cmd.Stderr = stderr
			if err := cmd.Run(); err != nil {
				errs[i] = fmt.Errorf("rendering %d of 2: %w", i+1, err)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "determinism: %d rung(s) rendered identically by two separate processes\n", len(fixtures))
	statuses, err := regen.Regenerate(".", fixtures, dirs[0], dirs[1])
	refused := false
	for _, s := range statuses {
		fmt.Fprintln(stdout, s)
		refused = refused || s.State == "refused"
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "review the change before committing: git diff --stat goldens/ && git diff goldens/")
	if refused {
		return errors.New("goldens: some rungs were refused (their expectations fail); fix them and rerun")
	}
	return nil
}
