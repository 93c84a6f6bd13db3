package record

import (
	"bufio"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/checkpoint"
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

// Watch is what a run keeps beside its artifacts, with one call a tick
// (Tick) and one at the end (Finish): regime 2's audit of every tick
// (sim/audit), the canonical log exported as it grows (events.jsonl,
// written to a temporary file renamed into place at the end), the state
// digest (sim/digest) at every checkpoint sample and at the end, and the
// rule regimes the trace shows (ladder/coverage, regimes.json). It
// reads the world and the trace (it is a trace.Sink beside the run's
// own, see Tee); it changes neither.
type Watch struct {
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
	bare     bool     // no meter, no exported log (OpenWatch)
}

// OpenWatch starts the exported log of a run of f in dir; st, when set,
// is charged the watch's time (Stages). A bare watch (ladder.Options.Bare)
// audits and digests, but meters nothing and exports no log.
func OpenWatch(f *fixture.Fixture, dir string, st *Stages, bare bool) (*Watch, error) {
	x := &Watch{st: st, sampleAt: f.Checkpoints.Ticks(f.Ticks), digests: map[int64]string{}, memo: digest.NewMemo(), bare: bare}
	if bare {
		return x, nil
	}
	file, err := artifact.Create(filepath.Join(dir, artifact.EventsFile))
	if err != nil {
		return nil, err
	}
	x.file, x.buf, x.meter = file, bufio.NewWriter(file), coverage.NewMeter()
	x.log = events.NewWriter(x.buf)
	return x, nil
}

// Start watches w, built with x in its trace sink, before its first tick.
// Records emitted while the world was built reach no audit; none needs
// them, as the first audit examines every record.
func (x *Watch) Start(w *sim.World) {
	x.w = w
	x.a = audit.New(w, audit.Options{})
}

// Abort drops the exported log unless Finish put it in place.
func (x *Watch) Abort() {
	if x.file != nil {
		x.file.Abort()
	}
}

// MeterSink is the watch's regime meter as a trace sink, which reads the
// records alone: the run shows it the trace beside its own sink
// (Streams.Records). nil for a bare watch, which meters nothing.
func (x *Watch) MeterSink() trace.Sink {
	if x.meter == nil {
		return nil
	}
	return x.meter
}

func (x *Watch) fail(err error) {
	if err != nil {
		x.errs = append(x.errs, err.Error())
	}
}

// Tick audits the tick just stepped (its trace records reached Emit as
// the engine emitted them), writes the events it appended, and takes the
// state digest at a checkpoint sample.
func (x *Watch) Tick() {
	rep, err := x.a.Tick()
	x.fail(err)
	x.lastFull = rep.Full
	x.findings = append(x.findings, rep.Findings...)
	if !x.bare {
		x.fail(x.log.Follow(x.w.Log()))
	}
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

// Watched is what a run's watch kept: how much each regime-2 invariant
// examined, the rule regimes the trace reached, the audit's failing
// findings (earliest first), and what evidence could not be kept.
type Watched struct {
	Audit    []audit.Examined
	Regimes  []coverage.Reached
	Findings []audit.Finding
	Errors   []string
}

// Finish audits the end in full (unless the last audit was), stamps the
// digests into the checkpoints cp, puts the exported log in place, writes
// the regimes reached into dir (coverage.RunFile), and returns what the
// watch kept. The error is for a file that could not be put in place.
func (x *Watch) Finish(name, dir string, cp *checkpoint.File) (Watched, error) {
	if !x.lastFull {
		x.findings = append(x.findings, x.a.Full().Findings...)
	}
	if x.bare {
		return x.finishBare(cp), nil
	}
	x.fail(x.log.Follow(x.w.Log()))
	if err := x.buf.Flush(); err != nil {
		return Watched{}, fmt.Errorf("%s: %s: %w", name, artifact.EventsFile, err)
	}
	if err := x.file.Commit(); err != nil {
		return Watched{}, fmt.Errorf("%s: %w", name, err)
	}
	x.stamp(cp)
	out := Watched{Audit: x.a.Examined(), Regimes: x.meter.Reached()}
	for _, name := range x.meter.Undeclared() {
		x.fail(fmt.Errorf("rule value %s is not declared in sim/rules/registry.go: a fixture's values: could never name it", name))
	}
	for _, what := range x.meter.Unlisted() {
		x.fail(fmt.Errorf("the %s is in no list the engine declares: a fixture's pattern could never name it", what))
	}
	if err := coverage.WriteRun(dir, name, out.Regimes); err != nil {
		return Watched{}, fmt.Errorf("%s: %w", name, err)
	}
	return x.kept(out), nil
}

// stamp puts the state digests into cp: each sample's, and the end's.
func (x *Watch) stamp(cp *checkpoint.File) {
	for i := range cp.Samples {
		cp.Samples[i].StateDigest = x.digests[cp.Samples[i].Tick]
	}
	d, err := x.memo.Of(x.w)
	x.fail(err)
	cp.Outcome.StateDigest = d
}

// kept completes out with the audit's failing findings and the evidence
// that could not be kept.
func (x *Watch) kept(out Watched) Watched {
	for _, f := range x.findings {
		if f.Grade.Failing(Strict) {
			out.Findings = append(out.Findings, f)
		}
	}
	out.Errors = x.errs
	return out
}

// finishBare stamps a bare watch's digests into cp and returns its
// audit: no log to put in place, no regimes to write.
func (x *Watch) finishBare(cp *checkpoint.File) Watched {
	x.stamp(cp)
	return x.kept(Watched{Audit: x.a.Examined()})
}

// Lines are the failure lines of what the watch kept: the audit's
// earliest failing finding with a count of the rest, and the evidence
// that could not be kept.
func (o Watched) Lines() []string {
	var out []string
	if line := AuditLine(o.Findings); line != "" {
		out = append(out, line)
	}
	if len(o.Errors) > 0 {
		out = append(out, "watch: "+strings.Join(o.Errors, "; "))
	}
	return out
}

// Emit shows a trace record to the auditor, once there is one. The
// regime meter, which reads the records alone, is shown them beside the
// trace sink (streams.records), on the pipe's goroutine when there is
// one; the auditor reads the world as the record leaves it, so it is
// shown them here, on the engine's.
func (x *Watch) Emit(r trace.Record) {
	if x.a != nil {
		x.a.Emit(r)
	}
	x.st.Lap(StageWatch)
}

// Tee shows every trace record to its first sink, then to its second:
// the run's own, then the watch.
type Tee [2]trace.Sink

func (t Tee) Emit(r trace.Record) {
	t[0].Emit(r)
	t[1].Emit(r)
}

// AuditLine is the failure line of a run's audit: its earliest finding
// and how many more there are.
func AuditLine(fs []audit.Finding) string {
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
