package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gocarina/gocsv"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	cmp "github.com/chronicle/ladder/ladder/compare"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/regen"
	"github.com/chronicle/ladder/ladder/report"
	"github.com/chronicle/ladder/ladder/rerun"
	"github.com/chronicle/ladder/ladder/runfiles"
)

// find returns the fixture named rung or rung/case.
func find(name string) (*fixture.Fixture, error) {
	fs, err := regen.Select(".", []string{name})
	if err != nil {
		return nil, err
	}
	return fs[0], nil // the rung comes before its cases
}

// findAt returns the fixture named rung or rung/case and the tick a
// command's -at flag names: the last tick when at < 0, and an error naming
// the run's range when the tick lies outside it.
func findAt(cmd, name string, at int64) (*fixture.Fixture, int64, error) {
	f, err := find(name)
	if err != nil {
		return nil, 0, err
	}
	if at < 0 {
		at = f.Ticks - 1
	}
	if at >= f.Ticks {
		return nil, 0, fmt.Errorf("%s: tick %d is outside %s's run [0, %d)", cmd, at, f.Name(), f.Ticks)
	}
	return f, at, nil
}

// explain prints one belief's provenance as of a tick, from the files
// the run wrote (runfiles.Run.Explain: the trace's evidence and variant
// records, the dense file's row), or from a fresh run with -rerun.
func explain(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("explain", flag.ContinueOnError)
	fl.SetOutput(stderr)
	name := fl.String("rung", "", "rung, or rung/case")
	at := fl.Int64("at", -1, "tick to explain as of (default: the last tick)")
	holder := fl.String("holder", "", "NPC holding the belief")
	claim := fl.String("claim", "", "claim id")
	rf := addRunFlags(fl)
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *name == "" || *holder == "" || *claim == "" {
		return errors.New("explain: -rung, -holder and -claim are required")
	}
	f, err := find(*name)
	if err != nil {
		return err
	}
	run, err := rf.locate(f)
	if err != nil {
		return fmt.Errorf("explain: %w", err)
	}
	if run != nil {
		tick, err := run.At("explain", *at)
		if err != nil {
			return err
		}
		p, err := run.Explain(*holder, *claim, tick)
		if err != nil {
			return fmt.Errorf("explain: %w", err)
		}
		p.Write(stdout)
		return nil
	}
	_, tick, err := findAt("explain", *name, *at)
	if err != nil {
		return err
	}
	w, _, err := stepped(f, tick)
	if err != nil {
		return err
	}
	if err := rerun.Explain(stdout, w, *holder, *claim); err != nil {
		return fmt.Errorf("explain: %w", err)
	}
	return nil
}

// compare aligns two runs by roll key and reports how they differ (see
// package ladder/compare). Each run is a rung[/case], run afresh, or a
// trace.jsonl file, read as a stream with the dense.csv beside it when
// there is one; -against-golden R compares R's committed goldens with a
// fresh run of R. The -require flags turn a kind of drift into exit
// status 1, after the report is printed.
func compare(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("compare", flag.ContinueOnError)
	fl.SetOutput(stderr)
	list := fl.Int("n", 5, "list at most `N` rolls of each class (at least 1: a -require error names the first)")
	all := fl.Bool("all", false, "list every roll of each class")
	golden := fl.String("against-golden", "", "compare the committed goldens of `rung[/case]` with a fresh run of it")
	sameValues := fl.Bool("require-same-values", false, "exit 1 on value drift: a key both runs rolled with different values")
	sameKeys := fl.Bool("require-same-keys", false, "exit 1 on control-flow drift: a key only one run rolled")
	sameRolls := fl.Bool("require-same-rolls", false, "exit 1 unless every roll is the same in both runs (keys, values, thresholds)")
	pos, err := parseInterspersed(fl, args)
	if err != nil {
		return err
	}
	const usage = "usage: ladder compare [flags] <rung[/case] | trace.jsonl> <rung[/case] | trace.jsonl>, or ladder compare [flags] -against-golden <rung[/case]>"
	var a, b compareSide
	switch {
	case *golden != "" && len(pos) == 0:
		f, err := find(*golden)
		if err != nil {
			return err
		}
		if a, err = traceFile(filepath.Join(filepath.FromSlash(f.GoldenDir()), artifact.TraceFile)); err != nil {
			return err
		}
		defer a.close()
		b, err = freshRun(*golden)
	case *golden == "" && len(pos) == 2:
		if a, err = side(pos[0]); err != nil {
			return err
		}
		defer a.close()
		b, err = side(pos[1])
	default:
		return errors.New(usage)
	}
	if err != nil {
		return err
	}
	defer b.close()
	opt := cmp.Options{List: max(*list, 1)} // the -require errors name the first of a class
	if *all {
		opt.List = -1
	}
	rep, err := cmp.Runs(a.Side, b.Side, opt)
	if err != nil {
		return err
	}
	if err := rep.Write(stdout); err != nil {
		return err
	}
	first := func(d cmp.Drift) string {
		x := rep.Classes[d].Listed[0]
		return fmt.Sprintf("first %s at tick %d", x.Key(), x.Tick())
	}
	switch only := rep.Classes[cmp.OnlyA].Count + rep.Classes[cmp.OnlyB].Count; {
	case *sameValues && rep.Classes[cmp.ValueDrift].Count > 0:
		return fmt.Errorf("compare: -require-same-values: value drift in %d of %d shared keys, %s", rep.Classes[cmp.ValueDrift].Count, rep.Shared, first(cmp.ValueDrift))
	case *sameKeys && only > 0:
		d := cmp.OnlyA
		if rep.Classes[d].Count == 0 || (rep.Classes[cmp.OnlyB].Count > 0 && rep.Classes[cmp.OnlyB].Listed[0].Tick() < rep.Classes[d].Listed[0].Tick()) {
			d = cmp.OnlyB
		}
		return fmt.Errorf("compare: -require-same-keys: control-flow drift in %d keys rolled by one run only, %s", only, first(d))
	case *sameRolls && !rep.SameRolls():
		return fmt.Errorf("compare: -require-same-rolls: the runs' rolls differ, first at tick %d (%s)", rep.FirstRoll.Tick(), rep.FirstRoll.Key())
	}
	return nil
}

// parseInterspersed parses flags given before, between or after the
// positional arguments, which it returns in order.
func parseInterspersed(fl *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fl.Parse(args); err != nil {
			return nil, err
		}
		args = fl.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// compareSide is one run to compare, with what must be closed after.
type compareSide struct {
	cmp.Side
	close func()
}

// side opens a trace file (a name ending in .jsonl) or runs a rung.
func side(name string) (compareSide, error) {
	if strings.HasSuffix(name, ".jsonl") {
		return traceFile(name)
	}
	return freshRun(name)
}

// traceFile opens a trace for streaming. A trace.jsonl is a run's
// artifact (under reports/ or goldens/), so the dense.csv beside it, when
// there is one, is that run's too.
func traceFile(path string) (compareSide, error) {
	f, err := os.Open(path)
	if err != nil {
		return compareSide{}, err
	}
	s := compareSide{Side: cmp.Side{Name: filepath.ToSlash(path), Trace: f}, close: func() { f.Close() }}
	if filepath.Base(path) != artifact.TraceFile {
		return s, nil
	}
	d, err := os.ReadFile(filepath.Join(filepath.Dir(path), artifact.DenseFile))
	switch {
	case err == nil:
		s.Dense = d
	case !errors.Is(err, fs.ErrNotExist):
		f.Close()
		return compareSide{}, err
	}
	return s, nil
}

// freshRun runs a rung or case and compares what it produced.
func freshRun(name string) (compareSide, error) {
	f, err := find(name)
	if err != nil {
		return compareSide{}, err
	}
	if err := report.Adopt(reportsDir()); err != nil {
		return compareSide{}, err
	}
	dir, err := os.MkdirTemp(reportsDir(), ".run-*")
	if err != nil {
		return compareSide{}, err
	}
	// The run's trace is read as a stream by the comparison; its dense
	// file is small beside it and read whole.
	stall, err := ladder.StallLimit()
	if err != nil {
		os.RemoveAll(dir)
		return compareSide{}, err
	}
	res, err := ladder.Run(f, ladder.Options{Dir: dir, Stall: stall})
	if err != nil {
		os.RemoveAll(dir)
		return compareSide{}, err
	}
	dense, err := os.ReadFile(res.Path(artifact.DenseFile))
	if err != nil {
		os.RemoveAll(dir)
		return compareSide{}, err
	}
	tr, err := os.Open(res.Path(artifact.TraceFile))
	if err != nil {
		os.RemoveAll(dir)
		return compareSide{}, err
	}
	return compareSide{Side: cmp.Side{Name: f.Name(), Trace: tr, Dense: dense}, close: func() { tr.Close(); os.RemoveAll(dir) }}, nil
}

// curve prints a claim's believer curve: as the step function a `curve:`
// expectation takes (yaml, the default), or one row per tick as CSV —
// from the run's dense file, or from a fresh run with -rerun.
func curve(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("curve", flag.ContinueOnError)
	fl.SetOutput(stderr)
	name := fl.String("rung", "", "rung, or rung/case")
	claim := fl.String("claim", "", "claim id")
	format := fl.String("format", "yaml", "yaml (a curve: expectation) or csv (tick,believers,holders)")
	rf := addRunFlags(fl)
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *name == "" || *claim == "" {
		return errors.New("curve: -rung and -claim are required")
	}
	if *format != "yaml" && *format != "csv" {
		return fmt.Errorf("curve: unknown format %q (yaml or csv)", *format)
	}
	f, err := find(*name)
	if err != nil {
		return err
	}
	run, err := rf.locate(f)
	if err != nil {
		return fmt.Errorf("curve: %w", err)
	}
	var points []rerun.CurvePoint
	if run == nil {
		points, err = rerun.Curve(f, *claim)
	} else {
		var d *runfiles.Dense
		if d, err = run.Dense(); err == nil {
			points, err = d.Curve(*claim)
		}
		if err != nil {
			err = fmt.Errorf("curve: %s: %w", run.Where, err)
		}
	}
	if err != nil {
		return err
	}
	switch *format {
	case "csv":
		return gocsv.Marshal(points, stdout)
	default:
		steps := rerun.Steps(points)
		parts := make([]string, len(steps))
		for i, s := range steps {
			parts[i] = fmt.Sprintf("%d: %d", s.Tick, s.Count)
		}
		fmt.Fprintf(stdout, "curve:\n  claim: %s\n  believers: {%s}\n", *claim, strings.Join(parts, ", "))
	}
	return nil
}
