package harness_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/dense"
	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/compare"
	"github.com/chronicle/ladder/ladder/fixture"
)

// Specs of the comparison expectation end to end, on the committed T2.3:
// its case swapped is a counterfactual of the rung and asserts, through a
// comparison, that every key both runs roll has the same value and that
// the keys only one run rolls are the market meeting at tick 4. Each
// planted fault below is a copy of the fixture with one edit.

const t23 = "fixtures/T2.3-conflicting-variants.yaml"

// t23Runs parses the committed T2.3, edited, and returns its runs by name.
func t23Runs(edit func(src string) string) map[string]*fixture.Fixture {
	GinkgoHelper()
	src, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(t23)))
	Expect(err).NotTo(HaveOccurred())
	fs, err := fixture.Parse(t23, []byte(edit(string(src))))
	Expect(err).NotTo(HaveOccurred())
	out := map[string]*fixture.Fixture{}
	for _, f := range fs {
		out[f.Name()] = f
	}
	return out
}

// inSwapped applies a replacement inside the swapped case only.
func inSwapped(old, new string) func(string) string {
	return func(src string) string {
		GinkgoHelper()
		start := strings.Index(src, "  swapped:\n")
		end := strings.Index(src, "  by-strength:\n")
		Expect(start).To(BeNumerically(">", 0))
		Expect(strings.Count(src[start:end], old)).To(Equal(1), "%q in swapped", old)
		return src[:start] + strings.Replace(src[start:end], old, new, 1) + src[end:]
	}
}

func same(src string) string { return src }

// comparisonFailure runs swapped and returns its comparison's failure line.
func comparisonFailure(runs map[string]*fixture.Fixture) string {
	GinkgoHelper()
	res, err := ladder.Run(runs["T2.3/swapped"], ladder.Options{Dir: GinkgoT().TempDir()})
	Expect(err).NotTo(HaveOccurred())
	for _, e := range res.Expectations {
		if e.Kind == "comparison" && !e.Passed {
			return e.Line(t23)
		}
	}
	return ""
}

var _ = Describe("comparison on T2.3", Serial, func() {
	It("puts swapped on its own branch and finds the one key both runs roll the same, the rung's run made once", func() {
		runs := t23Runs(same)
		rung, swapped := runs["T2.3"], runs["T2.3/swapped"]
		Expect(swapped.CounterfactualOf).To(Equal("T2.3"))
		Expect(swapped.Branch.SaveUUID).To(Equal(rung.Branch.SaveUUID))
		Expect(swapped.Branch.Generation).To(Equal(fixture.Generation(0, "T2.3/swapped")))
		Expect(rung.ComparedBy).To(Equal([]string{"T2.3/swapped"}))

		before := ladder.OnDemandRuns()
		res, err := ladder.Run(rung, ladder.Options{Dir: GinkgoT().TempDir()})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Failures).To(BeEmpty())
		res, err = ladder.Run(swapped, ladder.Options{Dir: GinkgoT().TempDir()})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Failures).To(BeEmpty())
		Expect(ladder.OnDemandRuns()).To(Equal(before), "swapped took the index the rung's run left")
		var cmp []int64
		for _, e := range res.Expectations {
			if e.Kind == "comparison" {
				cmp = append(cmp, e.Examined)
			}
		}
		Expect(cmp).To(Equal([]int64{1}), "one key both runs roll: the inn meeting at tick 10")

		res, err = ladder.Run(swapped, ladder.Options{Dir: GinkgoT().TempDir()})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Failures).To(BeEmpty())
		Expect(ladder.OnDemandRuns()).To(Equal(before+1), "run alone, swapped makes the rung's run itself")
	})

	It("fails naming the key when a pin changes the value of one roll both runs make", func() {
		runs := t23Runs(inSwapped(
			"{purpose: encounter, tick: 10, site: inn, between: [bram, hilde], value: 0.0}",
			"{purpose: encounter, tick: 10, site: inn, between: [bram, hilde], value: 0.3}"))
		Expect(comparisonFailure(runs)).To(MatchRegexp(`^expect\[\d+\] \(fixtures/T2.3-conflicting-variants.yaml:\d+:\d+\) at tick 10: ` +
			`1 roll key rolled by both runs with different values, first encounter@10/inn/\[bram,hilde\] \(tick 10 at inn, participants bram, hilde\): ` +
			`0.3 \(pinned, natural [0-9.]+\), threshold 0.5, rolled by encounter at line \d+ here, 0.0 \(pinned, natural [0-9.]+\), threshold 0.5, ` +
			`rolled by encounter at line \d+ in T2.3; a roll is a function of its key, so only a pin or a bug moves one$`))
	})

	It("fails naming where and when when a meeting moves to another site, so its keys are rolled by one run only", func() {
		runs := t23Runs(func(src string) string {
			src = inSwapped("schedule: [{at: market, from: 4, to: 5}, {at: inn, from: 10, to: 11}]", "schedule: [{at: market, from: 4, to: 5}, {at: market, from: 10, to: 11}]")(src)
			src = inSwapped("schedule: [{at: inn, from: 10, to: 11}]", "schedule: [{at: market, from: 10, to: 11}]")(src)
			return inSwapped("{purpose: encounter, tick: 10, site: inn,", "{purpose: encounter, tick: 10, site: market,")(src)
		})
		Expect(comparisonFailure(runs)).To(MatchRegexp(`^expect\[\d+\] \(fixtures/T2.3-conflicting-variants.yaml:\d+:\d+\) at tick 10: ` +
			`2 roll keys rolled by one run only, outside only_in_one: first encounter@10/market/\[bram,hilde\], only in this run: ` +
			`tick 10 at market, participants bram, hilde, rolled by encounter at line \d+$`))
	})

	It("orders a file's runs so that each comes after the runs it compares with", func() {
		src := `rung: T2.9
title: t
tier: 2
seed_id: s
ticks: 4
locations: {m: {}}
cast: {a: {home: m}, b: {home: m}}
cases:
  first:
    counterfactual_of: T2.9
    expect: [{comparison: {against: T2.9/last, only_in_one: any}}]
  plain: {}
  last:
    counterfactual_of: T2.9
    expect: [{comparison: {against: T2.9, only_in_one: any}}]
`
		fs, err := fixture.Parse("fixtures/T2.9-t.yaml", []byte(src))
		Expect(err).NotTo(HaveOccurred())
		var names []string
		for _, f := range ladder.Order(fs) {
			names = append(names, f.Name())
		}
		Expect(names).To(Equal([]string{"T2.9", "T2.9/plain", "T2.9/last", "T2.9/first"}))

		cycle := strings.Replace(src, "against: T2.9, only", "against: T2.9/first, only", 1)
		fs, err = fixture.Parse("fixtures/T2.9-t.yaml", []byte(cycle))
		Expect(err).NotTo(HaveOccurred())
		names = nil
		for _, f := range ladder.Order(fs) {
			names = append(names, f.Name())
		}
		Expect(names).To(Equal([]string{"T2.9", "T2.9/plain", "T2.9/first", "T2.9/last"}), "a cycle is broken at its first run in file order")
	})
})

// Today's rungs compared with their cases, as docs/triage.md shows them:
// what the keyed function promises, checked on the committed fixtures.
var _ = Describe("comparing today's rungs with their cases", Serial, func() {
	report := func(file, a, b string) *compare.Report {
		GinkgoHelper()
		fs, err := fixture.Load(filepath.Join("..", "..", "fixtures", file))
		Expect(err).NotTo(HaveOccurred())
		side := func(name string) compare.Side {
			for _, f := range fs {
				if f.Name() == name {
					res, err := ladder.Run(f, ladder.Options{Dir: GinkgoT().TempDir()})
					Expect(err).NotTo(HaveOccurred())
					dense, err := os.ReadFile(res.Path(artifact.DenseFile))
					Expect(err).NotTo(HaveOccurred())
					tr, err := os.ReadFile(res.Path(artifact.TraceFile))
					Expect(err).NotTo(HaveOccurred())
					return compare.Side{Name: name, Trace: bytes.NewReader(tr), Dense: dense}
				}
			}
			Fail("no run " + name)
			return compare.Side{}
		}
		rep, err := compare.Runs(side(a), side(b), compare.Options{List: -1})
		Expect(err).NotTo(HaveOccurred())
		return rep
	}

	It("T1.1's trust discount moves a value and nothing the dice decided", func() {
		rep := report("T1.1-tell.yaml", "T1.1", "T1.1/trust-discounted")
		Expect(rep.SameRolls()).To(BeTrue())
		Expect(rep.Shared).To(Equal(39))
		Expect(rep.FirstBelief).To(BeNil(), "the same NPCs hold the same variants at every tick")
		Expect(rep.Dense.First).To(Equal(&dense.Change{Tick: 12, Column: "neighbor/theft@2/confidence", Golden: "0.7200000000000001", Actual: "0.684"}))
	})

	It("T2.3's swap changes who meets at the market and no value of a key both runs roll", func() {
		rep := report("T2.3-conflicting-variants.yaml", "T2.3", "T2.3/swapped")
		Expect(rep.Classes[compare.ValueDrift].Count + rep.Classes[compare.ThresholdDrift].Count).To(BeZero())
		Expect(rep.Same).To(Equal(1))
		Expect(rep.Classes[compare.OnlyA].Listed[0].Key()).To(Equal("encounter@4/market/[ada,hilde]"))
		Expect(rep.Classes[compare.OnlyB].Listed[0].Key()).To(Equal("encounter@4/market/[bram,cait]"))
		Expect(rep.A.Header.Branch.Generation).NotTo(Equal(rep.B.Header.Branch.Generation))
	})

	DescribeTable("T2.4's cases tell other people's stories: other keys, never another value for the same key",
		func(other string, onlyA, onlyB []string) {
			rep := report("T2.4-motivated-mutation.yaml", "T2.4", other)
			Expect(rep.Shared).To(BeZero())
			keys := func(d compare.Drift) []string {
				var out []string
				for _, x := range rep.Classes[d].Listed {
					out = append(out, x.Key())
				}
				return out
			}
			Expect(keys(compare.OnlyA)).To(Equal(onlyA))
			Expect(keys(compare.OnlyB)).To(Equal(onlyB))
		},
		Entry("mirror", "T2.4/mirror",
			[]string{"encounter@4/market/[neighbor,ralof]", "mutation-value@4/market/[ralof,neighbor,theft@1]"},
			[]string{"encounter@4/market/[neighbor,tullius]", "mutation-value@4/market/[tullius,neighbor,theft@1]"}),
		Entry("imperial-teller", "T2.4/imperial-teller",
			[]string{"encounter@4/market/[neighbor,ralof]", "mutation-value@4/market/[ralof,neighbor,theft@1]"},
			[]string{"encounter@4/market/[hadvar,neighbor]", "mutation@4/market/[hadvar,neighbor,theft@1]"}),
	)
})
