package history

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/dense"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/triage"
	"github.com/chronicle/ladder/sim/trace"
	"github.com/chronicle/ladder/tolerances"
)

// Measure describes the change of a set from its goldens in dir to fresh
// files (artifact name to file; every artifact of the set) for the
// artifacts changed, in the order runs write them: its first divergence,
// drift class and how many dense cells and trace records moved. It asks
// what the ladder and review ask, with the same comparisons: the first
// divergent cell (dense.CompareFiles) and record
// (artifact.CompareTraceFiles), review's counts (dense.DiffReaders,
// trace.DiffReaders), the trace's drift class (triage) and the inputs the
// checkpoints record; the first divergence is the earliest, a trace record
// before the cells of its tick, as a failing run lists its problems. Each
// file is read a row or a record at a time. An artifact the set did not
// have is only counted as changed; an old golden that cannot be read as
// its kind (a hand edit broke it: what regenerating repairs) is noted as
// such, as the summary of a regeneration notes it, and leaves the drift
// unclassified when it is the trace.
func Measure(dir string, fresh map[string]string, changed []string) (Entry, error) {
	e := Entry{State: Changed}
	var firsts []First
	traceDrift, traceRead := "", true
	for _, name := range changed {
		old, now := filepath.Join(dir, name), fresh[name]
		if _, err := os.Stat(old); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		var err error
		switch name {
		case artifact.DenseFile:
			err = measureDense(old, now, &e, &firsts)
		case artifact.TraceFile:
			traceDrift, err = measureTrace(old, now, &e, &firsts)
		case artifact.CheckpointsFile:
			err = measureCheckpoints(old, now, &e, &firsts)
		default:
			err = measureLines(name, old, now, &firsts)
		}
		if err != nil {
			firsts = append(firsts, First{Artifact: name, Tick: -1, Before: "unreadable (" + err.Error() + ")", After: "rewritten"})
			traceRead = traceRead && name != artifact.TraceFile
		}
	}
	slices.SortStableFunc(firsts, func(a, b First) int {
		// -1 (no tick) is the largest; at one tick the trace record (the
		// cause) comes before what it explains.
		return cmp.Or(cmp.Compare(uint64(a.Tick), uint64(b.Tick)), cmp.Compare(traceRank(a), traceRank(b)))
	})
	if len(firsts) > 0 {
		e.First = &firsts[0]
	}
	_, hasTrace := fresh[artifact.TraceFile]
	switch {
	case len(e.Inputs) > 0:
		e.Drift = "input drift"
	case traceDrift != "":
		e.Drift = traceDrift
	case hasTrace && traceRead:
		// The traces agree record for record: only what is read off them
		// (a dense cell, a checkpoint) moved, as the ladder says.
		e.Drift = triage.ValueDrift.String()
	}
	return e, nil
}

func traceRank(f First) int {
	if f.Artifact == artifact.TraceFile {
		return 0
	}
	return 1
}

// measureDense notes the dense file's first divergent cell and counts the
// changed cells.
func measureDense(old, now string, e *Entry, firsts *[]First) error {
	d, err := dense.CompareFiles(old, now)
	if err != nil || d == nil {
		return err
	}
	tick, err := strconv.ParseInt(d.Tick, 10, 64)
	if err != nil {
		tick = -1 // in the header: the columns changed
	}
	*firsts = append(*firsts, First{Artifact: artifact.DenseFile, Tick: tick, Column: d.Column, Before: d.Golden, After: d.Actual})
	return artifact.OpenBoth(old, now, func(g, n *os.File) error {
		delta, err := dense.DiffReaders(g, n, 0) // every cell counted, none kept
		if err == nil {
			e.Cells = len(delta.Cells) + delta.Dropped
		}
		return err
	})
}

// measureTrace notes the trace's first divergent record, counts the
// records that moved and returns the drift class the triage gives them;
// "" when no record moved (only the spelling did).
func measureTrace(old, now string, e *Entry, firsts *[]First) (string, error) {
	d, err := artifact.CompareTraceFiles(old, now)
	if err != nil || d == nil {
		return "", err
	}
	f := First{Artifact: artifact.TraceFile, Tick: d.Tick, Line: d.Line, Kind: d.Kind, Key: d.Key}
	if len(d.Fields) > 0 && !d.Shifted {
		f.Field, f.Before, f.After = d.Fields[0].Path, d.Fields[0].Golden, d.Fields[0].Actual
	}
	*firsts = append(*firsts, f)
	err = artifact.OpenBoth(old, now, func(g, n *os.File) error {
		delta, err := trace.DiffReaders(g, n)
		if err == nil {
			e.Records = delta.Changed + delta.Added + delta.Removed + delta.Renamed
		}
		return err
	})
	if err != nil {
		return "", err
	}
	rep, err := triage.AlignFiles(old, now)
	if err != nil || rep.Earliest == nil {
		return "", err
	}
	return rep.Class().String(), nil
}

// measureCheckpoints notes the inputs that moved and the first checkpoint
// that differs.
func measureCheckpoints(old, now string, e *Entry, firsts *[]First) error {
	gb, errG := os.ReadFile(old) // a few sampled values: small
	nb, errN := os.ReadFile(now)
	if err := errors.Join(errG, errN); err != nil {
		return err
	}
	g, errG := checkpoint.Parse("old "+artifact.CheckpointsFile, gb)
	n, errN := checkpoint.Parse("new "+artifact.CheckpointsFile, nb)
	if err := errors.Join(errG, errN); err != nil {
		return err
	}
	rep := checkpoint.Compare(g, n, tolerances.ByteIdentity)
	for _, d := range rep.Drift {
		e.Inputs = append(e.Inputs, fmt.Sprintf("%s: %s → %s", d.What, d.Golden, d.Actual))
	}
	if len(rep.Diffs) > 0 {
		// The outcome (no tick) comes first in the report; the first
		// divergence is the earliest sample.
		d := slices.MinFunc(rep.Diffs, func(a, b checkpoint.Diff) int { return cmp.Compare(uint64(a.Tick), uint64(b.Tick)) })
		*firsts = append(*firsts, First{Artifact: artifact.CheckpointsFile, Tick: d.Tick, Column: d.Name, Before: d.Golden, After: d.Actual})
	}
	return nil
}

// measureLines notes the first line that differs in another file (a
// sweep's aggregates or summary: a line per seed, a line per field).
func measureLines(name, old, now string, firsts *[]First) error {
	gb, errG := os.ReadFile(old)
	nb, errN := os.ReadFile(now)
	if err := errors.Join(errG, errN); err != nil {
		return err
	}
	gl, nl := strings.Split(string(gb), "\n"), strings.Split(string(nb), "\n")
	for i := range max(len(gl), len(nl)) {
		if i >= len(gl) || i >= len(nl) || gl[i] != nl[i] {
			*firsts = append(*firsts, First{Artifact: name, Tick: -1, Line: i + 1, Before: lineOr(gl, i), After: lineOr(nl, i)})
			return nil
		}
	}
	return nil
}

func lineOr(lines []string, i int) string {
	if i >= len(lines) {
		return dense.Missing
	}
	return lines[i]
}
