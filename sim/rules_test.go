package sim_test

import (
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// ruleRecord is a record that names a rule: a rule evaluation, or a
// transmission the rule decided.
type ruleRecord struct {
	Tick     int64
	Subject  string
	Fired    bool
	Reason   string
	Kind     trace.Kind
	Teller   string
	Listener string
}

// recordsNaming returns every record of the run that names rule, in order.
func recordsNaming(r run, rule string) []ruleRecord {
	var out []ruleRecord
	for _, rec := range r.buf.Records {
		switch b := rec.Body.(type) {
		case *trace.RuleEval:
			if b.Rule == rule {
				out = append(out, ruleRecord{Tick: rec.Tick, Subject: b.Subject, Fired: b.Fired, Reason: b.Reason, Kind: trace.KindRule})
			}
		case *trace.Transmission:
			if b.Rule == rule {
				out = append(out, ruleRecord{Tick: rec.Tick, Fired: b.Fired, Reason: b.Reason, Kind: trace.KindTransmission, Teller: b.Teller, Listener: b.Listener})
			}
		}
	}
	return out
}

var _ = Describe("A disabled rule", func() {
	apple := func(in sim.Injection, npc string) sim.Injection {
		in.Witnesses = append(in.Witnesses, sim.Witness{NPC: npc, Says: []sim.Recollection{{Slot: "item", Value: "apple"}}})
		return in
	}

	DescribeTable("does nothing and leaves a non-firing \"disabled\" record wherever it would have been evaluated",
		func(rule string, setup func(*sim.Config), through int64, want []ruleRecord, effect func(run)) {
			cfg := base()
			cfg.Defines.EncounterProbability = 1
			cfg.Defines.GistHalfLifeTicks = 4 // dormant from age 5
			setup(&cfg)
			cfg.Rules = ruleSet(rule)
			r := build(cfg)
			r.through(through)
			Expect(recordsNaming(r, rule)).To(Equal(want))
			effect(r)
		},
		Entry(rules.WitnessCreatesBelief, rules.WitnessCreatesBelief, func(c *sim.Config) {
			c.Cast = []sim.NPC{nowhere("w")}
			c.Injections = []sim.Injection{theft(0, "theft@0", "w")}
		}, int64(1), []ruleRecord{{Tick: 0, Subject: "w/theft@0", Reason: "disabled", Kind: trace.KindRule}}, func(r run) {
			Expect(r.holds("w", "theft@0")).To(BeFalse())
			Expect(r.Store().ClaimIDs()).To(Equal([]string{"theft@0"}), "the claim is minted all the same")
		}),
		Entry(rules.EncounterSampling, rules.EncounterSampling, func(c *sim.Config) {
			c.Cast = []sim.NPC{stays("w", "market"), stays("l", "market")}
			c.Injections = []sim.Injection{theft(0, "theft@0", "w")}
		}, int64(2), []ruleRecord{
			{Tick: 0, Reason: "disabled", Kind: trace.KindRule}, {Tick: 1, Reason: "disabled", Kind: trace.KindRule}, {Tick: 2, Reason: "disabled", Kind: trace.KindRule},
		}, func(r run) {
			Expect(encounters(r.records(-1))).To(BeEmpty())
			Expect(r.holds("l", "theft@0")).To(BeFalse())
		}),
		Entry(rules.TestimonyTransfer, rules.TestimonyTransfer, func(c *sim.Config) {
			c.Cast = []sim.NPC{stays("w", "market"), stays("l", "market")}
			c.Injections = []sim.Injection{theft(0, "theft@0", "w")}
		}, int64(1), []ruleRecord{
			{Tick: 0, Reason: "disabled", Kind: trace.KindTransmission, Teller: "w", Listener: "l"},
			{Tick: 1, Reason: "disabled", Kind: trace.KindTransmission, Teller: "w", Listener: "l"},
		}, func(r run) {
			Expect(r.holds("l", "theft@0")).To(BeFalse())
			Expect(encounters(r.records(-1))).To(HaveLen(2), "the encounters themselves still happen")
		}),
		Entry(rules.TrustDiscountedRetelling, rules.TrustDiscountedRetelling, func(c *sim.Config) {
			c.Cast = []sim.NPC{stays("w", "market"), stays("l", "market")}
			c.Relationships = []sim.Relationship{{From: "l", To: "w", Trust: 0}}
			c.Injections = []sim.Injection{theft(0, "theft@0", "w")}
		}, int64(0), []ruleRecord{{Tick: 0, Subject: "l<-w", Reason: "disabled", Kind: trace.KindRule}}, func(r run) {
			Expect(bits(r.belief("l", "theft@0").Confidence)).To(Equal(bits(0.7200000000000001)))
		}),
		Entry(rules.MutationPolicy, rules.MutationPolicy, func(c *sim.Config) {
			c.Defines.MutationMax = 1
			c.Cast = []sim.NPC{stays("w", "market"), stays("l", "market")}
			c.Injections = []sim.Injection{theft(0, "theft@0", "w")}
		}, int64(0), []ruleRecord{{Tick: 0, Subject: "l<-w/theft@0", Reason: "disabled", Kind: trace.KindRule}}, func(r run) {
			Expect(r.belief("l", "theft@0").Variant).To(Equal("theft@0#v0"))
			Expect(r.Store().VariantCount()).To(Equal(1))
		}),
		Entry(rules.Corroboration, rules.Corroboration, func(c *sim.Config) {
			c.Cast = []sim.NPC{nowhere("a"), nowhere("b"), nowhere("l")}
			c.Injections = []sim.Injection{theft(0, "theft@0", "a", "b"), report(1, "a", "l", "theft@0"), report(2, "b", "l", "theft@0")}
		}, int64(2), []ruleRecord{{Tick: 2, Subject: "l/theft@0", Reason: "disabled", Kind: trace.KindRule}}, func(r run) {
			l := r.belief("l", "theft@0")
			Expect(l.Evidence).To(HaveLen(1))
			Expect(l.Origins).To(Equal([]string{"a"}))
			Expect(l.Anchor).To(Equal(int64(1)), "not even reinforced")
		}),
		Entry(rules.VariantResolution, rules.VariantResolution, func(c *sim.Config) {
			c.Cast = []sim.NPC{stays("a", "market"), stays("b", "market")}
			c.Injections = []sim.Injection{apple(theft(0, "theft@0", "a"), "b")}
		}, int64(0), []ruleRecord{
			{Tick: 0, Subject: "a/theft@0", Reason: "disabled", Kind: trace.KindRule},
			{Tick: 0, Subject: "b/theft@0", Reason: "disabled", Kind: trace.KindRule},
		}, func(r run) {
			Expect(r.belief("a", "theft@0").Variant).To(Equal("theft@0#v0"))
			Expect(r.belief("b", "theft@0").Variant).To(Equal("theft@0#v1"))
			Expect(bits(r.belief("a", "theft@0").Confidence)).To(Equal(bits(0.9)), "no dent")
			Expect(r.Store().Supersessions()).To(BeEmpty())
		}),
		Entry(rules.DormancyReactivation, rules.DormancyReactivation, func(c *sim.Config) {
			c.Cast = []sim.NPC{nowhere("a"), nowhere("b")}
			c.Injections = []sim.Injection{theft(0, "theft@0", "a", "b"), report(6, "a", "b", "theft@0")}
		}, int64(6), []ruleRecord{{Tick: 6, Subject: "b/theft@0", Reason: "disabled", Kind: trace.KindRule}}, func(r run) {
			Expect(r.belief("b", "theft@0").Anchor).To(Equal(int64(0)))
			Expect(string(r.belief("b", "theft@0").StageAt(6, r.Store().Memory()))).To(Equal("dormant"))
		}),
	)

	// The fixture reference: "A disabled rule still appears in the trace, as
	// an evaluation that did not fire with reason disabled"; rules.NewSet:
	// "a silently ignored toggle would make a fixture test something other
	// than what it says". Nothing in sim/ consults these two rules.
	It("rumour-stages, once disabled, leaves \"disabled\" records instead of firing transitions (a regression spec: the toggle was once ignored)", func() {
		cfg := base()
		cfg.Defines.GistHalfLifeTicks = 4
		cfg.Rules = ruleSet(rules.RumourStages)
		cfg.Cast = []sim.NPC{nowhere("a")}
		cfg.Injections = []sim.Injection{theft(0, "theft@0", "a")}
		r := build(cfg)
		r.through(14)
		recs := recordsNaming(r, rules.RumourStages)
		Expect(recs).NotTo(BeEmpty())
		for _, rec := range recs {
			Expect(rec.Fired).To(BeFalse())
			Expect(rec.Reason).To(Equal("disabled"))
		}
	})

	It("belief-decay, once disabled, leaves a \"disabled\" record (a regression spec: the toggle was once ignored and strengths still decayed)", func() {
		cfg := base()
		cfg.Rules = ruleSet(rules.BeliefDecay)
		cfg.Cast = []sim.NPC{nowhere("a")}
		cfg.Injections = []sim.Injection{theft(0, "theft@0", "a")}
		r := build(cfg)
		r.through(24)
		Expect(recordsNaming(r, rules.BeliefDecay)).To(ContainElement(HaveField("Reason", "disabled")))
	})
})

var _ = Describe("the event kinds the log can hold", func() {
	It("are the injected kinds, a killing's death and the derived kinds, sorted, each once, and each derived kind names the catalogue rule that appends it", func() {
		kinds := sim.LoggedEventKinds()
		Expect(slices.IsSorted(kinds)).To(BeTrue())
		Expect(slices.Compact(slices.Clone(kinds))).To(Equal(kinds))
		Expect(kinds).To(ContainElements(sim.EventKinds()))
		Expect(kinds).To(ContainElement(sim.Death))
		derived := 0
		for _, kind := range kinds {
			rule := sim.DerivedBy(kind)
			if slices.Contains(sim.EventKinds(), kind) || kind == sim.Death {
				Expect(rule).To(BeEmpty(), "%s is not derived by a rule", kind)
				continue
			}
			_, ok := rules.Find(rule)
			Expect(ok).To(BeTrue(), "%s is derived by %q, a catalogue rule", kind, rule)
			derived++
		}
		Expect(derived).To(Equal(len(kinds) - len(sim.EventKinds()) - 1))
		Expect(sim.DerivedBy(sim.Escalation)).To(Equal(rules.AccumulationThreshold))
		Expect(sim.DerivedBy("no-such-kind")).To(BeEmpty())
	})
})
