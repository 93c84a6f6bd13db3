package sweep_test

import (
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/sweep"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/trace"
)

// discard is the trace sink of a world whose trace nobody reads.
type discard struct{}

func (discard) Emit(trace.Record) {}

// town is a market where a merchant and a witness spend the day, a home
// each, and a theft at tick 1 that the witness sees.
func town() sim.Config {
	day := func(at string) schedule.Schedule {
		return schedule.Schedule{Home: "home", Blocks: []schedule.Block{{At: at, From: 0, To: 12, Every: 24, Until: schedule.Forever}}}
	}
	return sim.Config{
		SeedID: "sweep-spec", Defines: rules.Default(),
		Locations: []sim.Location{{ID: "market", Hold: "whiterun"}, {ID: "home", Hold: "whiterun"}},
		Cast:      []sim.NPC{{ID: "merchant", Schedule: day("market")}, {ID: "witness", Schedule: day("market")}},
		Injections: []sim.Injection{{Tick: 1, Kind: sim.Theft, ID: "theft@1", Actor: sim.Player, Victim: "merchant", Item: "apple", At: "market",
			Witnesses: []sim.Witness{{NPC: "witness"}}}},
	}
}

var _ = Describe("Towns", func() {
	It("copies the town n times, copy 0 under its own ids and copy c suffixed _c, the player left alone", func() {
		cfg, err := sweep.Towns(town(), 3)
		Expect(err).NotTo(HaveOccurred())
		var ids, locs, holds []string
		for _, n := range cfg.Cast {
			ids = append(ids, n.ID+"@"+n.Schedule.Home+"/"+n.Schedule.Blocks[0].At)
		}
		for _, l := range cfg.Locations {
			locs, holds = append(locs, l.ID), append(holds, l.Hold)
		}
		Expect(ids).To(Equal([]string{"merchant@home/market", "witness@home/market", "merchant_1@home_1/market_1", "witness_1@home_1/market_1",
			"merchant_2@home_2/market_2", "witness_2@home_2/market_2"}))
		Expect(locs).To(Equal([]string{"market", "home", "market_1", "home_1", "market_2", "home_2"}))
		Expect(holds).To(Equal([]string{"whiterun", "whiterun", "whiterun_1", "whiterun_1", "whiterun_2", "whiterun_2"}))
		Expect(cfg.Injections).To(HaveLen(3))
		in := cfg.Injections[2]
		Expect([]string{in.ID, in.Actor, in.Victim, in.At, in.Witnesses[0].NPC, in.Item}).To(Equal([]string{"theft@1_2", sim.Player, "merchant_2", "market_2", "witness_2", "apple"}))
		Expect(town().Cast).To(HaveLen(2), "the original is not touched")
	})

	It("keeps injections in tick order across copies, same-tick ones in copy order", func() {
		base := town()
		base.Injections = append(base.Injections, sim.Injection{Tick: 5, Kind: sim.Theft, ID: "theft@5", Actor: sim.Player, Victim: "witness", Item: "apple", At: "market"})
		cfg, err := sweep.Towns(base, 2)
		Expect(err).NotTo(HaveOccurred())
		var order []string
		for _, in := range cfg.Injections {
			order = append(order, in.ID)
		}
		Expect(order).To(Equal([]string{"theft@1", "theft@1_1", "theft@5", "theft@5_1"}))
	})

	DescribeTable("refuses what it cannot copy",
		func(spoil func(*sim.Config), msg string) {
			cfg := town()
			spoil(&cfg)
			_, err := sweep.Towns(cfg, 2)
			Expect(err).To(MatchError(ContainSubstring(msg)))
		},
		Entry("a pin", func(c *sim.Config) { c.Pins = []keyed.Pin{{}} }, "a swept world cannot pin rolls"),
		Entry("kin", func(c *sim.Config) { c.Kin = [][]string{{"merchant", "witness"}} }, "relationships, kin and roles are not copied"),
		Entry("a relationship", func(c *sim.Config) { c.Relationships = []sim.Relationship{{From: "merchant", To: "witness", Trust: 1}} }, "relationships, kin and roles are not copied"),
		Entry("a recipient", func(c *sim.Config) { c.Injections[0].Recipient = "witness" }, "event theft@1 (theft) names a party the copy cannot follow"),
		Entry("a witness's own version", func(c *sim.Config) {
			c.Injections[0].Witnesses[0].Says = []sim.Recollection{{Slot: "item", Value: "pear"}}
		},
			"witness witness remembers a slot differently"),
	)

	It("refuses fewer than one copy", func() {
		_, err := sweep.Towns(town(), 0)
		Expect(err).To(MatchError("towns: 0 copies: want at least 1"))
	})
})

var _ = Describe("Measure", func() {
	It("counts the informed and the variants held, in every town", func() {
		for _, n := range []int{1, 4} {
			cfg, err := sweep.Towns(town(), n)
			Expect(err).NotTo(HaveOccurred())
			cfg.Rules, err = rules.NewSet(nil)
			Expect(err).NotTo(HaveOccurred())
			cfg.Sink = discard{}
			w, err := sim.New(cfg)
			Expect(err).NotTo(HaveOccurred())
			Expect(w.Step()).To(Succeed())
			Expect(sweep.Measure(w)).To(Equal([]int64{0, 0}), "nothing has happened at tick 0")
			Expect(w.Step()).To(Succeed())
			got := sweep.Measure(w)
			Expect(got[0]).To(BeNumerically(">=", n), "every town's witness is informed")
			Expect(got[1]).To(BeNumerically(">=", n), "each town's claim has its own variant")
		}
	})
})

var _ = Describe("Summarise", func() {
	It("gives the mean, the sample standard deviation and the range", func() {
		s, err := sweep.Summarise([]int64{2, 4, 4, 4, 5, 5, 7, 9})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.N).To(Equal(8))
		Expect(s.Mean).To(Equal(5.0))
		Expect(s.SD).To(Equal(math.Sqrt(32.0 / 7)))
		Expect([]int64{s.Min, s.Max}).To(Equal([]int64{2, 9}))
	})

	It("refuses fewer than two values: there is no spread", func() {
		_, err := sweep.Summarise([]int64{3})
		Expect(err).To(MatchError("summarise: 1 values: a spread needs at least 2"))
	})
})

var _ = Describe("Bound", func() {
	b := sweep.Bound{Mean: 100, SD: 10, Pilot: 100, Z: 4}
	s := sweep.Summary{N: 25, Mean: 108}

	It("holds the mean within z·sd·√(1/N + 1/M) of the pilot's", func() {
		Expect(b.HalfWidth(25)).To(BeNumerically("~", 4*10*math.Sqrt(0.05), 1e-12))
		v := b.Judge(s)
		Expect(v.Deviation).To(Equal(8.0))
		Expect(v.Holds).To(BeTrue(), "8 ≤ 8.94")
	})

	It("fails when the mean moved farther, or the bound was narrowed below it", func() {
		moved := s
		moved.Mean = 91
		Expect(b.Judge(moved).Holds).To(BeFalse(), "9 > 8.94")
		narrowed := b
		narrowed.Z = 3
		Expect(narrowed.Judge(s).Holds).To(BeFalse(), "8 > 6.7")
	})

	DescribeTable("refuses parameters no bound is made of",
		func(spoil func(*sweep.Bound), msg string) {
			x := b
			spoil(&x)
			Expect(x.Validate()).To(MatchError(msg))
		},
		Entry("NaN mean", func(x *sweep.Bound) { x.Mean = math.NaN() }, "mean NaN must be finite"),
		Entry("zero sd", func(x *sweep.Bound) { x.SD = 0 }, "sd 0 must be finite and positive"),
		Entry("a pilot of one", func(x *sweep.Bound) { x.Pilot = 1 }, "pilot 1: a pilot's spread needs at least 2 seeds"),
		Entry("infinite z", func(x *sweep.Bound) { x.Z = math.Inf(1) }, "z +Inf must be finite and positive"),
	)
})
