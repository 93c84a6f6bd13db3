package rules_test

import (
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

var _ = Describe("rule regimes", func() {
	It("are declared for every rule, named once each, each rule's values sorted and named once", func() {
		for _, r := range rules.Catalogue() {
			Expect(r.Regimes).NotTo(BeEmpty(), "%s declares no regime", r.Name)
			names := map[string]bool{}
			for _, g := range r.Regimes {
				Expect(g.Name).NotTo(BeEmpty(), r.Name)
				Expect(names[g.Name]).To(BeFalse(), "%s: regime %q declared twice", r.Name, g.Name)
				names[g.Name] = true
			}
			Expect(slices.IsSorted(r.Values)).To(BeTrue(), "%s: values sorted", r.Name)
			Expect(slices.Compact(slices.Clone(r.Values))).To(Equal(r.Values), "%s: each value once", r.Name)
			// A rule a fixture can turn off says so in the trace, and a
			// rung must show the toggle works.
			Expect(names["disabled"]).To(Equal(!r.Invariant), "%s: a disabled regime exactly when it can be disabled", r.Name)
		}
	})

	It("declare, by record kind, every reason a rule's records carry, exactly or by the words a reason with a name begins with", func() {
		find := func(name string) rules.Rule {
			r, ok := rules.Find(name)
			Expect(ok).To(BeTrue(), name)
			return r
		}
		acc := find(rules.AccumulationThreshold)
		Expect(acc.Reasons(trace.KindRule)).To(Equal([]string{"already escalated: re-arms when the count falls to the re-arm level",
			"below threshold", "disabled", "offence already counted", "threshold reached"}))
		Expect(acc.Reasons(trace.KindTransmission)).To(BeEmpty())
		Expect(acc.Declares(trace.KindRule, "threshold reached")).To(BeTrue())
		Expect(acc.Declares(trace.KindRule, "threshhold reached")).To(BeFalse())

		grudge := find(rules.GrudgeCreation)
		Expect(grudge.Declares(trace.KindRule, "kin killed: hroki")).To(BeTrue(), `declared as "kin killed: …"`)
		Expect(grudge.Declares(trace.KindRule, "kin kiled: hroki")).To(BeFalse())

		// The same words in another record kind are another reason.
		corr := find(rules.Corroboration)
		Expect(corr.Declares(trace.KindTransmission, "listener already held it")).To(BeTrue())
		Expect(corr.Declares(trace.KindRule, "listener already held it")).To(BeFalse())

		Expect(rules.ReasonIs("kin killed: …", "kin killed: hroki")).To(BeTrue())
		Expect(rules.ReasonIs("kin killed: …", "kin killed")).To(BeFalse())
		Expect(rules.ReasonIs("stale", "stale…")).To(BeFalse(), "only a pattern ends in …")
	})
})
