package verdict

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/tolerances"
)

// Verdict is the comparison of a run with its goldens. Problems are
// behavioural (or a missing or broken golden), each located by tick where
// it has one; Warnings are input drift, one line each starting with the
// rung name, and Drift is the same drift as data, for grouping across
// rungs (DriftLines).
type Verdict struct {
	Problems []Problem
	Warnings []string
	Drift    []RungDrift
}

// Commands returns the suffix every failure message ends with: how to
// reproduce the failure and, only if the change was intended, how to keep
// it — review the run's pending change, then accept it (for a case, that
// case alone); a sweep's bounds come from its pilot instead. It never says
// "regenerate": a red run is a bug until someone has read it.
func Commands(f *fixture.Fixture) string {
	if f.Sweep != nil {
		return fmt.Sprintf("(reproduce: make ladder RUNG=%s; if intended: `go run ./tools/ladder pilot %s` for new bounds, then `review %s` and `accept -reason \"…\" %s`)",
			f.Name(), f.Name(), f.Name(), f.Name())
	}
	return fmt.Sprintf("(reproduce: make ladder RUNG=%s; if intended: `go run ./tools/ladder review %s`, then `accept -reason \"…\" %s`)", f.Name(), f.Name(), f.Name())
}

// Verify judges a run's artifacts against the goldens its run compared
// them with (Options.Goldens). Each artifact contributes at most one
// problem, its earliest: the first divergent dense cell (or, when the
// column set changed, the first shared column that differs beside what
// was added and removed), the first divergent trace record with the
// fields that differ, and the earliest checkpoint difference with a count
// of the others. The dense and trace verdicts were reached as the run
// wrote the files; only checkpoints.json, a few sampled values, is read
// here.
//
// A run that stopped part way (an aborted run) is judged on the ticks it
// finished: its dense rows and trace records are compared as far as they
// go, the golden's later rows and records are not called missing (the
// abort says why they are), and its checkpoints, whose outcome the abort
// moved, are not compared.
func Verify(r *ladder.Result) Verdict {
	if r.SweepGoldens != "" {
		return verifySweep(r)
	}
	f := r.Fixture
	var v Verdict
	c := r.Compared
	if c == nil {
		v.Problems = append(v.Problems, problem(f, "goldens", -1, "the run was not compared with goldens (ladder.Options.Goldens was empty)"))
		return v
	}
	root := c.Root
	dir := filepath.Join(root, filepath.FromSlash(f.GoldenDir()))
	if p, ok := missingGoldens(root, f); ok {
		v.Problems = append(v.Problems, p)
		return v
	}
	unread := func(name string, missing bool, err error) bool {
		switch {
		case missing:
			v.Problems = append(v.Problems, missingGolden(root, f, name))
		case err != nil:
			v.Problems = append(v.Problems, problem(f, name, -1, "cannot read the golden: %v", err))
		}
		return missing || err != nil
	}
	end, cut := r.CutShort()
	if !unread(artifact.DenseFile, c.Dense.Missing, c.Dense.Err) {
		if p, ok := denseProblem(f, c.Dense.Result); ok && !(cut && (p.Tick < 0 || p.Tick >= end)) {
			v.Problems = append(v.Problems, p)
		}
	}
	if !unread(artifact.TraceFile, c.Trace.Missing, c.Trace.Err) {
		if d := c.Trace.Result; d != nil && !(cut && d.Tick >= end) {
			p := problem(f, artifact.TraceFile, d.Tick, "%s", d)
			if p.record, p.hasRecord = recordSeq(d.Actual); !p.hasRecord {
				p.record, p.hasRecord = recordSeq(d.Golden)
			}
			p.Column = strings.TrimSpace(d.Kind + " " + strings.Trim(d.Key, `"`))
			if len(d.Fields) > 0 && !d.Shifted {
				p.Column += " " + d.Fields[0].Path
				p.Golden, p.Actual = d.Fields[0].Golden, d.Fields[0].Actual
			}
			v.Problems = append(v.Problems, p)
		}
	}
	if sr := f.SameRunAs; sr.Rung != "" {
		if err := c.Same.Err; err != nil {
			v.Problems = append(v.Problems, problem(f, artifact.TraceFile, -1, "same_run: cannot read %s's trace golden: %v", sr.Rung, err))
		} else if d := c.Same.Result; d != nil {
			v.Problems = append(v.Problems, problem(f, artifact.TraceFile, d.Tick, "same_run: not the same run as %s: compared with %s/%s cut at tick %d, %s", sr.Rung, sr.GoldenDir, artifact.TraceFile, f.Ticks, d))
		}
	}
	if cut {
		return v
	}
	golden, err := os.ReadFile(filepath.Join(dir, artifact.CheckpointsFile))
	if !unread(artifact.CheckpointsFile, errors.Is(err, fs.ErrNotExist), err) {
		g, err := checkpoint.Parse(f.GoldenDir()+"/"+artifact.CheckpointsFile, golden)
		if err != nil {
			v.Problems = append(v.Problems, problem(f, artifact.CheckpointsFile, -1, "golden is malformed: %v", err))
		} else {
			rep := checkpoint.Compare(g, r.Checkpoints, tolerances.Checkpoint)
			if p, ok := checkpointProblem(f, rep.Diffs); ok {
				v.Problems = append(v.Problems, p)
			}
			for _, m := range rep.Warnings {
				v.Warnings = append(v.Warnings, fmt.Sprintf("%s %s: %s", f.Name(), artifact.CheckpointsFile, m))
			}
			for _, d := range rep.Drift {
				v.Drift = append(v.Drift, RungDrift{Rung: f.Name(), What: d.What, Golden: d.Golden, Actual: d.Actual})
			}
		}
	}
	return v
}
