package social_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/social"
)

var _ = Describe("pair weighting", func() {
	curves := social.Curves{EmotionalHalfLife: 2880, EvidentiaryHalfLife: 1920, Settled: 0.05}

	It("reads the stronger direction's total strength, and none for a pair without an active grudge", func() {
		gs := social.NewGrudges(curves)
		_, ok := gs.Between("a", "b", 0)
		Expect(ok).To(BeFalse())
		_, _, err := gs.Bear("a", "b", 0, 0.6, 0.45, "brawl@0")
		Expect(err).NotTo(HaveOccurred())
		g, ok := gs.Between("b", "a", 0)
		Expect(ok).To(BeTrue())
		Expect(g).To(Equal(float64(0.6 + 0.45)))
		_, _, err = gs.Bear("b", "a", 0, 0.2, 0.1, "brawl@0")
		Expect(err).NotTo(HaveOccurred())
		g, _ = gs.Between("a", "b", 0)
		Expect(g).To(Equal(1.05), "the larger of the two directions")
		gr, _ := gs.Get("a", "b")
		g, _ = gs.Between("a", "b", 100)
		Expect(g).To(Equal(float64(gr.EmotionalAt(100, curves)+gr.EvidentiaryAt(100, curves))), "as of the tick")
		_, ok = gs.Between("a", "c", 0)
		Expect(ok).To(BeFalse())
	})

	It("ignores a settled grudge", func() {
		gs := social.NewGrudges(social.Curves{EmotionalHalfLife: 10, EvidentiaryHalfLife: 10, Settled: 0.5})
		_, _, err := gs.Bear("a", "b", 0, 0.4, 0.4, "brawl@0")
		Expect(err).NotTo(HaveOccurred())
		_, ok := gs.Between("a", "b", 0)
		Expect(ok).To(BeTrue())
		_, ok = gs.Between("a", "b", 10)
		Expect(ok).To(BeFalse(), "0.4 + 0.4 halved is below 0.5: settled")
	})

	DescribeTable("is max(0, 1 − strength × g)",
		func(g, strength, want float64) { Expect(social.Weight(g, strength)).To(Equal(want)) },
		Entry("no grudge strength", 0.0, 1.0, 1.0),
		Entry("a fresh humiliation stops the pair meeting", 1.25, 1.0, 0.0),
		Entry("a faded grudge lets them drift back", 0.75, 1.0, 0.25),
		Entry("a gentler avoidance", 0.75, 0.5, 0.625),
		Entry("no avoidance at all", 3.0, 0.0, 1.0),
	)
})
