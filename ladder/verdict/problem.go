package verdict

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/dense"
	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim"
)

// HarnessCheck is the check name of a problem of no rung: a step of the
// ladder's closing report that failed (the triage page, the determinism
// rerun, the seal summary).
const HarnessCheck = "harness"

// Problem is one reason a rung fails, located: which check, at which tick,
// in which column or record, golden against actual. Message is the line
// printed for it (rung first, reproduce and regenerate commands last); the
// other fields are what CI reports and tools read (reports/failures.json).
type Problem struct {
	Rung  string `json:"rung"`
	Case  string `json:"case"`
	Check string `json:"check"` // dense.csv, trace.jsonl, checkpoints.json, expect, audit, watch, goldens, run, harness
	// Tick is where the problem first shows, or -1 when it is not at a
	// tick (a missing golden, a trace expectation, the run's outcome).
	Tick    int64  `json:"tick"`
	Column  string `json:"column,omitempty"` // dense column, trace record and field, checkpoint name, expect[i]
	Golden  string `json:"golden,omitempty"`
	Actual  string `json:"actual,omitempty"`
	File    string `json:"file"` // the fixture
	Line    int    `json:"line"` // of the failing expectation, else of the rung or case
	Message string `json:"message"`
	// Link is where on the triage page the problem is (PageLink), set by
	// Problems.
	Link string `json:"link,omitempty"`
	// Ranged marks an expectation judged over a range and placed at its
	// first tick (expect.Result.Ranged): not a divergence found there, so
	// never taken for the run's earliest.
	Ranged bool `json:"ranged,omitempty"`
	// Class is the run's drift class on its drift line (DriftCheck):
	// "value drift", "control-flow drift", "identity drift", "input drift".
	Class string `json:"class,omitempty"`
	// record is the seq in the run's trace.jsonl of the record a trace
	// problem names, when hasRecord.
	record    int64
	hasRecord bool
	// about is what a failed expectation is about (expect.Subject): the
	// row of the page its link opens.
	about expect.Subject
	// NoGoldens marks the problem of a new rung or case, whose golden
	// directory does not exist yet: nothing to compare and no seal to
	// check, which the seal summary must not call a seal check that
	// examined nothing.
	NoGoldens bool `json:"no_goldens,omitempty"`
}

// problem makes a Problem of check whose message is the rung, the check,
// the text and the commands.
func problem(f *fixture.Fixture, check string, tick int64, format string, args ...any) Problem {
	return problemWith(f, check, tick, Commands(f), format, args...)
}

// problemWith is problem with other commands than Commands'.
func problemWith(f *fixture.Fixture, check string, tick int64, commands, format string, args ...any) Problem {
	return Problem{
		Rung: f.Rung, Case: f.Case, Check: check, Tick: tick, File: f.File, Line: f.Pos.Line,
		Message: fmt.Sprintf("%s %s: %s %s", f.Name(), check, fmt.Sprintf(format, args...), commands),
	}
}

// abortion is the problem of a run that stopped part way. One the engine
// broke off with a panic is placed at the panic's tick, and its commands
// say what it is: a bug, never a change to review and accept.
func abortion(f *fixture.Fixture, aborted error) Problem {
	const text = "aborted: %v (what it produced before that is in reports/%s/)"
	var crash *sim.PanicError
	if !errors.As(aborted, &crash) {
		return problem(f, "run", -1, text, aborted, f.Name())
	}
	commands := fmt.Sprintf("(reproduce: make ladder RUNG=%s; a panic is a bug in the engine, never a change to accept)", f.Name())
	return problemWith(f, "run", crash.Tick, commands, text, aborted, f.Name())
}

// StallProblem is the problem of a run given up as hung (ladder.StallError),
// which left no ladder.Result: placed at the tick it hung in, with the command
// that reproduces it and none that regenerates, since a hang is never a
// change to accept.
func StallProblem(f *fixture.Fixture, e *ladder.StallError) Problem {
	tick := e.Tick
	if tick >= f.Ticks || e.Seed != "" {
		tick = -1 // after the last tick, or in one of a sweep's seeds: no tick of the run's own
	}
	commands := fmt.Sprintf("(reproduce: make ladder RUNG=%s; a hang is a bug in the engine, never a change to accept)", f.Name())
	return problemWith(f, "run", tick, commands, "hung: %s", e.What())
}

// Problems gathers everything wrong with one run, in the order a person
// should read it, cause before consequence: its root cause and its drift
// class (causeFirst), then, for a run that aborted, the abort, then every
// other problem by the tick where it first shows, earliest first —
// failed expectations, dense, trace and checkpoints alike, the trace
// record first at a tick — and those without a tick last. An aborted
// run is judged like any other on what it wrote before it stopped (v is
// Verify's verdict on it): when that differs from the golden, the first
// divergent record is what moved, and the abort (a pin no roll used, a
// step the world refused) is its consequence.
func Problems(res *ladder.Result, aborted error, v Verdict) []Problem {
	f := res.Fixture
	var rest []Problem
	for _, r := range res.Expectations {
		if !r.Passed {
			rest = append(rest, expectation(f, r))
		}
	}
	for _, b := range res.BadSamples {
		rest = append(rest, checkpointValue(f, b))
	}
	if p, ok := auditProblem(f, res.AuditFindings); ok {
		rest = append(rest, p)
	}
	if p, ok := watchProblem(f, res.WatchErrors); ok {
		rest = append(rest, p)
	}
	rest = append(rest, v.Problems...)
	slices.SortStableFunc(rest, func(a, b Problem) int {
		// -1 is the largest; at one tick the trace record (the cause) comes
		// before the cells and assertions it explains.
		return cmp.Or(cmp.Compare(uint64(a.Tick), uint64(b.Tick)), cmp.Compare(causeRank(a), causeRank(b)))
	})
	out := causeFirst(res, v, rest)
	if aborted != nil {
		at := 0
		for at < len(out) && (out[at].Check == RootCheck || out[at].Check == DriftCheck) {
			at++
		}
		out = slices.Insert(out, at, abortion(f, aborted))
	}
	for i := range out {
		out[i].Link = out[i].PageLink()
	}
	return out
}

// causeRank orders the problems of one tick: the trace (where causes are
// recorded) before what they explain.
func causeRank(p Problem) int {
	if p.Check == artifact.TraceFile {
		return 0
	}
	return 1
}

// Lines returns the problems' messages.
func Lines(ps []Problem) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Message
	}
	return out
}

// expectation is the problem of one failed expectation, located from the
// verdict's own data: the line of the field that failed and its first
// failing tick.
func expectation(f *fixture.Fixture, r expect.Result) Problem {
	return Problem{
		Rung: f.Rung, Case: f.Case, Check: "expect", Tick: r.Tick, Column: r.Label(),
		File: f.File, Line: r.At.Line, Ranged: r.Ranged, about: r.Subject,
		Message: fmt.Sprintf("%s %s %s", f.Name(), r.Line(f.File), Commands(f)),
	}
}

// checkpointValue is the problem of a checkpoint that sampled a value no
// golden may hold (NaN or infinite).
func checkpointValue(f *fixture.Fixture, b ladder.BadSample) Problem {
	return Problem{
		Rung: f.Rung, Case: f.Case, Check: artifact.CheckpointsFile, Tick: b.Tick, Column: b.Name,
		File: f.File, Line: b.Line,
		Message: fmt.Sprintf("%s %s %s", f.Name(), b.Message, Commands(f)),
	}
}

// denseProblem describes how a run's dense CSV compared with its golden.
// When the column set changed (someone new holds a rumour), the first
// differing header column says little: it reports the columns added and
// removed and the first tick at which a column both have differs.
func denseProblem(f *fixture.Fixture, c *dense.Comparison) (Problem, bool) {
	d := c.Divergence
	switch {
	case c.Err != nil:
		return problem(f, artifact.DenseFile, -1, "golden %s/%s is malformed: %v", f.GoldenDir(), artifact.DenseFile, c.Err), true
	case d == nil:
		return Problem{}, false
	case d.Kind == dense.KindHeader:
		if p, ok := columnSetProblem(f, c.Columns); ok {
			return p, true
		}
	}
	p := problem(f, artifact.DenseFile, tickOf(d.Tick), "%s", d)
	p.Column, p.Golden, p.Actual = d.Column, d.Golden, d.Actual
	return p, true
}

func tickOf(s string) int64 {
	t, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return -1
	}
	return t
}

// columnSetProblem describes a changed column set, when the golden could
// be read as a whole table (cs not nil) and columns were added or removed
// (a reordered header: the header divergence says it best).
func columnSetProblem(f *fixture.Fixture, cs *dense.ColumnSet) (Problem, bool) {
	if cs == nil || len(cs.Added)+len(cs.Removed) == 0 {
		return Problem{}, false
	}
	text := fmt.Sprintf("columns differ: %d added%s, %d removed%s", len(cs.Added), names(cs.Added), len(cs.Removed), names(cs.Removed))
	tick := int64(-1)
	if cs.First != nil {
		tick = cs.First.Tick
	}
	p := problem(f, artifact.DenseFile, tick, "")
	switch shared := cs.FirstShared; {
	case shared != nil:
		text += fmt.Sprintf("; shared columns first differ at tick %d, column %q: golden %s, actual %s",
			shared.Tick, shared.Column, shownCell(shared.Golden), shownCell(shared.Actual))
		p.Column, p.Golden, p.Actual = shared.Column, shared.Golden, shared.Actual
	case tick >= 0:
		text += fmt.Sprintf("; shared columns agree; the first value in an added or removed column is at tick %d, column %q", tick, cs.First.Column)
		p.Column, p.Golden, p.Actual = cs.First.Column, cs.First.Golden, cs.First.Actual
	default:
		text += "; every cell agrees"
	}
	if cs.FirstMissing != nil {
		text += fmt.Sprintf("; actual ends before tick %d", *cs.FirstMissing)
	}
	if cs.FirstExtra != nil {
		text += fmt.Sprintf("; actual has extra rows from tick %d", *cs.FirstExtra)
	}
	p.Message = fmt.Sprintf("%s %s: %s %s", f.Name(), artifact.DenseFile, text, Commands(f))
	return p, true
}

// names lists up to three column names in parentheses and counts the
// rest: a changed column set of a busy rung is dozens of 30-character
// names, which would bury the line's point.
func names(cols []string) string {
	const most = 3
	switch {
	case len(cols) == 0:
		return ""
	case len(cols) > most:
		return fmt.Sprintf(" (%s and %d more)", strings.Join(cols[:most], ", "), len(cols)-most)
	}
	return " (" + strings.Join(cols, ", ") + ")"
}

func shownCell(v string) string {
	if v == "" {
		return `""`
	}
	return v
}

// checkpointProblem collapses a checkpoint comparison to its earliest
// difference (the outcome counts as the end of the run) and a count of the
// others: forty checkpoints off by the same change are one line.
func checkpointProblem(f *fixture.Fixture, diffs []checkpoint.Diff) (Problem, bool) {
	if len(diffs) == 0 {
		return Problem{}, false
	}
	first := slices.MinFunc(diffs, func(a, b checkpoint.Diff) int { return cmp.Compare(uint64(a.Tick), uint64(b.Tick)) })
	text := first.Message
	if n := len(diffs) - 1; n > 0 {
		text += fmt.Sprintf(" (and %d more checkpoint difference", n)
		if n > 1 {
			text += "s"
		}
		text += ")"
	}
	p := problem(f, artifact.CheckpointsFile, first.Tick, "%s", text)
	p.Column, p.Golden, p.Actual = first.Name, first.Golden, first.Actual
	return p, true
}

// missingGoldens reports a rung whose golden directory does not exist and
// never did in git: a new rung, whose goldens are this run's to review and
// accept. One problem, not one per file.
func missingGoldens(root string, f *fixture.Fixture) (Problem, bool) {
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(f.GoldenDir()))); !errors.Is(err, fs.ErrNotExist) {
		return Problem{}, false
	}
	for _, name := range ladder.Sealed(f) {
		if inGit(root, f.GoldenDir()+"/"+name) {
			return Problem{}, false
		}
	}
	p := Problem{Rung: f.Rung, Case: f.Case, Check: "goldens", Tick: -1, File: f.File, Line: f.Pos.Line, NoGoldens: true}
	p.Message = fmt.Sprintf("%s: no goldens yet (%s/ does not exist): review what this run produced with "+
		"`go run ./tools/ladder review %s` and accept it with `go run ./tools/ladder accept %s`, or run `make goldens RUNG=%s`",
		f.Name(), f.GoldenDir(), f.Name(), f.Name(), f.Name())
	return p, true
}

// missingGolden advises on one missing golden file: deleted (git has it)
// or never created.
func missingGolden(root string, f *fixture.Fixture, name string) Problem {
	path := f.GoldenDir() + "/" + name
	if inGit(root, path) {
		return problem(f, name, -1, "golden %s was deleted, but git has it: restore it with `git checkout HEAD -- %s` "+
			"(or, if deleting it was meant, accept this run's artifacts: `go run ./tools/ladder accept -reason \"…\" %s`)", path, path, f.Name())
	}
	return problem(f, name, -1, "golden %s is missing and was never committed: review and accept this run's artifacts "+
		"(`go run ./tools/ladder review %s`, then `accept -reason \"…\" %s`)", path, f.Name(), f.Name())
}

// inGit reports whether git knows path (relative to root) in HEAD or in
// the index. Without git, or outside a repository, it knows nothing.
func inGit(root, path string) bool {
	for _, object := range []string{"HEAD:" + path, ":" + path} {
		cmd := exec.Command("git", "-C", root, "cat-file", "-e", object)
		if cmd.Run() == nil {
			return true
		}
	}
	return false
}
