package expect

import "fmt"

// Reach is what a run's world can produce. A negative expectation — a
// trace pattern with exists: false or count: 0, absent: true, a count of
// none — passes only if it examined something that could have matched it;
// one that asks about a rule the fixture disabled, or social state the
// world has no source of, could pass in any engine, right or broken, so
// it fails instead ("could not have matched"), saying why. The runner
// answers from the fixture and the world's layers (ladder/reach.go).
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
