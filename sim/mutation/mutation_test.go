package mutation_test

import (
	"math"
	"slices"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/mutation"
	"github.com/chronicle/ladder/sim/trace"
)

// call is one roll a policy asked for.
type call struct {
	Purpose      string
	Tick         int64
	Site         string
	Participants []string
}

// fakeRoller returns a chosen value per purpose and records every call.
type fakeRoller struct {
	values map[string]float64
	calls  []call
}

func (f *fakeRoller) Roll(purpose string, tick int64, site string, participants ...string) keyed.Roll {
	ps := slices.Clone(participants)
	f.calls = append(f.calls, call{purpose, tick, site, ps})
	v, ok := f.values[purpose]
	if !ok {
		Fail("unexpected roll " + purpose)
	}
	return keyed.Roll{Key: keyed.Key{SeedID: "fake", Purpose: purpose, Tick: tick, Site: site, Participants: ps}, Value: v, Natural: 0.5}
}

func (f *fakeRoller) roll(purpose string) keyed.Roll {
	return keyed.Roll{Key: keyed.Key{SeedID: "fake", Purpose: purpose, Tick: 7, Site: "market", Participants: []string{"teller", "listener", "theft@2"}}, Value: f.values[purpose], Natural: 0.5}
}

var below1 = math.Nextafter(1, 0)

var factions = map[string]string{
	"teller": "stormcloak", "thief": "stormcloak", "ralof": "stormcloak",
	"hadvar": "imperial", "tullius": "imperial", "rikke": "imperial",
	"listener": "",
}

// theft is a variant with the four slots of a theft, sorted by name as the
// store keeps them.
func theft(actor string) *claims.Variant {
	return &claims.Variant{ID: "theft@2#v0", Claim: "theft@2", Slots: claims.Slots{
		{Name: "actor", Type: claims.EntitySlot, Value: actor},
		{Name: "item", Type: claims.ItemSlot, Value: "sweetroll"},
		{Name: "location", Type: claims.LocationSlot, Value: "market"},
		{Name: "victim", Type: claims.EntitySlot, Value: "merchant"},
	}}
}

// retelling is teller telling listener at tick 7 in the market.
func retelling(r *fakeRoller, v *claims.Variant, verbatim float64) mutation.Retelling {
	return mutation.Retelling{
		Teller: "teller", Listener: "listener", Tick: 7, Site: "market", Variant: v, Verbatim: verbatim,
		Faction: func(npc string) string { return factions[npc] },
		Rivals: func(f string) []string {
			var out []string
			for npc, g := range factions {
				if g != "" && g != f {
					out = append(out, npc)
				}
			}
			slices.Sort(out)
			return out
		},
		Alternatives: func(s claims.Slot) mutation.Choices {
			switch s.Name {
			case "item":
				return mutation.NewChoices([]string{"apple", "bread", "cheese", "sweetroll"}, s.Value)
			case "victim":
				return mutation.NewChoices([]string{"guard", "smith"}, s.Value)
			}
			return mutation.Choices{}
		},
		Roller: r,
	}
}

func key(purpose string) call {
	return call{Purpose: purpose, Tick: 7, Site: "market", Participants: []string{"teller", "listener", "theft@2"}}
}

var _ = Describe("Allegiance", func() {
	It("is named allegiance", func() {
		Expect(mutation.Allegiance{}.Name()).To(Equal("allegiance"))
	})

	DescribeTable("does not apply, and rolls nothing",
		func(edit func(*mutation.Retelling)) {
			roller := &fakeRoller{values: map[string]float64{}}
			r := retelling(roller, theft("thief"), 1)
			edit(&r)
			d, applies := mutation.Allegiance{}.Decide(r)
			Expect(applies).To(BeFalse())
			Expect(cmp.Diff(mutation.Decision{}, d)).To(BeEmpty())
			Expect(roller.calls).To(BeEmpty())
		},
		Entry("when the teller has no faction", func(r *mutation.Retelling) { r.Teller = "listener" }),
		Entry("when the actor is of another faction", func(r *mutation.Retelling) { r.Variant = theft("hadvar") }),
		Entry("when the actor has no faction (the player)", func(r *mutation.Retelling) { r.Variant = theft("player") }),
		Entry("when neither the teller nor the actor has a faction, in a world with factions (no faction is not a faction they share)", func(r *mutation.Retelling) {
			r.Teller, r.Variant = "listener", theft("player")
		}),
		Entry("when the claim has no actor", func(r *mutation.Retelling) {
			r.Variant = &claims.Variant{ID: "x#v0", Slots: claims.Slots{{Name: "victim", Type: claims.EntitySlot, Value: "thief"}}}
		}),
		Entry("when there is no rival", func(r *mutation.Retelling) { r.Rivals = func(string) []string { return nil } }),
	)

	DescribeTable("shifts the blame to the rival at ⌊value × n⌋ of the sorted rivals, always",
		func(value float64, want string) {
			roller := &fakeRoller{values: map[string]float64{mutation.PurposeValue: value}}
			d, applies := mutation.Allegiance{}.Decide(retelling(roller, theft("thief"), 1))
			Expect(applies).To(BeTrue())
			Expect(cmp.Diff(mutation.Decision{
				Policy:  "allegiance",
				Changes: []claims.Change{{Slot: "actor", From: "thief", To: want}},
				Steps: []mutation.Step{{
					Fired:  true,
					Reason: "allegiance: teller shifts the blame from thief (stormcloak) to " + want + " (imperial)",
					Values: []trace.Value{{Name: "options", Value: 3}},
					Roll:   &trace.Roll{Roll: roller.roll(mutation.PurposeValue), Threshold: 3},
				}},
			}, d)).To(BeEmpty())
			Expect(roller.calls).To(Equal([]call{key(mutation.PurposeValue)}))
		},
		Entry("0 → the first", 0.0, "hadvar"),
		Entry("just below 1/3 → the first", math.Nextafter(1.0/3, 0), "hadvar"),
		Entry("1/3 → the second", 1.0/3, "rikke"),
		Entry("0.5 → the second", 0.5, "rikke"),
		Entry("2/3 → the third", 2.0/3, "tullius"),
		Entry("just below 1 → the last", below1, "tullius"),
	)

	It("asks for the rivals of the teller's own faction", func() {
		roller := &fakeRoller{values: map[string]float64{mutation.PurposeValue: 0}}
		r := retelling(roller, theft("thief"), 1)
		var asked []string
		rivals := r.Rivals
		r.Rivals = func(f string) []string { asked = append(asked, f); return rivals(f) }
		mutation.Allegiance{}.Decide(r)
		Expect(asked).To(Equal([]string{"stormcloak"}))
	})

	It("does not depend on the teller's memory", func() {
		roller := &fakeRoller{values: map[string]float64{mutation.PurposeValue: 0}}
		d, applies := mutation.Allegiance{}.Decide(retelling(roller, theft("thief"), 1))
		Expect(applies).To(BeTrue())
		Expect(d.Changes).To(HaveLen(1), "a fresh partisan teller still spins")
	})
})

var _ = Describe("Memory", func() {
	It("is named memory", func() {
		Expect(mutation.Memory{}.Name()).To(Equal("memory"))
	})

	DescribeTable("mutates with probability Max × (1 − verbatim), computed with one rounding per operation",
		func(max, verbatim, want float64) {
			// A roll of 0 passes any positive probability; the gate's
			// threshold is the probability.
			roller := &fakeRoller{values: map[string]float64{mutation.PurposeMutation: 0, mutation.PurposeSlot: 0, mutation.PurposeValue: 0}}
			d, applies := mutation.Memory{Max: max}.Decide(retelling(roller, theft("thief"), verbatim))
			Expect(applies).To(BeTrue())
			Expect(d.Steps).NotTo(BeEmpty())
			gate := d.Steps[0]
			Expect(math.Float64bits(gate.Roll.Threshold)).To(Equal(math.Float64bits(want)), "threshold %v, want %v", gate.Roll.Threshold, want)
			Expect(gate.Values).To(HaveLen(2))
			Expect(gate.Values[0].Name).To(Equal("probability"))
			Expect(math.Float64bits(gate.Values[0].Value)).To(Equal(math.Float64bits(want)))
			Expect(gate.Values[1]).To(Equal(trace.Value{Name: "verbatim", Value: verbatim}))
			Expect(math.Float64bits(want)).To(Equal(math.Float64bits(float64(max * float64(1-verbatim)))))
		},
		Entry("fresh memory: never", 0.25, 1.0, 0.0),
		Entry("one half-life: 12.5%", 0.25, 0.5, 0.125),
		Entry("surface gone: mutation_max", 0.25, 0.0, 0.25),
		Entry("0.3 × 0.9", 0.3, 0.1, 0.27),
		Entry("1 × (1 − 0.7) keeps the subtraction's rounding", 1.0, 0.7, 0.30000000000000004),
		Entry("0.7 × (1 − 0.3)", 0.7, 0.3, 0.48999999999999994),
		Entry("0.1 × (1 − 0.123456789)", 0.1, 0.123456789, 0.0876543211),
		Entry("a day in: 0.25 × (1 − 2^(-1/72))", 0.25, 0.9922179401603064, 0.0019455149599234),
	)

	DescribeTable("does not mutate when the roll is at or above the probability, and rolls nothing else",
		func(max, verbatim, roll float64) {
			roller := &fakeRoller{values: map[string]float64{mutation.PurposeMutation: roll}}
			d, applies := mutation.Memory{Max: max}.Decide(retelling(roller, theft("thief"), verbatim))
			Expect(applies).To(BeTrue(), "the memory policy always decides")
			p := float64(max * float64(1-verbatim))
			Expect(cmp.Diff(mutation.Decision{
				Policy: "memory",
				Steps: []mutation.Step{{
					Reason: "memory: roll at or above the mutation probability",
					Values: []trace.Value{{Name: "probability", Value: p}, {Name: "verbatim", Value: verbatim}},
					Roll:   &trace.Roll{Roll: roller.roll(mutation.PurposeMutation), Threshold: p},
				}},
			}, d)).To(BeEmpty())
			Expect(roller.calls).To(Equal([]call{key(mutation.PurposeMutation)}))
		},
		Entry("a fresh teller, even at roll 0", 0.25, 1.0, 0.0),
		Entry("roll equal to the probability", 0.25, 0.5, 0.125),
		Entry("roll just above", 0.25, 0.5, math.Nextafter(0.125, 1)),
		Entry("mutation_max 0", 0.0, 0.0, 0.0),
	)

	It("mutates one slot when the roll is just below the probability: slot and value each by ⌊value × n⌋ over those with alternatives", func() {
		roller := &fakeRoller{values: map[string]float64{
			mutation.PurposeMutation: math.Nextafter(0.125, 0),
			mutation.PurposeSlot:     0.5,    // slots with alternatives: [item, victim] → victim
			mutation.PurposeValue:    below1, // [guard, smith] → smith
		}}
		d, applies := mutation.Memory{Max: 0.25}.Decide(retelling(roller, theft("thief"), 0.5))
		Expect(applies).To(BeTrue())
		values := []trace.Value{{Name: "probability", Value: 0.125}, {Name: "verbatim", Value: 0.5}}
		Expect(cmp.Diff(mutation.Decision{
			Policy:  "memory",
			Changes: []claims.Change{{Slot: "victim", From: "merchant", To: "smith"}},
			Steps: []mutation.Step{
				{Fired: true, Reason: "memory: roll below the mutation probability", Values: values,
					Roll: &trace.Roll{Roll: roller.roll(mutation.PurposeMutation), Threshold: 0.125}},
				{Fired: true, Reason: "slot chosen: victim", Values: []trace.Value{{Name: "options", Value: 2}},
					Roll: &trace.Roll{Roll: roller.roll(mutation.PurposeSlot), Threshold: 2}},
				{Fired: true, Reason: "value chosen: smith", Values: []trace.Value{{Name: "options", Value: 2}},
					Roll: &trace.Roll{Roll: roller.roll(mutation.PurposeValue), Threshold: 2}},
			},
		}, d)).To(BeEmpty())
		Expect(roller.calls).To(Equal([]call{key(mutation.PurposeMutation), key(mutation.PurposeSlot), key(mutation.PurposeValue)}),
			"three rolls, in this order, each keyed (tick, site, [teller, listener])")
	})

	DescribeTable("chooses the slot and the value at ⌊value × n⌋, the last one for a value just below 1",
		func(slotRoll, valueRoll float64, slot, to string) {
			roller := &fakeRoller{values: map[string]float64{mutation.PurposeMutation: 0, mutation.PurposeSlot: slotRoll, mutation.PurposeValue: valueRoll}}
			d, _ := mutation.Memory{Max: 1}.Decide(retelling(roller, theft("thief"), 0))
			Expect(d.Changes).To(HaveLen(1))
			Expect(d.Changes[0].Slot).To(Equal(slot))
			Expect(d.Changes[0].To).To(Equal(to))
		},
		Entry("0, 0", 0.0, 0.0, "item", "apple"),
		Entry("just below ½, just below ⅓", math.Nextafter(0.5, 0), math.Nextafter(1.0/3, 0), "item", "apple"),
		Entry("½, ⅓", 0.5, 1.0/3, "victim", "guard"),
		Entry("0.49, ⅓ (item has three)", 0.49, 1.0/3, "item", "bread"),
		Entry("0.2, ⅔", 0.2, 2.0/3, "item", "cheese"),
		Entry("just below 1, just below 1", below1, below1, "victim", "smith"),
	)

	It("reports that no slot has an alternative, changing nothing, after the one roll", func() {
		roller := &fakeRoller{values: map[string]float64{mutation.PurposeMutation: 0}}
		r := retelling(roller, theft("thief"), 0)
		r.Alternatives = func(claims.Slot) mutation.Choices { return mutation.Choices{} }
		d, applies := mutation.Memory{Max: 0.25}.Decide(r)
		Expect(applies).To(BeTrue())
		Expect(cmp.Diff(mutation.Decision{
			Policy: "memory",
			Steps: []mutation.Step{{
				Reason: "memory: no slot has an alternative",
				Values: []trace.Value{{Name: "probability", Value: 0.25}, {Name: "verbatim", Value: 0}},
				Roll:   &trace.Roll{Roll: roller.roll(mutation.PurposeMutation), Threshold: 0.25},
			}},
		}, d)).To(BeEmpty())
		Expect(roller.calls).To(Equal([]call{key(mutation.PurposeMutation)}))
	})

	It("keys its rolls by the claim too: two claims told in one encounter roll apart", func() {
		roller := &fakeRoller{values: map[string]float64{mutation.PurposeMutation: 0.99}}
		other := theft("thief")
		other.Claim = "theft@3"
		mutation.Memory{Max: 0.25}.Decide(retelling(roller, other, 0))
		Expect(roller.calls).To(Equal([]call{{Purpose: mutation.PurposeMutation, Tick: 7, Site: "market", Participants: []string{"teller", "listener", "theft@3"}}}))
	})

	It("keys its rolls directed: the listener telling the teller rolls other keys", func() {
		roller := &fakeRoller{values: map[string]float64{mutation.PurposeMutation: 0.99}}
		r := retelling(roller, theft("thief"), 0)
		r.Teller, r.Listener = "listener", "teller"
		mutation.Memory{Max: 0.25}.Decide(r)
		Expect(roller.calls).To(Equal([]call{{Purpose: mutation.PurposeMutation, Tick: 7, Site: "market", Participants: []string{"listener", "teller", "theft@2"}}}))
	})
})

var _ = Describe("Choices", func() {
	It("are the pool without the slot's own value, in order, wherever the value sits or when it is absent", func() {
		pool := []string{"amren", "brenuin", "carlotta", "danica", "player"}
		for _, value := range append(slices.Clone(pool), "aaa", "mikael", "zed", "") {
			var want []string
			for _, p := range pool {
				if p != value {
					want = append(want, p)
				}
			}
			c := mutation.NewChoices(pool, value)
			got := make([]string, c.Len())
			for i := range got {
				got[i] = c.At(i)
			}
			Expect(got).To(Equal(want), "value %q", value)
		}
		Expect(mutation.NewChoices(nil, "x").Len()).To(BeZero())
		Expect(mutation.Choices{}.Len()).To(BeZero())
	})
})
