package explore

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// Each oracle is shown the records of a run that breaks its rule and
// must name the tick (the records are made by hand: no engine here).
var _ = Describe("the rule oracles", func() {
	var o *observer
	BeforeEach(func() {
		f := &fixture.Fixture{Defines: rules.Default(), Ticks: 100}
		o = newObserver(f)
	})
	emit := func(t int64, b trace.Body) { o.Emit(trace.Record{Tick: t, Body: b}) }
	weight := func(g, after float64) *trace.RuleEval {
		return &trace.RuleEval{Rule: rules.PairWeighting, Subject: "a->b/brawl@1", Fired: true, Reason: "grudge formed",
			Values: []trace.Value{{Name: "after", Value: after}, {Name: "before", Value: 1}, {Name: "grudge", Value: g}}}
	}

	It("rule 18: holds the weight to max(0, 1 − s·g)", func() {
		emit(3, weight(0.25, 0.75))
		Expect(o.findings).To(BeEmpty())
		emit(4, weight(0.5, 0)) // all or nothing
		Expect(o.findings).To(HaveKey(PropPairWeight))
		Expect(o.findings[PropPairWeight].Tick).To(Equal(int64(4)))
		Expect(o.findings[PropPairWeight].Expect).To(HaveLen(1))
	})

	It("rule 18: a weighted encounter's threshold is p·w", func() {
		e := &trace.Encounter{Site: "l", Pair: [2]string{"a", "b"}, Weighted: true, Weight: 0.5}
		e.Roll.Threshold, e.Roll.Roll.Value = 0.25, 0.9
		emit(2, e)
		Expect(o.findings).To(BeEmpty())
		e.Roll.Threshold = 0.5
		emit(3, e)
		Expect(o.findings).To(HaveKey(PropPairWeight))
	})

	It("rule 16: one claim, one count per observer", func() {
		ev := &trace.RuleEval{Rule: rules.ReputationEvidence, Subject: "o/title@1", Fired: true}
		emit(2, ev)
		Expect(o.findings).To(BeEmpty())
		emit(5, ev)
		Expect(o.findings).To(HaveKey(PropReputation))
		Expect(o.findings[PropReputation].Tick).To(Equal(int64(5)))
	})

	It("rule 13: a settling total is emotional + evidentiary, below the threshold", func() {
		settle := func(total float64) *trace.RuleEval {
			return &trace.RuleEval{Rule: rules.GrudgeDecay, Subject: "a->b", Fired: true,
				Values: []trace.Value{{Name: "emotional", Value: 0.03}, {Name: "evidentiary", Value: 0.01}, {Name: "total", Value: total}}}
		}
		emit(9, settle(0.04))
		Expect(o.findings).To(BeEmpty())
		emit(10, settle(0.02))
		Expect(o.findings).To(HaveKey(PropGrudgeDecay))
	})

	It("rule 13: a grudge settles at the first tick its total is below grudge_settled", func() {
		o.held[[2]string{"a", "brawl@1"}] = true
		emit(1, &trace.Grudge{Holder: "a", Target: "b", Change: "formed", Emotional: 0.06, Evidentiary: 0, Cause: "brawl@1"})
		// 0.06 · 2^(−t/2880) falls below 0.05 at t = 758 after the anchor.
		want, ok := o.grudges[[2]string{"a", "b"}].settles(o.f, o.f.Ticks)
		Expect(ok).To(BeFalse(), "beyond a 100-tick run")
		o.f.Ticks = 2000
		want, ok = o.grudges[[2]string{"a", "b"}].settles(o.f, o.f.Ticks)
		Expect(ok).To(BeTrue())
		emit(want+5, &trace.Grudge{Holder: "a", Target: "b", Change: "settled", Cause: "brawl@1"})
		Expect(o.findings).To(HaveKey(PropGrudgeDecay))
		Expect(o.findings[PropGrudgeDecay].Tick).To(Equal(want))
	})

	It("rule 17: a mourning is lifted when it ends", func() {
		emit(3, &trace.Schedule{NPC: "a", Change: "overridden", Override: "rewrite@3:a:killing@3", From: 4, To: 10})
		emit(11, &trace.Schedule{NPC: "b", Change: "restored", Override: "rewrite@1:b:killing@1"})
		Expect(o.findings).To(HaveKey(PropMourning))
		Expect(o.findings[PropMourning].Tick).To(Equal(int64(10)))
	})

	It("observer locality: a belief changes only beside a record that reached it", func() {
		emit(2, &trace.RuleEval{Rule: rules.WitnessCreatesBelief, Subject: "a/theft@2", Fired: true})
		emit(2, &trace.BeliefChange{Holder: "a", Claim: "theft@2", Change: "formed"})
		Expect(o.findings).To(BeEmpty())
		emit(3, &trace.BeliefChange{Holder: "b", Claim: "theft@2", Change: "formed"})
		Expect(o.findings).To(HaveKey(PropObserver))
	})
})
