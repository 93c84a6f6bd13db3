package ladder

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/audit"
	"github.com/chronicle/ladder/sim/digest"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/trace"
)

// EventsFile is the canonical log a run exports beside its artifacts
// (reports/<rung>/events.jsonl), one hash-chained record a line; `ladder
// verify` replays it. It is evidence, not a golden.
const EventsFile = "events.jsonl"

// Strict is how the ladder grades regime 2: a warn (a residual rounding
// cannot explain, below 1e-6) fails a rung like an alarm. The engine's
// arithmetic is deterministic and every bound is derived, so a warn is
// never noise; `ladder audit -lenient` shows warns without failing.
const Strict = true

// watch is what a run keeps beside its artifacts, with one call a tick
// (tick) and one at the end (finish): regime 2's audit of every tick
// (sim/audit), the canonical log exported as it grows (events.jsonl), and
// the state digest (sim/digest) at every checkpoint sample and at the
// end. It reads the world and the trace; it changes neither.
type watch struct {
	w        *sim.World
	tr       *trace.Buffer
	fed      int // trace records shown to the audit
	audit    *audit.Auditor
	lastFull bool
	log      *events.Writer
	out      bytes.Buffer // events.jsonl so far
	sampleAt []int64
	digests  map[int64]string
	findings []audit.Finding
	errs     []string // the log could not be written, a digest not taken, the audit not fed
}

// startWatch watches a world built from f, before its first tick.
func startWatch(f *fixture.Fixture, w *sim.World, tr *trace.Buffer) *watch {
	x := &watch{w: w, tr: tr, audit: audit.New(w, audit.Options{}), sampleAt: f.Checkpoints.Ticks(f.Ticks), digests: map[int64]string{}}
	x.log = events.NewWriter(&x.out)
	return x
}

func (x *watch) fail(err error) {
	if err != nil {
		x.errs = append(x.errs, err.Error())
	}
}

// tick audits the tick just stepped (the trace records it emitted first),
// writes the events it appended, and takes the state digest at a
// checkpoint sample.
func (x *watch) tick() {
	for _, r := range x.tr.Records[x.fed:] {
		x.audit.Emit(r)
	}
	x.fed = len(x.tr.Records)
	rep, err := x.audit.Tick()
	x.fail(err)
	x.lastFull = rep.Full
	x.findings = append(x.findings, rep.Findings...)
	x.fail(x.log.Follow(x.w.Log()))
	t := x.w.Now()
	for len(x.sampleAt) > 0 && x.sampleAt[0] < t {
		x.sampleAt = x.sampleAt[1:]
	}
	if len(x.sampleAt) > 0 && x.sampleAt[0] == t {
		d, err := digest.Of(x.w)
		x.fail(err)
		x.digests[t] = d
	}
}

// finish audits the end in full (unless the last audit was), stamps the
// digests into the checkpoints, and hands the run its exported log and
// its audit: findings that fail the rung become failures, and how much
// each invariant examined is kept for the report.
func (x *watch) finish(res *Result) {
	if !x.lastFull {
		x.findings = append(x.findings, x.audit.Full().Findings...)
	}
	x.fail(x.log.Follow(x.w.Log()))
	res.Events = x.out.Bytes()
	cp := &res.Checkpoints
	for i := range cp.Samples {
		cp.Samples[i].StateDigest = x.digests[cp.Samples[i].Tick]
	}
	d, err := digest.Of(x.w)
	x.fail(err)
	cp.Outcome.StateDigest = d
	res.Audit = x.audit.Examined()
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

// AuditRun runs f with regime 2's audit alone (no artifacts, no
// expectations) and returns how much each invariant examined and every
// finding, warns included: `ladder audit`, and the audit's benchmarks.
func AuditRun(f *fixture.Fixture, opt audit.Options) ([]audit.Examined, []audit.Finding, error) {
	w, tr, err := Build(f)
	if err != nil {
		return nil, nil, err
	}
	a := audit.New(w, opt)
	var findings []audit.Finding
	fed, lastFull := 0, false
	for t := int64(0); t < f.Ticks; t++ {
		if err := w.Step(); err != nil {
			return nil, nil, f.Locate(err)
		}
		for _, r := range tr.Records[fed:] {
			a.Emit(r)
		}
		fed = len(tr.Records)
		rep, err := a.Tick()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", f.Name(), err)
		}
		findings, lastFull = append(findings, rep.Findings...), rep.Full
	}
	if !lastFull {
		findings = append(findings, a.Full().Findings...)
	}
	return a.Examined(), findings, nil
}
