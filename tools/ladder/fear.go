package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/tolerances"
	"github.com/chronicle/ladder/views"
)

// The collective fear view (package views) as of a tick: the total at
// every location where someone holds a belief that carries fear, the
// independent recomputation the fear expectation holds it to with its
// regime 3 bound, and the drill-down — every contributing belief with its
// holder, claim, variant, confidence, gist and weight. The view is
// computed on read, as in the ladder, from the run's written files (its
// dense row for the tick and its trace's events: runfiles.Run.Fear), or
// from the fixture run again to the tick with -rerun.

// worldSource reads an engine world as the view's source.
type worldSource struct{ *sim.World }

func (s worldSource) Tick() int64 { return s.Now() }

// fearView prints the fear view of a run as of a tick.
func fearView(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("fear", flag.ContinueOnError)
	fl.SetOutput(stderr)
	name := fl.String("rung", "", "rung, or rung/case")
	at := fl.Int64("at", -1, "the tick to show the fear as of (default: the last tick)")
	only := fl.String("location", "", "only this location (and no drill-down elsewhere)")
	rf := addRunFlags(fl)
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *name == "" {
		return errors.New("fear: -rung is required")
	}
	f, err := find(*name)
	if err != nil {
		return err
	}
	if *only != "" && !slices.ContainsFunc(f.Locations, func(l sim.Location) bool { return l.ID == *only }) {
		return fmt.Errorf("fear: %s has no location %q", f.Name(), *only)
	}
	src, tick, err := fearSource(f, rf, *at)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(stdout)
	fmt.Fprintf(out, "%s: collective fear as of tick %d (severity × confidence × gist per belief; killing 1, brawl 0.5, theft 0.25)\n", f.Name(), tick)
	fmt.Fprintf(out, "%-20s %-22s %7s  %-22s %-24s %s\n", "location", "total", "beliefs", "recomputed", "|Δ|", "bound (regime 3)")
	all := append([]views.Fear{views.Everywhere(src)}, views.ByLocation(src)...)
	for _, x := range all {
		if *only != "" && x.Location != *only && x.Location != views.Everyone {
			continue
		}
		again, sum := expect.RecomputeFear(src, x.Location)
		ok, bound, err := tolerances.SizeScaled.Within(x.Total, again, sum)
		if err != nil {
			return err
		}
		verdict := ""
		if !ok || sum.Terms != len(x.Contributions) {
			verdict = "  OUTSIDE: the view and the recomputation do not add up the same terms"
		}
		fmt.Fprintf(out, "%-20s %-22s %7d  %-22s %-24s %s%s\n", placeName(x.Location), canon.FormatFloat(x.Total), len(x.Contributions),
			canon.FormatFloat(again), canon.FormatFloat(abs(x.Total-again)), canon.FormatFloat(bound), verdict)
	}
	for _, x := range all[1:] {
		if *only != "" && x.Location != *only {
			continue
		}
		fmt.Fprintf(out, "\n%s (%d beliefs):\n", placeName(x.Location), len(x.Contributions))
		for _, c := range x.Contributions {
			fmt.Fprintf(out, "  %-12s %-18s %-22s confidence %-20s gist %-20s weight %s\n", c.Holder, c.Claim, c.Variant,
				canon.FormatFloat(c.Confidence), canon.FormatFloat(c.Gist), canon.FormatFloat(c.Weight))
		}
	}
	return out.Flush()
}

// fearSource is the run as the fear view reads it as of tick at (the
// last tick when at < 0): from its files, or run again with -rerun.
func fearSource(f *fixture.Fixture, rf *runFlags, at int64) (views.Source, int64, error) {
	run, err := rf.locate(f)
	if err != nil {
		return nil, 0, fmt.Errorf("fear: %w", err)
	}
	if run != nil {
		tick, err := run.At("fear", at)
		if err != nil {
			return nil, 0, err
		}
		src, err := run.Fear(tick)
		if err != nil {
			return nil, 0, fmt.Errorf("fear: %w", err)
		}
		return src, tick, nil
	}
	_, tick, err := findAt("fear", f.Name(), at)
	if err != nil {
		return nil, 0, err
	}
	w, _, err := stepped(f, tick)
	if err != nil {
		return nil, 0, err
	}
	return views.Engine(worldSource{w}), tick, nil
}

// placeName names a fear view's location for people.
func placeName(loc string) string {
	switch loc {
	case views.Everyone:
		return "everywhere"
	case "":
		return "nowhere"
	}
	return loc
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
