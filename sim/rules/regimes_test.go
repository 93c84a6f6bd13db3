package rules_test

import (
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/rules"
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
})
