package expect

import (
	"fmt"
	"slices"

	"github.com/chronicle/ladder/ladder/compare"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/trace"
)

// Run evaluates a fixture's expectations as a run advances: the runner
// calls Tick after each step, Trace for each trace record and Event for
// each canonical event (in any interleaving, each stream in order), then
// Finish once.
type Run struct {
	items    []Expectation
	outcomes []Outcome
	ticks    []int // indexes of tick checks
	traces   []int
	events   []int
	// indexer, when set (Index), indexes the run's own rolls.
	indexer *compare.Indexer
	// ofKind are the trace checks that read a record of a kind, those of
	// that kind and those of every kind, in item order, made at the first
	// record of the kind: a long run's lines are mostly of one kind, read
	// by few of its checks. sieves and keys are the sieved trace checks'
	// sieves and keys, by item (made once a run), and readers the items
	// that read the record at hand (TraceLine).
	ofKind  map[string][]int
	sieves  []*Sieve
	keys    [][]string
	readers []int
	// facts puts back what a trace line leaves out (Header).
	facts trace.Facts
	// evaluators are the negatives that need a rule evaluated
	// (Evaluating), each with its rules spelt as a trace line holds them.
	evaluators []evaluator
}

// evaluator is one negative that needs one of its rules evaluated in a
// window of ticks.
type evaluator struct {
	item  int
	rules []string
	spelt [][]byte // "rule":"<name>", as a canonical line holds it
	in    When
}

// evaluationKinds are the record kinds that record a rule's evaluation.
var evaluationKinds = trace.Evaluations()

// Header reads the trace's header line, so that each record TraceLine
// decodes comes with what its version leaves out put back (trace.Facts):
// a check reads facts, never spellings. Without it, lines are read as
// they are spelt.
func (r *Run) Header(line []byte) error {
	h, err := DecodeRecord(line)
	if err == nil {
		r.facts, err = trace.FactsOf(h)
	}
	if err != nil {
		return fmt.Errorf("trace header: %w", err)
	}
	return nil
}

// Start prepares a run of the expectations.
func Start(items []Expectation) *Run {
	r := &Run{items: items, outcomes: make([]Outcome, len(items))}
	for i, e := range items {
		r.outcomes[i].When, r.outcomes[i].Timed = e.When, e.Timed
		r.outcomes[i].reach = everything{}
		switch e.Check.(type) {
		case TickCheck:
			r.ticks = append(r.ticks, i)
		case TraceCheck:
			r.traces = append(r.traces, i)
		case EventCheck:
			r.events = append(r.events, i)
		}
		if c, ok := e.Check.(Evaluating); ok {
			if rules, in := c.Evaluates(e.When); len(rules) > 0 {
				ev := evaluator{item: i, rules: rules, in: in}
				for _, rule := range rules {
					ev.spelt = append(ev.spelt, spell("rule", rule))
				}
				r.evaluators = append(r.evaluators, ev)
			}
		}
	}
	return r
}

// evaluations counts, for every negative that needs a rule evaluated and
// has not yet seen one in its window, a record of tick t and the given
// kind that is an evaluation of one of its rules (names tells).
func (r *Run) evaluations(t int64, kind string, names func(*evaluator) bool) {
	if !slices.Contains(evaluationKinds, trace.Kind(kind)) {
		return
	}
	for i := range r.evaluators {
		e := &r.evaluators[i]
		if o := &r.outcomes[e.item]; o.Evaluated == 0 && e.in.Has(t) && names(e) {
			o.Evaluated++
		}
	}
}

// evaluating reports whether a negative still needs to look at records
// of tick t and the given kind for an evaluation of its rules.
func (r *Run) evaluating(t int64, kind string) bool {
	if !slices.Contains(evaluationKinds, trace.Kind(kind)) {
		return false
	}
	for _, e := range r.evaluators {
		if r.outcomes[e.item].Evaluated == 0 && e.in.Has(t) {
			return true
		}
	}
	return false
}

// Within tells the negatives what the run's world can produce, so one that
// could not have matched fails (Reach); without it every negative is held
// to what it examined only.
func (r *Run) Within(reach Reach) *Run {
	for i := range r.outcomes {
		r.outcomes[i].reach = reach
	}
	return r
}

// Tick runs the tick checks whose range includes the world's tick.
func (r *Run) Tick(w World) {
	t := w.Tick()
	for _, i := range r.ticks {
		if r.items[i].When.Has(t) {
			r.items[i].Check.(TickCheck).AtTick(w, &r.outcomes[i])
		}
	}
}

// Trace shows one trace record to the trace checks whose range includes
// its tick.
func (r *Run) Trace(rec Record) {
	if r.indexer != nil {
		r.indexer.Add(rec, lineOf(rec))
	}
	t := rec.Tick()
	kind, _ := rec["kind"].(string)
	rule, _ := rec["rule"].(string)
	r.evaluations(t, kind, func(e *evaluator) bool { return slices.Contains(e.rules, rule) })
	for _, i := range r.tracesOf(kind) {
		if r.items[i].When.Has(t) {
			r.items[i].Check.(TraceCheck).ObserveTrace(rec, &r.outcomes[i])
		}
	}
}

// Traces reports whether a trace check would read a record of tick t and
// the given kind: one whose range includes t and that reads every kind or
// that one (KindedTraceCheck), a negative that still looks for an
// evaluation of its rule (Evaluating), or the run's own roll index, kept
// for the runs that compare with it. Any other record need not be
// decoded.
func (r *Run) Traces(t int64, kind string) bool {
	if r.indexer != nil || r.evaluating(t, kind) {
		return true
	}
	for _, i := range r.tracesOf(kind) {
		if r.items[i].When.Has(t) {
			return true
		}
	}
	return false
}

// tracesOf are the trace checks that read records of kind: those that
// read every kind and those of that kind (KindedTraceCheck), in item order.
func (r *Run) tracesOf(kind string) []int {
	if is, ok := r.ofKind[kind]; ok {
		return is
	}
	is := []int{}
	for _, i := range r.traces {
		if k, ok := r.items[i].Check.(KindedTraceCheck); !ok || k.TraceKind() == kind {
			is = append(is, i)
		}
	}
	if r.ofKind == nil {
		r.ofKind = map[string][]int{}
	}
	r.ofKind[kind] = is
	return is
}

// Event shows one canonical event to the event checks whose range includes
// its tick.
func (r *Run) Event(rec events.Record) {
	for _, i := range r.events {
		if r.items[i].When.Has(rec.Event.Tick) {
			r.items[i].Check.(EventCheck).ObserveEvent(rec, &r.outcomes[i])
		}
	}
}

// Finish judges every expectation and returns one Result each, in fixture
// order. An expectation that examined nothing fails as "checked nothing".
func (r *Run) Finish() []Result {
	out := make([]Result, len(r.items))
	for i, e := range r.items {
		o := &r.outcomes[i]
		e.Check.Finish(o)
		if !o.failed && o.Examined == 0 {
			o.Fail(-1, e.Pos, "checked nothing: examined 0 %s in ticks [%d, %d]", e.Check.Unit(), e.When.From, e.When.To)
		}
		res := Result{Index: e.Index, Kind: e.Kind, Passed: !o.failed, Examined: o.Examined, Unit: e.Check.Unit(), At: e.Pos, Tick: -1}
		if o.failed {
			res.At, res.Tick, res.Message, res.More, res.Ranged, res.Subject = o.at, o.tick, o.message, o.more, o.ranged, o.subject
			if s, ok := e.Check.(Subjected); ok && res.Subject == (Subject{}) {
				res.Subject = s.Subject()
			}
		}
		out[i] = res
	}
	return out
}
