package ladder

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/tolerances"
)

// Sealed returns the files a run of f writes and its manifest seals, in
// the order they are written and checked: a sweep rung's aggregates and
// summary, every other rung's dense file, checkpoints and trace.
func Sealed(f *fixture.Fixture) []string {
	if f.Sweep != nil {
		return artifact.SweepNames
	}
	return artifact.RungNames
}

// Artifacts returns every golden file of f's set: the files its manifest
// seals, then the manifest.
func Artifacts(f *fixture.Fixture) []string {
	return append(slices.Clone(Sealed(f)), artifact.ManifestFile)
}

// ArtifactOrder sorts artifact names as runs write them: a rung's
// artifacts in artifact.RungNames order, then any other name bytewise, the
// manifest last — for listings that know names but not the fixture.
func ArtifactOrder(names []string) []string {
	rank := func(n string) int {
		if i := slices.Index(artifact.RungNames, n); i >= 0 {
			return i
		}
		if i := slices.Index(artifact.SweepNames, n); i >= 0 {
			return i
		}
		if n == artifact.ManifestFile {
			return len(artifact.RungNames) + 1
		}
		return len(artifact.RungNames)
	}
	out := slices.Clone(names)
	slices.SortFunc(out, func(a, b string) int { return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a, b)) })
	return out
}

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
func Verify(r *Result) Verdict {
	if r.sweep != nil {
		return verifySweep(r)
	}
	f := r.Fixture
	var v Verdict
	c := r.compared
	if c == nil {
		v.Problems = append(v.Problems, problem(f, "goldens", -1, "the run was not compared with goldens (ladder.Options.Goldens was empty)"))
		return v
	}
	root := c.root
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
	end, cut := r.cutShort()
	if !unread(artifact.DenseFile, c.dense.missing, c.dense.err) {
		if p, ok := denseProblem(f, c.dense.result); ok && !(cut && (p.Tick < 0 || p.Tick >= end)) {
			v.Problems = append(v.Problems, p)
		}
	}
	if !unread(artifact.TraceFile, c.trace.missing, c.trace.err) {
		if d := c.trace.result; d != nil && !(cut && d.Tick >= end) {
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
		if err := c.same.err; err != nil {
			v.Problems = append(v.Problems, problem(f, artifact.TraceFile, -1, "same_run: cannot read %s's trace golden: %v", sr.Rung, err))
		} else if d := c.same.result; d != nil {
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

// recordedDefines returns the defines of the layers a world uses as
// checkpoints.json records them, beside their hash: each value as its
// canonical JSON number, so a drift warning can name the define that
// moved.
func recordedDefines(d rules.Defines, layers rules.Layers) (map[string]json.Number, error) {
	out := map[string]json.Number{}
	for _, f := range d.Canonical(layers) {
		b, err := canon.Marshal(f.Value)
		if err != nil {
			return nil, fmt.Errorf("record define %s: %w", f.Key, err)
		}
		out[f.Key] = json.Number(b)
	}
	return out, nil
}
