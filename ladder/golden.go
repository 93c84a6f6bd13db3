package ladder

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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
// reproduce the failure and how to regenerate the rung's goldens — for a
// case, that case alone.
func Commands(f *fixture.Fixture) string {
	return fmt.Sprintf("(reproduce: make ladder RUNG=%s; regenerate: make goldens RUNG=%s)", f.Name(), f.Name())
}

// Verify compares a run's artifacts with the goldens under root (the
// repository root). Each artifact contributes at most one problem, its
// earliest: the first divergent dense cell (or, when the column set
// changed, the first shared column that differs beside what was added and
// removed), the first divergent trace record with the fields that differ,
// and the earliest checkpoint difference with a count of the others.
func Verify(root string, r *Result) Verdict {
	f := r.Fixture
	dir := filepath.Join(root, filepath.FromSlash(f.GoldenDir()))
	var v Verdict
	if p, ok := missingGoldens(root, f); ok {
		v.Problems = append(v.Problems, p)
		return v
	}
	read := func(name string) ([]byte, bool) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			v.Problems = append(v.Problems, missingGolden(root, f, name))
			return nil, false
		case err != nil:
			v.Problems = append(v.Problems, problem(f, name, -1, "cannot read the golden: %v", err))
			return nil, false
		}
		return b, true
	}
	if golden, ok := read(DenseFile); ok {
		if p, ok := denseProblem(f, golden, r.Dense); ok {
			v.Problems = append(v.Problems, p)
		}
	}
	if golden, ok := read(TraceFile); ok {
		if d := trace.Compare(golden, r.Trace); d != nil {
			p := problem(f, TraceFile, d.Tick, "%s", d)
			p.Column = strings.TrimSpace(d.Kind + " " + strings.Trim(d.Key, `"`))
			if len(d.Fields) > 0 && !d.Shifted {
				p.Column += " " + d.Fields[0].Path
				p.Golden, p.Actual = d.Fields[0].Golden, d.Fields[0].Actual
			}
			v.Problems = append(v.Problems, p)
		}
	}
	if sr := f.SameRunAs; sr.Rung != "" {
		if d, err := samePrefix(filepath.Join(root, filepath.FromSlash(sr.GoldenDir), TraceFile), r.Trace, f.Ticks); err != nil {
			v.Problems = append(v.Problems, problem(f, TraceFile, -1, "same_run: cannot read %s's trace golden: %v", sr.Rung, err))
		} else if d != nil {
			v.Problems = append(v.Problems, problem(f, TraceFile, d.Tick, "same_run: not the same run as %s: compared with %s/%s cut at tick %d, %s", sr.Rung, sr.GoldenDir, TraceFile, f.Ticks, d))
		}
	}
	if golden, ok := read(CheckpointsFile); ok {
		g, err := checkpoint.Parse(f.GoldenDir()+"/"+CheckpointsFile, golden)
		if err != nil {
			v.Problems = append(v.Problems, problem(f, CheckpointsFile, -1, "golden is malformed: %v", err))
		} else {
			rep := checkpoint.Compare(g, r.Checkpoints, tolerances.Checkpoint)
			if p, ok := checkpointProblem(f, rep.Diffs); ok {
				v.Problems = append(v.Problems, p)
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

// Artifacts returns the run's golden files by name.
func (r *Result) Artifacts() (map[string][]byte, error) {
	cp, err := r.Checkpoints.Marshal()
	if err != nil {
		return nil, err
	}
	return map[string][]byte{DenseFile: r.Dense, TraceFile: r.Trace, CheckpointsFile: cp}, nil
}

// samePrefix compares a run's trace with the start of another rung's trace
// golden: its header and every record before tick ticks. A rung that
// declares same_run is that other run cut short, so the two must agree
// byte for byte up to the cut; the first divergent record is returned.
func samePrefix(goldenPath string, actual []byte, ticks int64) (*trace.Divergence, error) {
	golden, err := os.ReadFile(goldenPath)
	if err != nil {
		return nil, err
	}
	cut, err := traceBefore(golden, ticks)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", goldenPath, err)
	}
	return trace.Compare(cut, actual), nil
}

// traceBefore returns the start of a trace file: the header line and every
// record whose tick is below ticks. Records are in tick order, so it stops
// at the first record at or past the cut.
func traceBefore(file []byte, ticks int64) ([]byte, error) {
	end := bytes.IndexByte(file, '\n') + 1
	if end == 0 {
		return nil, errors.New("no header line")
	}
	for end < len(file) {
		next := bytes.IndexByte(file[end:], '\n')
		if next < 0 {
			return nil, fmt.Errorf("line %d: no final newline", bytes.Count(file[:end], []byte("\n"))+1)
		}
		var rec struct {
			Tick *int64 `json:"tick"`
		}
		if err := json.Unmarshal(file[end:end+next], &rec); err != nil || rec.Tick == nil {
			return nil, fmt.Errorf("line %d: not a trace record with a tick", bytes.Count(file[:end], []byte("\n"))+1)
		}
		if *rec.Tick >= ticks {
			break
		}
		end += next + 1
	}
	return file[:end], nil
}
