package explore

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/trace"
)

// vocabulary is what a retold slot may mutate to, read from the fixture
// alone (docs/fixture-reference.md, `items`): an actor or a victim to any
// cast member or the player, a place to any declared location, an item to
// any item the fixture lists or any injection names. A slot has an
// alternative when its pool holds a value other than its own. The
// memory policy's records name how many slots had one ("slot chosen",
// its options), how many values the chosen slot had ("value chosen", its
// options) and the value chosen; each must be what this vocabulary says.
// A vocabulary the engine builds smaller or larger than the fixture's —
// an item left out, an id counted twice — changes those counts on the
// first retelling that could mutate such a slot, though every value it
// chooses is still a value of the world.
type vocabulary map[claims.SlotType][]string

func newVocabulary(f *fixture.Fixture) vocabulary {
	v := vocabulary{claims.EntitySlot: {sim.Player}}
	for _, n := range f.Cast {
		v[claims.EntitySlot] = append(v[claims.EntitySlot], n.ID)
	}
	for _, l := range f.Locations {
		v[claims.LocationSlot] = append(v[claims.LocationSlot], l.ID)
	}
	v[claims.ItemSlot] = slices.Clone(f.Items)
	for _, in := range f.Injections {
		if in.Item != "" {
			v[claims.ItemSlot] = append(v[claims.ItemSlot], in.Item)
		}
	}
	for _, k := range []claims.SlotType{claims.EntitySlot, claims.LocationSlot, claims.ItemSlot} {
		slices.Sort(v[k])
		v[k] = slices.Compact(v[k])
	}
	return v
}

// others is the values slot s may become: its pool less its own value.
func (v vocabulary) others(s claims.Slot) []string {
	return slices.DeleteFunc(slices.Clone(v[s.Type]), func(x string) bool { return x == s.Value })
}

// mutation checks one memory-policy record of a retelling against the
// vocabulary, given the variant the teller tells (its belief as the phase
// found it, as the retelling reads it).
func (o *observer) mutation(t int64, b *trace.RuleEval) {
	if o.w == nil {
		return
	}
	pair, claim, _ := strings.Cut(b.Subject, "/")
	_, teller, ok := strings.Cut(pair, "<-")
	if !ok {
		return
	}
	bel, ok := o.w.Store().AsOfPhase(teller, claim)
	if !ok {
		return
	}
	variant, ok := o.w.Store().Variant(bel.Variant)
	if !ok {
		return
	}
	var open []string // the slots with an alternative, by name
	for _, s := range variant.Slots {
		if n := len(o.vocab.others(s)); n > 0 {
			open = append(open, fmt.Sprintf("%s (%d)", s.Name, n))
		}
	}
	options, _ := value(b, "options")
	fail := func(format string, args ...any) {
		o.fail(PropVocabulary, t, &Finding{Message: b.Subject + ": " + fmt.Sprintf(format, args...) +
			fmt.Sprintf("; from the fixture, variant %s's slots with an alternative are [%s]", variant.ID, strings.Join(open, ", "))})
	}
	switch {
	case b.Reason == "memory: no slot has an alternative":
		if len(open) > 0 {
			fail("the memory policy found no slot with an alternative")
		}
	case strings.HasPrefix(b.Reason, "slot chosen: "):
		o.slotChosen = strings.TrimPrefix(b.Reason, "slot chosen: ")
		if int(options) != len(open) {
			fail("the memory policy chose a slot among %v", options)
		}
	case strings.HasPrefix(b.Reason, "value chosen: "):
		s, ok := variant.Slots.Get(o.slotChosen)
		to := strings.TrimPrefix(b.Reason, "value chosen: ")
		if !ok {
			fail("the memory policy chose a value for slot %q, which the variant does not have", o.slotChosen)
			return
		}
		others := o.vocab.others(s)
		if int(options) != len(others) || !slices.Contains(others, to) {
			fail("the memory policy chose %s for %s %s among %v values; the fixture gives it %d: %s",
				to, s.Name, s.Value, options, len(others), strings.Join(others, ", "))
		}
	}
}
