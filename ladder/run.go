package ladder

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/coverage"
	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/page"
	"github.com/chronicle/ladder/ladder/seal"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/audit"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// Result is one run of one rung: where its artifacts are, how they
// compared with the goldens, and the expectations that failed.
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
	// badSamples are the checkpoint values that were NaN or infinite (also
	// in Failures, as lines).
	badSamples []badSample
	// Engine is what the triage page needs from the engine at the end of
	// the run (variants, supersessions, evidence): see page_hook.go.
	Engine *page.Engine
	// compared is how the artifacts compared with the goldens as they were
	// written (nil when Options.Goldens was empty); Verify reads it.
	compared *compared
	// Audit is how many records each regime-2 invariant examined
	// (watch.go); auditFindings are its failing findings, earliest first;
	// watchErrors say what evidence could not be kept (both also in
	// Failures, as lines). The exported log is the file artifact.EventsFile in Dir.
	Audit []audit.Examined
	// Regimes are the rule regimes the run's trace reached (also in Dir,
	// as coverage.RunFile), for the ladder's coverage report.
	Regimes       []coverage.Reached
	auditFindings []audit.Finding
	watchErrors   []string
	// sweep is set instead of compared for a sweep rung compared with
	// goldens (sweeprun.go).
	sweep *sweepCompared
}

// cutShort reports whether the run stopped before its last tick, and how
// many ticks it finished: an aborted run's files are a prefix of what a
// whole run writes, which Verify and the cause-first lines compare as far
// as it goes.
func (r *Result) cutShort() (int64, bool) {
	n := r.Checkpoints.Outcome.Ticks
	return n, n < r.Fixture.Ticks
}

// Path returns where the run wrote the artifact called name.
func (r *Result) Path(name string) string { return filepath.Join(r.Dir, name) }

// Run executes a fixture from tick 0 to its last tick, writing its
// artifacts into opt.Dir as it goes and comparing them with the goldens
// under opt.Goldens as it writes them. Memory does not grow with the
// run's length: each trace record is encoded once, written, compared and
// shown to the expectations, then dropped; each dense row is spilled and
// compared, then dropped (see Options and stream.go). That trace work
// runs on a second goroutine, beside the engine, the records reaching it
// in order through a trace.Pipe: the expectations' trace checks read
// records there while their tick checks read the world here, which
// expect.Run allows (each check reads one stream). The trace and the
// dense file are written by goroutines of their own (artifact.Behind,
// decision 0042). The run waits for all of it before it finishes an
// artifact or judges anything.
//
// The error is for a run that could not be carried out (an injection the
// world refused, a pin no roll consumed); expectations that do not hold
// are Result.Failures. A run that stops part way still returns what it
// produced up to there (the dense rows and trace of the ticks it stepped,
// its checkpoints so far) beside the error, so the evidence can be kept;
// a world that cannot be built, or an artifact that cannot be written,
// returns no Result and leaves no artifact.
func Run(f *fixture.Fixture, opt Options) (*Result, error) {
	if opt.Stall > 0 {
		opt.progress = &progress{}
		opt.progress.at(-1)
		return watched(f.Name(), f.Ticks, opt.Stall, opt.progress, func() (*Result, error) { return run(f, opt) })
	}
	return run(f, opt)
}

// run is Run on the caller's goroutine, reporting each tick it finishes
// to opt.progress.
func run(f *fixture.Fixture, opt Options) (*Result, error) {
	if f.Sweep != nil {
		return runSweep(f, opt) // many seeds, aggregates only: sweeprun.go
	}
	st := opt.Stages
	st.begin()
	defer st.lap(StageOther)
	out, err := openStreams(f, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	defer out.abort()
	x, err := openWatch(f, opt.Dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	defer x.abort()
	x.st = st
	// The expectations are in place before the world emits a record: the
	// trace sink may read its records on the pipe's goroutine from the
	// first one on.
	chk := expect.Start(f.Expect).Within(reachOf(f))
	own := prepareComparisons(f, chk)
	if err := chk.Header(out.sink.enc.AppendHeader(nil)); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	out.sink.chk = chk
	var sink trace.Sink = teeSink{out.records(x.meter), x}
	if opt.Observe != nil {
		sink = teeSink{sink, opt.Observe}
	}
	st.lap(StageOther)
	w, err := Build(f, sink)
	if err != nil {
		return nil, err
	}
	if s, ok := opt.Observe.(interface{ Start(*sim.World) }); ok {
		s.Start(w)
	}
	st.lap(StageEngine)
	x.start(w)
	st.lap(StageWatch)
	v := view{w: w}
	rec := newRecorder(v, out.table.Name, out.table.GoldenColumns())
	var bad []badSample
	sampleAt := f.Checkpoints.Ticks(f.Ticks)
	var samples []checkpoint.Sample
	st.lap(StageOther)
	opt.progress.at(0)
	for t := int64(0); t < f.Ticks; t++ {
		stepErr := w.Step()
		st.lap(StageEngine)
		traceErr := out.traceErr()
		if traceErr != nil || stepErr != nil {
			// A row the table refused, behind, came before this tick's
			// errors (rows).
			if err := out.denseErr(); err != nil {
				return nil, err
			}
		}
		if traceErr != nil {
			return nil, fmt.Errorf("%s: %s: %w", f.Name(), artifact.TraceFile, traceErr)
		}
		if stepErr != nil {
			return aborted(f, w, rec, out, x, samples, f.Locate(stepErr))
		}
		names, cells := rec.record()
		next, err := out.rows.put(t, names, cells)
		if err != nil {
			return nil, out.denseErr() // the refusal, once the table has every row
		}
		rec.fill(next)
		st.lap(StageDense)
		chk.Tick(v)
		st.lap(StageExpect)
		x.tick()
		st.lap(StageWatch)
		if len(sampleAt) > 0 && sampleAt[0] == t {
			sampleAt = sampleAt[1:]
			s, b := sample(f, v)
			samples = append(samples, s)
			bad = append(bad, b...)
			st.lap(StageCheckpoints)
		}
		opt.progress.at(t + 1)
	}
	if unused := w.UnusedPins(); len(unused) > 0 {
		return aborted(f, w, rec, out, x, samples, f.UnusedPins(unused))
	}
	st.lap(StageEngine)
	// The canonical log must verify end to end: a broken link here is an
	// engine bug, not a behaviour change.
	if err := events.Verify(w.Log().Records()); err != nil {
		return aborted(f, w, rec, out, x, samples, fmt.Errorf("%s: canonical log: %w", f.Name(), err))
	}
	st.lap(StageWatch)
	res, err := collect(f, w, rec, out, x, samples)
	if err != nil {
		return nil, err
	}
	for _, r := range w.Log().Records() {
		chk.Event(r)
	}
	res.Expectations = chk.Finish()
	keepIndex(f, own)
	st.lap(StageExpect)
	for _, r := range res.Expectations {
		if !r.Passed {
			res.Failures = append(res.Failures, r.Line(f.File))
		}
	}
	res.badSamples = bad
	for _, b := range bad {
		res.Failures = append(res.Failures, b.Message)
	}
	return res, nil
}

// aborted returns what a run produced before cause stopped it, and cause.
func aborted(f *fixture.Fixture, w *sim.World, rec *recorder, out *streams, x *watch, samples []checkpoint.Sample, cause error) (*Result, error) {
	res, err := collect(f, w, rec, out, x, samples)
	if err != nil {
		return nil, errors.Join(cause, err)
	}
	return res, cause
}

// collect finishes the artifacts of the ticks a run has stepped; the
// watch stamps its state digests into the checkpoints before they are
// written, and judges the audit.
func collect(f *fixture.Fixture, w *sim.World, rec *recorder, out *streams, x *watch, samples []checkpoint.Sample) (*Result, error) {
	if err := out.denseErr(); err != nil { // before the table is read or finished
		return nil, err
	}
	ticks := int64(out.table.Rows())
	st := out.st
	st.lap(StageOther)
	cmp, err := out.finish(rec.columns())
	if err != nil {
		return nil, err
	}
	res := &Result{Fixture: f, Dir: out.dir, Engine: page.Capture(w), compared: cmp}
	hash, err := f.Defines.Hash(w.Layers())
	if err != nil {
		return nil, err
	}
	defines, err := recordedDefines(f.Defines, w.Layers())
	if err != nil {
		return nil, err
	}
	s := w.Store()
	res.Checkpoints = checkpoint.File{
		Rung: f.Rung, Case: f.Case, SeedID: f.SeedID, DefinesHash: hash, Defines: defines, FixtureHash: f.Hash,
		Outcome: checkpoint.Outcome{
			Ticks: ticks, Events: int64(w.Log().Len()), Claims: int64(len(s.ClaimIDs())),
			Variants: int64(s.VariantCount()), Beliefs: int64(s.BeliefCount()), LogHead: w.Log().Head(),
		},
		Samples: samples,
	}
	st.lap(StageOther)
	if err := x.finish(res); err != nil {
		return nil, err
	}
	st.lap(StageWatch)
	cp, err := res.Checkpoints.Marshal()
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", f.Name(), artifact.CheckpointsFile, err)
	}
	if err := artifact.Write(res.Path(artifact.CheckpointsFile), cp); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	st.lap(StageCheckpoints)
	// The run's artifacts as a sealed set: what `make goldens` and `ladder
	// accept` copy into goldens/ is exactly what this seals. The dense
	// file and the trace were digested as they were written.
	if out.unsealed {
		return res, nil
	}
	if err := seal.WriteDigested(out.dir, f.Name(), Sealed(f), out.digested()); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	st.lap(StageSeal)
	return res, nil
}

// Build makes the world a fixture describes, at the start of tick 0, its
// trace going to sink (nil: nowhere). Run uses it; triage tools use it to
// step a rung to any tick and look around.
func Build(f *fixture.Fixture, sink trace.Sink) (*sim.World, error) {
	set, err := rules.NewSet(f.Disabled)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.File, err)
	}
	if sink == nil {
		sink = discard{}
	}
	cfg := worldConfig(f)
	cfg.Rules, cfg.Sink = set, sink
	w, err := sim.New(cfg)
	if err != nil {
		return nil, f.Locate(err)
	}
	return w, nil
}

// worldConfig is the world a fixture describes, without its rule set and
// trace sink: enough to know which layers it uses before it exists (the
// trace header's version is written first).
func worldConfig(f *fixture.Fixture) sim.Config {
	return sim.Config{
		SeedID: f.SeedID, Branch: f.Branch, Defines: f.Defines, Pins: f.Pins,
		Locations: f.Locations, Cast: f.Cast, Relationships: f.Relationships, Kin: f.Kin, Roles: f.Roles, Injections: f.Injections, Items: f.Items,
	}
}

// discard is the sink of a world whose trace nobody reads.
type discard struct{}

func (discard) Emit(trace.Record) {}

// badSample is a checkpoint value no golden may hold, with where its
// expression is and the line that reports it.
type badSample struct {
	Name    string
	Tick    int64
	Line    int
	Message string
}

// sample evaluates every checkpoint expression at the current tick; a value
// that cannot be read yet (a belief not formed) is recorded as null. A NaN
// or infinite value is recorded as null too, and returned as a failure
// placed at the checkpoint's line: no golden may hold one.
func sample(f *fixture.Fixture, v view) (checkpoint.Sample, []badSample) {
	s := checkpoint.Sample{Tick: v.Tick(), Values: map[string]*float64{}}
	var bad []badSample
	for _, c := range f.Checkpoints.Values {
		x, err := c.Expr.Eval(v)
		switch {
		case err != nil:
			s.Values[c.Name] = nil
		case math.IsNaN(x) || math.IsInf(x, 0):
			s.Values[c.Name] = nil
			bad = append(bad, badSample{Name: c.Name, Tick: s.Tick, Line: c.Pos.Line, Message: fmt.Sprintf(
				"checkpoints.values.%s (%s:%d:%d) at tick %d: %s = %s: a checkpoint must be finite",
				c.Name, f.File, c.Pos.Line, c.Pos.Column, s.Tick, c.Expr, canon.FormatFloat(x))})
		default:
			s.Values[c.Name] = &x
		}
	}
	return s, bad
}
