package claims

import (
	"slices"

	"github.com/chronicle/ladder/sim/detmath"
)

// Stage is a rumour's life stage for one holder. Only Heard and Repeated
// are ever stored; Dormant and Forgotten are derived by StageAt, and Unheard
// is the stage of an NPC with no belief at all.
type Stage string

const (
	Unheard   Stage = "unheard"
	Heard     Stage = "heard"
	Repeated  Stage = "repeated"
	Dormant   Stage = "dormant"
	Forgotten Stage = "forgotten"
)

// Stages lists, in the order a rumour lives them, the stages a held
// belief can be in — every answer StageAt gives for a belief; Unheard is
// no belief's.
func Stages() []Stage { return []Stage{Heard, Repeated, Dormant, Forgotten} }

// EvidenceType is how a piece of evidence reached its holder. The order
// matters to variant resolution: witnessed outranks reported.
type EvidenceType string

const (
	Witnessed EvidenceType = "witnessed"
	Reported  EvidenceType = "reported"
)

// EvidenceTypes lists every way evidence reaches its holder, strongest
// first.
func EvidenceTypes() []EvidenceType { return []EvidenceType{Witnessed, Reported} }

// Evidence is one reason a holder believes a claim.
type Evidence struct {
	Type    EvidenceType
	Tick    int64
	Variant string
	// Source is the NPC who told the holder ("" when witnessed).
	Source string
	// Chain is the full source chain, oldest first, ending with Source: the
	// teller's own chain plus the teller. Empty when witnessed.
	Chain []string
	// Via is what carried the evidence: the event id for a witness, the
	// encounter id for testimony, "injected" for a fixture-injected report.
	Via string
	// Confidence is the confidence this evidence carried on arrival.
	Confidence float64
	// Counted reports whether it raised confidence (formed the belief or
	// corroborated it); an uncounted report is kept as a record that it was
	// heard, with the reason in the derivation trace.
	Counted bool
}

// Root returns the NPC at the root of the evidence: the eyewitness whose
// observation it ultimately rests on (the holder itself for a witness).
func (e Evidence) Root(holder string) string {
	if len(e.Chain) == 0 {
		return holder
	}
	return e.Chain[0]
}

// Memory holds the coefficients of memory decay and the stage thresholds.
type Memory struct {
	VerbatimHalfLife float64 // ticks
	GistHalfLife     float64 // ticks
	DormantGist      float64
	ForgottenGist    float64
	// NoDecay holds strengths at 1 (the belief-decay rule is off); NoStages
	// derives no dormant or forgotten stage (the rumour-stages rule is off).
	NoDecay, NoStages bool
	// ages, when not nil, holds both strengths at each age (elapsed
	// ticks) below its length, as halve computes them, so that they are
	// computed once for the Memory's life and only looked up after that:
	// a city asks for tens of thousands a tick, at a few hundred ages.
	// NewStore sets it; the Memory the store hands out (Store.Memory)
	// carries it. A table holds the value the computation gives, so a
	// strength does not depend on whether the Memory has one.
	ages *ages
}

// ages are the two strengths by age, from 0.
type ages struct{ verbatim, gist []float64 }

// tabledAges is how many ages a store's Memory tables: more than most
// runs last, 32 KiB a store.
const tabledAges = 2048

// withAges returns m with its strengths tabled for ages below
// tabledAges (none when they are held at 1).
func (m Memory) withAges() Memory {
	if m.NoDecay {
		return m
	}
	a := &ages{verbatim: make([]float64, tabledAges), gist: make([]float64, tabledAges)}
	for e := range int64(tabledAges) {
		a.verbatim[e], a.gist[e] = halve(e, m.VerbatimHalfLife), halve(e, m.GistHalfLife)
	}
	m.ages = a
	return m
}

// Belief is one holder's stance on one claim. Fields are read-only outside
// the store; the store is the only writer.
type Belief struct {
	Holder     string
	Claim      string
	Variant    string
	Confidence float64
	FormedAt   int64
	// Anchor is the tick of the last reinforcement; strengths are 1 there.
	Anchor   int64
	Stage    Stage // Heard or Repeated
	Evidence []Evidence
	// Origins are the distinct origins counted towards confidence, sorted.
	Origins []string
}

// halve returns 2^(-elapsed/halfLife), the fraction of strength left after
// elapsed ticks.
func halve(elapsed int64, halfLife float64) float64 {
	if elapsed <= 0 {
		return 1
	}
	return detmath.Exp2(-(float64(elapsed) / halfLife))
}

// VerbatimAt returns the verbatim (surface detail) strength at tick t.
func (b *Belief) VerbatimAt(t int64, m Memory) float64 {
	if m.NoDecay {
		return 1
	}
	if e := t - b.Anchor; m.ages != nil && uint64(e) < tabledAges {
		return m.ages.verbatim[e]
	}
	return halve(t-b.Anchor, m.VerbatimHalfLife)
}

// GistAt returns the gist (meaning) strength at tick t.
func (b *Belief) GistAt(t int64, m Memory) float64 {
	if m.NoDecay {
		return 1
	}
	if e := t - b.Anchor; m.ages != nil && uint64(e) < tabledAges {
		return m.ages.gist[e]
	}
	return halve(t-b.Anchor, m.GistHalfLife)
}

// StageAt derives the stage at tick t: forgotten below the forgotten
// threshold, dormant below the dormant threshold, else the stored stage.
func (b *Belief) StageAt(t int64, m Memory) Stage {
	if m.NoStages {
		return b.Stage
	}
	g := b.GistAt(t, m)
	switch {
	case g < m.ForgottenGist:
		return Forgotten
	case g < m.DormantGist:
		return Dormant
	default:
		return b.Stage
	}
}

// SourceChain is the chain of the evidence that formed the belief: empty
// for a witness, the teller's chain plus the teller for testimony.
func (b *Belief) SourceChain() []string {
	return slices.Clone(b.Evidence[0].Chain)
}
