package expect

import (
	"fmt"
	"strings"
)

// Reach is what a run's world can produce. A negative expectation — a
// trace pattern with exists: false or count: 0, absent: true, a count of
// none — passes only if it examined something that could have matched it;
// one that asks about a rule the fixture disabled, or social state the
// world has no source of, could pass in any engine, right or broken, so
// it fails instead ("could not have matched"), saying why. The runner
// answers from the fixture and the world's layers (package ladder/reach).
//
// Each method reports whether the thing can happen in this world and,
// when it cannot, why not in words that complete "could not have matched:".
type Reach interface {
	// Rule: the named rule is enabled and its layer is one the world uses.
	Rule(name string) (bool, string)
	// Source: the world has a source of the named state — "grudges",
	// "reputation", "obligations", "schedules" (overrides), "roles",
	// "claims".
	Source(state string) (bool, string)
	// Event: a canonical event of the kind can be appended: the fixture
	// injects one, or an enabled rule with a source derives it.
	Event(kind string) (bool, string)
}

// Evaluating is a check whose negative could have matched only if some
// rule was evaluated: one about a rule, or about what only a rule makes
// (an escalation). What the fixture says of the rule (Reach.Rule) is not
// enough: an enabled rule in a layer the world uses may still meet
// nothing to evaluate in a run — T3.1's thefts never ask grudge-creation
// anything — and then no record could have matched. The run counts, as
// the trace streams past, the records of the rules' evaluations
// (trace.Evaluations) in the check's window into Outcome.Evaluated; it
// looks at a line only for a rule's name, never decodes it for this, and
// stops at the first, so the sieve keeps what it saves.
type Evaluating interface {
	Check
	// Evaluates returns the rules the negative needs evaluated (any one
	// will do) and the window of ticks to find one in, for the check's
	// range w; no rules when the check is no such negative.
	Evaluates(w When) ([]string, When)
}

// everything is the reach of a run nobody described (a unit spec's): it
// holds every negative to what it examined only.
type everything struct{}

func (everything) Rule(string) (bool, string)   { return true, "" }
func (everything) Source(string) (bool, string) { return true, "" }
func (everything) Event(string) (bool, string)  { return true, "" }

// couldNot fails a negative that could not have matched, placed at the
// field that makes it negative: why, and what it did examine.
func (o *Outcome) couldNot(at Pos, unit, why string) {
	o.Fail(-1, at, "could not have matched: %s — a negative must examine something that could have matched (examined %d %s in ticks [%d, %d])",
		why, o.Examined, unit, o.When.From, o.When.To)
}

// needRule fails a negative about a rule this world cannot evaluate.
func (o *Outcome) needRule(at Pos, unit, rule string) bool {
	if ok, why := o.reach.Rule(rule); !ok {
		o.couldNot(at, unit, fmt.Sprintf("rule %s %s", rule, why))
		return false
	}
	return true
}

// needSource fails a negative about state this world has no source of.
func (o *Outcome) needSource(at Pos, unit, state string) bool {
	if ok, why := o.reach.Source(state); !ok {
		o.couldNot(at, unit, fmt.Sprintf("this world has no %s: %s", state, why))
		return false
	}
	return true
}

// needEvent fails a negative about an event this world cannot append.
func (o *Outcome) needEvent(at Pos, unit, kind string) bool {
	if ok, why := o.reach.Event(kind); !ok {
		o.couldNot(at, unit, fmt.Sprintf("no %s event can happen in this world: %s", kind, why))
		return false
	}
	return true
}

// needEvaluated fails a negative none of whose rules the run saw
// evaluated in its window in: a rule that never evaluated wrote nothing
// the negative could have matched. An untimed check's window is the whole
// run.
func (o *Outcome) needEvaluated(at Pos, unit string, rules []string, in When) bool {
	if len(rules) == 0 || o.Evaluated > 0 {
		return true
	}
	span := "in this run"
	if o.Timed {
		span = fmt.Sprintf("in ticks [%d, %d]", in.From, in.To)
	}
	if len(rules) == 1 {
		o.couldNot(at, unit, fmt.Sprintf("rule %s was never evaluated %s (examined 0 records of it)", rules[0], span))
	} else {
		o.couldNot(at, unit, fmt.Sprintf("rules %s were never evaluated %s (examined 0 records of them)", strings.Join(rules, " and "), span))
	}
	return false
}
