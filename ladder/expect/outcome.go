package expect

import "fmt"

// Outcome is what one expectation saw during a run: how much it examined
// and its first failure. A check that fails at several ticks keeps the
// first message and counts the later ticks, so an `always` that breaks
// early is one line, not hundreds.
type Outcome struct {
	When  When
	Timed bool // the fixture gave the range (Expectation.Timed)
	// ranged marks a failure placed at its range's first tick, judged
	// over the range rather than found at the tick (Result.Ranged).
	ranged   bool
	Examined int64
	// Matched is a stream check's running count of matching records: the
	// state lives here, not in the Check, so a decoded fixture can be run
	// any number of times.
	Matched int64
	// state is a check's per-run state beyond a count (a comparison's
	// matcher), for the same reason.
	state any
	// Candidates counts what a negative examined that could have matched
	// it (ticks its claim existed, records that named its subject).
	Candidates int64
	// Evaluated counts the records the run found of an evaluation of a
	// rule the check's negative needs evaluated (Evaluating), up to the
	// first: none is all that matters.
	Evaluated int64
	// reach is what the run's world can produce (Run.Within).
	reach Reach

	failed  bool
	tick    int64 // first failing tick; -1 for a whole-run judgement
	at      Pos
	message string
	subject Subject // what the first failure is about
	// firstMatch is the tick of a stream check's first matching record.
	firstMatch int64
	last       int64
	more       int
}

// Examine counts n more things examined.
func (o *Outcome) Examine(n int64) { o.Examined += n }

// Failed reports whether the expectation has failed.
func (o *Outcome) Failed() bool { return o.failed }

// Subject is the one thing a failed expectation is about, so its failure
// line can link to it rather than to the tick alone: Kind is a kind of
// the triage page's targets — "npc" (an NPC), "belief" (holder:claim),
// "social" (block/key, as the dense columns key a social record),
// "whynot" (npc:claim, an NPC who does not hold a claim it should),
// "trace" (a record's seq) — and Value what it names. The zero Subject
// names nothing.
type Subject struct {
	Kind, Value string
}

// Subjected is a check about one thing whatever fails in it (an NPC, a
// role): its failures link there unless a failure named its own subject
// (Outcome.About).
type Subjected interface {
	Subject() Subject
}

// About names what the failure about to be recorded is about, for a
// check whose subject depends on what failed (a holders check's first
// missing NPC). Only the first failure's subject is kept, as only its
// message is.
func (o *Outcome) About(kind, value string) {
	if !o.failed {
		o.subject = Subject{kind, value}
	}
}

// Fail records a failure at tick (-1 for one judged over the whole run),
// placed at the fixture position of the field that failed.
func (o *Outcome) Fail(tick int64, at Pos, format string, args ...any) {
	if o.failed {
		if tick != o.last {
			o.more, o.last = o.more+1, tick
		}
		return
	}
	o.failed, o.tick, o.at, o.last = true, tick, at, tick
	o.message = fmt.Sprintf(format, args...)
}

// Result is the verdict on one expectation after a run.
type Result struct {
	// List is the fixture list the item is in, "expect" when empty (a
	// sweep's bounds are "sweep.bounds"); Index its place there.
	List     string
	Index    int
	Kind     string
	Passed   bool
	Examined int64
	Unit     string
	// At is the position of the field that failed (the item's when it
	// passed); Tick the first failing tick, -1 for a whole-run judgement.
	At      Pos
	Tick    int64
	Message string
	// More counts the later ticks that failed too.
	More int
	// Ranged means Tick is the first tick of the range a count was judged
	// over, not a tick where something was seen to differ: triage does not
	// take it for the run's earliest divergence.
	Ranged bool
	// Subject is what the failure is about (Outcome.About): the row its
	// link opens at Tick.
	Subject Subject
}

// Label names the item as the fixture spells its path: expect[3],
// sweep.bounds[0].
func (r Result) Label() string {
	list := r.List
	if list == "" {
		list = "expect"
	}
	return fmt.Sprintf("%s[%d]", list, r.Index)
}

// Line formats a failed result as one line: the expectation, where in the
// file, the first failing tick, and the message.
//
//	expect[3] (fixtures/T1.1-tell.yaml:24:7) at tick 12: belief(neighbor, theft@2).confidence = 0.72, want 0.7
func (r Result) Line(file string) string {
	s := fmt.Sprintf("%s (%s:%d:%d)", r.Label(), file, r.At.Line, r.At.Column)
	if r.Tick >= 0 {
		s += fmt.Sprintf(" at tick %d", r.Tick)
	}
	s += ": " + r.Message
	if r.More > 0 {
		s += fmt.Sprintf(" (and %d more ticks)", r.More)
	}
	return s
}
