package rules

import (
	"fmt"
	"strings"

	"github.com/chronicle/ladder/sim/canon"
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

func (f Flag) holds(v bool) bool { return f == Either || (f == Yes) == v }

// Sign says which trace record shows a regime: its kind, and what the
// record holds. Every field left zero matches anything. A rule or
// transmission record must also name the regime's rule; the other kinds
// are the rule's by construction (an encounter is rule 6's or, weighted,
// rule 18's).
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

// Span bounds a number: Lo ≤ v ≤ Hi, or Lo < v < Hi when Open.
type Span struct {
	Name   string
	Lo, Hi float64
	Open   bool
}

func (s Span) holds(v float64) bool {
	if s.Open {
		return v > s.Lo && v < s.Hi
	}
	return v >= s.Lo && v <= s.Hi
}

func (s Span) String() string {
	lo, hi := canon.FormatFloat(s.Lo), canon.FormatFloat(s.Hi)
	switch {
	case s.Open:
		return fmt.Sprintf("%s < %s < %s", lo, s.Name, hi)
	case s.Lo == s.Hi:
		return fmt.Sprintf("%s = %s", s.Name, lo)
	}
	return fmt.Sprintf("%s ≤ %s ≤ %s", lo, s.Name, hi)
}

// kind is the record kind the sign reads.
func (s Sign) kind() trace.Kind {
	if s.Kind == "" {
		return trace.KindRule
	}
	return s.Kind
}

// String describes the sign as a reader of trace.jsonl would look for it:
// `a rule record: fired, reason "threshold reached"`.
func (s Sign) String() string {
	var parts []string
	flag := func(name string, f Flag) {
		switch f {
		case Yes:
			parts = append(parts, name)
		case No:
			parts = append(parts, "not "+name)
		}
	}
	flag("fired", s.Fired)
	flag("kept", s.Kept)
	if s.Reason != "" {
		parts = append(parts, fmt.Sprintf("reason %q", s.Reason))
	}
	if s.Change != "" {
		parts = append(parts, fmt.Sprintf("change %q", s.Change))
	}
	if s.Value != nil {
		parts = append(parts, s.Value.String())
	}
	out := recordOf(s.kind())
	if len(parts) > 0 {
		out += ": " + strings.Join(parts, ", ")
	}
	return out
}

// Shows reports whether b, a record of a run, shows the regime this sign
// belongs to; rule is that regime's rule. It allocates nothing: the
// ladder asks it of every record a run emits.
func (s Sign) Shows(rule string, b trace.Body) bool {
	if b.Kind() != s.kind() {
		return false
	}
	switch r := b.(type) {
	case *trace.RuleEval:
		return s.ruleEval(rule, r)
	case trace.RuleEval:
		return s.ruleEval(rule, &r)
	case *trace.Transmission:
		return r.Rule == rule && s.Fired.holds(r.Fired) && s.reason(r.Reason)
	case trace.Transmission:
		return r.Rule == rule && s.Fired.holds(r.Fired) && s.reason(r.Reason)
	case *trace.Encounter:
		return s.encounter(r)
	case trace.Encounter:
		return s.encounter(&r)
	case *trace.Supersession:
		return s.Kept.holds(r.Kept)
	case trace.Supersession:
		return s.Kept.holds(r.Kept)
	case *trace.Grudge:
		return r.Rule == rule && s.change(r.Change)
	case trace.Grudge:
		return r.Rule == rule && s.change(r.Change)
	case *trace.Obligation:
		return r.Rule == rule && s.change(r.State)
	case trace.Obligation:
		return r.Rule == rule && s.change(r.State)
	case *trace.Schedule:
		return r.Rule == rule && s.change(r.Change)
	case trace.Schedule:
		return r.Rule == rule && s.change(r.Change)
	case *trace.Role:
		return r.Rule == rule && s.change(r.Change)
	case trace.Role:
		return r.Rule == rule && s.change(r.Change)
	case *trace.Keyframe:
		return s.row(r)
	case trace.Keyframe:
		return s.row(&r)
	}
	return false
}

func (s Sign) ruleEval(rule string, r *trace.RuleEval) bool {
	if r.Rule != rule || !s.Fired.holds(r.Fired) || !s.reason(r.Reason) {
		return false
	}
	if s.Value == nil {
		return true
	}
	name, _ := strings.CutPrefix(s.Value.Name, "values.")
	for _, v := range r.Values {
		if v.Name == name && s.Value.holds(v.Value) {
			return true
		}
	}
	return false
}

func (s Sign) encounter(e *trace.Encounter) bool {
	if !s.Fired.holds(e.Fired) {
		return false
	}
	return s.Value == nil || (s.Value.Name == "weight" && e.Weighted && s.Value.holds(e.Weight))
}

func (s Sign) reason(got string) bool {
	if p, ok := strings.CutSuffix(s.Reason, "…"); ok {
		return strings.HasPrefix(got, p)
	}
	return s.Reason == "" || got == s.Reason
}

func (s Sign) change(got string) bool { return s.Change == "" || got == s.Change }

// row reports whether some row of the keyframe table the sign's value
// names holds a value in its span.
func (s Sign) row(k *trace.Keyframe) bool {
	if s.Value == nil {
		return false
	}
	switch s.Value.Name {
	case "beliefs.verbatim":
		for _, b := range k.Beliefs {
			if s.Value.holds(b.Verbatim) {
				return true
			}
		}
	case "grudges.settled":
		for _, g := range k.Grudges {
			settled := 0.0
			if g.Settled {
				settled = 1
			}
			if s.Value.holds(settled) {
				return true
			}
		}
	}
	return false
}

// SignProblems lists what is wrong with a sign for rule: a field its
// record kind does not have, a value the kind cannot hold, a span that
// holds nothing. The catalogue's signs must have none (a spec holds it):
// a sign that can never match would leave its regime unreached for a
// reason no rung can fix.
func SignProblems(s Sign) []string {
	var out []string
	k := s.kind()
	has := func(field string, set bool, kinds ...trace.Kind) {
		if !set {
			return
		}
		for _, want := range kinds {
			if k == want {
				return
			}
		}
		out = append(out, fmt.Sprintf("%s has no %s", recordOf(k), field))
	}
	has("fired", s.Fired != Either, trace.KindRule, trace.KindTransmission, trace.KindEncounter)
	has("kept", s.Kept != Either, trace.KindSupersession)
	has("reason", s.Reason != "", trace.KindRule, trace.KindTransmission)
	has("change", s.Change != "", trace.KindGrudge, trace.KindObligation, trace.KindSchedule, trace.KindRole)
	if v := s.Value; v != nil {
		switch {
		case k == trace.KindRule && strings.HasPrefix(v.Name, "values.") && len(v.Name) > len("values."):
		case k == trace.KindEncounter && v.Name == "weight":
		case k == trace.KindKeyframe && (v.Name == "beliefs.verbatim" || v.Name == "grudges.settled"):
		default:
			out = append(out, fmt.Sprintf("%s has no number %q a sign can bound", recordOf(k), v.Name))
		}
		if !(v.Lo <= v.Hi) || (v.Open && v.Lo == v.Hi) {
			out = append(out, fmt.Sprintf("the span %s holds no number", v))
		}
	}
	if k == trace.KindKeyframe && s.Value == nil {
		out = append(out, "a keyframe sign must bound a column of one of its tables")
	}
	return out
}

// recordOf is "a rule record", "an encounter record".
func recordOf(k trace.Kind) string {
	if strings.ContainsRune("aeiou", rune(k[0])) {
		return "an " + string(k) + " record"
	}
	return "a " + string(k) + " record"
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
