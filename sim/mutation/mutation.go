package mutation

import (
	"fmt"
	"slices"

	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/trace"
)

// Roll purposes used by the policies.
const (
	PurposeMutation = "mutation"
	PurposeSlot     = "mutation-slot"
	PurposeValue    = "mutation-value"
)

// Roller draws keyed rolls; *keyed.Roller implements it.
type Roller interface {
	Roll(purpose string, tick int64, site string, participants ...string) keyed.Roll
}

var _ Roller = (*keyed.Roller)(nil)

// Retelling is one telling a policy may mutate.
type Retelling struct {
	Teller, Listener string
	Tick             int64
	Site             string
	Variant          *claims.Variant // what the teller holds
	Verbatim         float64         // the teller's verbatim strength now
	// Faction returns an NPC's faction ("" for none).
	Faction func(npc string) string
	// Rivals returns the members of every faction other than the given
	// one, sorted.
	Rivals func(faction string) []string
	// Alternatives returns the values a slot could take instead of its
	// current one.
	Alternatives func(slot claims.Slot) Choices
	Roller       Roller
}

func (r Retelling) roll(purpose string) keyed.Roll {
	return r.Roller.Roll(purpose, r.Tick, r.Site, r.Teller, r.Listener, r.Variant.Claim)
}

// Choices are the values a slot could take instead of its own: a sorted
// pool with the slot's value left out, read in place. A slot that can name
// anyone in a city of ten thousand costs nothing to ask about, where a
// list built per telling would cost the whole city each time.
type Choices struct {
	pool []string
	skip int // the position of the slot's own value in pool; len(pool) when absent
}

// NewChoices returns the values of pool other than value. Pool must be
// sorted and hold no value twice; it is not copied.
func NewChoices(pool []string, value string) Choices {
	i, found := slices.BinarySearch(pool, value)
	if !found {
		i = len(pool)
	}
	return Choices{pool: pool, skip: i}
}

// Len returns how many choices there are.
func (c Choices) Len() int {
	if c.skip < len(c.pool) {
		return len(c.pool) - 1
	}
	return len(c.pool)
}

// At returns choice i, counting from 0 in sorted order.
func (c Choices) At(i int) string {
	if i >= c.skip {
		i++
	}
	return c.pool[i]
}

// Step is one traced part of a decision: what was decided, why, and the
// roll that decided it, if any.
type Step struct {
	Fired  bool
	Reason string
	Values []trace.Value
	Roll   *trace.Roll
}

// Decision is a policy's verdict on one retelling.
type Decision struct {
	Policy  string
	Changes []claims.Change // empty: told as held
	Steps   []Step
}

// Policy decides whether a retelling mutates. Decide reports whether the
// policy applies at all; a policy that applies decides, even when it
// decides to change nothing.
type Policy interface {
	Name() string
	Decide(r Retelling) (Decision, bool)
}

// choose picks one of n options with a roll: floor(value × n), kept below n.
func choose(v float64, n int) int {
	return min(int(v*float64(n)), n-1)
}

// Allegiance is the rule-based partisan policy.
type Allegiance struct{}

var _ Policy = Allegiance{}

func (Allegiance) Name() string { return "allegiance" }

// Decide shifts the blame for a misdeed from the teller's own faction to a
// rival one.
func (Allegiance) Decide(r Retelling) (Decision, bool) {
	faction := r.Faction(r.Teller)
	actor, ok := r.Variant.Slots.Get("actor")
	if faction == "" || !ok || r.Faction(actor.Value) != faction {
		return Decision{}, false
	}
	rivals := r.Rivals(faction)
	if len(rivals) == 0 {
		return Decision{}, false
	}
	kr := r.roll(PurposeValue)
	to := rivals[choose(kr.Value, len(rivals))]
	return Decision{
		Policy:  "allegiance",
		Changes: []claims.Change{{Slot: "actor", From: actor.Value, To: to}},
		Steps: []Step{{
			Fired:  true,
			Reason: fmt.Sprintf("allegiance: %s shifts the blame from %s (%s) to %s (%s)", r.Teller, actor.Value, faction, to, r.Faction(to)),
			Values: []trace.Value{{Name: "options", Value: float64(len(rivals))}},
			Roll:   &trace.Roll{Roll: kr, Threshold: float64(len(rivals))},
		}},
	}, true
}

// Memory is the memory-keyed random policy.
type Memory struct {
	Max float64 // mutation_max
}

var _ Policy = Memory{}

func (Memory) Name() string { return "memory" }

// Decide mutates one slot with probability Max × (1 − verbatim).
func (m Memory) Decide(r Retelling) (Decision, bool) {
	p := float64(m.Max * float64(1-r.Verbatim))
	kr := r.roll(PurposeMutation)
	gate := trace.Roll{Roll: kr, Threshold: p}
	d := Decision{Policy: "memory"}
	values := []trace.Value{{Name: "probability", Value: p}, {Name: "verbatim", Value: r.Verbatim}}
	if !gate.Passed() {
		d.Steps = []Step{{Reason: "memory: roll at or above the mutation probability", Values: values, Roll: &gate}}
		return d, true
	}
	var slots []claims.Slot
	for _, s := range r.Variant.Slots {
		if r.Alternatives(s).Len() > 0 {
			slots = append(slots, s)
		}
	}
	if len(slots) == 0 {
		d.Steps = []Step{{Reason: "memory: no slot has an alternative", Values: values, Roll: &gate}}
		return d, true
	}
	d.Steps = append(d.Steps, Step{Fired: true, Reason: "memory: roll below the mutation probability", Values: values, Roll: &gate})
	sr := r.roll(PurposeSlot)
	slot := slots[choose(sr.Value, len(slots))]
	d.Steps = append(d.Steps, Step{Fired: true, Reason: "slot chosen: " + slot.Name,
		Values: []trace.Value{{Name: "options", Value: float64(len(slots))}},
		Roll:   &trace.Roll{Roll: sr, Threshold: float64(len(slots))}})
	alts := r.Alternatives(slot)
	vr := r.roll(PurposeValue)
	to := alts.At(choose(vr.Value, alts.Len()))
	d.Steps = append(d.Steps, Step{Fired: true, Reason: "value chosen: " + to,
		Values: []trace.Value{{Name: "options", Value: float64(alts.Len())}},
		Roll:   &trace.Roll{Roll: vr, Threshold: float64(alts.Len())}})
	d.Changes = []claims.Change{{Slot: slot.Name, From: slot.Value, To: to}}
	return d, true
}
