package sim_test

import (
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/trace"
)

var _ = Describe("the closed sets of trace fields", func() {
	It("are listed for exactly the string fields whose values the engine draws from a fixed list, each value once", func() {
		var closed []string
		for _, k := range trace.Kinds() {
			for _, f := range trace.Fields(k) {
				values := sim.TraceValues(k, f.Path)
				if values == nil {
					continue
				}
				closed = append(closed, string(k)+"."+f.Path)
				Expect(f.Shape).To(Equal(trace.ShapeString), "%s.%s", k, f.Path)
				Expect(values).NotTo(BeEmpty(), "%s.%s", k, f.Path)
				Expect(slices.Compact(slices.Sorted(slices.Values(values)))).To(HaveLen(len(values)), "%s.%s: each value once", k, f.Path)
			}
		}
		Expect(closed).To(ConsistOf("encounter.roll.purpose", "rule.roll.purpose", "event.event", "belief.change", "belief.stage", "belief.evidence.type",
			"grudge.change", "obligation.state", "reputation.dimension", "schedule.change", "role.change"))
		Expect(sim.TraceValues(trace.KindBelief, "holder")).To(BeNil(), "an id is no closed set")
		Expect(sim.TraceValues(trace.KindBelief, "stage")).To(Equal([]string{"heard", "repeated", "dormant", "forgotten"}))
	})
})
