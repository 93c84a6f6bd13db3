package claims_test

import (
	"math"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/detmath"
)

var _ = Describe("NoisyOr", func() {
	DescribeTable("is 1 − (1 − c)(1 − r), each operation rounded on its own",
		func(c, r, want float64) {
			expectBits(claims.NoisyOr(c, r), want)
			expectBits(claims.NoisyOr(c, r), noisyOrOracle(c, r))
		},
		Entry("two halves", 0.5, 0.5, 0.75),
		Entry("nothing plus nothing", 0.0, 0.0, 0.0),
		Entry("certainty absorbs", 1.0, 0.3, 1.0),
		Entry("certainty absorbs, other side", 0.3, 1.0, 1.0),
		// 1 − (1 − 0.1) is not 0.1 in float64: the formula is applied as
		// written, not simplified.
		Entry("zero is not an exact identity", 0.0, 0.1, 0.09999999999999998),
		Entry("witness corroborated by a retold report", 0.9, 0.72, noisyOrOracle(0.9, 0.72)),
		Entry("two retold reports", 0.72, 0.576, noisyOrOracle(0.72, 0.576)),
		Entry("quarter and eighth", 0.25, 0.125, 0.34375),
	)

	It("is symmetric and never lowers confidence on a grid of [0, 1]", func() {
		for i := 0; i <= 40; i++ {
			for j := 0; j <= 40; j++ {
				c, r := float64(i)/40, float64(j)/40
				got := claims.NoisyOr(c, r)
				expectBits(got, claims.NoisyOr(r, c))
				expectBits(got, noisyOrOracle(c, r))
				Expect(got).To(BeNumerically(">=", math.Max(c, r)-1e-15), "NoisyOr(%v, %v)", c, r)
				Expect(got).To(BeNumerically("<=", 1))
			}
		}
	})
})

var _ = Describe("Store.Corroborate", func() {
	const window = 720
	var (
		s *claims.Store
		b *claims.Belief
	)

	// The listener heard v0 at tick 10 from gossip, who had it from the
	// eyewitness e1: the belief's one counted origin is e1.
	BeforeEach(func() {
		s = newTheftStore()
		var err error
		b, err = s.Hear("listener", report([]string{"e1", "gossip"}, 10, 0.72))
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Origins).To(Equal([]string{"e1"}))
	})

	It("raises confidence by noisy-or for a new origin, bit for bit", func() {
		t := report([]string{"e2", "bard"}, 30, 0.576)
		out, err := s.Corroborate("listener", t, window)
		Expect(err).NotTo(HaveOccurred())
		want := noisyOrOracle(0.72, 0.576)
		Expect(cmp.Diff(claims.Corroboration{Raised: true, Reason: "counted", Origin: "e2", Before: 0.72, After: want}, out)).To(BeEmpty())
		expectBits(out.After, want)
		expectBits(b.Confidence, want)
		Expect(b.Origins).To(Equal([]string{"e1", "e2"}))
		Expect(b.Anchor).To(Equal(int64(30)))
		Expect(b.FormedAt).To(Equal(int64(10)))
		Expect(b.Variant).To(Equal(v0))
		Expect(b.Evidence).To(HaveLen(2))
		Expect(cmp.Diff(claims.Evidence{
			Type: claims.Reported, Tick: 30, Variant: v0, Source: "bard", Chain: []string{"e2", "bard"},
			Via: "encounter@test", Confidence: 0.576, Counted: true,
		}, b.Evidence[1])).To(BeEmpty())
	})

	It("keeps origins sorted however they arrive", func() {
		for i, root := range []string{"e9", "e0", "e5"} {
			_, err := s.Corroborate("listener", report([]string{root}, int64(20+i), 0.1), window)
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(b.Origins).To(Equal([]string{"e0", "e1", "e5", "e9"}))
	})

	It("compounds noisy-or one counted report at a time", func() {
		c := 0.72
		for i, root := range []string{"e2", "e3", "e4"} {
			out, err := s.Corroborate("listener", report([]string{root}, int64(20+i), 0.5), window)
			Expect(err).NotTo(HaveOccurred())
			expectBits(out.Before, c)
			c = noisyOrOracle(c, 0.5)
			expectBits(out.After, c)
		}
		expectBits(b.Confidence, c)
	})

	DescribeTable("records a report that cannot raise confidence, and still reinforces memory",
		func(chain []string, tick int64, reason, origin string) {
			out, err := s.Corroborate("listener", report(chain, tick, 0.9), window)
			Expect(err).NotTo(HaveOccurred())
			Expect(cmp.Diff(claims.Corroboration{Raised: false, Reason: reason, Origin: origin, Before: 0.72, After: 0.72}, out)).To(BeEmpty())
			expectBits(b.Confidence, 0.72)
			Expect(b.Origins).To(Equal([]string{"e1"}))
			Expect(b.Evidence).To(HaveLen(2))
			Expect(b.Evidence[1].Counted).To(BeFalse())
			Expect(b.Evidence[1].Source).To(Equal(chain[len(chain)-1]))
			Expect(b.Evidence[1].Chain).To(Equal(chain))
			Expect(b.Evidence[1].Tick).To(Equal(tick))
			Expect(b.Anchor).To(Equal(tick))
			Expect(b.GistAt(tick, memory)).To(Equal(1.0))
			Expect(b.VerbatimAt(tick, memory)).To(Equal(1.0))
		},
		Entry("the same eyewitness relayed by a second teller", []string{"e1", "bard"}, int64(40), "origin already counted", "e1"),
		Entry("the eyewitness telling it directly", []string{"e1"}, int64(40), "origin already counted", "e1"),
		Entry("the same teller again", []string{"e1", "gossip"}, int64(40), "origin already counted", "e1"),
		// The claim is from tick 2 and the window is 720 ticks.
		Entry("a new origin about an event older than the window", []string{"e2"}, int64(2+window+1), "stale", "e2"),
	)

	It("counts a report exactly at the edge of the window (older than, not as old as)", func() {
		out, err := s.Corroborate("listener", report([]string{"e2"}, 2+window, 0.5), window)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Raised).To(BeTrue())
		Expect(out.Reason).To(Equal("counted"))
	})

	It("counts the holder itself as the origin of a witnessed belief", func() {
		w, err := s.Witness("witness", v0, 2, 0.9, theft)
		Expect(err).NotTo(HaveOccurred())
		Expect(w.Origins).To(Equal([]string{"witness"}))
		out, err := s.Corroborate("witness", report([]string{"witness", "gossip"}, 20, 0.72), window)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Reason).To(Equal("origin already counted"))
		Expect(out.Origin).To(Equal("witness"))
		expectBits(w.Confidence, 0.9)

		out, err = s.Corroborate("witness", report([]string{"e2", "gossip"}, 21, 0.72), window)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Raised).To(BeTrue())
		expectBits(w.Confidence, noisyOrOracle(0.9, 0.72))
		Expect(w.Origins).To(Equal([]string{"e2", "witness"}))
	})

	It("reactivates a dormant belief without adding confidence", func() {
		dormantAt := int64(10 + 961) // gist just below 0.5
		Expect(b.StageAt(dormantAt, memory)).To(Equal(claims.Dormant))
		out, err := s.Corroborate("listener", report([]string{"e1", "bard"}, dormantAt, 0.72), window*10)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Raised).To(BeFalse())
		Expect(b.StageAt(dormantAt, memory)).To(Equal(claims.Heard))
		Expect(b.GistAt(dormantAt+960, memory)).To(Equal(0.5))
	})

	Describe("errors, which change nothing", func() {
		var snapshot claims.Belief
		BeforeEach(func() {
			snapshot = *b
			snapshot.Evidence = append([]claims.Evidence(nil), b.Evidence...)
			snapshot.Origins = append([]string(nil), b.Origins...)
		})
		AfterEach(func() {
			Expect(cmp.Diff(&snapshot, b)).To(BeEmpty())
		})

		It("is ErrVariantConflict for a report of another variant", func() {
			_, err := s.Derive(v0, itemSwap, claims.Origin{Reason: "mutation"})
			Expect(err).NotTo(HaveOccurred())
			t := report([]string{"e2"}, 20, 0.72)
			t.Variant = v1
			out, err := s.Corroborate("listener", t, window)
			Expect(err).To(MatchError(claims.ErrVariantConflict))
			Expect(out).To(BeZero())
		})

		It("is ErrNoBelief when the listener believes nothing of the claim", func() {
			out, err := s.Corroborate("stranger", report([]string{"e2"}, 20, 0.72), window)
			Expect(err).To(MatchError(claims.ErrNoBelief))
			Expect(out).To(BeZero())
			Expect(s.BeliefCount()).To(Equal(1))
		})

		It("is ErrUnknownVariant for a variant the store never minted", func() {
			t := report([]string{"e2"}, 20, 0.72)
			t.Variant = "theft@2#v4"
			_, err := s.Corroborate("listener", t, window)
			Expect(err).To(MatchError(claims.ErrUnknownVariant))
		})
	})

	// An empty chain's root would be the listener itself, which would then
	// count as a fresh, independent origin.
	It("refuses testimony whose chain does not end with the teller, like Hear", func() {
		out, err := s.Corroborate("listener", claims.Testimony{Teller: "bard", Variant: v0, Tick: 20, Via: "x", Confidence: 0.72}, window)
		Expect(err).To(MatchError(ContainSubstring("must end with the teller")))
		Expect(out.Raised).To(BeFalse())
	})
})

var _ = Describe("memory strengths", func() {
	anchored := func(anchor int64) *claims.Belief { return &claims.Belief{Anchor: anchor, Stage: claims.Heard} }

	DescribeTable("halve exactly at every integer multiple of the half-life",
		func(halfLife float64, k int) {
			m := claims.Memory{VerbatimHalfLife: halfLife, GistHalfLife: halfLife}
			b := anchored(100)
			t := 100 + int64(k)*int64(halfLife)
			want := math.Ldexp(1, -k)
			expectBits(b.VerbatimAt(t, m), want)
			expectBits(b.GistAt(t, m), want)
		},
		Entry("verbatim half-life 72, one half-life", 72.0, 1),
		Entry("verbatim half-life 72, two", 72.0, 2),
		Entry("verbatim half-life 72, ten", 72.0, 10),
		Entry("gist half-life 960, one", 960.0, 1),
		Entry("gist half-life 960, three", 960.0, 3),
		Entry("odd half-life 7, five", 7.0, 5),
		Entry("half-life 1, 1074 (smallest subnormal)", 1.0, 1074),
	)

	It("uses the verbatim and gist half-lives separately", func() {
		b := anchored(0)
		expectBits(b.VerbatimAt(72, memory), 0.5)
		expectBits(b.GistAt(72, memory), detmath.Exp2(-72.0/960))
		expectBits(b.VerbatimAt(960, memory), detmath.Exp2(-960.0/72))
		expectBits(b.GistAt(960, memory), 0.5)
	})

	It("is 2^(-age/half-life) by detmath.Exp2 between multiples", func() {
		b := anchored(10)
		for _, age := range []int64{1, 36, 71, 73, 500, 1000} {
			expectBits(b.VerbatimAt(10+age, memory), detmath.Exp2(-(float64(age) / 72)))
			expectBits(b.GistAt(10+age, memory), detmath.Exp2(-(float64(age) / 960)))
		}
		Expect(b.VerbatimAt(46, memory)).To(BeNumerically("~", math.Sqrt2/2, 1e-15))
	})

	DescribeTable("are exactly 1 at age 0 and before the anchor",
		func(age int64) {
			b := anchored(500)
			expectBits(b.VerbatimAt(500+age, memory), 1)
			expectBits(b.GistAt(500+age, memory), 1)
		},
		Entry("age 0", int64(0)),
		Entry("age -1", int64(-1)),
		Entry("age -500", int64(-500)),
	)

	It("are measured from the anchor, not from formation", func() {
		b := &claims.Belief{FormedAt: 0, Anchor: 72}
		expectBits(b.VerbatimAt(144, memory), 0.5)
	})

	// A store's Memory tables the strengths of the ages most runs reach;
	// the table must give what the computation gives, at every age, on
	// both sides of its end.
	It("are the same from a store's Memory, which tables them, as from a Memory of the same coefficients", func() {
		for _, m := range []claims.Memory{memory, {VerbatimHalfLife: 7, GistHalfLife: 0.3}, {VerbatimHalfLife: 72, GistHalfLife: 960, NoDecay: true}} {
			tabled := claims.NewStore(m).Memory()
			b := anchored(100)
			for age := int64(-3); age < 5000; age++ {
				expectBits(b.VerbatimAt(100+age, tabled), b.VerbatimAt(100+age, m))
				expectBits(b.GistAt(100+age, tabled), b.GistAt(100+age, m))
			}
		}
	})
})

var _ = Describe("Belief.StageAt", func() {
	// Gist halves every 960 ticks: 0.5 (= dormant_gist) at age 960 and
	// 0.125 (= forgotten_gist) at age 2880.
	DescribeTable("derives dormant and forgotten from gist, keeping the stored stage otherwise",
		func(stored claims.Stage, age int64, want claims.Stage) {
			b := &claims.Belief{Anchor: 40, Stage: stored}
			Expect(b.StageAt(40+age, memory)).To(Equal(want))
			Expect(b.Stage).To(Equal(stored), "StageAt must not store what it derives")
		},
		Entry("heard when fresh", claims.Heard, int64(0), claims.Heard),
		Entry("repeated when fresh", claims.Repeated, int64(0), claims.Repeated),
		Entry("before the anchor", claims.Heard, int64(-10), claims.Heard),
		Entry("heard just before dormant", claims.Heard, int64(959), claims.Heard),
		Entry("gist equal to dormant_gist is not below it", claims.Heard, int64(960), claims.Heard),
		Entry("repeated at the dormant boundary", claims.Repeated, int64(960), claims.Repeated),
		Entry("dormant just past the boundary", claims.Heard, int64(961), claims.Dormant),
		Entry("dormant overrides repeated", claims.Repeated, int64(961), claims.Dormant),
		Entry("still dormant two half-lives on", claims.Heard, int64(1920), claims.Dormant),
		Entry("gist equal to forgotten_gist is dormant, not forgotten", claims.Heard, int64(2880), claims.Dormant),
		Entry("forgotten just past it", claims.Heard, int64(2881), claims.Forgotten),
		Entry("forgotten overrides repeated", claims.Repeated, int64(2881), claims.Forgotten),
		Entry("forgotten long after", claims.Heard, int64(100000), claims.Forgotten),
	)

	It("goes straight to forgotten when both thresholds are equal", func() {
		m := memory
		m.DormantGist, m.ForgottenGist = 0.5, 0.5
		b := &claims.Belief{Stage: claims.Heard}
		Expect(b.StageAt(960, m)).To(Equal(claims.Heard))
		Expect(b.StageAt(961, m)).To(Equal(claims.Forgotten))
	})
})

var _ = Describe("Evidence.Root", func() {
	It("is the holder for a witness and the first link of the chain otherwise", func() {
		Expect(claims.Evidence{Type: claims.Witnessed}.Root("me")).To(Equal("me"))
		Expect(claims.Evidence{Type: claims.Reported, Chain: []string{"eye", "relay", "teller"}}.Root("me")).To(Equal("eye"))
	})
})
