package record

import "time"

//determinism:wallclock Stages times the parts of a run for the benchmarks and docs/performance.md; no time it takes reaches an artifact or a verdict

// Stage is one part of a run's work, as Stages times it.
type Stage int

const (
	// StageEngine is the engine stepping the world: all it does between
	// the records it emits, building the world included (and an
	// Options.Observe sink's time, which no other stage claims).
	StageEngine Stage = iota
	// StageSpell is encoding each trace record as its JSON line.
	StageSpell
	// StageWrite is writing the trace's lines to trace.jsonl, 64 KiB at a
	// time, and committing the artifacts into place. The dense CSV's and
	// the exported log's writes are their own stages'.
	StageWrite
	// StageCompare is comparing each trace line with its golden (and
	// with the same_run rung's) as it is written, and the verdict at the
	// end. The dense CSV's comparison is StageDense's.
	StageCompare
	// StageExpect is the fixture's expectations: the trace lines shown to
	// trace expectations, the checks of every tick, the canonical log's
	// events at the end and the verdicts.
	StageExpect
	// StageWatch is what the run keeps beside its artifacts (watch.go):
	// regime 2's audit (records fed, every tick audited, the full audit at
	// the end), the exported event log, the state digests, the regime
	// meter, and the canonical log's verification at the end.
	StageWatch
	// StageDense is the dense CSV: each tick's row built, encoded,
	// spilled and compared with the golden's, and the file assembled from
	// the spill at the end.
	StageDense
	// StageCheckpoints is sampling the checkpoint values and writing
	// checkpoints.json.
	StageCheckpoints
	// StageSeal is the sealed set's manifest: every artifact read back and
	// hashed.
	StageSeal
	// StageOther is the rest: opening the artifacts and the goldens,
	// preparing the expectations, and the end's bookkeeping (the triage
	// page's capture of the engine, the defines' hash).
	StageOther
	stageCount
)

var stageNames = [stageCount]string{"engine", "spell", "write", "compare", "expect", "watch", "dense", "checkpoints", "seal", "other"}

// String is the stage's name in a benchmark's metrics: "engine", "spell".
func (s Stage) String() string { return stageNames[s] }

// AllStages returns every stage, in the order above.
func AllStages() []Stage {
	all := make([]Stage, stageCount)
	for i := range all {
		all[i] = Stage(i)
	}
	return all
}

// Stages accumulates where runs' wall time went, stage by stage, when
// Options.Stages points at it; the benchmark of the ladder's own path
// (BenchmarkCityRun, docs/performance.md) reads it. It exists because the
// stages cannot be told apart from outside Run: a trace record is
// spelled, compared, shown to the expectations and audited inside the
// engine's Emit, interleaved with the engine's own work record by record,
// so differencing whole runs would need a Run that leaves out each stage
// in turn, which the ladder has no use for.
//
// The run keeps one clock: at each stage boundary the time since the
// previous boundary is charged to the stage that just ended, so the stages
// partition the run's wall time from Run's start to its return. A
// boundary is one clock read (about 27 ns on the 2-vCPU machine of
// docs/performance.md) and a record crosses four to six, so a timed run is
// slower than an untimed one and each stage timed per record carries about
// one read per record. With Options.Stages nil, as in every run but the
// benchmark's, a boundary is an inlined nil check and no clock is read.
// Nothing timed reaches an artifact. A sweep rung's runs are not timed.
//
// A timed run spells, compares, checks and writes its trace, and writes
// its dense file, on the engine's goroutine, where an untimed run hands
// the trace to a trace.Pipe and the writes to artifact.Behind: the
// stages then partition one goroutine's wall time, and their sum is the
// run's work done serially.
type Stages struct {
	d    [stageCount]time.Duration
	last time.Time
}

// Of returns the time charged to stage s.
func (st *Stages) Of(s Stage) time.Duration { return st.d[s] }

// Begin starts the clock of a run.
func (st *Stages) Begin() {
	if st != nil {
		st.last = time.Now()
	}
}

// Lap charges the time since the last boundary to s. It is split from
// charge so that it inlines: an untimed run's boundary is a nil check, not
// a call.
func (st *Stages) Lap(s Stage) {
	if st != nil {
		st.charge(s)
	}
}

func (st *Stages) charge(s Stage) {
	now := time.Now()
	st.d[s] += now.Sub(st.last)
	st.last = now
}
