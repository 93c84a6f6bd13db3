package trace

import (
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/keyed"
)

// Roll is a keyed roll and the threshold it was compared against. It is
// not a record of its own: it sits inside the record of the decision it
// decided, so every roll appears exactly once, next to its consequence.
type Roll struct {
	Roll      keyed.Roll
	Threshold float64
}

// Passed reports whether the roll came in below its threshold.
func (r Roll) Passed() bool { return r.Roll.Value < r.Threshold }

func (r Roll) object() canon.Object {
	// Site and participants are in the key (and in the enclosing record);
	// repeating them would double the size of every encounter line.
	return canon.Object{
		{Key: "key", Value: r.Roll.Key.String()},
		{Key: "natural", Value: r.Roll.Natural},
		{Key: "pinned", Value: r.Roll.Pinned},
		{Key: "purpose", Value: r.Roll.Key.Purpose},
		{Key: "threshold", Value: r.Threshold},
		{Key: "value", Value: r.Roll.Value},
	}
}

// Encounter records one co-present pair considered for an encounter.
type Encounter struct {
	ID    string
	Site  string
	Pair  [2]string
	Roll  Roll
	Fired bool
}

func (Encounter) Kind() Kind { return KindEncounter }

func (e Encounter) Fields() canon.Object {
	return canon.Object{
		{Key: "fired", Value: e.Fired},
		{Key: "id", Value: e.ID},
		{Key: "pair", Value: []string{e.Pair[0], e.Pair[1]}},
		{Key: "roll", Value: e.Roll.object()},
		{Key: "site", Value: e.Site},
	}
}

// Transmission records one chance for a claim to pass from teller to
// listener: fired, or declined with the reason and the deciding rule.
type Transmission struct {
	Via      string // encounter id, or "injected"
	Claim    string
	Variant  string
	Teller   string
	Listener string
	Fired    bool
	Rule     string
	Reason   string
	// Confidence is what the listener received (fired only).
	Confidence float64
}

func (Transmission) Kind() Kind { return KindTransmission }

func (t Transmission) Fields() canon.Object {
	out := canon.Object{
		{Key: "claim", Value: t.Claim},
		{Key: "fired", Value: t.Fired},
		{Key: "listener", Value: t.Listener},
		{Key: "reason", Value: t.Reason},
		{Key: "rule", Value: t.Rule},
		{Key: "teller", Value: t.Teller},
		{Key: "variant", Value: t.Variant},
		{Key: "via", Value: t.Via},
	}
	if t.Fired {
		out = append(out, canon.Field{Key: "confidence", Value: t.Confidence})
	}
	return out
}

// Value is one named number a rule looked at (an accumulator, a factor, a
// threshold).
type Value struct {
	Name  string
	Value float64
}

// RuleEval records one evaluation of a named rule, fired or not.
type RuleEval struct {
	Rule    string
	Subject string // what the rule was evaluated for, e.g. "neighbor/theft@2"
	Fired   bool
	Reason  string
	Values  []Value
	Roll    *Roll // the roll that decided it, when one did
}

func (RuleEval) Kind() Kind { return KindRule }

func (r RuleEval) Fields() canon.Object {
	vals := make(canon.Object, len(r.Values))
	for i, v := range r.Values {
		vals[i] = canon.Field{Key: v.Name, Value: v.Value}
	}
	out := canon.Object{
		{Key: "fired", Value: r.Fired},
		{Key: "reason", Value: r.Reason},
		{Key: "rule", Value: r.Rule},
		{Key: "subject", Value: r.Subject},
		{Key: "values", Value: vals},
	}
	if r.Roll != nil {
		out = append(out, canon.Field{Key: "roll", Value: r.Roll.object()})
	}
	return out
}

// Supersession records that a holder's variant of a claim lost to another:
// a separate record naming both, never a write to the losing variant.
type Supersession struct {
	Holder, Claim string
	Loser, Winner string
	Via           string
	Kept          bool // the holder's own variant won
}

func (Supersession) Kind() Kind { return KindSupersession }

func (s Supersession) Fields() canon.Object {
	return canon.Object{
		{Key: "claim", Value: s.Claim},
		{Key: "holder", Value: s.Holder},
		{Key: "kept", Value: s.Kept},
		{Key: "loser", Value: s.Loser},
		{Key: "via", Value: s.Via},
		{Key: "winner", Value: s.Winner},
	}
}

// Event mirrors a canonical event appended to the log, so the trace's
// timeline shows the world's facts beside the derivations they caused.
type Event struct {
	ID        string
	EventKind string
	LogSeq    int64
	Hash      string
}

func (Event) Kind() Kind { return KindEvent }

func (e Event) Fields() canon.Object {
	return canon.Object{
		{Key: "event", Value: e.EventKind},
		{Key: "hash", Value: e.Hash},
		{Key: "id", Value: e.ID},
		{Key: "log_seq", Value: e.LogSeq},
	}
}

// BeliefChange is a state delta: a belief formed, corroborated, repeated…
type BeliefChange struct {
	Holder     string
	Claim      string
	Variant    string
	Change     string // "formed", "corroborated", "repeated", ...
	Confidence float64
	Stage      string
}

func (BeliefChange) Kind() Kind { return KindBelief }

func (b BeliefChange) Fields() canon.Object {
	return canon.Object{
		{Key: "change", Value: b.Change},
		{Key: "claim", Value: b.Claim},
		{Key: "confidence", Value: b.Confidence},
		{Key: "holder", Value: b.Holder},
		{Key: "stage", Value: b.Stage},
		{Key: "variant", Value: b.Variant},
	}
}

// NPCState is one NPC in a keyframe. At is "" when the NPC is nowhere
// (dead, or no schedule block and no home).
type NPCState struct {
	ID    string
	Alive bool
	At    string
}

// BeliefState is one belief in a keyframe, as of the keyframe's tick.
type BeliefState struct {
	Holder, Claim, Variant string
	Confidence, Verbatim   float64
	Gist                   float64
	Stage                  string
}

// Keyframe is the whole social state at a tick, so a reader can start
// anywhere without replaying from tick 0.
type Keyframe struct {
	NPCs    []NPCState
	Beliefs []BeliefState
}

func (Keyframe) Kind() Kind { return KindKeyframe }

func (k Keyframe) Fields() canon.Object {
	npcs := make([]any, len(k.NPCs))
	for i, n := range k.NPCs {
		npcs[i] = canon.Object{{Key: "alive", Value: n.Alive}, {Key: "at", Value: n.At}, {Key: "id", Value: n.ID}}
	}
	beliefs := make([]any, len(k.Beliefs))
	for i, b := range k.Beliefs {
		beliefs[i] = canon.Object{
			{Key: "claim", Value: b.Claim},
			{Key: "confidence", Value: b.Confidence},
			{Key: "gist", Value: b.Gist},
			{Key: "holder", Value: b.Holder},
			{Key: "stage", Value: b.Stage},
			{Key: "variant", Value: b.Variant},
			{Key: "verbatim", Value: b.Verbatim},
		}
	}
	return canon.Object{{Key: "beliefs", Value: beliefs}, {Key: "npcs", Value: npcs}}
}
