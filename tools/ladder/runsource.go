package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/runfiles"
	"github.com/chronicle/ladder/sim/trace"
)

// runFlags are the flags of an instrument that reads a run's written
// files (package ladder/runfiles): where the run is, or -rerun to run the
// fixture again with the code in the checkout instead — which, after a
// fix, is a different run from the one that failed.
type runFlags struct {
	src   runfiles.Source
	rerun bool
}

// addRunFlags registers -reports, -golden, -golden-at and -rerun.
func addRunFlags(fl *flag.FlagSet) *runFlags {
	r := &runFlags{}
	addSourceFlags(fl, &r.src)
	fl.BoolVar(&r.rerun, "rerun", false, "run the fixture again with the code in the checkout instead of reading a run's files")
	return r
}

// addSourceFlags registers -reports, -golden and -golden-at into src:
// where a run's written files are read from.
func addSourceFlags(fl *flag.FlagSet, src *runfiles.Source) {
	fl.StringVar(&src.Reports, "reports", "", "read the run from this `DIR`, laid out like reports/ (a downloaded CI artifact; default "+reportsDir()+")")
	fl.BoolVar(&src.Golden, "golden", false, "read the committed goldens (goldens/<rung>-<slug>[/<case>]/) instead of a run")
	fl.StringVar(&src.GoldenAt, "golden-at", "", "read the goldens as `COMMIT` had them (git show)")
}

// locate finds f's run; with -rerun there is none to find, and it
// returns nil (refusing -rerun with a place to read from).
func (r *runFlags) locate(f *fixture.Fixture) (*runfiles.Run, error) {
	if err := r.src.Check(); err != nil {
		return nil, err
	}
	if r.rerun {
		if r.src != (runfiles.Source{}) {
			return nil, errors.New("-rerun runs the fixture again and reads no files: drop -reports, -golden or -golden-at")
		}
		return nil, nil
	}
	return runfiles.Locate(f, r.src, reportsDir())
}

// records are the run's trace records up to tick until (every one when
// until < 0), of the kinds runfiles.Decode knows; an error names the
// command.
func records(cmd string, run *runfiles.Run, until int64) ([]trace.Record, error) {
	var out []trace.Record
	err := run.Records(until, func(r trace.Record) error {
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	return out, nil
}
