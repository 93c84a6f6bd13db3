package rules

import (
	"strings"

	"github.com/chronicle/ladder/sim/trace"
)

// Regime is one outcome or branch of a rule that a regression gate must
// see: fired, each reason it declines for, latched, re-armed, a weight
// strictly between its bounds. A rung that never reaches a regime leaves
// the code behind it unguarded — a change there passes every golden — so
// the ladder reads from each run's trace which regimes it reached and
// fails a full run when a declared regime is reached by none (package
// ladder/coverage). Regimes are declared with their rule in the
// catalogue: adding a rule, or a branch to one, means declaring what its
// trace shows.
type Regime struct {
	// Name is short and stable within its rule ("re-armed"): coverage
	// reports cite a regime as "rule 11 accumulation-threshold: re-armed".
	Name string
	// Sign is the trace record that shows a run reached it.
	Sign Sign
	// Unreachable, when set, says why no world the fixture language can
	// build reaches the regime. Such a regime is reported but not required;
	// each entry is reviewed like the mutation tool's equivalent mutants,
	// and a run that reaches one anyway is reported too (the reason was
	// wrong).
	Unreachable string
}

// Flag is a three-valued test of a record's boolean.
type Flag int8

const (
	// Either matches both values.
	Either Flag = iota
	// Yes matches true.
	Yes
	// No matches false.
	No
)

// Sign says which trace record shows a regime: its kind, and what the
// record holds. Every field left zero matches anything. A rule or
// transmission record must also name the regime's rule; the other kinds
// are the rule's by construction (an encounter is rule 6's or, weighted,
// rule 18's). A sign is data: which records show it is the coverage
// meter's to decide (ladder/coverage: Shows, and SignProblems, which the
// ladder asks of every declared sign before it judges a run).
type Sign struct {
	Kind trace.Kind // KindRule when empty
	// Fired is the record's fired: a rule evaluation, a transmission, an
	// encounter.
	Fired Flag
	// Kept is a supersession's kept: whether the holder's own variant won.
	Kept Flag
	// Reason is a rule or transmission record's reason, exactly, or —
	// ending in "…" — a prefix of it ("kin killed: …").
	Reason string
	// Change is a grudge, schedule or role record's change, or an
	// obligation record's state.
	Change string
	// Value bounds a number the record holds: a rule's value
	// ("values.rearmed"), an encounter's weight ("weight", present only
	// while the pair is weighted), or a column of a keyframe's table
	// ("beliefs.verbatim", "grudges.settled" with a bool as 0 or 1), met
	// by any row.
	Value *Span
}

// Record is the record kind the sign reads: its Kind, a rule record when
// that is empty.
func (s Sign) Record() trace.Kind {
	if s.Kind == "" {
		return trace.KindRule
	}
	return s.Kind
}

// ReasonIs reports whether reason is one pattern (a sign's Reason) names:
// pattern itself, or, when pattern ends in "…", any reason that begins
// with what precedes it.
func ReasonIs(pattern, reason string) bool {
	if p, ok := strings.CutSuffix(pattern, "…"); ok {
		return strings.HasPrefix(reason, p)
	}
	return reason == pattern
}

// Span bounds a number: Lo ≤ v ≤ Hi, or Lo < v < Hi when Open.
type Span struct {
	Name   string
	Lo, Hi float64
	Open   bool
}

// Constructors for the catalogue's signs, so each regime reads as one line.

func fired(reason string) Sign    { return Sign{Fired: Yes, Reason: reason} }
func declined(reason string) Sign { return Sign{Fired: No, Reason: reason} }

// told and refused are a transmission record's signs.
func told(reason string) Sign { return Sign{Kind: trace.KindTransmission, Fired: Yes, Reason: reason} }
func refused(reason string) Sign {
	return Sign{Kind: trace.KindTransmission, Fired: No, Reason: reason}
}

// ruleValue is a rule record whose value name lies within [lo, hi].
func ruleValue(name string, lo, hi float64) Sign {
	return Sign{Value: &Span{Name: "values." + name, Lo: lo, Hi: hi}}
}

// changed is a state delta's sign: a grudge, schedule or role change or
// an obligation's state.
func changed(kind trace.Kind, change string) Sign { return Sign{Kind: kind, Change: change} }

// disabled is the regime every rule but an invariant has: a fixture turned
// it off, and the trace says so where it would have been evaluated.
var disabled = Regime{Name: "disabled", Sign: declined("disabled")}
