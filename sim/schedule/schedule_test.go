package schedule_test

import (
	"math"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/schedule"
)

// covered returns the ticks in [from, to) that b covers.
func covered(b schedule.Block, from, to int64) []int64 {
	out := []int64{}
	for t := from; t < to; t++ {
		if b.Covers(t) {
			out = append(out, t)
		}
	}
	return out
}

func span(from, to int64) []int64 {
	out := []int64{}
	for t := from; t < to; t++ {
		out = append(out, t)
	}
	return out
}

func concat(parts ...[]int64) []int64 {
	out := []int64{}
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

var _ = Describe("Block.Covers", func() {
	It("has Forever as the largest tick", func() {
		Expect(int64(schedule.Forever)).To(Equal(int64(math.MaxInt64)))
	})

	DescribeTable("covers exactly the half-open ranges it describes",
		func(b schedule.Block, from, to int64, want []int64) {
			Expect(b.Validate()).To(Succeed())
			Expect(cmp.Diff(want, covered(b, from, to))).To(BeEmpty())
		},
		Entry("one-off [5, 8)",
			schedule.Block{At: "market", From: 5, To: 8, Until: schedule.Forever}, int64(-5), int64(20), span(5, 8)),
		Entry("one-off of one tick",
			schedule.Block{At: "market", From: 0, To: 1, Until: schedule.Forever}, int64(-3), int64(5), []int64{0}),
		Entry("one-off cut short by Until (half-open)",
			schedule.Block{At: "market", From: 5, To: 10, Until: 7}, int64(0), int64(20), []int64{5, 6}),
		Entry("one-off starting before Since (Since is a lower bound)",
			schedule.Block{At: "market", From: 0, To: 10, Since: 4, Until: schedule.Forever}, int64(0), int64(20), span(4, 10)),
		Entry("daily market 8–18",
			schedule.Block{At: "market", From: 8, To: 18, Every: 24, Until: schedule.Forever}, int64(-24), int64(72),
			concat(span(8, 18), span(32, 42), span(56, 66))),
		Entry("recurring phase is measured from Since",
			schedule.Block{At: "market", From: 0, To: 2, Every: 10, Since: 3, Until: schedule.Forever}, int64(0), int64(30),
			[]int64{3, 4, 13, 14, 23, 24}),
		Entry("recurring with Since and Until",
			schedule.Block{At: "market", From: 1, To: 3, Every: 5, Since: 10, Until: 21}, int64(0), int64(40),
			[]int64{11, 12, 16, 17}),
		Entry("recurring Until cuts a period in half",
			schedule.Block{At: "market", From: 0, To: 4, Every: 5, Since: 0, Until: 7}, int64(0), int64(20),
			[]int64{0, 1, 2, 3, 5, 6}),
		Entry("caravan on the road two days of every four",
			schedule.Block{At: "road", From: 48, To: 96, Every: 96, Until: schedule.Forever}, int64(0), int64(200),
			concat(span(48, 96), span(144, 192))),
		Entry("recurring block filling its whole period",
			schedule.Block{At: "home", From: 0, To: 3, Every: 3, Until: 9}, int64(-2), int64(12), span(0, 9)),
		Entry("negative ticks from a negative Since",
			schedule.Block{At: "x", From: 0, To: 1, Every: 4, Since: -8, Until: 0}, int64(-20), int64(5), []int64{-8, -4}),
	)

	It("covers the last ticks before Forever and never Forever itself", func() {
		b := schedule.Block{At: "x", From: 0, To: 1, Every: 2, Until: schedule.Forever}
		Expect(b.Covers(math.MaxInt64 - 1)).To(BeTrue()) // even
		Expect(b.Covers(math.MaxInt64)).To(BeFalse())
	})
})

var _ = Describe("Block.Validate", func() {
	DescribeTable("reports blocks that can never be well defined",
		func(b schedule.Block, message string) {
			Expect(b.Validate()).To(MatchError(message))
		},
		Entry("no location", schedule.Block{From: 0, To: 1, Until: schedule.Forever}, "block has no location"),
		Entry("empty range", schedule.Block{At: "x", From: 3, To: 3, Until: schedule.Forever}, "block range [3, 3) is empty or negative"),
		Entry("inverted range", schedule.Block{At: "x", From: 5, To: 2, Until: schedule.Forever}, "block range [5, 2) is empty or negative"),
		Entry("negative From", schedule.Block{At: "x", From: -1, To: 2, Until: schedule.Forever}, "block range [-1, 2) is empty or negative"),
		Entry("negative period", schedule.Block{At: "x", From: 0, To: 2, Every: -24, Until: schedule.Forever}, "block period -24 is negative"),
		Entry("range longer than the period", schedule.Block{At: "x", From: 8, To: 25, Every: 24, Until: schedule.Forever}, "block range [8, 25) does not fit in its period 24"),
		Entry("Until equal to Since", schedule.Block{At: "x", From: 0, To: 2, Since: 5, Until: 5}, "block applies from 5 until 5: never"),
		Entry("Until before Since", schedule.Block{At: "x", From: 0, To: 2, Since: 5, Until: 4}, "block applies from 5 until 4: never"),
		Entry("zero Until (the zero value never applies)", schedule.Block{At: "x", From: 0, To: 2}, "block applies from 0 until 0: never"),
	)

	It("accepts a range that exactly fills its period", func() {
		Expect(schedule.Block{At: "x", From: 0, To: 24, Every: 24, Until: schedule.Forever}.Validate()).To(Succeed())
	})
})

var _ = Describe("Schedule.At", func() {
	s := schedule.Schedule{
		Home: "house",
		Blocks: []schedule.Block{
			{At: "temple", From: 10, To: 12, Until: schedule.Forever},           // one-off, overrides the market
			{At: "market", From: 8, To: 18, Every: 24, Until: schedule.Forever}, // daily
			{At: "inn", From: 0, To: 24, Every: 24, Since: 48, Until: 72},       // all of day 2
		},
	}

	DescribeTable("is the first covering block, else home",
		func(t int64, want string) { Expect(s.At(t)).To(Equal(want)) },
		Entry("before the market opens", int64(7), "house"),
		Entry("market opens", int64(8), "market"),
		Entry("first block wins", int64(10), "temple"),
		Entry("first block still", int64(11), "temple"),
		Entry("first block over", int64(12), "market"),
		Entry("market closed (half-open)", int64(18), "house"),
		Entry("next day's market", int64(32), "market"),
		Entry("market outranks the inn on day 2", int64(56), "market"),
		Entry("inn on day 2 outside market hours", int64(49), "inn"),
		Entry("inn over", int64(72), "house"),
		Entry("day 3 market", int64(80), "market"),
	)

	It("is nowhere without a covering block or a home", func() {
		nomad := schedule.Schedule{Blocks: []schedule.Block{{At: "road", From: 0, To: 5, Until: schedule.Forever}}}
		Expect(nomad.At(3)).To(Equal("road"))
		Expect(nomad.At(5)).To(Equal(""))
		Expect(schedule.Schedule{}.At(0)).To(Equal(""))
		Expect(schedule.Schedule{Home: "house"}.At(99)).To(Equal("house"))
	})
})
