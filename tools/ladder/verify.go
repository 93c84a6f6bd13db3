package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/regen"
	"github.com/chronicle/ladder/ladder/replay"
	"github.com/chronicle/ladder/ladder/rerun"
	"github.com/chronicle/ladder/sim/audit"
)

// verify replays runs from their exported logs (package ladder/replay):
// for each rung or case named (every one when none is), it reads
// reports/<name>/events.jsonl and the run's checkpoints.json beside it
// (or, with -golden, the committed one), re-runs the fixture, and checks
// that the engine appends exactly the logged records and reaches the
// recorded state digests and log head. It prints one line per run and
// exits 1 naming the first record or tick where any run parts.
func verify(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("verify", flag.ContinueOnError)
	fl.SetOutput(stderr)
	reports := fl.String("reports", reportsDir(), "the directory a ladder run left its evidence in")
	golden := fl.Bool("golden", false, "check the digests and log head against the committed goldens' checkpoints.json instead of the run's")
	if err := fl.Parse(args); err != nil {
		return err
	}
	release, err := readReports(*reports)
	if err != nil {
		return err
	}
	defer release()
	fixtures, err := regen.Select(".", fl.Args())
	if err != nil {
		return err
	}
	failed, swept := 0, 0
	for _, f := range fixtures {
		if f.Sweep != nil {
			// Forty worlds, no single log: its per-seed aggregates are
			// compared byte for byte instead (decision 0032).
			swept++
			fmt.Fprintf(stdout, "%s: skipped: a sweep rung exports no event log to replay (its per-seed aggregates are its evidence)\n", f.Name())
			continue
		}
		rep, err := verifyOne(f, *reports, *golden)
		if err != nil {
			failed++
			fmt.Fprintf(stdout, "%s: FAIL: %v\n", f.Name(), err)
			continue
		}
		fmt.Fprintf(stdout, "%s: ok: %s\n", f.Name(), rep)
	}
	replayed := len(fixtures) - swept
	fmt.Fprintf(stdout, "verify: %d runs replayed, %d failed, %d sweep rungs skipped\n", replayed, failed, swept)
	if failed > 0 {
		return fmt.Errorf("verify: %d of %d runs do not replay to what they recorded", failed, replayed)
	}
	if replayed == 0 {
		return errors.New("verify: no run to replay: it checked nothing")
	}
	return nil
}

func verifyOne(f *fixture.Fixture, reports string, golden bool) (replay.Report, error) {
	dir := filepath.Join(reports, filepath.FromSlash(f.Name()))
	data, err := os.ReadFile(filepath.Join(dir, artifact.EventsFile))
	if errors.Is(err, os.ErrNotExist) {
		return replay.Report{}, fmt.Errorf("no exported log in %s: run `make ladder` (or `make ladder RUNG=%s`) first", dir, f.Name())
	}
	if err != nil {
		return replay.Report{}, err
	}
	log, err := replay.ReadLog(data)
	if err != nil {
		return replay.Report{}, fmt.Errorf("%s: %w", filepath.Join(dir, artifact.EventsFile), err)
	}
	cpPath := filepath.Join(dir, artifact.CheckpointsFile)
	if golden {
		cpPath = filepath.Join(filepath.FromSlash(f.GoldenDir()), artifact.CheckpointsFile)
	}
	raw, err := os.ReadFile(cpPath)
	if err != nil {
		return replay.Report{}, err
	}
	cp, err := checkpoint.Parse(cpPath, raw)
	if err != nil {
		return replay.Report{}, err
	}
	rep, err := replay.Verify(f, log, cp)
	if err != nil {
		return rep, fmt.Errorf("%s against %s: %w", filepath.Join(dir, artifact.EventsFile), cpPath, err)
	}
	return rep, nil
}

// auditRuns runs rungs with regime 2's audit and prints, per run, how much
// each invariant examined and every finding with its grade. -lenient
// grades warns without failing (the ladder is strict); -full audits every
// record at every tick instead of what each tick changed.
func auditRuns(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("audit", flag.ContinueOnError)
	fl.SetOutput(stderr)
	lenient := fl.Bool("lenient", false, "a warn does not fail (the ladder fails on warns)")
	full := fl.Bool("full", false, "audit every record at every tick, not only what the tick changed")
	if err := fl.Parse(args); err != nil {
		return err
	}
	fixtures, err := regen.Select(".", fl.Args())
	if err != nil {
		return err
	}
	opt := audit.Options{}
	if *full {
		opt.FullEvery = 1
	}
	failing := 0
	for _, f := range fixtures {
		ex, findings, err := rerun.AuditRun(f, opt)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %s\n", f.Name(), rerun.AuditSummary(ex))
		for _, x := range findings {
			fmt.Fprintf(stdout, "  %s\n", x)
			if x.Grade.Failing(!*lenient) {
				failing++
			}
		}
	}
	if failing > 0 {
		return fmt.Errorf("audit: %d failing findings", failing)
	}
	return nil
}
