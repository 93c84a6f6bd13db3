package coverage_test

import (
	"slices"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/coverage"
	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

var _ = Describe("a regime's sign", func() {
	roll := trace.Roll{Roll: keyed.Roll{Value: 0.2}, Threshold: 0.5}
	find := func(rule, regime string) rules.Sign {
		r, ok := rules.Find(rule)
		Expect(ok).To(BeTrue())
		for _, g := range r.Regimes {
			if g.Name == regime {
				return g.Sign
			}
		}
		Fail("no regime " + regime + " of " + rule)
		return rules.Sign{}
	}
	DescribeTable("a sign shows its regime in exactly the records that reach it",
		func(rule, regime string, b trace.Body, want bool) {
			s := find(rule, regime)
			Expect(coverage.Shows(s, rule, b)).To(Equal(want), "%s: %s", coverage.Describe(s), b)
			Expect(coverage.Shows(s, rule, b.Clone())).To(Equal(want), "as a pointer")
		},
		Entry("re-armed: the value at 1", rules.AccumulationThreshold, "re-armed",
			trace.RuleEval{Rule: rules.AccumulationThreshold, Reason: "below threshold", Values: []trace.Value{{Name: "count", Value: 1}, {Name: "rearmed", Value: 1}}}, true),
		Entry("re-armed: the value at 0", rules.AccumulationThreshold, "re-armed",
			trace.RuleEval{Rule: rules.AccumulationThreshold, Reason: "below threshold", Values: []trace.Value{{Name: "rearmed", Value: 0}}}, false),
		Entry("re-armed: another value at 1", rules.AccumulationThreshold, "re-armed",
			trace.RuleEval{Rule: rules.AccumulationThreshold, Values: []trace.Value{{Name: "armed", Value: 1}}}, false),
		Entry("a reason exactly", rules.AccumulationThreshold, "fired",
			trace.RuleEval{Rule: rules.AccumulationThreshold, Fired: true, Reason: "threshold reached"}, true),
		Entry("the reason but not fired", rules.AccumulationThreshold, "fired",
			trace.RuleEval{Rule: rules.AccumulationThreshold, Reason: "threshold reached"}, false),
		Entry("the reason of another rule", rules.AccumulationThreshold, "fired",
			trace.RuleEval{Rule: rules.GrudgeCreation, Fired: true, Reason: "threshold reached"}, false),
		Entry("a reason's prefix", rules.GrudgeCreation, "kin killed",
			trace.RuleEval{Rule: rules.GrudgeCreation, Fired: true, Reason: "kin killed: hroki"}, true),
		Entry("not the prefix", rules.GrudgeCreation, "kin killed",
			trace.RuleEval{Rule: rules.GrudgeCreation, Fired: true, Reason: "kin of hroki"}, false),
		Entry("a decline in a transmission", rules.TestimonyTransfer, "teller forgotten",
			trace.Transmission{Rule: rules.TestimonyTransfer, Reason: "teller's rumour is forgotten"}, true),
		Entry("the same decline as a rule record", rules.TestimonyTransfer, "teller forgotten",
			trace.RuleEval{Rule: rules.TestimonyTransfer, Reason: "teller's rumour is forgotten"}, false),
		Entry("a weight strictly between", rules.PairWeighting, "weight between",
			trace.Encounter{Roll: roll, Weighted: true, Weight: 0.4}, true),
		Entry("a weight of 0 is not between", rules.PairWeighting, "weight between",
			trace.Encounter{Roll: roll, Weighted: true, Weight: 0}, false),
		Entry("an unweighted encounter has no weight", rules.PairWeighting, "weight 0",
			trace.Encounter{Roll: roll}, false),
		Entry("a weight of 1", rules.PairWeighting, "weight 1",
			trace.Encounter{Roll: roll, Weighted: true, Weight: 1}, true),
		Entry("a switch", rules.VariantResolution, "switched", trace.Supersession{Kept: false}, true),
		Entry("a keep is no switch", rules.VariantResolution, "switched", trace.Supersession{Kept: true}, false),
		Entry("a reinforced grudge", rules.GrudgeCreation, "reinforced",
			trace.Grudge{Rule: rules.GrudgeCreation, Change: "reinforced"}, true),
		Entry("a settled grudge is not reinforced", rules.GrudgeCreation, "reinforced",
			trace.Grudge{Rule: rules.GrudgeDecay, Change: "settled"}, false),
		Entry("a keyframe belief fading", rules.BeliefDecay, "fading",
			trace.Keyframe{Beliefs: []trace.BeliefState{{Verbatim: 1}, {Verbatim: 0.5}}}, true),
		Entry("a keyframe of fresh beliefs", rules.BeliefDecay, "fading",
			trace.Keyframe{Beliefs: []trace.BeliefState{{Verbatim: 1}}}, false),
		Entry("an unsettled grudge at a keyframe", rules.GrudgeDecay, "decaying",
			trace.Keyframe{Grudges: []trace.GrudgeState{{Settled: true}, {Settled: false}}}, true),
		Entry("only settled grudges", rules.GrudgeDecay, "decaying",
			trace.Keyframe{Grudges: []trace.GrudgeState{{Settled: true}}}, false),
		Entry("another record kind", rules.EncounterSampling, "met",
			trace.RuleEval{Rule: rules.EncounterSampling, Fired: true}, false),
	)

	DescribeTable("refuses a sign that could never match, saying why",
		func(s rules.Sign, want string) {
			Expect(coverage.SignProblems(s)).To(ContainElement(want))
		},
		Entry("a reason on an encounter", rules.Sign{Kind: trace.KindEncounter, Reason: "x"}, "an encounter record has no reason"),
		Entry("kept on a rule record", rules.Sign{Kept: rules.Yes}, "a rule record has no kept"),
		Entry("a change on a transmission", rules.Sign{Kind: trace.KindTransmission, Change: "formed"}, "a transmission record has no change"),
		Entry("a number no record has", rules.Sign{Kind: trace.KindEncounter, Value: &rules.Span{Name: "values.weight", Lo: 0, Hi: 1}},
			`an encounter record has no number "values.weight" a sign can bound`),
		Entry("an empty span", rules.Sign{Value: &rules.Span{Name: "values.count", Lo: 2, Hi: 1}}, "the span 2.0 ≤ values.count ≤ 1.0 holds no number"),
		Entry("an open point", rules.Sign{Value: &rules.Span{Name: "values.count", Lo: 1, Hi: 1, Open: true}}, "the span 1.0 < values.count < 1.0 holds no number"),
		Entry("a keyframe with no column", rules.Sign{Kind: trace.KindKeyframe}, "a keyframe sign must bound a column of one of its tables"),
	)

	It("describes a sign as a reader of the trace would look for it", func() {
		Expect(coverage.Describe(find(rules.AccumulationThreshold, "fired"))).To(Equal(`a rule record: fired, reason "threshold reached"`))
		Expect(coverage.Describe(find(rules.PairWeighting, "weight between"))).To(Equal("an encounter record: 0.0 < weight < 1.0"))
		Expect(coverage.Describe(find(rules.AccumulationThreshold, "re-armed"))).To(Equal("a rule record: values.rearmed = 1.0"))
		Expect(coverage.Describe(find(rules.VariantResolution, "kept"))).To(Equal("a supersession record: kept"))
	})

	It("finds nothing wrong with the engine's catalogue, and names the rule and regime of what it finds", func() {
		Expect(coverage.CatalogueProblems(rules.Catalogue())).To(BeEmpty())
		cat := rules.Catalogue()
		cat[0].Regimes = slices.Clone(cat[0].Regimes)
		cat[0].Regimes[0].Sign = rules.Sign{Kind: trace.KindEncounter, Reason: "x"}
		extra := cat[1]
		Expect(coverage.CatalogueProblems(append(cat, extra))).To(ConsistOf(
			"21 rules, above the ceiling of 20",
			"rule "+itoa(cat[0].Number)+" "+cat[0].Name+": "+cat[0].Regimes[0].Name+": an encounter record has no reason",
			"rules \""+extra.Name+"\" and \""+extra.Name+"\" share number "+itoa(extra.Number),
			"rule name \""+extra.Name+"\" is used twice",
		))
		Expect(coverage.CatalogueProblems(rules.Catalogue())).To(BeEmpty(), "the registry's own regimes were left alone")
	})
})

func itoa(n int) string { return strconv.Itoa(n) }
