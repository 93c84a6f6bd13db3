package ladder

import (
	"errors"
	"fmt"
	"math"

	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/page"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/audit"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// Result is one run of one rung: its artifacts and the expectations that
// failed.
type Result struct {
	Fixture     *fixture.Fixture
	Dense       []byte
	Trace       []byte
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
	// Events is the canonical log as exported (EventsFile), written a
	// tick at a time as the run went; Audit is how many records each
	// regime-2 invariant examined (watch.go).
	Events []byte
	Audit  []audit.Examined
	// auditFindings are the audit's failing findings, earliest first;
	// watchErrors say what evidence could not be kept (both also in
	// Failures, as lines).
	auditFindings []audit.Finding
	watchErrors   []string
}

// Run executes a fixture from tick 0 to its last tick. The error is for a
// run that could not be carried out (an injection the world refused, a pin
// no roll consumed); expectations that do not hold are Result.Failures.
// A run that stops part way still returns what it produced up to there
// (the dense rows and trace of the ticks it stepped, its checkpoints so
// far) beside the error, so the evidence can be kept; only a world that
// cannot be built returns no Result.
func Run(f *fixture.Fixture) (*Result, error) {
	w, tr, err := Build(f)
	if err != nil {
		return nil, err
	}
	v := view{w: w}
	rec := newRecorder(v)
	chk := expect.Start(f.Expect)
	own := prepareComparisons(f, chk)
	var bad []badSample
	sampleAt := f.Checkpoints.Ticks(f.Ticks)
	var samples []checkpoint.Sample
	x := startWatch(f, w, tr)
	for t := int64(0); t < f.Ticks; t++ {
		if err := w.Step(); err != nil {
			return aborted(f, w, rec, tr, samples, x, f.Locate(err))
		}
		rec.record()
		chk.Tick(v)
		x.tick()
		if len(sampleAt) > 0 && sampleAt[0] == t {
			sampleAt = sampleAt[1:]
			s, b := sample(f, v)
			samples = append(samples, s)
			bad = append(bad, b...)
		}
	}
	if unused := w.UnusedPins(); len(unused) > 0 {
		return aborted(f, w, rec, tr, samples, x, f.UnusedPins(unused))
	}
	// The canonical log must verify end to end: a broken link here is an
	// engine bug, not a behaviour change.
	if err := events.Verify(w.Log().Records()); err != nil {
		return aborted(f, w, rec, tr, samples, x, fmt.Errorf("%s: canonical log: %w", f.Name(), err))
	}
	res, err := collect(f, w, rec, tr, samples)
	if err != nil {
		return nil, err
	}
	if err := observeTrace(chk, res.Trace); err != nil {
		return res, fmt.Errorf("%s: %w", f.Name(), err)
	}
	for _, r := range w.Log().Records() {
		chk.Event(r)
	}
	res.Expectations = chk.Finish()
	keepIndex(f, own)
	for _, r := range res.Expectations {
		if !r.Passed {
			res.Failures = append(res.Failures, r.Line(f.File))
		}
	}
	res.badSamples = bad
	for _, b := range bad {
		res.Failures = append(res.Failures, b.Message)
	}
	x.finish(res)
	return res, nil
}

// aborted returns what a run produced before cause stopped it, and cause.
func aborted(f *fixture.Fixture, w *sim.World, rec *recorder, tr *trace.Buffer, samples []checkpoint.Sample, x *watch, cause error) (*Result, error) {
	res, err := collect(f, w, rec, tr, samples)
	if err != nil {
		return nil, errors.Join(cause, err)
	}
	x.finish(res)
	return res, cause
}

// collect encodes the artifacts of the ticks a run has stepped.
func collect(f *fixture.Fixture, w *sim.World, rec *recorder, tr *trace.Buffer, samples []checkpoint.Sample) (*Result, error) {
	var err error
	res := &Result{Fixture: f, Engine: page.Capture(w)}
	if res.Dense, err = rec.encode(); err != nil {
		return nil, fmt.Errorf("%s: dense.csv: %w", f.Name(), err)
	}
	if res.Trace, err = tr.AppendJSONL(nil); err != nil {
		return nil, fmt.Errorf("%s: trace.jsonl: %w", f.Name(), err)
	}
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
			Ticks: int64(len(rec.rows)), Events: int64(w.Log().Len()), Claims: int64(len(s.ClaimIDs())),
			Variants: int64(s.VariantCount()), Beliefs: int64(s.BeliefCount()), LogHead: w.Log().Head(),
		},
		Samples: samples,
	}
	return res, nil
}

// Build makes the world a fixture describes, at the start of tick 0, with
// its trace buffer. Run uses it; triage tools use it to step a rung to any
// tick and look around.
func Build(f *fixture.Fixture) (*sim.World, *trace.Buffer, error) {
	set, err := rules.NewSet(f.Disabled)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", f.File, err)
	}
	cfg := sim.Config{
		SeedID: f.SeedID, Branch: f.Branch, Defines: f.Defines, Rules: set, Pins: f.Pins,
		Locations: f.Locations, Cast: f.Cast, Relationships: f.Relationships, Kin: f.Kin, Injections: f.Injections, Items: f.Items,
	}
	tr := &trace.Buffer{Header: trace.Header{SeedID: f.SeedID, Branch: f.Branch, KeyframeEvery: f.Defines.TicksPerDay, Version: sim.TraceVersion(cfg.Layers())}}
	cfg.Sink = tr
	w, err := sim.New(cfg)
	if err != nil {
		return nil, nil, f.Locate(err)
	}
	return w, tr, nil
}

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
