package explore

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// The liveness models are shown records made by hand (no engine): a run
// that keeps time's promises, and one with the fault each guards against.
var _ = Describe("the liveness models", func() {
	var o *observer
	// A gist half-life of 10 ticks puts the gist exactly on dormant_gist
	// (0.5) 10 ticks after a refresh and on forgotten_gist (0.125) 30
	// after: a stage changes one tick later, at 11 and 31.
	world := func(ticks int64) *fixture.Fixture {
		d := rules.Default()
		d.GistHalfLifeTicks, d.DormantGist, d.ForgottenGist = 10, 0.5, 0.125
		return &fixture.Fixture{Defines: d, Ticks: ticks}
	}
	BeforeEach(func() { o = newObserver(world(100)) })
	emit := func(t int64, b trace.Body) { o.Emit(trace.Record{Tick: t, Body: b}) }
	// belief emits a belief record with the rule record that reaches it,
	// as the engine does.
	belief := func(t int64, change, stage string) {
		rule := rules.WitnessCreatesBelief
		if change == trace.BeliefDormant || change == trace.BeliefForgotten {
			rule = rules.RumourStages
		}
		emit(t, &trace.RuleEval{Rule: rule, Subject: "a/theft@1", Fired: true})
		emit(t, &trace.BeliefChange{Holder: "a", Claim: "theft@1", Change: change, Stage: stage})
	}
	keyframe := func(t int64, stage string, gist float64) {
		emit(t, &trace.Keyframe{Beliefs: []trace.BeliefState{{Holder: "a", Claim: "theft@1", Stage: stage, Gist: gist}}})
	}

	It("rule 9: a rumour left alone goes dormant, then forgotten, at the first tick its gist is below each threshold", func() {
		belief(1, trace.BeliefFormed, "heard")
		belief(12, trace.BeliefDormant, "dormant")
		keyframe(24, "dormant", decay(1, 23, 10, false))
		belief(32, trace.BeliefForgotten, "forgotten")
		o.end()
		Expect(o.findings).To(BeEmpty())
		Expect(o.rumoursApplied).To(Equal(2))
	})

	It("rule 9: a refresh moves the ticks it is due", func() {
		belief(1, trace.BeliefFormed, "heard")
		belief(12, trace.BeliefDormant, "dormant")
		belief(15, trace.BeliefReactivated, "heard")
		belief(26, trace.BeliefDormant, "dormant")
		belief(46, trace.BeliefForgotten, "forgotten")
		o.end()
		Expect(o.findings).To(BeEmpty())
		Expect(o.rumoursApplied).To(Equal(3), "dormant at 12 and 26, forgotten at 46; forgotten at 32 lapsed")
	})

	It("rule 9: a rumour that never goes dormant when its gist sits exactly on the threshold fails at the tick it is due", func() {
		belief(1, trace.BeliefFormed, "heard")
		emit(40, &trace.Event{ID: "later@40"})
		Expect(o.findings).To(HaveKey(PropRumourStages))
		x := o.findings[PropRumourStages]
		Expect(x.Tick).To(Equal(int64(12)))
		Expect(x.Message).To(ContainSubstring("did not go dormant"))
		Expect(x.Expect).To(HaveLen(1))
	})

	It("rule 9: a stage changed a tick early fails at that tick", func() {
		belief(1, trace.BeliefFormed, "heard")
		belief(11, trace.BeliefDormant, "dormant")
		Expect(o.findings).To(HaveKey(PropRumourStages))
		Expect(o.findings[PropRumourStages].Tick).To(Equal(int64(11)))
	})

	It("rule 9: a keyframe shows the stage and gist of the last refresh", func() {
		belief(1, trace.BeliefFormed, "heard")
		keyframe(5, "heard", decay(1, 4, 10, false))
		belief(12, trace.BeliefDormant, "dormant")
		Expect(o.findings).To(BeEmpty())
		keyframe(24, "heard", decay(1, 23, 10, false))
		Expect(o.findings).To(HaveKey(PropRumourStages), "dormant since tick 12")
		Expect(o.findings[PropRumourStages].Tick).To(Equal(int64(24)))
	})

	It("rule 9: with decay off a rumour never fades", func() {
		f := world(100)
		f.Disabled = []string{rules.BeliefDecay}
		o = newObserver(f)
		belief(1, trace.BeliefFormed, "heard")
		keyframe(50, "heard", 1)
		o.end()
		Expect(o.findings).To(BeEmpty())
		Expect(o.rumoursApplied).To(BeZero())
	})

	Describe("quiescence", func() {
		grudge := func(t int64) {
			o.held[[2]string{"a", "brawl@1"}] = true
			emit(t, &trace.Grudge{Holder: "a", Target: "b", Change: "formed", Emotional: 0.5, Cause: "brawl@1"})
		}
		// 0.5 · 2^(−t/2880) + 0 is first below grudge_settled (0.05) at
		// t = 9568.
		const settles = 1 + 9568

		It("runs a world on to the tick its last open grudge or rumour comes due, within the bound", func() {
			o = newObserver(world(20))
			belief(1, trace.BeliefFormed, "heard")
			grudge(1)
			belief(12, trace.BeliefDormant, "dormant")
			o.end()
			Expect(o.findings).To(BeEmpty())
			Expect(o.restingBy(100)).To(Equal(int64(33)), "forgotten at 32; the grudge settles past the bound")
			Expect(o.restingBy(settles + 1)).To(Equal(int64(settles + 1)))
		})

		It("runs on nothing that has come due already", func() {
			belief(1, trace.BeliefFormed, "heard")
			belief(12, trace.BeliefDormant, "dormant")
			belief(32, trace.BeliefForgotten, "forgotten")
			o.end()
			Expect(o.restingBy(runOnBound(o.f))).To(BeZero())
		})

		It("holds the run on's models past the end, and leaves what fails before it to the run's own", func() {
			o = newObserver(world(settles + 10))
			grudge(1)
			o.end()
			Expect(o.findings).To(HaveKey(PropGrudgeDecay), "a grudge that never settles")
			x := pastTheEnd(o, 40)
			Expect(x).NotTo(BeNil())
			Expect(x.Property).To(Equal(PropQuiescence))
			Expect(x.Tick).To(Equal(int64(settles)))
			Expect(x.Message).To(ContainSubstring(PropGrudgeDecay))
			Expect(pastTheEnd(o, settles+1)).To(BeNil(), "inside the world's own run")
		})
	})
})
