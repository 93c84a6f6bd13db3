package ladder

import (
	"bufio"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/coverage"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/audit"
	"github.com/chronicle/ladder/sim/digest"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/trace"
)

// Strict is how the ladder grades regime 2: a warn (a residual rounding
// cannot explain, below 1e-6) fails a rung like an alarm. The engine's
// arithmetic is deterministic and every bound is derived, so a warn is
// never noise; `ladder audit -lenient` shows warns without failing.
const Strict = true

// watch is what a run keeps beside its artifacts, with one call a tick
// (tick) and one at the end (finish): regime 2's audit of every tick
// (sim/audit), the canonical log exported as it grows (events.jsonl,
// written to a temporary file renamed into place at the end), the state
// digest (sim/digest) at every checkpoint sample and at the end, and the
// rule regimes the trace shows (ladder/coverage, regimes.json). It
// reads the world and the trace (it is a trace.Sink beside the run's
// own, see teeSink); it changes neither.
type watch struct {
	a        *audit.Auditor // nil until start
	meter    *coverage.Meter
	w        *sim.World
	lastFull bool
	file     *artifact.File
	buf      *bufio.Writer
	log      *events.Writer
	sampleAt []int64
	digests  map[int64]string // at most one per checkpoint sample
	memo     *digest.Memo     // keeps what the digests spell between samples
	findings []audit.Finding
	errs     []string // the log could not be written, a digest not taken, the audit not fed
	st       *Stages  // nil: untimed
}

// openWatch starts the exported log of a run of f in dir.
func openWatch(f *fixture.Fixture, dir string) (*watch, error) {
	file, err := artifact.Create(filepath.Join(dir, artifact.EventsFile))
	if err != nil {
		return nil, err
	}
	x := &watch{file: file, buf: bufio.NewWriter(file), sampleAt: f.Checkpoints.Ticks(f.Ticks), digests: map[int64]string{},
		meter: coverage.NewMeter(), memo: digest.NewMemo()}
	x.log = events.NewWriter(x.buf)
	return x, nil
}

// start watches w, built with x in its trace sink, before its first tick.
// Records emitted while the world was built reach no audit; none needs
// them, as the first audit examines every record.
func (x *watch) start(w *sim.World) {
	x.w = w
	x.a = audit.New(w, audit.Options{})
}

// abort drops the exported log unless finish put it in place.
func (x *watch) abort() { x.file.Abort() }

func (x *watch) fail(err error) {
	if err != nil {
		x.errs = append(x.errs, err.Error())
	}
}

// tick audits the tick just stepped (its trace records reached Emit as
// the engine emitted them), writes the events it appended, and takes the
// state digest at a checkpoint sample.
func (x *watch) tick() {
	rep, err := x.a.Tick()
	x.fail(err)
	x.lastFull = rep.Full
	x.findings = append(x.findings, rep.Findings...)
	x.fail(x.log.Follow(x.w.Log()))
	t := x.w.Now()
	for len(x.sampleAt) > 0 && x.sampleAt[0] < t {
		x.sampleAt = x.sampleAt[1:]
	}
	if len(x.sampleAt) > 0 && x.sampleAt[0] == t {
		d, err := x.memo.Of(x.w)
		x.fail(err)
		x.digests[t] = d
	}
}

// finish audits the end in full (unless the last audit was), stamps the
// digests into the checkpoints, puts the exported log in place, and hands
// the run its audit: findings that fail the rung become failures, and how
// much each invariant examined is kept for the report. The error is for a
// log that could not be put in place.
func (x *watch) finish(res *Result) error {
	if !x.lastFull {
		x.findings = append(x.findings, x.a.Full().Findings...)
	}
	x.fail(x.log.Follow(x.w.Log()))
	if err := x.buf.Flush(); err != nil {
		return fmt.Errorf("%s: %s: %w", res.Fixture.Name(), artifact.EventsFile, err)
	}
	if err := x.file.Commit(); err != nil {
		return fmt.Errorf("%s: %w", res.Fixture.Name(), err)
	}
	cp := &res.Checkpoints
	for i := range cp.Samples {
		cp.Samples[i].StateDigest = x.digests[cp.Samples[i].Tick]
	}
	d, err := x.memo.Of(x.w)
	x.fail(err)
	cp.Outcome.StateDigest = d
	res.Audit = x.a.Examined()
	res.Regimes = x.meter.Reached()
	for _, name := range x.meter.Undeclared() {
		x.fail(fmt.Errorf("rule value %s is not declared in sim/rules/registry.go: a fixture's values: could never name it", name))
	}
	for _, what := range x.meter.Unlisted() {
		x.fail(fmt.Errorf("the %s is in no list the engine declares: a fixture's pattern could never name it", what))
	}
	if err := coverage.WriteRun(res.Dir, res.Fixture.Name(), res.Regimes); err != nil {
		return fmt.Errorf("%s: %w", res.Fixture.Name(), err)
	}
	for _, f := range x.findings {
		if f.Grade.Failing(Strict) {
			res.auditFindings = append(res.auditFindings, f)
		}
	}
	if line := auditLine(res.auditFindings); line != "" {
		res.Failures = append(res.Failures, line)
	}
	if len(x.errs) > 0 {
		res.watchErrors = x.errs
		res.Failures = append(res.Failures, "watch: "+strings.Join(x.errs, "; "))
	}
	return nil
}

// Emit shows a trace record to the auditor, once there is one. The
// regime meter, which reads the records alone, is shown them beside the
// trace sink (streams.records), on the pipe's goroutine when there is
// one; the auditor reads the world as the record leaves it, so it is
// shown them here, on the engine's.
func (x *watch) Emit(r trace.Record) {
	if x.a != nil {
		x.a.Emit(r)
	}
	x.st.lap(StageWatch)
}

// teeSink shows every trace record to the run's sink, then to the watch.
type teeSink [2]trace.Sink

func (t teeSink) Emit(r trace.Record) {
	t[0].Emit(r)
	t[1].Emit(r)
}

// AuditSummary says how many records each invariant examined over a run,
// for its report: "regime 2 examined one-claim-per-event 12, …".
func AuditSummary(ex []audit.Examined) string {
	parts := make([]string, len(ex))
	for i, e := range ex {
		parts[i] = fmt.Sprintf("%s %d", e.Invariant, e.Records)
	}
	return "regime 2 examined " + strings.Join(parts, ", ")
}

// auditLine is the failure line of a run's audit: its earliest finding
// and how many more there are.
func auditLine(fs []audit.Finding) string {
	if len(fs) == 0 {
		return ""
	}
	line := "audit: " + fs[0].String()
	if n := len(fs) - 1; n > 0 {
		line += fmt.Sprintf(" (and %d more audit finding%s)", n, plural(n))
	}
	return line
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// auditProblem is the problem of a run whose audit failed, located at
// the earliest finding's tick and invariant.
func auditProblem(f *fixture.Fixture, fs []audit.Finding) (Problem, bool) {
	if len(fs) == 0 {
		return Problem{}, false
	}
	p := problem(f, "audit", fs[0].Tick, "%s", strings.TrimPrefix(auditLine(fs), "audit: "))
	p.Column, p.Actual = fs[0].Invariant, fs[0].Record
	return p, true
}

// watchProblem is the problem of a run whose evidence could not be kept
// whole: the log not written, a digest not taken, the audit not fed.
func watchProblem(f *fixture.Fixture, errs []string) (Problem, bool) {
	if len(errs) == 0 {
		return Problem{}, false
	}
	return problem(f, "watch", -1, "%s", strings.Join(errs, "; ")), true
}

// auditFeed hands trace records to an auditor once there is one.
type auditFeed struct{ a *audit.Auditor }

func (s *auditFeed) Emit(r trace.Record) {
	if s.a != nil {
		s.a.Emit(r)
	}
}

// AuditRun runs f with regime 2's audit alone (no artifacts, no
// expectations) and returns how much each invariant examined and every
// finding, warns included: `ladder audit`, and the audit's benchmarks.
func AuditRun(f *fixture.Fixture, opt audit.Options) ([]audit.Examined, []audit.Finding, error) {
	feed := &auditFeed{}
	w, err := Build(f, feed)
	if err != nil {
		return nil, nil, err
	}
	feed.a = audit.New(w, opt)
	var findings []audit.Finding
	lastFull := false
	for t := int64(0); t < f.Ticks; t++ {
		if err := w.Step(); err != nil {
			return nil, nil, f.Locate(err)
		}
		rep, err := feed.a.Tick()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", f.Name(), err)
		}
		findings, lastFull = append(findings, rep.Findings...), rep.Full
	}
	if !lastFull {
		findings = append(findings, feed.a.Full().Findings...)
	}
	return feed.a.Examined(), findings, nil
}
