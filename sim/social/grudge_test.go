package social_test

import (
	"math"
	"math/rand/v2"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/detmath"
	"github.com/chronicle/ladder/sim/social"
)

// curves are the engine's defaults (decision 0016).
var curves = social.Curves{EmotionalHalfLife: 2880, EvidentiaryHalfLife: 1920, Settled: 0.05}

var _ = Describe("Grudges", func() {
	var gs *social.Grudges
	BeforeEach(func() { gs = social.NewGrudges(curves) })

	It("halves each strength on its own half-life, exactly at multiples", func() {
		g, formed, err := gs.Bear("loser", "player", 100, 0.8, 0.45, "brawl@100")
		Expect(err).NotTo(HaveOccurred())
		Expect(formed).To(BeTrue())
		expectBits(g.EmotionalAt(100, curves), 0.8)
		expectBits(g.EmotionalAt(100+2880, curves), 0.4)
		expectBits(g.EmotionalAt(100+2*2880, curves), 0.2)
		expectBits(g.EvidentiaryAt(100+1920, curves), 0.225)
		expectBits(g.EvidentiaryAt(100+3*1920, curves), 0.05625)
	})

	It("is e₀ · 2^(−age/half-life) by detmath.Exp2 between multiples, one rounding per operation", func() {
		g, _, _ := gs.Bear("loser", "player", 0, 0.8, 0.45, "brawl@0")
		for _, age := range []int64{1, 24, 500, 1000, 4321} {
			expectBits(g.EmotionalAt(age, curves), float64(0.8*detmath.Exp2(-(float64(age)/2880))))
			expectBits(g.EvidentiaryAt(age, curves), float64(0.45*detmath.Exp2(-(float64(age)/1920))))
		}
	})

	It("holds still before its anchor and when decay is off", func() {
		g, _, _ := gs.Bear("loser", "player", 50, 0.8, 0.45, "brawl@50")
		expectBits(g.EmotionalAt(10, curves), 0.8)
		off := curves
		off.NoDecay = true
		expectBits(g.EmotionalAt(100000, off), 0.8)
		expectBits(g.EvidentiaryAt(100000, off), 0.45)
	})

	It("keeps emotional above evidentiary at every tick when it starts above and decays slower", func() {
		g, _, _ := gs.Bear("loser", "player", 0, 0.8, 0.45, "brawl@0")
		for t := int64(0); t <= 20000; t += 7 {
			Expect(g.EmotionalAt(t, curves)).To(BeNumerically(">", g.EvidentiaryAt(t, curves)), "tick %d", t)
		}
	})

	It("settles when the total falls below the threshold, not at it", func() {
		g, _, _ := gs.Bear("a", "b", 0, 0.04, 0.0, "x")
		Expect(g.SettledAt(0, curves)).To(BeTrue())
		h, _, _ := gs.Bear("c", "d", 0, 0.05, 0.0, "y")
		Expect(h.SettledAt(0, curves)).To(BeFalse())
		Expect(h.SettledAt(1, curves)).To(BeTrue())
	})

	It("counts both strengths toward settling", func() {
		g, _, _ := gs.Bear("a", "b", 0, 0.03, 0.03, "x")
		Expect(g.SettledAt(0, curves)).To(BeFalse(), "0.03 + 0.03 is above 0.05")
	})

	It("accepts the bounds of [0, 1] as strengths", func() {
		g, _, err := gs.Bear("kin", "killer", 0, 1, 0, "killing@0")
		Expect(err).NotTo(HaveOccurred())
		expectBits(g.Emotional, 1)
		expectBits(g.Evidentiary, 0)
	})

	It("may be reinforced at the tick of its anchor", func() {
		_, _, _ = gs.Bear("a", "b", 7, 0.5, 0.5, "first")
		g, formed, err := gs.Bear("a", "b", 7, 0.5, 0.5, "second")
		Expect(err).NotTo(HaveOccurred())
		Expect(formed).To(BeFalse())
		expectBits(g.Emotional, claims.NoisyOr(0.5, 0.5))
	})

	It("reinforces an existing grudge by noisy-or at the current strengths and moves the anchor", func() {
		_, _, _ = gs.Bear("creditor", "debtor", 0, 0.4, 0.45, "invoke@0")
		g, formed, err := gs.Bear("creditor", "debtor", 2880, 0.4, 0.45, "invoke@2880")
		Expect(err).NotTo(HaveOccurred())
		Expect(formed).To(BeFalse())
		expectBits(g.Emotional, claims.NoisyOr(0.2, 0.4))
		expectBits(g.Evidentiary, claims.NoisyOr(float64(0.45*detmath.Exp2(-(2880.0/1920))), 0.45))
		Expect(g.Anchor).To(Equal(int64(2880)))
		Expect(g.FormedAt).To(Equal(int64(0)))
		Expect(g.Causes).To(Equal([]string{"invoke@0", "invoke@2880"}))
		Expect(gs.Len()).To(Equal(1))
	})

	It("lists grudges by holder, then target, whatever the order they formed in", func() {
		for _, p := range [][2]string{{"m", "z"}, {"b", "y"}, {"m", "a"}, {"a", "q"}} {
			_, _, err := gs.Bear(p[0], p[1], 0, 0.5, 0.5, "e")
			Expect(err).NotTo(HaveOccurred())
		}
		var got [][2]string
		for _, g := range gs.All() {
			got = append(got, [2]string{g.Holder, g.Target})
		}
		Expect(got).To(Equal([][2]string{{"a", "q"}, {"b", "y"}, {"m", "a"}, {"m", "z"}}))
	})

	DescribeTable("refuses what cannot be a grudge, changing nothing",
		func(holder, target string, t int64, e, v float64, msg string) {
			_, _, _ = gs.Bear("x", "y", 10, 0.5, 0.5, "first")
			_, _, err := gs.Bear(holder, target, t, e, v, "bad")
			Expect(err).To(MatchError(ContainSubstring(msg)))
			g, _ := gs.Get("x", "y")
			Expect(g.Causes).To(Equal([]string{"first"}))
			Expect(gs.Len()).To(Equal(1))
		},
		Entry("against itself", "x", "x", int64(10), 0.5, 0.5, "against itself"),
		Entry("a strength above 1", "p", "q", int64(10), 1.5, 0.5, "outside [0, 1]"),
		Entry("a NaN strength", "p", "q", int64(10), 0.5, math.NaN(), "outside [0, 1]"),
		Entry("a reinforcement before the anchor", "x", "y", int64(9), 0.5, 0.5, "before its anchor"),
	)
})

var _ = Describe("Grudge.SettlesAt", func() {
	// scan is the brute-force answer SettlesAt must give: the first tick
	// from the anchor at which SettledAt holds.
	scan := func(g *social.Grudge, c social.Curves, limit int64) (int64, bool) {
		for t := g.Anchor; t <= limit; t++ {
			if g.SettledAt(t, c) {
				return t, true
			}
		}
		return 0, false
	}

	// Each spec that searches has a deadline: a search whose bounds stop
	// closing would otherwise spin until go test's own timeout.
	It("finds the first settled tick a scan of every tick finds, over many grudges and curves", NodeTimeout(10*time.Second), GracePeriod(time.Second), func(SpecContext) {
		rng := rand.New(rand.NewPCG(16, 13))
		examined := 0
		for range 300 {
			c := social.Curves{EmotionalHalfLife: float64(1 + rng.IntN(200)), EvidentiaryHalfLife: float64(1 + rng.IntN(200)), Settled: rng.Float64() * 0.5}
			gs := social.NewGrudges(c)
			g, _, err := gs.Bear("a", "b", int64(rng.IntN(50)), rng.Float64(), rng.Float64(), "x")
			Expect(err).NotTo(HaveOccurred())
			got, ok := g.SettlesAt(c)
			want, found := scan(g, c, g.Anchor+100_000)
			Expect(ok).To(Equal(found))
			Expect(got).To(Equal(want), "emotional %v, evidentiary %v, curves %+v", g.Emotional, g.Evidentiary, c)
			examined++
		}
		Expect(examined).To(Equal(300))
	})

	It("is the anchor for a grudge born settled, and never when decay is off", NodeTimeout(10*time.Second), GracePeriod(time.Second), func(SpecContext) {
		gs := social.NewGrudges(curves)
		g, _, _ := gs.Bear("a", "b", 7, 0.01, 0.01, "x")
		t, ok := g.SettlesAt(curves)
		Expect(ok).To(BeTrue())
		Expect(t).To(Equal(int64(7)))
		h, _, _ := gs.Bear("c", "d", 7, 0.8, 0.45, "y")
		off := curves
		off.NoDecay = true
		_, ok = h.SettlesAt(off)
		Expect(ok).To(BeFalse())
	})

	It("settles a fresh humiliation grudge on the default curves only after more than 11,000 ticks (over a year of game hours)", NodeTimeout(10*time.Second), GracePeriod(time.Second), func(SpecContext) {
		gs := social.NewGrudges(curves)
		g, _, _ := gs.Bear("loser", "player", 0, 0.8, 0.45, "brawl@0")
		t, ok := g.SettlesAt(curves)
		Expect(ok).To(BeTrue())
		Expect(g.SettledAt(t, curves)).To(BeTrue())
		Expect(g.SettledAt(t-1, curves)).To(BeFalse())
		Expect(t).To(BeNumerically(">", 11000))
	})

	It("finds a settling tick 2^40 ticks away in a few dozen probes, not a walk", NodeTimeout(10*time.Second), GracePeriod(time.Second), func(SpecContext) {
		c := social.Curves{EmotionalHalfLife: 1 << 35, EvidentiaryHalfLife: 1 << 35, Settled: 0.05}
		g, _, err := social.NewGrudges(c).Bear("a", "b", 3, 0.8, 0.45, "x")
		Expect(err).NotTo(HaveOccurred())
		t, ok := g.SettlesAt(c)
		Expect(ok).To(BeTrue())
		Expect(g.SettledAt(t, c)).To(BeTrue())
		Expect(g.SettledAt(t-1, c)).To(BeFalse())
		Expect(t).To(BeNumerically(">", int64(1)<<36))
	})

	// The age doubles until the grudge settles; past a quarter of the int64
	// range a doubled age could overflow the tick, so the search gives up
	// there (math.MaxInt64/4 − anchor is the last age it may double). A
	// grudge anchored one tick short of that quarter may probe age 2 but
	// not age 4. Half-lives of one tick: 0.6 at the anchor, 0.3, 0.15,
	// 0.075, 0.0375 after.
	DescribeTable("gives up rather than let the doubled age overflow a tick",
		func(_ SpecContext, settled float64, want int64, wantOK bool) {
			c := social.Curves{EmotionalHalfLife: 1, EvidentiaryHalfLife: 1, Settled: settled}
			anchor := int64(math.MaxInt64/4 - 1)
			g, _, err := social.NewGrudges(c).Bear("a", "b", anchor, 0.6, 0, "x")
			Expect(err).NotTo(HaveOccurred())
			t, ok := g.SettlesAt(c)
			Expect(ok).To(Equal(wantOK))
			if wantOK {
				Expect(t - anchor).To(Equal(want))
			}
		},
		Entry("settling at age 2, the last age it may reach", NodeTimeout(10*time.Second), GracePeriod(time.Second), 0.2, int64(2), true),
		Entry("not settled by age 2: never, although age 3 would do", NodeTimeout(10*time.Second), GracePeriod(time.Second), 0.1, int64(0), false),
	)
})
