package trace

import "slices"

// KindVariant is the record of a variant the claim store minted (schema
// version 3, added with the variant tree: readers that do not know it
// pass it over).
const KindVariant Kind = "variant"

// Variant records one variant of a claim as the store minted it: v0 with
// its claim's event, or a new step of the claim's lineage (a witness's own
// account, a mutation in a retelling). A variant is minted once: a step
// taken again (the same predecessor, the same diff) yields the variant
// already minted, and no record. Its tick is the record's.
type Variant struct {
	ID, Claim   string
	Predecessor string       // "" for v0
	Diff        []SlotChange // relative to the predecessor, sorted by slot; none for v0
	Slots       []Slot       // the variant's slots, sorted by name
	// Reason says why it exists: "event" (v0), "witness-disagrees",
	// "mutation:<policy>"; By is who produced it ("" for v0).
	Reason, By string
}

// SlotChange is one slot a variant changed from its predecessor.
type SlotChange struct {
	Slot, From, To string
}

// Slot is one typed field of a variant (entity, item, location, fixed).
type Slot struct {
	Name, Type, Value string
}

// Kind returns KindVariant.
func (Variant) Kind() Kind { return KindVariant }

// Clone returns a deep copy.
func (v Variant) Clone() Body {
	v.Diff, v.Slots = slices.Clone(v.Diff), slices.Clone(v.Slots)
	return &v
}

func (v Variant) encode(l *line) {
	l.openBranch()
	l.str(`,"by":`, v.By)
	l.str(`,"claim":`, v.Claim)
	l.array(`,"diff":`)
	for i, d := range v.Diff {
		l.element(i)
		l.str(`{"from":`, d.From)
		l.str(`,"slot":`, d.Slot)
		l.str(`,"to":`, d.To)
		l.endElement()
	}
	l.endArray()
	l.str(`,"id":`, v.ID)
	l.raw(`,"kind":"variant"`)
	l.str(`,"predecessor":`, v.Predecessor)
	l.str(`,"reason":`, v.Reason)
	l.seqField(`,"seq":`)
	l.array(`,"slots":`)
	for i, s := range v.Slots {
		l.element(i)
		l.str(`{"name":`, s.Name)
		l.str(`,"type":`, s.Type)
		l.str(`,"value":`, s.Value)
		l.endElement()
	}
	l.endArray()
	l.tickField(`,"tick":`)
	l.raw(`}`)
}

// Evidence is the one piece of evidence a belief change added to its
// belief (formed, corroborated, reinforced, reactivated, contested): what
// a belief's provenance is made of. It arrived at the record's tick; its
// source, the NPC who told it, is the chain's last member (none when
// witnessed).
type Evidence struct {
	Type    string // "witnessed" or "reported"
	Variant string // the variant it was evidence for (a contest's loser, too)
	// Chain is the source chain, oldest first, ending with the teller;
	// empty when witnessed.
	Chain []string
	// Via is what carried it: the event id for a witness, the encounter id
	// for testimony, "injected" for a fixture report.
	Via        string
	Confidence float64 // the confidence it carried on arrival
	// Counted says whether it raised confidence (formed the belief,
	// corroborated it, or won a contest).
	Counted bool
}

// Source is who told the evidence: the chain's last member, "" when
// witnessed.
func (e Evidence) Source() string {
	if len(e.Chain) == 0 {
		return ""
	}
	return e.Chain[len(e.Chain)-1]
}

func (e *Evidence) encode(l *line) {
	l.object(`,"evidence":`)
	l.strings(`{"chain":`, e.Chain)
	l.number(`,"confidence":`, e.Confidence)
	l.boolean(`,"counted":`, e.Counted)
	l.str(`,"type":`, e.Type)
	l.str(`,"variant":`, e.Variant)
	l.str(`,"via":`, e.Via)
	l.end()
}
