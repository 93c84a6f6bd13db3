package expect_test

import (
	"encoding/json"
	"errors"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/compare"
	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/fixture"
)

// comparisonItems decodes a comparison in a case (a counterfactual of its
// rung) through the real loader.
func comparisonItems(body string) []expect.Expectation {
	GinkgoHelper()
	src := `rung: T2.9
title: t
tier: 2
seed_id: s
ticks: 20
locations:
  market: {}
  temple: {}
cast:
  ann: {home: market}
  bob: {home: market}
  cat: {home: temple}
cases:
  moved:
    counterfactual_of: T2.9
    expect:
      - comparison: ` + body + "\n"
	fs, err := fixture.Parse("fixtures/T2.9-t.yaml", []byte(src))
	Expect(err).NotTo(HaveOccurred())
	return fs[1].Expect
}

// rollRecord is a trace record carrying a roll, at line seq+2.
func rollRecord(seq int, key string, tick int64, value, threshold float64) expect.Record {
	GinkgoHelper()
	var rec expect.Record
	s := fmt.Sprintf(`{"kind":"encounter","roll":{"key":%q,"threshold":%v,"value":%v},"seq":%d,"tick":%d}`, key, threshold, value, seq, tick)
	Expect(json.Unmarshal([]byte(s), &rec)).To(Succeed())
	return rec
}

type rolled struct {
	key              string
	tick             int64
	value, threshold float64
}

// compareRuns runs a comparison of "this run" (mine) against an index of
// the other run (theirs) and returns its verdict.
func compareRuns(body string, theirs, mine []rolled) expect.Result {
	GinkgoHelper()
	x := compare.NewIndexer()
	for i, r := range theirs {
		rec := rollRecord(i, r.key, r.tick, r.value, r.threshold)
		x.Add(rec, i+2)
	}
	ix, err := x.Index()
	Expect(err).NotTo(HaveOccurred())
	run := expect.Start(comparisonItems(body))
	run.Compare(func(name string) (*compare.Index, error) {
		Expect(name).To(Equal("T2.9"))
		return ix, nil
	})
	for i, r := range mine {
		run.Trace(rollRecord(i, r.key, r.tick, r.value, r.threshold))
	}
	return run.Finish()[0]
}

var _ = Describe("comparison", func() {
	base := []rolled{
		{"encounter@1/market/[ann,bob]", 1, 0.3, 0.5},
		{"encounter@4/market/[ann,bob]", 4, 0.6, 0.5},
		{"encounter@9/market/[ann,bob]", 9, 0.2, 0.5},
	}

	It("passes when every key both runs roll has the same value, counting the keys compared", func() {
		res := compareRuns("{against: T2.9}", base, base)
		Expect(res.Passed).To(BeTrue(), res.Message)
		Expect(res.Examined).To(Equal(int64(3)))
		Expect(res.Unit).To(Equal("roll keys compared"))
	})

	It("fails on a key both runs roll with different values, naming the key, where and both values", func() {
		mine := []rolled{base[0], {"encounter@4/market/[ann,bob]", 4, 0.01, 0.5}, base[2]}
		res := compareRuns("{against: T2.9, only_in_one: any}", base, mine)
		Expect(res.Passed).To(BeFalse())
		Expect(res.Tick).To(Equal(int64(4)))
		Expect(res.Message).To(Equal("1 roll key rolled by both runs with different values, first encounter@4/market/[ann,bob] " +
			"(tick 4 at market, participants ann, bob): 0.01, threshold 0.5, rolled by encounter at line 3 here, " +
			"0.6, threshold 0.5, rolled by encounter at line 3 in T2.9; a roll is a function of its key, so only a pin or a bug moves one"))
		Expect(res.At).To(Equal(expect.Pos{Line: 17, Column: 31}), "at against")
	})

	It("does not mind a threshold that moved: the odds may change, the dice may not", func() {
		mine := []rolled{base[0], {"encounter@4/market/[ann,bob]", 4, 0.6, 0.7}, base[2]}
		Expect(compareRuns("{against: T2.9}", base, mine).Passed).To(BeTrue())
		res := compareRuns("{against: T2.9, first_divergence: 4}", base, mine)
		Expect(res.Passed).To(BeTrue(), "but the threshold is where the runs diverge: %s", res.Message)
	})

	Describe("keys rolled by one run only", func() {
		mine := []rolled{base[0], {"encounter@4/temple/[ann,cat]", 4, 0.4, 0.5}, {"encounter@5/temple/[ann,cat]", 5, 0.9, 0.5}, base[2]}

		It("fails by default, naming the first with where and when and who rolled it", func() {
			res := compareRuns("{against: T2.9}", base, mine)
			Expect(res.Passed).To(BeFalse())
			Expect(res.Tick).To(Equal(int64(4)))
			Expect(res.Message).To(Equal("3 roll keys rolled by one run only, outside only_in_one: none (every key must be rolled by both runs): " +
				"first encounter@4/temple/[ann,cat], only in this run: tick 4 at temple, participants ann, cat, rolled by encounter at line 3"))
		})

		It("names the other run when its key is the first outside", func() {
			res := compareRuns("{against: T2.9, only_in_one: {sites: [temple]}}", base, mine)
			Expect(res.Message).To(Equal("1 roll key rolled by one run only, outside only_in_one: " +
				"first encounter@4/market/[ann,bob], only in T2.9: tick 4 at market, participants ann, bob, rolled by encounter at line 3"))
			Expect(res.At).To(Equal(expect.Pos{Line: 17, Column: 50}), "at only_in_one")
		})

		DescribeTable("passes when each lies inside a declared scope",
			func(scope string) {
				res := compareRuns("{against: T2.9, only_in_one: "+scope+"}", base, mine)
				Expect(res.Passed).To(BeTrue(), res.Message)
			},
			Entry("any", "any"),
			Entry("an NPC and a window", "{npcs: [ann], from: 4, to: 5}"),
			Entry("two scopes", "[{sites: [temple]}, {sites: [market], from: 4, to: 4}]"),
			Entry("a purpose", "{purposes: [encounter]}"),
		)

		DescribeTable("fails when one lies outside every scope",
			func(scope, first string) {
				res := compareRuns("{against: T2.9, only_in_one: "+scope+"}", base, mine)
				Expect(res.Passed).To(BeFalse())
				Expect(res.Message).To(ContainSubstring("first " + first + ","))
			},
			Entry("a window one tick short", "{npcs: [ann], from: 4, to: 4}", "encounter@5/temple/[ann,cat]"),
			Entry("another NPC", "{npcs: [cat]}", "encounter@4/market/[ann,bob]"),
			Entry("another purpose", "{purposes: [mutation]}", "encounter@4/temple/[ann,cat]"),
			Entry("none, said", "none", "encounter@4/temple/[ann,cat]"),
		)

		It("checks the first divergence's tick", func() {
			Expect(compareRuns("{against: T2.9, only_in_one: any, first_divergence: 4}", base, mine).Passed).To(BeTrue())
			res := compareRuns("{against: T2.9, only_in_one: any, first_divergence: 3}", base, mine)
			Expect(res.Passed).To(BeFalse())
			Expect(res.Message).To(Equal("the first divergent roll is at tick 4 (encounter@4/temple/[ann,cat]), want tick 3"))
		})
	})

	It("fails a first_divergence when the runs never diverge", func() {
		res := compareRuns("{against: T2.9, first_divergence: 3}", base, base)
		Expect(res.Passed).To(BeFalse())
		Expect(res.Message).To(Equal("the runs' rolls never diverge, want the first divergence at tick 3"))
	})

	It("reports every way it failed in one line, the first in the order the seed cares for", func() {
		mine := []rolled{{"encounter@1/market/[ann,bob]", 1, 0.9, 0.5}, {"encounter@2/temple/[ann,cat]", 2, 0.4, 0.5}}
		res := compareRuns("{against: T2.9, first_divergence: 7}", base, mine)
		Expect(res.Message).To(MatchRegexp(`^1 roll key rolled by both runs with different values, .*; and 3 roll keys rolled by one run only, .*; and the first divergent roll is at tick 1 \(encounter@1/market/\[ann,bob\]\), want tick 7$`))
	})

	It("has checked nothing when no key was rolled by both", func() {
		res := compareRuns("{against: T2.9, only_in_one: any}", base, []rolled{{"encounter@2/temple/[ann,cat]", 2, 0.4, 0.5}})
		Expect(res.Passed).To(BeFalse())
		Expect(res.Examined).To(BeZero())
		Expect(res.Message).To(Equal("checked nothing: examined 0 roll keys compared in ticks [0, 19]"))
	})

	It("fails, saying why, when the other run cannot be had or this run's roll cannot be read", func() {
		run := expect.Start(comparisonItems("{against: T2.9}"))
		run.Compare(func(string) (*compare.Index, error) { return nil, errors.New("T2.9 aborted: pin never matched") })
		res := run.Finish()[0]
		Expect(res.Message).To(Equal("cannot compare with T2.9: T2.9 aborted: pin never matched"))

		ix, err := compare.NewIndexer().Index()
		Expect(err).NotTo(HaveOccurred())
		run = expect.Start(comparisonItems("{against: T2.9}"))
		run.Compare(func(string) (*compare.Index, error) { return ix, nil })
		run.Trace(expect.Record{"kind": "encounter", "roll": map[string]any{"key": "e@1/m/[a]"}, "seq": 4.0, "tick": 1.0})
		Expect(run.Finish()[0].Message).To(Equal("cannot compare with T2.9: this run's trace line 6: roll e@1/m/[a] has no value"))
	})

	It("fails as not compared when the runner never handed it the other run", func() {
		run := expect.Start(comparisonItems("{against: T2.9}"))
		run.Trace(rollRecord(0, base[0].key, 1, 0.3, 0.5))
		Expect(run.Finish()[0].Message).To(Equal("not compared: the runner gave this run no counterpart to compare with T2.9"))
	})

	It("indexes the run's own rolls for others when asked", func() {
		run := expect.Start(nil)
		x := compare.NewIndexer()
		run.Index(x)
		run.Trace(rollRecord(0, base[0].key, 1, 0.3, 0.5))
		run.Trace(expect.Record{"kind": "belief", "seq": 1.0, "tick": 1.0})
		run.Trace(rollRecord(2, base[1].key, 4, 0.6, 0.5))
		ix, err := x.Index()
		Expect(err).NotTo(HaveOccurred())
		Expect(ix.Len()).To(Equal(2))
		Expect(ix.Roll(1).Line).To(Equal(4))
	})
})
