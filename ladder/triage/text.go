package triage

import (
	"fmt"
	"strings"
)

// String says where the difference is and what moved, in one line:
//
//	tick 0, trace line 55: grudge "torvar->player formed" (rule grudge-creation): emotional golden 0.8, actual 0.792
func (d Difference) String() string { return d.Describe("golden", "actual") }

// Describe is String with the two traces named a (the first given to
// Align) and b: two runs of the same code are not a golden and an actual.
func (d Difference) Describe(a, b string) string {
	head := fmt.Sprintf("tick %d, trace line %d: %s", d.Tick, d.Line, d.subject())
	if d.Change == Vanished {
		head = fmt.Sprintf("tick %d, %s trace line %d: %s", d.Tick, a, d.Line, d.subject())
	}
	switch d.Change {
	case Appeared:
		return head + fmt.Sprintf(": in the %s trace only (a record appeared)", b)
	case Vanished:
		return head + fmt.Sprintf(": in the %s trace only (a record vanished)", a)
	case Renamed:
		s := head + ": the same record under another id, " + d.NewKey
		if d.Field != "id" { // an id inside the record (via, cause…) moved, not its key's
			s += fmt.Sprintf(" (%s: %s %s, %s %s)", d.Field, a, d.Golden, b, d.Actual)
		}
		return s
	}
	s := head + fmt.Sprintf(": %s %s %s, %s %s", d.Field, a, d.Golden, b, d.Actual)
	if d.More > 0 {
		s += fmt.Sprintf(" (and %d more fields)", d.More)
	}
	return s
}

// subject names the record: kind, key and the rule that wrote it.
func (d Difference) subject() string {
	s := d.Kind
	if d.Key != `""` && d.Key != "" {
		s += " " + d.Key
	}
	if d.Rule != "" && !strings.Contains(d.Key, d.Rule+" ") {
		s += " (rule " + d.Rule + ")"
	}
	return s
}

// Decision names what decided the record, for a root line: the rule that
// was evaluated, the roll of an encounter, the rule that wrote a record,
// or — for a keyframe — that no record before it moved.
func (d Difference) Decision() string {
	switch {
	case d.Kind == "keyframe":
		return "no record before it moved: a value derived between records (decay, a stage) differs in the state"
	case d.Kind == "rule":
		return "the " + d.Rule + " evaluation"
	case d.Kind == "encounter":
		return "the encounter roll " + d.Key
	case d.Rule != "":
		return "made by the " + d.Rule + " evaluation"
	}
	return "the " + d.Kind + " record " + d.Key
}

// Summary is the run's drift in one line: its class, the first change that
// makes it that class, by key, and the counts.
//
//	control-flow drift: first flipped decision at tick 21, encounter "…": fired golden false, actual true; 1 flipped, 2 appeared, 0 vanished, 14 moved
func (r *Report) Summary() string { return r.SummaryAs("golden", "actual") }

// SummaryAs is Summary with the two traces named a and b (Describe).
func (r *Report) SummaryAs(a, b string) string {
	c := r.Class()
	var first string
	switch c {
	case NoDrift:
		return fmt.Sprintf("no trace drift: %s and %s agree record for record; only values derived at read time (dense cells, checkpoints) moved", a, b)
	case IdentityDrift:
		first = "first renamed record: " + r.First[Renamed].Describe(a, b)
	case ControlFlowDrift:
		d := r.FirstControlFlow()
		what := map[Change]string{Flipped: "first flipped decision", Appeared: "first record that appeared", Vanished: "first record that vanished"}[d.Change]
		first = what + ": " + d.Describe(a, b)
	case ValueDrift:
		first = "same records and decisions, values moved; first: " + r.First[Moved].Describe(a, b)
	}
	var counts []string
	for _, ch := range []Change{Renamed, Flipped, Appeared, Vanished, Moved} {
		if n := r.Count[ch]; n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, ch))
		}
	}
	return fmt.Sprintf("%s: %s; records %s", c, first, strings.Join(counts, ", "))
}
