package rules_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/rules"
)

var _ = Describe("the rule catalogue", func() {
	It("lists every rule in budget order with its stable name", func() {
		Expect(rules.Names()).To(Equal([]string{
			"witness-creates-belief", "belief-decay", "corroboration", "shared-claim-invariant",
			"testimony-transfer", "encounter-sampling",
			"mutation-policy", "variant-resolution", "rumour-stages", "dormancy-reactivation",
			"accumulation-threshold", "grudge-creation", "grudge-decay", "obligations", "tell-decision", "reputation-evidence",
			"schedule-write-back", "pairwise-encounter-weighting", "role-succession",
			"trust-discounted-retelling",
		}))
		cat := rules.Catalogue()
		Expect(cat).To(HaveLen(len(rules.Names())))
		for i, r := range cat {
			Expect(r.Name).To(Equal(rules.Names()[i]))
			Expect(r.Summary).NotTo(BeEmpty(), r.Name)
			Expect(r.Tier).To(BeElementOf("0", "1", "2", "3", "4a", "4b", "5"), r.Name)
			Expect(r.Layer).To(Equal(map[string]rules.Layer{"3": rules.Social, "4a": rules.Schedule, "4b": rules.Weighting, "5": rules.Roles}[r.Tier]),
				"%s: each tier from 3 on is a layer of its own", r.Name)
			if i > 0 {
				Expect(r.Number).To(BeNumerically(">", cat[i-1].Number), "budget order")
			}
			found, ok := rules.Find(r.Name)
			Expect(ok).To(BeTrue())
			Expect(found).To(Equal(r))
		}
	})

	It("keeps the seed's ceiling: at most 20 rules, numbered uniquely within 1–20", func() {
		Expect(rules.Ceiling).To(Equal(20))
		problems := rules.BudgetProblems(rules.Catalogue())
		Expect(problems).To(BeEmpty())
		Expect(len(rules.Catalogue())).To(BeNumerically("<=", rules.Ceiling))
	})

	DescribeTable("refuses a catalogue over the ceiling, naming what breaks it",
		func(extra []rules.Rule, want string) {
			Expect(rules.BudgetProblems(append(rules.Catalogue(), extra...))).To(ContainElement(want))
		},
		Entry("a number above 20", []rules.Rule{{Name: "gossip-hub", Number: 21}}, `rule "gossip-hub" is numbered 21, outside 1–20`),
		Entry("a number below 1", []rules.Rule{{Name: "zeroth", Number: 0}}, `rule "zeroth" is numbered 0, outside 1–20`),
		Entry("a number used twice", []rules.Rule{{Name: "grudge-decay-2", Number: 13}}, `rules "grudge-decay" and "grudge-decay-2" share number 13`),
		Entry("a name used twice", []rules.Rule{{Name: "obligations", Number: 14}}, `rule name "obligations" is used twice`),
	)

	It("counts the rules themselves against the ceiling, not only their numbers", func() {
		var many []rules.Rule
		for i := range 21 {
			many = append(many, rules.Rule{Name: "r" + string(rune('a'+i)), Number: i%20 + 1})
		}
		Expect(rules.BudgetProblems(many)).To(ContainElement("21 rules, above the ceiling of 20"))
	})

	It("marks only the shared-claim invariant as an invariant", func() {
		var inv []string
		for _, r := range rules.Catalogue() {
			if r.Invariant {
				inv = append(inv, r.Name)
			}
		}
		Expect(inv).To(Equal([]string{rules.SharedClaimInvariant}))
	})

	It("hands out copies of the catalogue", func() {
		cat := rules.Catalogue()
		cat[0].Name = "tampered"
		Expect(rules.Catalogue()[0].Name).To(Equal(rules.WitnessCreatesBelief))
		_, ok := rules.Find("tampered")
		Expect(ok).To(BeFalse())
	})
})

var _ = Describe("NewSet", func() {
	It("enables everything when nothing is disabled", func() {
		for _, disable := range [][]string{nil, {}} {
			s, err := rules.NewSet(disable)
			Expect(err).NotTo(HaveOccurred())
			for _, name := range rules.Names() {
				Expect(s.Enabled(name)).To(BeTrue(), name)
			}
			Expect(s.Disabled()).To(BeEmpty())
		}
	})

	It("disables the named rules and lists them sorted", func() {
		s, err := rules.NewSet([]string{rules.TrustDiscountedRetelling, rules.Corroboration, rules.BeliefDecay, rules.Corroboration, "rumour-stages"})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Disabled()).To(Equal([]string{rules.BeliefDecay, rules.Corroboration, "rumour-stages", rules.TrustDiscountedRetelling}))
		for _, name := range rules.Names() {
			off := name == rules.BeliefDecay || name == rules.Corroboration || name == rules.TrustDiscountedRetelling || name == "rumour-stages"
			Expect(s.Enabled(name)).To(Equal(!off), name)
		}
	})

	It("refuses an unknown rule with *UnknownRuleError", func() {
		s, err := rules.NewSet([]string{rules.Corroboration, "gravity"})
		Expect(s).To(BeNil())
		var unknown *rules.UnknownRuleError
		Expect(errors.As(err, &unknown)).To(BeTrue())
		Expect(unknown.Name).To(Equal("gravity"))
		Expect(err).To(MatchError(`unknown rule "gravity"`))
	})

	It("refuses to disable an invariant rule", func() {
		s, err := rules.NewSet([]string{rules.SharedClaimInvariant})
		Expect(s).To(BeNil())
		Expect(err).To(MatchError(`rule "shared-claim-invariant" is an invariant and cannot be disabled`))
		var unknown *rules.UnknownRuleError
		Expect(errors.As(err, &unknown)).To(BeFalse())
	})
})

var _ = Describe("Layer", func() {
	It("has the name a define's layer tag uses, and a value past the last layer says what it holds", func() {
		for _, name := range []string{"core", "social", "schedule", "weighting", "roles"} {
			l, ok := rules.ParseLayer(name)
			Expect(ok).To(BeTrue(), name)
			Expect(l.String()).To(Equal(name))
		}
		Expect(rules.Roles.String()).To(Equal("roles"))
		Expect((rules.Roles + 1).String()).To(Equal("layer(5)"))
		_, ok := rules.ParseLayer("layer(5)")
		Expect(ok).To(BeFalse())
	})
})
