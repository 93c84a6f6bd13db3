package ladder

import (
	"errors"
	"fmt"
	"math"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/reach"
	"github.com/chronicle/ladder/ladder/record"
	"github.com/chronicle/ladder/ladder/seal"
	"github.com/chronicle/ladder/ladder/sweeprun"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// Run executes a fixture from tick 0 to its last tick, writing its
// artifacts into opt.Dir as it goes and comparing them with the goldens
// under opt.Goldens as it writes them. Memory does not grow with the
// run's length: each trace record is encoded once, written, compared and
// shown to the expectations, then dropped; each dense row is spilled and
// compared, then dropped (see Options and package record). That trace work
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
func Run(f *fixture.Fixture, opt Options) (*Result, error) { return guarded(f, opt, run) }

// guarded calls body, under opt.Stall's watchdog when it is set: body
// reports each tick it finishes to opt.progress.
func guarded(f *fixture.Fixture, opt Options, body func(*fixture.Fixture, Options) (*Result, error)) (*Result, error) {
	if opt.Stall > 0 {
		opt.progress = &record.Progress{}
		opt.progress.At(-1)
		return watched(f.Name(), f.Ticks, opt.Stall, opt.progress, func() (*Result, error) { return body(f, opt) })
	}
	return body(f, opt)
}

// Observed runs f for its observer alone: the world is built with
// opt.Observe as its only trace sink (handed the world first when it has
// a Start method, as Run does) and stepped through its ticks, under
// opt.Stall's watchdog when it is set. Nothing is written, audited or
// judged, and a world with pins no roll consumed is not refused; only
// opt.Observe, opt.Stall and the error of a step that failed (located in
// the fixture) or a stall count. It is for a run whose only reader is
// the observer: ladder/explore's world run on past its end, where
// spelling and writing thousands of ticks nobody reads was a fifth of
// an exploration's CPU.
func Observed(f *fixture.Fixture, opt Options) error {
	_, err := guarded(f, opt, observed)
	return err
}

// observed is Observed on the caller's goroutine.
func observed(f *fixture.Fixture, opt Options) (*Result, error) {
	w, err := Build(f, opt.Observe)
	if err != nil {
		return nil, err
	}
	if s, ok := opt.Observe.(interface{ Start(*sim.World) }); ok {
		s.Start(w)
	}
	opt.progress.At(0)
	for t := int64(0); t < f.Ticks; t++ {
		if err := w.Step(); err != nil {
			return nil, f.Locate(err)
		}
		opt.progress.At(t + 1)
	}
	return nil, nil
}

// run is Run on the caller's goroutine, reporting each tick it finishes
// to opt.progress.
func run(f *fixture.Fixture, opt Options) (*Result, error) {
	if f.Sweep != nil {
		return runSweep(f, opt) // many seeds, aggregates only
	}
	st := opt.Stages
	st.Begin()
	defer st.Lap(record.StageOther)
	out, err := record.Open(f, record.Files{Dir: opt.Dir, Goldens: opt.Goldens, Seals: opt.Seals, Unsealed: opt.Unsealed, Stages: st})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	defer out.Abort()
	x, err := record.OpenWatch(f, opt.Dir, st, opt.Bare)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	defer x.Abort()
	// The expectations are in place before the world emits a record: the
	// trace sink may read its records on the pipe's goroutine from the
	// first one on.
	chk := expect.Start(f.Expect).Within(reach.Of(f))
	own := prepareComparisons(f, chk)
	if err := chk.Header(out.Header()); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	out.Check(chk)
	var sink trace.Sink = record.Tee{out.Records(x.MeterSink()), x}
	if opt.Observe != nil {
		sink = record.Tee{sink, opt.Observe}
	}
	st.Lap(record.StageOther)
	w, err := Build(f, sink)
	if err != nil {
		return nil, err
	}
	if s, ok := opt.Observe.(interface{ Start(*sim.World) }); ok {
		s.Start(w)
	}
	st.Lap(record.StageEngine)
	x.Start(w)
	st.Lap(record.StageWatch)
	v := record.ViewOf(w)
	rec := record.NewRecorder(v, out.Table().Name, out.Table().GoldenColumns())
	var bad []BadSample
	sampleAt := f.Checkpoints.Ticks(f.Ticks)
	var samples []checkpoint.Sample
	st.Lap(record.StageOther)
	opt.progress.At(0)
	for t := int64(0); t < f.Ticks; t++ {
		stepErr := w.Step()
		st.Lap(record.StageEngine)
		traceErr := out.TraceErr()
		if traceErr != nil || stepErr != nil {
			// A row the table refused, behind, came before this tick's
			// errors (rows).
			if err := out.DenseErr(); err != nil {
				return nil, err
			}
		}
		if traceErr != nil {
			return nil, fmt.Errorf("%s: %s: %w", f.Name(), artifact.TraceFile, traceErr)
		}
		if stepErr != nil {
			return aborted(f, w, rec, out, x, samples, f.Locate(stepErr))
		}
		names, cells := rec.Record()
		next, err := out.Put(t, names, cells)
		if err != nil {
			return nil, out.DenseErr() // the refusal, once the table has every row
		}
		rec.Fill(next)
		st.Lap(record.StageDense)
		chk.Tick(v)
		st.Lap(record.StageExpect)
		x.Tick()
		st.Lap(record.StageWatch)
		if len(sampleAt) > 0 && sampleAt[0] == t {
			sampleAt = sampleAt[1:]
			s, b := sample(f, v)
			samples = append(samples, s)
			bad = append(bad, b...)
			st.Lap(record.StageCheckpoints)
		}
		opt.progress.At(t + 1)
	}
	if unused := w.UnusedPins(); len(unused) > 0 {
		return aborted(f, w, rec, out, x, samples, f.UnusedPins(unused))
	}
	st.Lap(record.StageEngine)
	// The canonical log must verify end to end: a broken link here is an
	// engine bug, not a behaviour change.
	if err := events.Verify(w.Log().Records()); err != nil {
		return aborted(f, w, rec, out, x, samples, fmt.Errorf("%s: canonical log: %w", f.Name(), err))
	}
	st.Lap(record.StageWatch)
	res, err := collect(f, w, rec, out, x, samples)
	if err != nil {
		return nil, err
	}
	for _, r := range w.Log().Records() {
		chk.Event(r)
	}
	res.Expectations = chk.Finish()
	keepIndex(f, own)
	st.Lap(record.StageExpect)
	for _, r := range res.Expectations {
		if !r.Passed {
			res.Failures = append(res.Failures, r.Line(f.File))
		}
	}
	res.BadSamples = bad
	for _, b := range bad {
		res.Failures = append(res.Failures, b.Message)
	}
	return res, nil
}

// aborted returns what a run produced before cause stopped it, and cause.
func aborted(f *fixture.Fixture, w *sim.World, rec *record.Recorder, out *record.Streams, x *record.Watch, samples []checkpoint.Sample, cause error) (*Result, error) {
	res, err := collect(f, w, rec, out, x, samples)
	if err != nil {
		return nil, errors.Join(cause, err)
	}
	return res, cause
}

// collect finishes the artifacts of the ticks a run has stepped; the
// watch stamps its state digests into the checkpoints before they are
// written, and judges the audit.
func collect(f *fixture.Fixture, w *sim.World, rec *record.Recorder, out *record.Streams, x *record.Watch, samples []checkpoint.Sample) (*Result, error) {
	if err := out.DenseErr(); err != nil { // before the table is read or finished
		return nil, err
	}
	ticks := int64(out.Table().Rows())
	st := out.Stages()
	st.Lap(record.StageOther)
	cmp, err := out.Finish(rec.Columns())
	if err != nil {
		return nil, err
	}
	res := &Result{Fixture: f, Dir: out.Dir(), Compared: cmp}
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
	st.Lap(record.StageOther)
	kept, err := x.Finish(f.Name(), res.Dir, &res.Checkpoints)
	if err != nil {
		return nil, err
	}
	res.Audit, res.Regimes, res.AuditFindings, res.WatchErrors = kept.Audit, kept.Regimes, kept.Findings, kept.Errors
	res.Failures = append(res.Failures, kept.Lines()...)
	st.Lap(record.StageWatch)
	cp, err := res.Checkpoints.Marshal()
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", f.Name(), artifact.CheckpointsFile, err)
	}
	if err := artifact.Write(res.Path(artifact.CheckpointsFile), cp); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	st.Lap(record.StageCheckpoints)
	// The run's artifacts as a sealed set: what `make goldens` and `ladder
	// accept` copy into goldens/ is exactly what this seals. The dense
	// file and the trace were digested as they were written.
	if out.Unsealed() {
		return res, nil
	}
	if err := seal.WriteDigested(res.Dir, f.Name(), Sealed(f), out.Digested()); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	st.Lap(record.StageSeal)
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
		sink = trace.Discard
	}
	cfg := f.WorldConfig()
	cfg.Rules, cfg.Sink = set, sink
	w, err := sim.New(cfg)
	if err != nil {
		return nil, f.Locate(err)
	}
	return w, nil
}

// sample evaluates every checkpoint expression at the current tick; a value
// that cannot be read yet (a belief not formed) is recorded as null. A NaN
// or infinite value is recorded as null too, and returned as a failure
// placed at the checkpoint's line: no golden may hold one.
func sample(f *fixture.Fixture, v record.View) (checkpoint.Sample, []BadSample) {
	s := checkpoint.Sample{Tick: v.Tick(), Values: map[string]*float64{}}
	var bad []BadSample
	for _, c := range f.Checkpoints.Values {
		x, err := c.Expr.Eval(v)
		switch {
		case err != nil:
			s.Values[c.Name] = nil
		case math.IsNaN(x) || math.IsInf(x, 0):
			s.Values[c.Name] = nil
			bad = append(bad, BadSample{Name: c.Name, Tick: s.Tick, Line: c.Pos.Line, Message: fmt.Sprintf(
				"checkpoints.values.%s (%s:%d:%d) at tick %d: %s = %s: a checkpoint must be finite",
				c.Name, f.File, c.Pos.Line, c.Pos.Column, s.Tick, c.Expr, canon.FormatFloat(x))})
		default:
			s.Values[c.Name] = &x
		}
	}
	return s, bad
}

// runSweep is Run for a sweep rung (package sweeprun): many seeds,
// aggregates only, compared byte for byte once written.
func runSweep(f *fixture.Fixture, opt Options) (*Result, error) {
	out, err := sweeprun.Run(f, opt.Dir, opt.progress)
	if err != nil {
		return nil, err
	}
	return &Result{Fixture: f, Dir: opt.Dir, Expectations: out.Expectations, Failures: out.Failures, SweepGoldens: opt.Goldens}, nil
}
