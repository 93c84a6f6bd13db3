package coverage

import (
	"fmt"
	"strings"

	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// The catalogue declares each regime's sign as data (rules.Sign); what a
// sign means — which records show it — is the meter's to say, here. The
// matching is the gate's instrument, not the engine's behaviour: the
// engine never asks it, and its correctness is held by this package's
// specs and by the ladder's catalogue check (SignProblems on every
// declared sign), not by any rung's golden.

func holds(f rules.Flag, v bool) bool { return f == rules.Either || (f == rules.Yes) == v }

func spanHolds(s rules.Span, v float64) bool {
	if s.Open {
		return v > s.Lo && v < s.Hi
	}
	return v >= s.Lo && v <= s.Hi
}

func describeSpan(s rules.Span) string {
	lo, hi := canon.FormatFloat(s.Lo), canon.FormatFloat(s.Hi)
	switch {
	case s.Open:
		return fmt.Sprintf("%s < %s < %s", lo, s.Name, hi)
	case s.Lo == s.Hi:
		return fmt.Sprintf("%s = %s", s.Name, lo)
	}
	return fmt.Sprintf("%s ≤ %s ≤ %s", lo, s.Name, hi)
}

// Describe says what a sign looks for, as a reader of trace.jsonl would
// look for it: `a rule record: fired, reason "threshold reached"`.
func Describe(s rules.Sign) string {
	var parts []string
	flag := func(name string, f rules.Flag) {
		switch f {
		case rules.Yes:
			parts = append(parts, name)
		case rules.No:
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
		parts = append(parts, describeSpan(*s.Value))
	}
	out := recordOf(s.Record())
	if len(parts) > 0 {
		out += ": " + strings.Join(parts, ", ")
	}
	return out
}

// Shows reports whether b, a record of a run, shows the regime sign s
// belongs to; rule is that regime's rule. It allocates nothing: the meter
// asks it of every record a run emits.
func Shows(s rules.Sign, rule string, b trace.Body) bool { return shows(&s, rule, b) }

// shows is Shows for a sign in place: the meter asks it of every record,
// and a Sign copied for every regime of every record cost the meter more
// than the tests themselves.
func shows(s *rules.Sign, rule string, b trace.Body) bool {
	if b.Kind() != s.Record() {
		return false
	}
	switch r := b.(type) {
	case *trace.RuleEval:
		return ruleEval(s, rule, r)
	case trace.RuleEval:
		return ruleEval(s, rule, &r)
	case *trace.Transmission:
		return r.Rule == rule && holds(s.Fired, r.Fired) && reason(s, r.Reason)
	case trace.Transmission:
		return r.Rule == rule && holds(s.Fired, r.Fired) && reason(s, r.Reason)
	case *trace.Encounter:
		return encounter(s, r)
	case trace.Encounter:
		return encounter(s, &r)
	case *trace.Supersession:
		return holds(s.Kept, r.Kept)
	case trace.Supersession:
		return holds(s.Kept, r.Kept)
	case *trace.Grudge:
		return r.Rule == rule && change(s, r.Change)
	case trace.Grudge:
		return r.Rule == rule && change(s, r.Change)
	case *trace.Obligation:
		return r.Rule == rule && change(s, r.State)
	case trace.Obligation:
		return r.Rule == rule && change(s, r.State)
	case *trace.Schedule:
		return r.Rule == rule && change(s, r.Change)
	case trace.Schedule:
		return r.Rule == rule && change(s, r.Change)
	case *trace.Role:
		return r.Rule == rule && change(s, r.Change)
	case trace.Role:
		return r.Rule == rule && change(s, r.Change)
	case *trace.Keyframe:
		return row(s, r)
	case trace.Keyframe:
		return row(s, &r)
	}
	return false
}

func ruleEval(s *rules.Sign, rule string, r *trace.RuleEval) bool {
	if r.Rule != rule || !holds(s.Fired, r.Fired) || !reason(s, r.Reason) {
		return false
	}
	if s.Value == nil {
		return true
	}
	name, _ := strings.CutPrefix(s.Value.Name, "values.")
	for _, v := range r.Values {
		if v.Name == name && spanHolds(*s.Value, v.Value) {
			return true
		}
	}
	return false
}

func encounter(s *rules.Sign, e *trace.Encounter) bool {
	if !holds(s.Fired, e.Fired) {
		return false
	}
	return s.Value == nil || (s.Value.Name == "weight" && e.Weighted && spanHolds(*s.Value, e.Weight))
}

func reason(s *rules.Sign, got string) bool { return s.Reason == "" || rules.ReasonIs(s.Reason, got) }

func change(s *rules.Sign, got string) bool { return s.Change == "" || got == s.Change }

// row reports whether some row of the keyframe table the sign's value
// names holds a value in its span.
func row(s *rules.Sign, k *trace.Keyframe) bool {
	if s.Value == nil {
		return false
	}
	switch s.Value.Name {
	case "beliefs.verbatim":
		for _, b := range k.Beliefs {
			if spanHolds(*s.Value, b.Verbatim) {
				return true
			}
		}
	case "grudges.settled":
		for _, g := range k.Grudges {
			settled := 0.0
			if g.Settled {
				settled = 1
			}
			if spanHolds(*s.Value, settled) {
				return true
			}
		}
	}
	return false
}

// SignProblems lists what is wrong with a sign: a field its record kind
// does not have, a value the kind cannot hold, a span that holds nothing.
// The catalogue's signs must have none — the ladder checks every one
// before it judges coverage — because a sign that can never match would
// leave its regime unreached for a reason no rung can fix.
func SignProblems(s rules.Sign) []string {
	var out []string
	k := s.Record()
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
	has("fired", s.Fired != rules.Either, trace.KindRule, trace.KindTransmission, trace.KindEncounter)
	has("kept", s.Kept != rules.Either, trace.KindSupersession)
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
			out = append(out, fmt.Sprintf("the span %s holds no number", describeSpan(*v)))
		}
	}
	if k == trace.KindKeyframe && s.Value == nil {
		out = append(out, "a keyframe sign must bound a column of one of its tables")
	}
	return out
}

// CatalogueProblems is the ladder's check of the instrument it judges
// coverage with, made before any verdict: the catalogue keeps the seed's
// rule budget (rules.BudgetProblems) and every declared regime's sign can
// match some record (SignProblems). Each problem names its rule and regime.
func CatalogueProblems(cat []rules.Rule) []string {
	out := rules.BudgetProblems(cat)
	for _, r := range cat {
		for _, g := range r.Regimes {
			for _, p := range SignProblems(g.Sign) {
				out = append(out, fmt.Sprintf("rule %d %s: %s: %s", r.Number, r.Name, g.Name, p))
			}
		}
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
