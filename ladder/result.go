package ladder

import (
	"path/filepath"

	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/coverage"
	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/record"
	"github.com/chronicle/ladder/sim/audit"
)

// Result is one run of one rung: where its artifacts are, how they
// compared with the goldens, and the expectations that failed. Package
// verdict judges it (verdict.Verify, verdict.Problems).
type Result struct {
	Fixture *fixture.Fixture
	// Dir holds the run's artifacts (artifact.RungNames), each whole.
	Dir         string
	Checkpoints checkpoint.File
	// Failures are the fixture's expectations (and checkpoint values) that
	// did not hold, one line each, without the rung prefix.
	Failures []string
	// Expectations is the verdict on every expectation, in fixture order:
	// passed or not, and how much each examined.
	Expectations []expect.Result
	// BadSamples are the checkpoint values that were NaN or infinite (also
	// in Failures, as lines).
	BadSamples []BadSample
	// Compared is how the artifacts compared with the goldens as they were
	// written (nil when Options.Goldens was empty); verdict.Verify reads
	// it.
	Compared *record.Compared
	// Audit is how many records each regime-2 invariant examined
	// (record.Watch); AuditFindings are its failing findings, earliest
	// first; WatchErrors say what evidence could not be kept (both also in
	// Failures, as lines). The exported log is the file
	// artifact.EventsFile in Dir.
	Audit         []audit.Examined
	AuditFindings []audit.Finding
	WatchErrors   []string
	// Regimes are the rule regimes the run's trace reached (also in Dir,
	// as coverage.RunFile), for the ladder's coverage report.
	Regimes []coverage.Reached
	// SweepGoldens is, for a sweep rung compared with goldens, the
	// repository root of the goldens (instead of Compared): a sweep's
	// small artifacts are compared once written (verdict.Verify).
	SweepGoldens string
}

// CutShort reports whether the run stopped before its last tick, and how
// many ticks it finished: an aborted run's files are a prefix of what a
// whole run writes, which verdict.Verify and the cause-first lines
// compare as far as it goes.
func (r *Result) CutShort() (int64, bool) {
	n := r.Checkpoints.Outcome.Ticks
	return n, n < r.Fixture.Ticks
}

// Path returns where the run wrote the artifact called name.
func (r *Result) Path(name string) string { return filepath.Join(r.Dir, name) }

// BadSample is a checkpoint value no golden may hold, with where its
// expression is and the line that reports it.
type BadSample struct {
	Name    string
	Tick    int64
	Line    int
	Message string
}
