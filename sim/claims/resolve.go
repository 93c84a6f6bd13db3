package claims

import (
	"fmt"
	"slices"
)

// Supersession records that, for one holder, one variant of a claim lost to
// another. It is a separate record naming both: the losing variant itself is
// an immutable lineage record and is never written to.
type Supersession struct {
	Holder string
	Claim  string
	Loser  string
	Winner string
	Tick   int64
	Via    string
	// Kept is true when the holder's own variant won and the incoming one
	// lost; false when the holder switched to the incoming variant.
	Kept bool
}

// Side is one variant in a contest, with the evidence behind it: the
// strongest evidence type its chain ends in, and the summed strength
// (confidence) of that evidence, each origin counted once.
type Side struct {
	Variant  string
	Terminal EvidenceType
	Strength float64
}

// SideOf summarises a belief's evidence for its current variant. Strength
// sums one telling per distinct origin (the eyewitness the evidence rests
// on, Evidence.Root): the first to arrive. A teller who repeats a rumour is
// still one source, as corroboration already holds (an origin already
// counted adds nothing); summing every repeat would let one voice outweigh
// two independent eyewitnesses (decision record 0009).
func SideOf(b *Belief) Side {
	s := Side{Variant: b.Variant, Terminal: Reported}
	var origins []string
	for _, e := range b.Evidence {
		if e.Variant != b.Variant {
			continue
		}
		if e.Type == Witnessed {
			s.Terminal = Witnessed
		}
		origin := e.Root(b.Holder)
		if slices.Contains(origins, origin) {
			continue
		}
		origins = append(origins, origin)
		s.Strength = float64(s.Strength + e.Confidence)
	}
	return s
}

// Resolution is the outcome of one contested telling.
type Resolution struct {
	Supersession Supersession
	// Reason names the deciding criterion: "witnessed beats reported",
	// "stronger evidence" or "tie: the held variant stays".
	Reason        string
	Held          Side
	Incoming      Side
	Before, After float64 // the holder's confidence around the dent
}

// Resolve is the store's write path for a holder of one variant hearing
// another variant of the same claim. The policy (variant-resolution, seed
// spec T2.3) is evidence-type ordering with a strength tiebreak: the side
// whose evidence ends in the stronger type wins (witnessed > reported);
// when the types tie, the larger summed evidence strength wins; a full tie
// keeps the held variant. The winner — the holder's belief after the
// contest — takes the contested-claim dent, confidence × (1 − dent). The
// telling is added to the evidence either way, and a Supersession naming
// loser and winner is recorded. The one-belief-per-(holder, claim)
// invariant holds by construction: the existing belief is updated, never
// duplicated.
func (s *Store) Resolve(holder string, t Testimony, incoming Side, dent float64) (Resolution, error) {
	v, ok := s.variants[t.Variant]
	if !ok {
		return Resolution{}, fmt.Errorf("resolve %s: %w", t.Variant, ErrUnknownVariant)
	}
	b, ok := s.beliefs[beliefKey{holder, v.Claim}]
	if !ok {
		return Resolution{}, fmt.Errorf("resolve %s for %s: %w", v.Claim, holder, ErrNoBelief)
	}
	if b.Variant == t.Variant {
		return Resolution{}, fmt.Errorf("resolve %s for %s: the holder already holds this variant; use Corroborate", t.Variant, holder)
	}
	if err := t.checkChain(); err != nil {
		return Resolution{}, fmt.Errorf("resolve %s for %s: %w", t.Variant, holder, err)
	}
	s.keep(b)
	held := SideOf(b)
	r := Resolution{Held: held, Incoming: incoming, Before: b.Confidence}
	incomingWins := false
	switch {
	case held.Terminal != incoming.Terminal:
		incomingWins = incoming.Terminal == Witnessed
		r.Reason = "witnessed beats reported"
	case held.Strength != incoming.Strength:
		incomingWins = incoming.Strength > held.Strength
		r.Reason = "stronger evidence"
	default:
		r.Reason = "tie: the held variant stays"
	}
	sup := Supersession{Holder: holder, Claim: v.Claim, Tick: t.Tick, Via: t.Via, Loser: t.Variant, Winner: b.Variant, Kept: true}
	if incomingWins {
		sup.Loser, sup.Winner, sup.Kept = b.Variant, t.Variant, false
		b.Variant = t.Variant
	}
	b.Evidence = append(b.Evidence, t.evidence(incomingWins))
	b.Confidence = float64(b.Confidence * float64(1-dent))
	s.reanchor(b, t.Tick)
	r.After = b.Confidence
	r.Supersession = sup
	s.supersessions = append(s.supersessions, sup)
	return r, nil
}

// Supersessions returns every supersession record, in the order they were
// made.
func (s *Store) Supersessions() []Supersession { return slices.Clone(s.supersessions) }

// SupersessionCount returns how many supersession records the store holds
// (len of Supersessions, without the copy).
func (s *Store) SupersessionCount() int { return len(s.supersessions) }

// SupersessionAt returns the i-th supersession record (0 ≤ i <
// SupersessionCount), in the order they were made: records only
// accumulate, so a reader that has seen the first i reads the rest alone.
func (s *Store) SupersessionAt(i int) Supersession { return s.supersessions[i] }
