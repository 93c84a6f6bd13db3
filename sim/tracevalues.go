package sim

import (
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/social"
	"github.com/chronicle/ladder/sim/trace"
)

// TraceValues lists every value a string field of a trace record can hold
// when those values are a closed set — a belief's change, stage and
// evidence type, a
// grudge's, schedule's or role's change, an obligation's state, an
// event's kind, a roll's purpose, a reputation's dimension — and nil for
// a field whose values are open (an id, a subject, a cause) or that holds
// no string. path is the field's path as sim/trace's schema names it
// ("roll.purpose"). Each list is the one the engine writes from, kept
// beside its values, so what reads against it — the ladder's loader
// checking a fixture's pattern, its regime meter checking a run's records
// — cannot disagree with the engine. A rule or transmission record's
// reason depends on its rule as well: rules.Rule.Reasons.
func TraceValues(kind trace.Kind, path string) []string {
	switch {
	case path == "roll.purpose" && (kind == trace.KindEncounter || kind == trace.KindRule):
		return Purposes()
	case kind == trace.KindBelief && path == "change":
		return trace.BeliefChanges()
	case kind == trace.KindBelief && path == "stage":
		var out []string
		for _, s := range claims.Stages() {
			out = append(out, string(s))
		}
		return out
	case kind == trace.KindBelief && path == "evidence.type":
		var out []string
		for _, t := range claims.EvidenceTypes() {
			out = append(out, string(t))
		}
		return out
	case kind == trace.KindGrudge && path == "change":
		return trace.GrudgeChanges()
	case kind == trace.KindObligation && path == "state":
		var out []string
		for _, s := range social.ObligationStates() {
			out = append(out, string(s))
		}
		return out
	case kind == trace.KindSchedule && path == "change":
		return trace.ScheduleChanges()
	case kind == trace.KindRole && path == "change":
		return trace.RoleChanges()
	case kind == trace.KindEvent && path == "event":
		return LoggedEventKinds()
	case kind == trace.KindReputation && path == "dimension":
		return Dimensions()
	}
	return nil
}
