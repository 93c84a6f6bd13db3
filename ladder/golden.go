package ladder

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/chronicle/ladder/dense"
	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/fixture"
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
// behavioural (or a missing or broken golden); Warnings are input drift.
// Every message is one line starting with the rung name.
type Verdict struct {
	Failures []string
	Warnings []string
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
	if sr := f.SameRunAs; sr.Rung != "" {
		if d, err := samePrefix(filepath.Join(root, filepath.FromSlash(sr.GoldenDir), TraceFile), r.Trace, f.Ticks); err != nil {
			fail(TraceFile, "same_run: cannot read %s's trace golden: %v", sr.Rung, err)
		} else if d != nil {
			fail(TraceFile, "same_run: not the same run as %s: compared with %s/%s cut at tick %d, %s", sr.Rung, sr.GoldenDir, TraceFile, f.Ticks, d)
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
		}
	}
	return v
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
