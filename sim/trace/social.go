package trace

// The social layer's record kinds (schema v2). Each is a state delta of
// one piece of social state, and each names the rule that made it and the
// id of the event whose belief caused it, so a reader can follow every
// change to its trigger (docs/trace-schema.md).

// Grudge records a grudge formed, reinforced or settled. Strengths are
// those at the record's tick.
type Grudge struct {
	Holder, Target string
	Change         string // one of GrudgeChanges
	Emotional      float64
	Evidentiary    float64
	Rule           string
	Cause          string // the event that caused it (the brawl, the refusal, the killing)
}

// The changes a grudge record reports: a grudge formed, reinforced (a
// second cause: both strengths noisy-or'd), settled (its total fell below
// grudge_settled). The engine writes these constants and no other string.
const (
	GrudgeFormed     = "formed"
	GrudgeReinforced = "reinforced"
	GrudgeSettled    = "settled"
)

// GrudgeChanges lists every change a grudge record can report.
func GrudgeChanges() []string { return []string{GrudgeFormed, GrudgeReinforced, GrudgeSettled} }

// Kind returns KindGrudge.
func (Grudge) Kind() Kind { return KindGrudge }

// Clone returns a copy.
func (g Grudge) Clone() Body { return &g }

func (g Grudge) encode(l *line) {
	l.openBranch()
	l.str(`,"cause":`, g.Cause)
	l.str(`,"change":`, g.Change)
	l.number(`,"emotional":`, g.Emotional)
	l.number(`,"evidentiary":`, g.Evidentiary)
	l.str(`,"holder":`, g.Holder)
	l.raw(`,"kind":"grudge"`)
	l.str(`,"rule":`, g.Rule)
	l.seqField(`,"seq":`)
	l.str(`,"target":`, g.Target)
	l.tickField(`,"tick":`)
	l.raw(`}`)
}

// Obligation records an obligation issued, fulfilled or violated.
type Obligation struct {
	ID               string // "obligation:" + the favour's id
	Favour           string
	Creditor, Debtor string
	State            string // "issued", "fulfilled", "violated"
	Rule             string
	Cause            string // the favour, then the invocation
}

// Kind returns KindObligation.
func (Obligation) Kind() Kind { return KindObligation }

// Clone returns a copy.
func (o Obligation) Clone() Body { return &o }

func (o Obligation) encode(l *line) {
	l.openBranch()
	l.str(`,"cause":`, o.Cause)
	l.str(`,"creditor":`, o.Creditor)
	l.str(`,"debtor":`, o.Debtor)
	l.str(`,"favour":`, o.Favour)
	l.str(`,"id":`, o.ID)
	l.raw(`,"kind":"obligation"`)
	l.str(`,"rule":`, o.Rule)
	l.seqField(`,"seq":`)
	l.str(`,"state":`, o.State)
	l.tickField(`,"tick":`)
	l.raw(`}`)
}

// Reputation records one observer's opinion of a subject on a dimension
// after a piece of evidence moved it.
type Reputation struct {
	Observer, Subject, Dimension string
	Alpha, Beta, Mean            float64
	Rule                         string
	Cause                        string // the claim the observer came to believe
}

// Kind returns KindReputation.
func (Reputation) Kind() Kind { return KindReputation }

// Clone returns a copy.
func (r Reputation) Clone() Body { return &r }

func (r Reputation) encode(l *line) {
	l.number(`{"alpha":`, r.Alpha)
	l.number(`,"beta":`, r.Beta)
	l.branchField(`,"branch":`)
	l.str(`,"cause":`, r.Cause)
	l.str(`,"dimension":`, r.Dimension)
	l.raw(`,"kind":"reputation"`)
	l.number(`,"mean":`, r.Mean)
	l.str(`,"observer":`, r.Observer)
	l.str(`,"rule":`, r.Rule)
	l.seqField(`,"seq":`)
	l.str(`,"subject":`, r.Subject)
	l.tickField(`,"tick":`)
	l.raw(`}`)
}

// AccumulatorState is one (victim, offender) accumulator in a keyframe:
// the offences counted within the window at the keyframe's tick, and
// whether it can still fire.
type AccumulatorState struct {
	Victim, Offender string
	Count            int64
	Armed            bool
}

// GrudgeState is one grudge in a keyframe, its strengths as of the tick.
type GrudgeState struct {
	Holder, Target         string
	Emotional, Evidentiary float64
	Settled                bool
}

// ObligationState is one obligation in a keyframe.
type ObligationState struct {
	ID, Favour       string
	Creditor, Debtor string
	State            string
}

// OpinionState is one observer's reputation row in a keyframe.
type OpinionState struct {
	Observer, Subject, Dimension string
	Alpha, Beta, Mean            float64
}
