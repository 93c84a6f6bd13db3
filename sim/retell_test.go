package sim_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

var _ = Describe("Retold confidence", func() {
	type retelling struct {
		witness, decay, floor, defaultTrust float64
		disable                             []string
		relationships                       []sim.Relationship
	}
	// w saw the theft at tick 0 and tells l in tick 0's encounter. The
	// expected values are literals, each computed with one IEEE rounding per
	// operation (c × decay, then × (floor + (1 − floor) × trust)).
	DescribeTable("is the teller's confidence × retell_decay, × the trust factor when trust-discounted retelling is on, bit for bit",
		func(x retelling, want float64, wantRule trace.RuleEval) {
			cfg := base()
			cfg.Defines.EncounterProbability = 1
			cfg.Defines.WitnessConfidence = x.witness
			cfg.Defines.RetellDecay = x.decay
			cfg.Defines.TrustFloor = x.floor
			cfg.Defines.DefaultTrust = x.defaultTrust
			cfg.Rules = ruleSet(x.disable...)
			cfg.Cast = []sim.NPC{stays("w", "market"), stays("l", "market")}
			cfg.Relationships = x.relationships
			cfg.Injections = []sim.Injection{theft(0, "theft@0", "w")}
			r := build(cfg)
			r.through(0)

			got := r.belief("l", "theft@0").Confidence
			Expect(bits(got)).To(Equal(bits(want)), "got %v, want %v", got, want)
			Expect(ruleEvals(r.records(0), rules.TrustDiscountedRetelling)).To(Equal([]trace.RuleEval{wantRule}))
			tx := transmissions(r.records(0))
			Expect(tx).To(HaveLen(1))
			Expect(bits(tx[0].Confidence)).To(Equal(bits(want)), "the transmission record carries what the listener received")
			Expect(r.belief("l", "theft@0").Evidence[0].Confidence).To(Equal(want))
		},
		Entry("disabled: the flat baseline 0.9 × 0.8",
			retelling{witness: 0.9, decay: 0.8, floor: 0.5, defaultTrust: 0.5, disable: []string{rules.TrustDiscountedRetelling},
				relationships: []sim.Relationship{{From: "l", To: "w", Trust: 0.3}}},
			0.7200000000000001,
			trace.RuleEval{Rule: rules.TrustDiscountedRetelling, Subject: "l<-w", Reason: "disabled"}),
		Entry("disabled, other coefficients: 0.7 × 0.9",
			retelling{witness: 0.7, decay: 0.9, floor: 0.3, defaultTrust: 0.2, disable: []string{rules.TrustDiscountedRetelling}},
			0.63,
			trace.RuleEval{Rule: rules.TrustDiscountedRetelling, Subject: "l<-w", Reason: "disabled"}),
		Entry("a relationship: trust 0.3, factor 0.65",
			retelling{witness: 0.9, decay: 0.8, floor: 0.5, defaultTrust: 0.5, relationships: []sim.Relationship{{From: "l", To: "w", Trust: 0.3}}},
			0.4680000000000001,
			trace.RuleEval{Rule: rules.TrustDiscountedRetelling, Subject: "l<-w", Fired: true, Reason: "relationship",
				Values: []trace.Value{{Name: "factor", Value: 0.65}, {Name: "trust", Value: 0.3}}}),
		Entry("a relationship of zero trust: the factor is the floor",
			retelling{witness: 0.9, decay: 0.8, floor: 0.5, defaultTrust: 0.5, relationships: []sim.Relationship{{From: "l", To: "w", Trust: 0}}},
			0.36000000000000004,
			trace.RuleEval{Rule: rules.TrustDiscountedRetelling, Subject: "l<-w", Fired: true, Reason: "relationship",
				Values: []trace.Value{{Name: "factor", Value: 0.5}, {Name: "trust", Value: 0}}}),
		Entry("a relationship of full trust: no discount",
			retelling{witness: 0.9, decay: 0.8, floor: 0.5, defaultTrust: 0.5, relationships: []sim.Relationship{{From: "l", To: "w", Trust: 1}}},
			0.7200000000000001,
			trace.RuleEval{Rule: rules.TrustDiscountedRetelling, Subject: "l<-w", Fired: true, Reason: "relationship",
				Values: []trace.Value{{Name: "factor", Value: 1}, {Name: "trust", Value: 1}}}),
		Entry("no relationship: default trust",
			retelling{witness: 0.9, decay: 0.8, floor: 0.5, defaultTrust: 0.5},
			0.54,
			trace.RuleEval{Rule: rules.TrustDiscountedRetelling, Subject: "l<-w", Fired: true, Reason: "no relationship: default trust",
				Values: []trace.Value{{Name: "factor", Value: 0.75}, {Name: "trust", Value: 0.5}}}),
		Entry("only the teller's trust in the listener: still default trust (trust is the listener's in the teller)",
			retelling{witness: 0.9, decay: 0.8, floor: 0.5, defaultTrust: 0.5, relationships: []sim.Relationship{{From: "w", To: "l", Trust: 1}}},
			0.54,
			trace.RuleEval{Rule: rules.TrustDiscountedRetelling, Subject: "l<-w", Fired: true, Reason: "no relationship: default trust",
				Values: []trace.Value{{Name: "factor", Value: 0.75}, {Name: "trust", Value: 0.5}}}),
		Entry("other coefficients, default trust 0.2: factor 0.43999999999999995",
			retelling{witness: 0.7, decay: 0.9, floor: 0.3, defaultTrust: 0.2},
			0.27719999999999995,
			trace.RuleEval{Rule: rules.TrustDiscountedRetelling, Subject: "l<-w", Fired: true, Reason: "no relationship: default trust",
				Values: []trace.Value{{Name: "factor", Value: 0.43999999999999995}, {Name: "trust", Value: 0.2}}}),
		Entry("other coefficients, trust 0.65: factor 0.7549999999999999",
			retelling{witness: 0.7, decay: 0.9, floor: 0.3, defaultTrust: 0.2, relationships: []sim.Relationship{{From: "l", To: "w", Trust: 0.65}}},
			0.47564999999999996,
			trace.RuleEval{Rule: rules.TrustDiscountedRetelling, Subject: "l<-w", Fired: true, Reason: "relationship",
				Values: []trace.Value{{Name: "factor", Value: 0.7549999999999999}, {Name: "trust", Value: 0.65}}}),
	)

	It("applies the same retelling to an injected report, which is never mutated", func() {
		cfg := base()
		cfg.Defines.MutationMax = 1
		cfg.Cast = []sim.NPC{nowhere("w"), nowhere("l")}
		cfg.Relationships = []sim.Relationship{{From: "l", To: "w", Trust: 0.3}}
		cfg.Injections = []sim.Injection{theft(0, "theft@0", "w"), report(50, "w", "l", "theft@0")}
		r := build(cfg)
		r.through(50)
		l := r.belief("l", "theft@0")
		Expect(bits(l.Confidence)).To(Equal(bits(0.4680000000000001)))
		Expect(l.Variant).To(Equal("theft@0#v0"))
		Expect(l.Evidence[0].Via).To(Equal("injected"))
		Expect(ruleEvals(r.records(-1), rules.MutationPolicy)).To(BeEmpty())
		Expect(transmissions(r.records(50))).To(Equal([]trace.Transmission{{
			Via: "injected", Claim: "theft@0", Variant: "theft@0#v0", Teller: "w", Listener: "l", Fired: true,
			Rule: "testimony-transfer", Reason: "listener did not hold it", Confidence: 0.4680000000000001,
		}}))
	})

	It("corroborates by noisy-or when a report from a new origin reaches a holder of the same variant", func() {
		cfg := base()
		cfg.Rules = ruleSet(rules.TrustDiscountedRetelling)
		cfg.Cast = []sim.NPC{nowhere("a"), nowhere("b"), nowhere("l")}
		cfg.Injections = []sim.Injection{
			theft(0, "theft@0", "a", "b"),
			report(1, "a", "l", "theft@0"),
			report(2, "b", "l", "theft@0"), // a new origin: counted
			report(3, "a", "l", "theft@0"), // a again: not counted, but reinforced
		}
		r := build(cfg)
		r.through(3)
		l := r.belief("l", "theft@0")
		heard := r.belief("l", "theft@0").Evidence[0].Confidence // 0.7200000000000001, a run-time value
		want := 1 - float64((1-heard)*(1-heard))
		Expect(bits(l.Confidence)).To(Equal(bits(want)))
		Expect(bits(l.Confidence)).To(Equal(bits(0.9216000000000001)))
		Expect(l.Origins).To(Equal([]string{"a", "b"}))
		Expect(l.Anchor).To(Equal(int64(3)))
		corr := ruleEvals(r.records(-1), rules.Corroboration)
		Expect(corr).To(HaveLen(2))
		Expect([]string{corr[0].Reason, corr[1].Reason}).To(Equal([]string{"counted", "origin already counted"}))
		Expect([]bool{corr[0].Fired, corr[1].Fired}).To(Equal([]bool{true, false}))
		changes := bodies(r.records(-1), func(b trace.BeliefChange) bool { return b.Holder == "l" })
		Expect([]string{changes[0].Change, changes[1].Change, changes[2].Change}).To(Equal([]string{"formed", "corroborated", "reinforced"}))
	})
})
