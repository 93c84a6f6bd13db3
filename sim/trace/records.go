package trace

import (
	"fmt"
	"slices"

	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/keyed"
)

// Each kind below is a plain struct with an encode method that writes its
// line's members in sorted key order, the envelope's (branch, kind, seq,
// tick) among them; docs/trace-schema.md lists the fields and says how to
// add a kind.

// Roll is a keyed roll and the threshold it was compared against. It is
// not a record of its own: it sits inside the record of the decision it
// decided, so every roll appears exactly once, next to its consequence.
type Roll struct {
	Roll      keyed.Roll
	Threshold float64
}

// Passed reports whether the roll came in below its threshold.
func (r Roll) Passed() bool { return r.Roll.Value < r.Threshold }

// clone copies the roll with its own participants.
func (r Roll) clone() Roll {
	r.Roll.Key.Participants = slices.Clone(r.Roll.Key.Participants)
	return r
}

// Encounter records one co-present pair considered for an encounter. Its
// id is its roll's key in human form, written when the record is encoded
// (ID formats it for anyone else who needs it).
type Encounter struct {
	Site  string
	Pair  [2]string
	Roll  Roll
	Fired bool
	// Weighted is set when a pair weight applies (decision 0021: the pair
	// has a grudge); Weight is then the weight, and the roll's threshold
	// the encounter probability times it. Unweighted, no weight is written.
	Weighted bool
	Weight   float64
}

// Kind returns KindEncounter.
func (Encounter) Kind() Kind { return KindEncounter }

// ID returns the encounter's id: its roll's key, such as
// "encounter@12/market/[neighbor,witness]". Evidence formed through the
// encounter cites it.
func (e Encounter) ID() string { return e.Roll.Roll.Key.String() }

// Clone returns a copy that owns its memory. When the roll's participants
// are the pair, as the engine builds them, the copy's key shares the
// copy's own pair, so keeping an encounter costs one allocation.
func (e Encounter) Clone() Body {
	c := &e
	c.own()
	return c
}

// own makes a copy of an encounter the owner of its roll's participants:
// its own pair when they are the pair, otherwise a copy of them.
func (e *Encounter) own() {
	if ps := e.Roll.Roll.Key.Participants; len(ps) == 2 && ps[0] == e.Pair[0] && ps[1] == e.Pair[1] {
		e.Roll.Roll.Key.Participants = e.Pair[:]
	} else {
		e.Roll = e.Roll.clone()
	}
}

// encode writes the encounter without what its id spells (version 3):
// the pair, the site, and the roll's key and purpose (idSpells).
func (e Encounter) encode(l *line) {
	purposeInID, siteInID, pairInID := idSpells(&e.Roll.Roll.Key, e.Site, e.Pair)
	l.openBranch()
	l.boolean(`,"fired":`, e.Fired)
	l.rollKey(`,"id":`, &e.Roll)
	l.raw(`,"kind":"encounter"`)
	if !pairInID {
		l.strings(`,"pair":`, e.Pair[:])
	}
	l.encounterRoll(`,"roll":`, &e.Roll, purposeInID)
	l.seqField(`,"seq":`)
	if !siteInID {
		l.str(`,"site":`, e.Site)
	}
	l.tickField(`,"tick":`)
	if e.Weighted {
		l.number(`,"weight":`, e.Weight)
	}
	l.raw(`}`)
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

// Kind returns KindTransmission.
func (Transmission) Kind() Kind { return KindTransmission }

// Clone returns a copy.
func (t Transmission) Clone() Body { return &t }

// encode writes the transmission without its claim when its variant
// spells it (version 3).
func (t Transmission) encode(l *line) {
	l.openBranch()
	if ClaimOf(t.Variant) != t.Claim {
		l.str(`,"claim":`, t.Claim)
	}
	if t.Fired {
		l.number(`,"confidence":`, t.Confidence)
	}
	l.boolean(`,"fired":`, t.Fired)
	l.raw(`,"kind":"transmission"`)
	l.str(`,"listener":`, t.Listener)
	l.str(`,"reason":`, t.Reason)
	l.str(`,"rule":`, t.Rule)
	l.seqField(`,"seq":`)
	l.str(`,"teller":`, t.Teller)
	l.tickField(`,"tick":`)
	l.str(`,"variant":`, t.Variant)
	l.str(`,"via":`, t.Via)
	l.raw(`}`)
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
	// Values are written as an object keyed by name, so their order here
	// does not matter; a name given twice is an error.
	Values []Value
	Roll   *Roll // the roll that decided it, when one did
}

// Kind returns KindRule.
func (RuleEval) Kind() Kind { return KindRule }

// Clone returns a deep copy (no values are nil values).
func (r RuleEval) Clone() Body {
	if len(r.Values) == 0 {
		r.Values = nil
	} else {
		r.Values = slices.Clone(r.Values)
	}
	if r.Roll != nil {
		roll := r.Roll.clone()
		r.Roll = &roll
	}
	return &r
}

func (r RuleEval) encode(l *line) {
	l.openBranch()
	l.boolean(`,"fired":`, r.Fired)
	l.raw(`,"kind":"rule"`)
	l.str(`,"reason":`, r.Reason)
	if r.Roll != nil {
		l.roll(`,"roll":`, r.Roll)
	}
	l.str(`,"rule":`, r.Rule)
	l.seqField(`,"seq":`)
	l.str(`,"subject":`, r.Subject)
	l.tickField(`,"tick":`)
	l.values(`,"values":`, r.Values)
	l.raw(`}`)
}

// values writes a rule's values as the object member token, sorted by
// name. Rules look at a handful of values, so the order is found by
// insertion sort over positions held on the stack.
func (l *line) values(token string, vs []Value) {
	var small [16]int
	order := small[:0]
	if len(vs) > len(small) {
		order = make([]int, 0, len(vs))
	}
	for i := range vs {
		order = append(order, i)
		for j := len(order) - 1; j > 0 && vs[order[j]].Name < vs[order[j-1]].Name; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for j := 1; j < len(order); j++ {
		if name := vs[order[j]].Name; name == vs[order[j-1]].Name {
			l.fail(fmt.Errorf("%w %q", canon.ErrDuplicateKey, name), canon.KeyStep(tokenKey(token)))
			return
		}
	}
	l.object(token)
	l.buf = append(l.buf, '{')
	for n, i := range order {
		if n > 0 {
			l.buf = append(l.buf, ',')
		}
		var err error
		if l.buf, err = canon.AppendString(l.buf, vs[i].Name); err != nil {
			l.fail(fmt.Errorf("%w in key", canon.ErrInvalidUTF8), canon.KeyStep(vs[i].Name))
		}
		l.buf = append(l.buf, ':')
		l.floatValue(vs[i].Value, vs[i].Name)
	}
	l.end()
}

// Supersession records that a holder's variant of a claim lost to another:
// a separate record naming both, never a write to the losing variant.
type Supersession struct {
	Holder, Claim string
	Loser, Winner string
	Via           string
	Kept          bool // the holder's own variant won
}

// Kind returns KindSupersession.
func (Supersession) Kind() Kind { return KindSupersession }

// Clone returns a copy.
func (s Supersession) Clone() Body { return &s }

// encode writes the supersession without its claim when the winning
// variant spells it (version 3).
func (s Supersession) encode(l *line) {
	l.openBranch()
	if ClaimOf(s.Winner) != s.Claim {
		l.str(`,"claim":`, s.Claim)
	}
	l.str(`,"holder":`, s.Holder)
	l.boolean(`,"kept":`, s.Kept)
	l.raw(`,"kind":"supersession"`)
	l.str(`,"loser":`, s.Loser)
	l.seqField(`,"seq":`)
	l.tickField(`,"tick":`)
	l.str(`,"via":`, s.Via)
	l.str(`,"winner":`, s.Winner)
	l.raw(`}`)
}

// Event mirrors a canonical event appended to the log, so the trace's
// timeline shows the world's facts beside the derivations they caused.
// An event the engine derived (decision 0013: an escalation, a grudge, an
// obligation's transition) names the rule that derived it and the id of
// the event that caused it; an injected event has neither, and neither
// field is written for it, so a version 1 file's event lines are unchanged.
type Event struct {
	ID        string
	EventKind string
	LogSeq    int64
	Hash      string
	Rule      string // "" for an injected event
	Cause     string // "" for an injected event
}

// Kind returns KindEvent.
func (Event) Kind() Kind { return KindEvent }

// Clone returns a copy.
func (e Event) Clone() Body { return &e }

func (e Event) encode(l *line) {
	l.openBranch()
	if e.Cause != "" {
		l.str(`,"cause":`, e.Cause)
	}
	l.str(`,"event":`, e.EventKind)
	l.str(`,"hash":`, e.Hash)
	l.str(`,"id":`, e.ID)
	l.raw(`,"kind":"event"`)
	l.integer(`,"log_seq":`, e.LogSeq)
	if e.Rule != "" {
		l.str(`,"rule":`, e.Rule)
	}
	l.seqField(`,"seq":`)
	l.tickField(`,"tick":`)
	l.raw(`}`)
}

// BeliefChange is a state delta: a belief formed, corroborated, repeated…
type BeliefChange struct {
	Holder     string
	Claim      string
	Variant    string
	Change     string // one of BeliefChanges
	Confidence float64
	Stage      string
	// Evidence is what the change added to the belief's evidence, for a
	// change that heard or saw something (formed, corroborated,
	// reinforced, reactivated, contested); nil for one that did not
	// (repeated, dormant, forgotten).
	Evidence *Evidence
}

// The changes a belief record reports. The engine writes these constants
// and no other string, so BeliefChanges is every value a belief record's
// change can hold: a fixture's pattern is checked against it.
const (
	BeliefFormed       = "formed"
	BeliefCorroborated = "corroborated" // heard again from a new source: confidence rose
	BeliefReinforced   = "reinforced"   // heard again, memory refreshed, no rise
	BeliefReactivated  = "reactivated"  // heard again while dormant or forgotten
	BeliefRepeated     = "repeated"     // its holder passed it on
	BeliefContested    = "contested"    // a variant resolution dented it
	BeliefDormant      = "dormant"      // a stage transition caused by time
	BeliefForgotten    = "forgotten"    // likewise
)

// BeliefChanges lists every change a belief record can report.
func BeliefChanges() []string {
	return []string{BeliefFormed, BeliefCorroborated, BeliefReinforced, BeliefReactivated, BeliefRepeated, BeliefContested, BeliefDormant, BeliefForgotten}
}

// Kind returns KindBelief.
func (BeliefChange) Kind() Kind { return KindBelief }

// Clone returns a deep copy.
func (b BeliefChange) Clone() Body {
	if b.Evidence != nil {
		e := *b.Evidence
		e.Chain = slices.Clone(e.Chain)
		b.Evidence = &e
	}
	return &b
}

// encode writes the belief change without its claim when its variant
// spells it (version 3).
func (b BeliefChange) encode(l *line) {
	l.openBranch()
	l.str(`,"change":`, b.Change)
	if ClaimOf(b.Variant) != b.Claim {
		l.str(`,"claim":`, b.Claim)
	}
	l.number(`,"confidence":`, b.Confidence)
	if b.Evidence != nil {
		b.Evidence.encode(l)
	}
	l.str(`,"holder":`, b.Holder)
	l.raw(`,"kind":"belief"`)
	l.seqField(`,"seq":`)
	l.str(`,"stage":`, b.Stage)
	l.tickField(`,"tick":`)
	l.str(`,"variant":`, b.Variant)
	l.raw(`}`)
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
// anywhere without replaying from tick 0. The social layer's sections
// (accumulators, grudges, obligations, reputation) and Tier 5's roles are
// written only when they hold something: a core-only world's keyframes
// are version 1's.
type Keyframe struct {
	NPCs    []NPCState
	Beliefs []BeliefState

	Accumulators []AccumulatorState
	Grudges      []GrudgeState
	Obligations  []ObligationState
	Reputation   []OpinionState
	Roles        []RoleState
}

// Kind returns KindKeyframe.
func (Keyframe) Kind() Kind { return KindKeyframe }

// Clone returns a deep copy (an empty section stays empty, never nil
// versus empty: both are written as nothing).
func (k Keyframe) Clone() Body {
	k.NPCs, k.Beliefs = slices.Clone(k.NPCs), slices.Clone(k.Beliefs)
	k.Accumulators, k.Grudges = slices.Clone(k.Accumulators), slices.Clone(k.Grudges)
	k.Obligations, k.Reputation = slices.Clone(k.Obligations), slices.Clone(k.Reputation)
	k.Roles = slices.Clone(k.Roles)
	return &k
}

func (k Keyframe) encode(l *line) {
	open := "{"
	if len(k.Accumulators) > 0 {
		l.array(`{"accumulators":`)
		for i, a := range k.Accumulators {
			l.element(i)
			l.boolean(`{"armed":`, a.Armed)
			l.integer(`,"count":`, a.Count)
			l.str(`,"offender":`, a.Offender)
			l.str(`,"victim":`, a.Victim)
			l.endElement()
		}
		l.endArray()
		open = ","
	}
	l.array(open + `"beliefs":`)
	for i, b := range k.Beliefs {
		l.element(i)
		l.str(`{"claim":`, b.Claim)
		l.number(`,"confidence":`, b.Confidence)
		l.number(`,"gist":`, b.Gist)
		l.str(`,"holder":`, b.Holder)
		l.str(`,"stage":`, b.Stage)
		l.str(`,"variant":`, b.Variant)
		l.number(`,"verbatim":`, b.Verbatim)
		l.endElement()
	}
	l.endArray()
	l.branchField(`,"branch":`)
	if len(k.Grudges) > 0 {
		l.array(`,"grudges":`)
		for i, g := range k.Grudges {
			l.element(i)
			l.number(`{"emotional":`, g.Emotional)
			l.number(`,"evidentiary":`, g.Evidentiary)
			l.str(`,"holder":`, g.Holder)
			l.boolean(`,"settled":`, g.Settled)
			l.str(`,"target":`, g.Target)
			l.endElement()
		}
		l.endArray()
	}
	l.raw(`,"kind":"keyframe"`)
	l.array(`,"npcs":`)
	for i, n := range k.NPCs {
		l.element(i)
		l.boolean(`{"alive":`, n.Alive)
		l.str(`,"at":`, n.At)
		l.str(`,"id":`, n.ID)
		l.endElement()
	}
	l.endArray()
	if len(k.Obligations) > 0 {
		l.array(`,"obligations":`)
		for i, o := range k.Obligations {
			l.element(i)
			l.str(`{"creditor":`, o.Creditor)
			l.str(`,"debtor":`, o.Debtor)
			l.str(`,"favour":`, o.Favour)
			l.str(`,"id":`, o.ID)
			l.str(`,"state":`, o.State)
			l.endElement()
		}
		l.endArray()
	}
	if len(k.Reputation) > 0 {
		l.array(`,"reputation":`)
		for i, o := range k.Reputation {
			l.element(i)
			l.number(`{"alpha":`, o.Alpha)
			l.number(`,"beta":`, o.Beta)
			l.str(`,"dimension":`, o.Dimension)
			l.number(`,"mean":`, o.Mean)
			l.str(`,"observer":`, o.Observer)
			l.str(`,"subject":`, o.Subject)
			l.endElement()
		}
		l.endArray()
	}
	if len(k.Roles) > 0 {
		l.array(`,"roles":`)
		for i, r := range k.Roles {
			l.element(i)
			l.str(`{"holder":`, r.Holder)
			l.str(`,"id":`, r.ID)
			l.integer(`,"since":`, r.Since)
			l.endElement()
		}
		l.endArray()
	}
	l.seqField(`,"seq":`)
	l.tickField(`,"tick":`)
	l.raw(`}`)
}

// Every kind is a Body, as a value and so also as a pointer.
var (
	_ Body = Encounter{}
	_ Body = Transmission{}
	_ Body = RuleEval{}
	_ Body = Supersession{}
	_ Body = Event{}
	_ Body = BeliefChange{}
	_ Body = Keyframe{}
	_ Body = Grudge{}
	_ Body = Obligation{}
	_ Body = Reputation{}
)
