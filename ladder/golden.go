package ladder

import (
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
