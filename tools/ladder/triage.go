package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gocarina/gocsv"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/regen"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/trace"
)

// find returns the fixture named rung or rung/case.
func find(name string) (*fixture.Fixture, error) {
	fs, err := regen.Select(".", []string{name})
	if err != nil {
		return nil, err
	}
	return fs[0], nil // the rung comes before its cases
}

// explain steps a rung to a tick and prints one belief's provenance.
func explain(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("explain", flag.ContinueOnError)
	fl.SetOutput(stderr)
	name := fl.String("rung", "", "rung, or rung/case")
	at := fl.Int64("at", -1, "tick to explain as of (default: the last tick)")
	holder := fl.String("holder", "", "NPC holding the belief")
	claim := fl.String("claim", "", "claim id")
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
	tick := *at
	if tick < 0 {
		tick = f.Ticks - 1
	}
	if tick >= f.Ticks {
		return fmt.Errorf("explain: tick %d is outside %s's run [0, %d)", tick, f.Name(), f.Ticks)
	}
	w, err := ladder.Build(f, nil)
	if err != nil {
		return err
	}
	for w.Now() < tick {
		if err := w.Step(); err != nil {
			return f.Locate(err)
		}
	}
	return ladder.Explain(stdout, w, *holder, *claim)
}

// compare reports where two runs' traces first differ and how their rolls
// compare. Each argument is a trace.jsonl path or a rung[/case] to run.
func compare(args []string, stdout io.Writer) error {
	if len(args) != 2 {
		return errors.New("usage: ladder compare <rung[/case] | trace.jsonl> <rung[/case] | trace.jsonl>")
	}
	var traces [2][]byte
	for i, a := range args {
		var err error
		if strings.HasSuffix(a, ".jsonl") {
			traces[i], err = os.ReadFile(a)
		} else {
			traces[i], err = runTrace(a)
		}
		if err != nil {
			return err
		}
	}
	if d := trace.Compare(traces[0], traces[1]); d != nil {
		fmt.Fprintf(stdout, "traces: %s\n", d.Describe(args[0], args[1]))
	} else {
		fmt.Fprintln(stdout, "traces: identical")
	}
	rd, err := trace.CompareRolls(traces[0], traces[1])
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "rolls: %d keys rolled by both, %d with different values; %d only in %s; %d only in %s\n",
		rd.Shared, len(rd.Differing), len(rd.OnlyA), args[0], len(rd.OnlyB), args[1])
	show := func(title string, rs []trace.RollRecord) {
		for i, r := range rs {
			if i == 5 {
				fmt.Fprintf(stdout, "  … and %d more\n", len(rs)-5)
				break
			}
			pinned := ""
			if r.Pinned {
				pinned = " (pinned)"
			}
			fmt.Fprintf(stdout, "  %s: tick %d %s = %s%s (line %d)\n", title, r.Tick, r.Key, canon.FormatFloat(r.Value), pinned, r.Line)
		}
	}
	show("different", rd.Differing)
	show("only in "+args[0], rd.OnlyA)
	show("only in "+args[1], rd.OnlyB)
	return nil
}

func runTrace(name string) ([]byte, error) {
	f, err := find(name)
	if err != nil {
		return nil, err
	}
	return runArtifact(f, ladder.TraceFile)
}

// curve prints a claim's believer curve: as the step function a `curve:`
// expectation takes (yaml, the default), or one row per tick as CSV.
func curve(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("curve", flag.ContinueOnError)
	fl.SetOutput(stderr)
	name := fl.String("rung", "", "rung, or rung/case")
	claim := fl.String("claim", "", "claim id")
	format := fl.String("format", "yaml", "yaml (a curve: expectation) or csv (tick,believers,holders)")
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
	points, err := ladder.Curve(f, *claim)
	if err != nil {
		return err
	}
	switch *format {
	case "csv":
		return gocsv.Marshal(points, stdout)
	default:
		steps := ladder.Steps(points)
		parts := make([]string, len(steps))
		for i, s := range steps {
			parts[i] = fmt.Sprintf("%d: %d", s.Tick, s.Count)
		}
		fmt.Fprintf(stdout, "curve:\n  claim: %s\n  believers: {%s}\n", *claim, strings.Join(parts, ", "))
	}
	return nil
}
