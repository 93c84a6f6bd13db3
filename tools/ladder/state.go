package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/runfiles"
	"github.com/chronicle/ladder/sim/digest"
)

// state prints the canonical engine state at a tick (the text the state
// digest hashes). It is the one instrument whose answer is not in the
// files: a run writes the state's digest at each checkpoint sample, not
// its text (6.3 MB a sample in a city). So it runs the fixture again and
// prints that state only when the re-run is the run a person asked about:
// the run's fixture hash is the checkout's, and the re-run reaches every
// state digest the run recorded up to the first sample at or after the
// tick. Otherwise it refuses, naming the tick and both digests, rather
// than print a state the run never had. -rerun prints the re-run's state
// with no run to hold it to.
func state(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("state", flag.ContinueOnError)
	fl.SetOutput(stderr)
	name := fl.String("rung", "", "rung, or rung/case")
	at := fl.Int64("at", -1, "tick (default: the last tick)")
	rf := addRunFlags(fl)
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *name == "" {
		return errors.New("state: -rung is required")
	}
	f, err := find(*name)
	if err != nil {
		return err
	}
	run, err := rf.locate(f)
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	var held []checkpoint.Sample // the run's digests the re-run must reach
	tick := *at
	if run != nil {
		if tick, err = run.At("state", *at); err != nil {
			return err
		}
		if held, err = heldDigests(run, f, tick); err != nil {
			return fmt.Errorf("state: %w", err)
		}
	} else if _, tick, err = findAt("state", *name, *at); err != nil {
		return err
	}
	w, err := ladder.Build(f, nil)
	if err != nil {
		return err
	}
	var text []byte
	var sum string
	var matched []string
	memo := digest.NewMemo() // the held digests, one world's in tick order
	for {
		if w.Now() == tick {
			if text, err = digest.Canonical(w); err != nil {
				return err
			}
			sum = digest.Sum(text)
		}
		if len(held) > 0 && held[0].Tick == w.Now() {
			d := sum
			if w.Now() != tick {
				if d, err = memo.Of(w); err != nil {
					return err
				}
			}
			if d != held[0].StateDigest {
				return fmt.Errorf("state: a re-run is not the run in %s: at tick %d the run recorded state digest %s, the checkout's engine reaches %s — the state it would print is not the run's. Check out the commit that made the run, or print the re-run's state with -rerun",
					run.Where, w.Now(), held[0].StateDigest, d)
			}
			matched = append(matched, fmt.Sprint(w.Now()))
			held = held[1:]
		}
		if w.Now() >= tick && len(held) == 0 {
			break
		}
		if err := w.Step(); err != nil {
			return f.Locate(err)
		}
	}
	fmt.Fprintf(stderr, "%s at tick %d: state digest %s\n", f.Name(), tick, sum)
	if run != nil {
		fmt.Fprintf(stderr, "the run's own state: a re-run reached every digest the run in %s recorded up to tick %s (ticks %s)\n",
			run.Where, matched[len(matched)-1], strings.Join(matched, ", "))
	}
	_, err = stdout.Write(append(text, '\n'))
	return err
}

// heldDigests are the state digests a re-run of f must reach to stand for
// run as of tick: every sample's the run recorded up to and including the
// first at or after the tick, the digest at the end standing as a sample
// at the last tick. It refuses a run made from another fixture,
// and a run whose digests do not reach the tick (written before runs
// recorded them).
func heldDigests(run *runfiles.Run, f *fixture.Fixture, tick int64) ([]checkpoint.Sample, error) {
	cp, err := run.Checkpoints()
	if err != nil {
		return nil, err
	}
	if cp.FixtureHash != f.Hash {
		return nil, fmt.Errorf("the run in %s was made from another %s (fixture hash %s; the checkout's is %s): a re-run cannot stand for it. Check out the commit that made the run, or print the re-run's state with -rerun",
			run.Where, f.File, cp.FixtureHash, f.Hash)
	}
	// The outcome's digest is the state at the last tick the run ran,
	// the last sample's tick when the run samples at all.
	samples := cp.Samples
	if end := cp.Outcome.Ticks - 1; cp.Outcome.Ticks > 0 && (len(samples) == 0 || samples[len(samples)-1].Tick < end) {
		samples = append(slices.Clip(samples), checkpoint.Sample{Tick: end, StateDigest: cp.Outcome.StateDigest})
	}
	var held []checkpoint.Sample
	for _, s := range samples {
		if s.StateDigest == "" {
			return nil, fmt.Errorf("%s/%s records no state digest at tick %d (written before runs recorded them): nothing shows a re-run is the run; print the re-run's state with -rerun", run.Where, runfiles.CheckpointsFile, s.Tick)
		}
		held = append(held, s)
		if s.Tick >= tick {
			return held, nil
		}
	}
	return nil, fmt.Errorf("%s/%s records no state digest at or after tick %d: nothing shows a re-run is the run; print the re-run's state with -rerun", run.Where, runfiles.CheckpointsFile, tick)
}
