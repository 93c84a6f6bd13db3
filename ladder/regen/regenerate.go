package regen

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chronicle/ladder/dense"
	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/trace"
	"github.com/chronicle/ladder/tolerances"
)

// Status is what regeneration did to one rung.
type Status struct {
	Rung   string // rung name, with the case
	State  string // "unchanged", "new", "changed", "refused"
	Detail string // first divergence from the old golden, or why refused
}

func (s Status) String() string {
	if s.Detail == "" {
		return fmt.Sprintf("%s %s", s.Rung, s.State)
	}
	return fmt.Sprintf("%s %s: %s", s.Rung, s.State, s.Detail)
}

// NondeterminismError means the two renderings differed: nothing was
// written.
type NondeterminismError struct {
	Rung, File, Divergence string
}

func (e *NondeterminismError) Error() string {
	return fmt.Sprintf("%s %s differs between two runs of the same code (%s): the engine is not deterministic; no golden was written",
		e.Rung, e.File, e.Divergence)
}

// Regenerate compares two independent renderings a and b (directories laid
// out as goldens/) and, when they agree, writes each rung's artifacts under
// root/goldens. It returns one Status per fixture, in order.
func Regenerate(root string, fixtures []*fixture.Fixture, a, b string) ([]Status, error) {
	for _, f := range fixtures {
		// The expectation verdict is part of what must reproduce: a rung
		// that fails in one rendering and passes in the other is
		// nondeterministic, not refusable.
		for _, name := range append(slices.Clone(ladder.ArtifactNames), FailuresFile) {
			x, errA := readOptional(filepath.Join(a, filepath.FromSlash(f.GoldenDir()), name), name == FailuresFile)
			y, errB := readOptional(filepath.Join(b, filepath.FromSlash(f.GoldenDir()), name), name == FailuresFile)
			if err := errors.Join(errA, errB); err != nil {
				return nil, fmt.Errorf("read rendering of %s: %w", f.Name(), err)
			}
			if !bytes.Equal(x, y) {
				return nil, &NondeterminismError{Rung: f.Name(), File: name, Divergence: divergence(name, x, y)}
			}
		}
	}
	var out []Status
	for _, f := range fixtures {
		st, err := write(root, f, filepath.Join(a, filepath.FromSlash(f.GoldenDir())))
		if err != nil {
			return out, err
		}
		out = append(out, st)
	}
	return out, nil
}

// readOptional reads a file; when optional, a missing file reads as empty.
func readOptional(path string, optional bool) ([]byte, error) {
	b, err := os.ReadFile(path)
	if optional && errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

func write(root string, f *fixture.Fixture, rendered string) (Status, error) {
	st := Status{Rung: f.Name()}
	if failures, err := os.ReadFile(filepath.Join(rendered, FailuresFile)); err == nil {
		st.State = "refused"
		st.Detail = "its expectations fail, so its goldens would record wrong behaviour:\n  " +
			strings.ReplaceAll(strings.TrimSpace(string(failures)), "\n", "\n  ")
		return st, nil
	}
	dir := filepath.Join(root, filepath.FromSlash(f.GoldenDir()))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return st, err
	}
	var changed, added []string
	for _, name := range ladder.ArtifactNames {
		fresh, err := os.ReadFile(filepath.Join(rendered, name))
		if err != nil {
			return st, err
		}
		old, err := os.ReadFile(filepath.Join(dir, name))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			added = append(added, name)
		case err != nil:
			return st, err
		case bytes.Equal(old, fresh):
			continue
		default:
			changed = append(changed, name+": "+divergence(name, old, fresh))
		}
		if err := WriteAtomic(filepath.Join(dir, name), fresh); err != nil {
			return st, err
		}
	}
	switch {
	case len(changed) > 0:
		st.State, st.Detail = "changed", strings.Join(changed, "; ")
	case len(added) == len(ladder.ArtifactNames):
		st.State = "new"
	case len(added) > 0:
		st.State, st.Detail = "changed", "added "+strings.Join(added, ", ")
	default:
		st.State = "unchanged"
	}
	return st, nil
}

// divergence describes the first difference between two versions of an
// artifact, in the artifact's own terms.
func divergence(name string, old, fresh []byte) string {
	switch name {
	case ladder.DenseFile:
		d, err := dense.Compare(old, fresh)
		if err != nil {
			return "old golden unreadable: " + err.Error()
		}
		if d != nil {
			return d.String()
		}
	case ladder.TraceFile:
		if d := trace.Compare(old, fresh); d != nil {
			return d.String()
		}
	case ladder.CheckpointsFile:
		g, errG := checkpoint.Parse("old "+name, old)
		a, errA := checkpoint.Parse("new "+name, fresh)
		if err := errors.Join(errG, errA); err != nil {
			return err.Error()
		}
		rep := checkpoint.Compare(g, a, tolerances.ByteIdentity)
		if msgs := append(rep.Failures, rep.Warnings...); len(msgs) > 3 {
			return fmt.Sprintf("%s; and %d more differences", strings.Join(msgs[:3], "; "), len(msgs)-3)
		} else if len(msgs) > 0 {
			return strings.Join(msgs, "; ")
		}
	}
	ol, fl := strings.Split(string(old), "\n"), strings.Split(string(fresh), "\n")
	for i := range max(len(ol), len(fl)) {
		if i >= len(ol) || i >= len(fl) || ol[i] != fl[i] {
			return fmt.Sprintf("first different line %d", i+1)
		}
	}
	return "bytes differ"
}

// WriteAtomic writes data to path by writing a temporary file in the same
// directory and renaming it over path, so readers see the old or the new
// file, never a torn one.
func WriteAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("sync %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	return nil
}
