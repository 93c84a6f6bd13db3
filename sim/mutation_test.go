package sim_test

import (
	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/mutation"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// mutationPin pins a mutation roll of teller telling listener the claim
// of the event at tick 0 ("theft@0") or 72 ("theft@72").
func mutationPin(purpose string, tick int64, site string, value float64, teller, listener, claim string) keyed.Pin {
	return keyed.Pin{Purpose: purpose, Tick: tick, Site: site, Participants: []string{teller, listener, claim}, Value: value}
}

var _ = Describe("Mutation in an encounter retelling", func() {
	It("lets a partisan teller shift the blame to a rival faction, choosing the rival by a keyed roll", func() {
		cfg := base()
		cfg.Defines.EncounterProbability = 1
		cfg.Cast = []sim.NPC{
			{ID: "ralof", Faction: "stormcloak", Schedule: stays("", "market").Schedule},
			stays("l", "market"),
			{ID: "thief", Faction: "stormcloak"},
			{ID: "tullius", Faction: "imperial"},
			{ID: "hadvar", Faction: "imperial"},
		}
		in := theft(0, "theft@0", "ralof")
		in.Actor = "thief"
		cfg.Injections = []sim.Injection{in}
		cfg.Pins = []keyed.Pin{mutationPin(mutation.PurposeValue, 0, "market", 0.75, "ralof", "l", "theft@0")}
		r := build(cfg)
		r.through(0)

		l := r.belief("l", "theft@0")
		Expect(l.Variant).To(Equal("theft@0#v1"))
		v, _ := r.Store().Variant("theft@0#v1")
		Expect(v.Predecessor).To(Equal("theft@0#v0"))
		Expect(cmp.Diff([]claims.Change{{Slot: "actor", From: "thief", To: "tullius"}}, v.Diff)).To(BeEmpty(), "rivals sorted [hadvar, tullius]; ⌊0.75 × 2⌋ = 1")
		Expect(v.Origin).To(Equal(claims.Origin{Reason: "mutation:allegiance", Holder: "ralof", Tick: 0}))
		Expect(r.belief("ralof", "theft@0").Variant).To(Equal("theft@0#v0"), "the teller keeps its own")

		evals := ruleEvals(r.records(0), rules.MutationPolicy)
		Expect(evals).To(HaveLen(1), "the first policy that applies decides")
		Expect(evals[0]).To(Equal(trace.RuleEval{
			Rule: rules.MutationPolicy, Subject: "l<-ralof/theft@0", Fired: true,
			Reason: "allegiance: ralof shifts the blame from thief (stormcloak) to tullius (imperial)",
			Values: []trace.Value{{Name: "options", Value: 2}},
			Roll: &trace.Roll{Threshold: 2, Roll: keyed.Roll{
				Key:   keyed.Key{SeedID: seed, Purpose: mutation.PurposeValue, Tick: 0, Site: "market", Participants: []string{"ralof", "l", "theft@0"}},
				Value: 0.75, Natural: evals[0].Roll.Roll.Natural, Pinned: true,
			}},
		}))
		Expect(r.UnusedPins()).To(BeEmpty())
	})

	It("mutates one slot by memory, from the cast, the locations and the item vocabulary, when the roll is below mutation_max × (1 − verbatim)", func() {
		cfg := base()
		cfg.Defines.EncounterProbability = 1
		cfg.Defines.MutationMax = 0.25
		cfg.Items = []string{"bread", "apple"}
		cfg.Cast = []sim.NPC{stays("w", "market"), visits("l", "market", 72, 73)}
		cfg.Injections = []sim.Injection{theft(0, "theft@0", "w")}
		cfg.Pins = []keyed.Pin{
			mutationPin(mutation.PurposeMutation, 72, "market", 0.1249, "w", "l", "theft@0"),
			mutationPin(mutation.PurposeSlot, 72, "market", 0.3, "w", "l", "theft@0"),  // ⌊0.3 × 4⌋ = 1: item
			mutationPin(mutation.PurposeValue, 72, "market", 0.5, "w", "l", "theft@0"), // ⌊0.5 × 2⌋ = 1: bread
		}
		r := build(cfg)
		r.through(72)

		l := r.belief("l", "theft@0")
		v, _ := r.Store().Variant(l.Variant)
		Expect(cmp.Diff([]claims.Change{{Slot: "item", From: "sweetroll", To: "bread"}}, v.Diff)).To(BeEmpty())
		Expect(v.Origin).To(Equal(claims.Origin{Reason: "mutation:memory", Holder: "w", Tick: 72}))

		evals := ruleEvals(r.records(72), rules.MutationPolicy)
		Expect(evals).To(HaveLen(3))
		Expect([]string{evals[0].Reason, evals[1].Reason, evals[2].Reason}).To(Equal([]string{
			"memory: roll below the mutation probability", "slot chosen: item", "value chosen: bread",
		}))
		p, _ := value(evals[0].Values, "probability")
		verbatim, _ := value(evals[0].Values, "verbatim")
		Expect(bits(verbatim)).To(Equal(bits(0.5)), "one verbatim half-life")
		Expect(bits(p)).To(Equal(bits(0.125)))
		Expect(bits(evals[0].Roll.Threshold)).To(Equal(bits(0.125)))
		Expect([]float64{evals[1].Roll.Threshold, evals[2].Roll.Threshold}).To(Equal([]float64{4, 2}))
		Expect(r.UnusedPins()).To(BeEmpty())
	})

	It("counts an item only an injection names in the item vocabulary", func() {
		cfg := base()
		cfg.Defines.EncounterProbability = 1
		cfg.Defines.MutationMax = 0.25
		cfg.Items = []string{"bread"}
		cfg.Cast = []sim.NPC{stays("w", "market"), visits("l", "market", 72, 73), stays("x", "tavern")}
		apple := theft(5, "theft@5", "x")
		apple.Item, apple.At = "apple", "tavern"
		cfg.Injections = []sim.Injection{theft(0, "theft@0", "w"), apple}
		cfg.Pins = []keyed.Pin{
			mutationPin(mutation.PurposeMutation, 72, "market", 0.1249, "w", "l", "theft@0"),
			mutationPin(mutation.PurposeSlot, 72, "market", 0.3, "w", "l", "theft@0"),  // ⌊0.3 × 4⌋ = 1: item
			mutationPin(mutation.PurposeValue, 72, "market", 0.1, "w", "l", "theft@0"), // ⌊0.1 × 2⌋ = 0: apple, of apple and bread
		}
		r := build(cfg)
		r.through(72)
		v, _ := r.Store().Variant(r.belief("l", "theft@0").Variant)
		Expect(cmp.Diff([]claims.Change{{Slot: "item", From: "sweetroll", To: "apple"}}, v.Diff)).To(BeEmpty())
		evals := ruleEvals(r.records(72), rules.MutationPolicy)
		Expect(evals).To(HaveLen(3))
		Expect(evals[2].Reason).To(Equal("value chosen: apple"))
		Expect(evals[2].Roll.Threshold).To(Equal(2.0), "two other items: apple (from the second theft) and bread")
		Expect(r.UnusedPins()).To(BeEmpty())
	})

	It("never mutates a fresh teller's retelling", func() {
		cfg := base()
		cfg.Defines.EncounterProbability = 1
		cfg.Defines.MutationMax = 1
		cfg.Cast = []sim.NPC{stays("w", "market"), stays("l", "market")}
		cfg.Injections = []sim.Injection{theft(0, "theft@0", "w")}
		cfg.Pins = []keyed.Pin{mutationPin(mutation.PurposeMutation, 0, "market", 0, "w", "l", "theft@0")}
		r := build(cfg)
		r.through(0)
		Expect(r.belief("l", "theft@0").Variant).To(Equal("theft@0#v0"))
		evals := ruleEvals(r.records(0), rules.MutationPolicy)
		Expect(evals).To(HaveLen(1))
		Expect(evals[0].Fired).To(BeFalse())
		Expect(evals[0].Reason).To(Equal("memory: roll at or above the mutation probability"))
		Expect(bits(evals[0].Roll.Threshold)).To(Equal(bits(0)))
	})
})
