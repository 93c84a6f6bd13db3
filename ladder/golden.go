package ladder

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chronicle/ladder/dense"
	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
	"github.com/chronicle/ladder/tolerances"
)

// The golden artifacts of a rung, by file name.
const (
	DenseFile       = "dense.csv"
	CheckpointsFile = "checkpoints.json"
	TraceFile       = "trace.jsonl"
)

// ArtifactNames lists the golden files of a rung in the order they are
// written and checked.
var ArtifactNames = []string{DenseFile, CheckpointsFile, TraceFile}

// Verdict is the comparison of a run with its goldens. Failures are
// behavioural (or a missing or broken golden); Warnings are input drift,
// one line each starting with the rung name, and Drift is the same drift
// as data, for grouping across rungs (DriftLines).
type Verdict struct {
	Failures []string
	Warnings []string
	Drift    []RungDrift
}

// RungDrift is one input that moved for one rung or case.
type RungDrift struct {
	Rung   string `json:"rung"`
	What   string `json:"what"`
	Golden string `json:"golden"`
	Actual string `json:"actual"`
}

// DriftLines groups input drift across a run: one line per distinct change
// (what moved, from what, to what) naming every rung it touched — a define
// changed for the whole ladder is one line, not one per rung. Lines are
// ordered by what moved, then by values; rungs by name.
func DriftLines(drift []RungDrift) []string {
	type change struct{ what, golden, actual string }
	rungs := map[change][]string{}
	for _, d := range drift {
		c := change{d.What, d.Golden, d.Actual}
		if !slices.Contains(rungs[c], d.Rung) {
			rungs[c] = append(rungs[c], d.Rung)
		}
	}
	changes := slices.SortedFunc(maps.Keys(rungs), func(a, b change) int {
		return cmp.Or(cmp.Compare(a.what, b.what), cmp.Compare(a.golden, b.golden), cmp.Compare(a.actual, b.actual))
	})
	out := make([]string, len(changes))
	for i, c := range changes {
		names := rungs[c]
		slices.Sort(names)
		where := "in " + names[0]
		if len(names) > 1 {
			where = fmt.Sprintf("in %d rungs: %s", len(names), strings.Join(names, ", "))
		}
		out[i] = fmt.Sprintf("%s: %s → %s %s", c.what, c.golden, c.actual, where)
	}
	return out
}

// Commands returns the suffix every failure message ends with: how to
// reproduce the failure and how to regenerate the rung's goldens.
func Commands(f *fixture.Fixture) string {
	return fmt.Sprintf("(reproduce: make ladder RUNG=%s; regenerate: make goldens RUNG=%s)", f.Rung, f.Rung)
}

// Verify compares a run's artifacts with the goldens under root (the
// repository root).
func Verify(root string, r *Result) Verdict {
	f := r.Fixture
	dir := filepath.Join(root, filepath.FromSlash(f.GoldenDir()))
	var v Verdict
	fail := func(file, format string, args ...any) {
		v.Failures = append(v.Failures, fmt.Sprintf("%s %s: %s %s", f.Name(), file, fmt.Sprintf(format, args...), Commands(f)))
	}
	read := func(name string) ([]byte, bool) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			fail(name, "golden %s/%s is missing", f.GoldenDir(), name)
			return nil, false
		case err != nil:
			fail(name, "cannot read the golden: %v", err)
			return nil, false
		}
		return b, true
	}

	if golden, ok := read(DenseFile); ok {
		d, err := dense.Compare(golden, r.Dense)
		switch {
		case err != nil:
			fail(DenseFile, "golden %s/%s is malformed: %v", f.GoldenDir(), DenseFile, err)
		case d != nil:
			fail(DenseFile, "%s", d)
		}
	}
	if golden, ok := read(TraceFile); ok {
		if d := trace.Compare(golden, r.Trace); d != nil {
			fail(TraceFile, "%s", d)
		}
	}
	if golden, ok := read(CheckpointsFile); ok {
		g, err := checkpoint.Parse(f.GoldenDir()+"/"+CheckpointsFile, golden)
		if err != nil {
			fail(CheckpointsFile, "golden is malformed: %v", err)
		} else {
			rep := checkpoint.Compare(g, r.Checkpoints, tolerances.Checkpoint)
			for _, m := range rep.Failures {
				fail(CheckpointsFile, "%s", m)
			}
			for _, m := range rep.Warnings {
				v.Warnings = append(v.Warnings, fmt.Sprintf("%s %s: %s", f.Name(), CheckpointsFile, m))
			}
			for _, d := range rep.Drift {
				v.Drift = append(v.Drift, RungDrift{Rung: f.Name(), What: d.What, Golden: d.Golden, Actual: d.Actual})
			}
		}
	}
	return v
}

// recordedDefines returns the defines as checkpoints.json records them,
// beside their hash: each value as its canonical JSON number, so a drift
// warning can name the define that moved.
func recordedDefines(d rules.Defines) (map[string]json.Number, error) {
	out := map[string]json.Number{}
	for _, f := range d.Canonical() {
		b, err := canon.Marshal(f.Value)
		if err != nil {
			return nil, fmt.Errorf("record define %s: %w", f.Key, err)
		}
		out[f.Key] = json.Number(b)
	}
	return out, nil
}

// Artifacts returns the run's golden files by name.
func (r *Result) Artifacts() (map[string][]byte, error) {
	cp, err := r.Checkpoints.Marshal()
	if err != nil {
		return nil, err
	}
	return map[string][]byte{DenseFile: r.Dense, TraceFile: r.Trace, CheckpointsFile: cp}, nil
}
