package claims

import (
	"fmt"
	"slices"
	"strings"
)

// SlotType says what kind of value a slot holds, so a mutation can only
// replace an NPC with an NPC and a place with a place.
type SlotType string

const (
	EntitySlot   SlotType = "entity"
	ItemSlot     SlotType = "item"
	LocationSlot SlotType = "location"
	// FixedSlot holds a term no retelling changes: the favour an
	// invocation names, its outcome, the title granted. Mutating one would
	// turn a claim into news of another event.
	FixedSlot SlotType = "fixed"
)

// Slot is one typed field of a claim, e.g. item=sweetroll.
type Slot struct {
	Name  string
	Type  SlotType
	Value string
}

// Slots is a claim's fields, kept sorted by name so that equal contents have
// equal order.
type Slots []Slot

// Get returns the named slot.
func (s Slots) Get(name string) (Slot, bool) {
	i, ok := slices.BinarySearchFunc(s, name, func(sl Slot, n string) int { return strings.Compare(sl.Name, n) })
	if !ok {
		return Slot{}, false
	}
	return s[i], true
}

// Apply returns a copy of s with the changes applied. Every change must name
// an existing slot and start from its current value.
func (s Slots) Apply(changes []Change) (Slots, error) {
	out := slices.Clone(s)
	for _, c := range changes {
		i, ok := slices.BinarySearchFunc(out, c.Slot, func(sl Slot, n string) int { return strings.Compare(sl.Name, n) })
		if !ok {
			return nil, fmt.Errorf("no slot %q", c.Slot)
		}
		if out[i].Value != c.From {
			return nil, fmt.Errorf("slot %q is %q, not %q", c.Slot, out[i].Value, c.From)
		}
		if c.To == c.From {
			return nil, fmt.Errorf("slot %q: change from %q to itself", c.Slot, c.From)
		}
		out[i].Value = c.To
	}
	return out, nil
}

func sortSlots(s Slots) Slots {
	out := slices.Clone(s)
	slices.SortFunc(out, func(a, b Slot) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Change is one slot's difference between a variant and its predecessor.
type Change struct {
	Slot     string
	From, To string
}

// Claim is the shared subject of every belief about one canonical event.
type Claim struct {
	ID      string // equal to the event id: one claim per event
	Kind    string // the event kind, e.g. "theft"
	Tick    int64  // when the event happened
	Slots   Slots  // what happened (variant v0)
	Variant string // id of the original variant, v0
}

// Origin says why a variant exists.
type Origin struct {
	Reason string // "event" for v0, "witness-disagrees", "mutation", ...
	Holder string // who produced it ("" for v0)
	Tick   int64
}

// Variant is an immutable version of a claim. Only v0 has no predecessor.
type Variant struct {
	ID          string
	Claim       string
	Predecessor string
	Diff        []Change // relative to the predecessor
	Slots       Slots
	Origin      Origin
}
