package trace_test

import (
	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/trace"
)

// encounterAt is an encounter at the market between a and b at tick t,
// its roll unpinned at value v.
func encounterAt(t int64, a, b string, v float64) trace.Encounter {
	k := keyed.Key{SeedID: "ladder-T1.1", Purpose: "encounter", Tick: t, Site: "market", Participants: []string{a, b}}
	return trace.Encounter{Site: "market", Pair: [2]string{a, b}, Roll: trace.Roll{Roll: keyed.Roll{Key: k, Value: v, Natural: v}, Threshold: 0.5}}
}

// traceOf is a trace file holding the bodies, one per tick from tick 12.
func traceOf(bodies ...trace.Body) []byte {
	GinkgoHelper()
	b := trace.Buffer{Header: header}
	for i, body := range bodies {
		b.Emit(trace.Record{Seq: int64(i), Tick: 12 + int64(i), Body: body})
	}
	out, err := b.AppendJSONL(nil)
	Expect(err).NotTo(HaveOccurred())
	return out
}

var _ = Describe("Rolls", func() {
	It("reads every roll in file order with its line and tick, passing over records without one", func() {
		mutation := trace.Roll{Roll: keyed.Roll{Key: keyed.Key{Purpose: "mutation", Tick: 14, Site: "market", Participants: []string{"witness"}}, Value: 0.125, Natural: 0.125}, Threshold: 0.25}
		file := traceOf(
			trace.Encounter{Site: "market", Pair: [2]string{"neighbor", "witness"}, Roll: encounterRoll()}, // pinned at 0.25
			kindCases[2].body, // a transmission: no roll
			trace.RuleEval{Rule: "mutation-policy", Subject: "witness->neighbor theft@2", Roll: &mutation},
		)
		rolls, err := trace.Rolls(file)
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Diff([]trace.RollRecord{
			{Key: encID, Line: 2, Tick: 12, Value: 0.25, Pinned: true},
			{Key: "mutation@14/market/[witness]", Line: 4, Tick: 14, Value: 0.125},
		}, rolls)).To(BeEmpty())
	})

	It("reads nothing from a trace without rolls", func() {
		rolls, err := trace.Rolls(traceOf(kindCases[2].body))
		Expect(err).NotTo(HaveOccurred())
		Expect(rolls).To(BeEmpty())
	})

	It("refuses a line that is not JSON, naming it", func() {
		_, err := trace.Rolls([]byte(headerLine + "\nnot json\n"))
		Expect(err).To(MatchError(HavePrefix("trace line 2: ")))
	})
})

var _ = Describe("CompareRolls", func() {
	a := func() []byte {
		return traceOf(encounterAt(12, "neighbor", "witness", 0.25), encounterAt(13, "a", "b", 0.5), encounterAt(14, "a", "c", 0.75))
	}
	b := func() []byte {
		return traceOf(encounterAt(12, "neighbor", "witness", 0.625), encounterAt(13, "a", "b", 0.5), encounterAt(14, "b", "c", 0.75))
	}

	It("counts the keys both runs rolled, lists those whose values differ and those only one run rolled", func() {
		d, err := trace.CompareRolls(a(), b())
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Diff(trace.RollDiff{
			Shared:    2,
			Differing: []trace.RollRecord{{Key: "encounter@12/market/[neighbor,witness]", Line: 2, Tick: 12, Value: 0.25}},
			OnlyA:     []trace.RollRecord{{Key: "encounter@14/market/[a,c]", Line: 4, Tick: 14, Value: 0.75}},
			OnlyB:     []trace.RollRecord{{Key: "encounter@14/market/[b,c]", Line: 4, Tick: 14, Value: 0.75}},
		}, d)).To(BeEmpty())
	})

	It("finds nothing but shared keys between a trace and itself", func() {
		d, err := trace.CompareRolls(a(), a())
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Diff(trace.RollDiff{Shared: 3}, d)).To(BeEmpty())
	})

	It("says which trace it could not read", func() {
		bad := []byte(headerLine + "\nnot json\n")
		_, err := trace.CompareRolls(bad, a())
		Expect(err).To(MatchError(HavePrefix("first trace: trace line 2: ")))
		_, err = trace.CompareRolls(a(), bad)
		Expect(err).To(MatchError(HavePrefix("second trace: trace line 2: ")))
	})
})
