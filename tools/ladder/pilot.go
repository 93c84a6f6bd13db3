package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/chronicle/ladder/ladder/regen"
	"github.com/chronicle/ladder/ladder/sweep"
	"github.com/chronicle/ladder/ladder/sweeprun"
	"github.com/chronicle/ladder/sim/canon"
)

// pilot runs a sweep rung's pilot: its world over the pilot seeds
// (<seed_id>/pilot/<j>, disjoint from the seeds the rung judges) and
// prints each aggregate's mean and sample standard deviation as the
// fixture's sweep.bounds spells them, with the z the rung uses. The
// bounds are derived from this output (docs/determinism.md).
func pilot(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("pilot", flag.ContinueOnError)
	fl.SetOutput(stderr)
	seeds := fl.Int("seeds", 200, "pilot seeds")
	z := fl.Float64("z", 3.89, "the z each bound is written with (3.89: two-sided false alarm 1e-4)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() != 1 {
		return errors.New("usage: ladder pilot [-seeds 200] [-z 3.89] RUNG")
	}
	if *seeds < 2 {
		return fmt.Errorf("pilot: %d seeds: a spread needs at least 2", *seeds)
	}
	fs, err := regen.Select(".", []string{fl.Arg(0)})
	if err != nil {
		return err
	}
	f := fs[0]
	if f.Sweep == nil {
		return fmt.Errorf("pilot: %s is not a sweep rung (it has no sweep: block)", f.Name())
	}
	ids := make([]string, *seeds)
	for j := range ids {
		ids[j] = sweeprun.PilotSeedID(f, j)
	}
	rows, err := sweeprun.Seeds(f, ids, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "# %s pilot: %d seeds %s … %s, %d towns of %d (%d NPCs)\n",
		f.Name(), *seeds, ids[0], ids[len(ids)-1], f.Sweep.Towns, len(f.Cast), f.Sweep.Towns*len(f.Cast))
	fmt.Fprintln(stdout, "bounds:")
	for c, name := range sweeprun.Columns(f.Sweep) {
		xs := make([]int64, len(rows))
		for i, row := range rows {
			xs[i] = row[c]
		}
		s, err := sweep.Summarise(xs)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "  %s: {mean: %s, sd: %s, pilot: %d, z: %s}   # range %d-%d\n",
			name, canon.FormatFloat(s.Mean), canon.FormatFloat(s.SD), s.N, canon.FormatFloat(*z), s.Min, s.Max)
	}
	return nil
}
