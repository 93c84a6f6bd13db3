package checkpoint_test

import (
	"encoding/json"
	"math"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/tolerances"
)

const drift = "; values still compared — regenerate to record the new inputs"

// ignoreDiffs compares reports by their messages; the located Diffs have
// their own spec.
var ignoreDiffs = cmpopts.IgnoreFields(checkpoint.Report{}, "Diffs")

var _ = Describe("Compare", func() {
	var golden, actual checkpoint.File
	BeforeEach(func() { golden, actual = goldenFile(), goldenFile() })

	compare := func() checkpoint.Report { return checkpoint.Compare(golden, actual, tolerances.Checkpoint) }

	It("reports nothing for equal files", func() {
		Expect(cmp.Diff(checkpoint.Report{}, compare(), ignoreDiffs)).To(BeEmpty())
	})

	It("passes a value moved by 1e-6", func() {
		actual.Samples[1].Values["witness_confidence"] = ptr(0.9 + 1e-6)
		actual.Samples[2].Values["witness_confidence"] = ptr(0.9 - 1e-6)
		Expect(cmp.Diff(checkpoint.Report{}, compare(), ignoreDiffs)).To(BeEmpty())
	})

	It("fails a value moved by 1e-3, naming checkpoint, tick, golden, actual, |Δ| and the regime", func() {
		actual.Samples[1].Values["witness_confidence"] = ptr(0.901)
		Expect(cmp.Diff(checkpoint.Report{Failures: []string{
			`checkpoint "witness_confidence" at tick 6: golden 0.9, actual 0.901 (|Δ| 0.0010000000000000009 > 1e-05, regime 1)`,
		}}, compare(), ignoreDiffs)).To(BeEmpty())
	})

	It("locates every failure by name, tick and values, beside its message", func() {
		actual.Samples[1].Values["witness_confidence"] = ptr(0.901)
		actual.Samples[2].Values["believers"] = nil
		actual.Outcome.Beliefs = 3
		rep := compare()
		Expect(rep.Diffs).To(Equal([]checkpoint.Diff{
			{Name: "outcome.beliefs", Tick: -1, Golden: "1", Actual: "3", Message: "outcome.beliefs: golden 1, actual 3"},
			{Name: "witness_confidence", Tick: 6, Golden: "0.9", Actual: "0.901", Message: rep.Failures[1]},
			{Name: "believers", Tick: 23, Golden: "1.0", Actual: "null", Message: `checkpoint "believers" at tick 23: golden 1.0, actual null`},
		}))
		Expect(rep.Failures).To(HaveLen(3))
	})

	It("fails any difference at all under byte identity", func() {
		actual.Samples[2].Values["witness_confidence"] = ptr(math.Nextafter(0.9, 1))
		rep := checkpoint.Compare(golden, actual, tolerances.ByteIdentity)
		Expect(rep.Failures).To(Equal([]string{
			`checkpoint "witness_confidence" at tick 23: golden 0.9, actual 0.9000000000000001 (|Δ| 1.1102230246251565e-16 > 0.0, regime 0)`,
		}))
	})

	It("fails a NaN value as an error, not a comparison", func() {
		actual.Samples[1].Values["believers"] = ptr(math.NaN())
		rep := compare()
		Expect(rep.Failures).To(Equal([]string{`checkpoint "believers" at tick 6: regime 1: golden 1, actual NaN: NaN cannot be compared`}))
	})

	DescribeTable("warns, and only warns, about input drift, naming what moved",
		func(mutate func(g, a *checkpoint.File), want []checkpoint.Drift) {
			mutate(&golden, &actual)
			rep := compare()
			Expect(rep.Failures).To(BeEmpty())
			Expect(rep.Drift).To(Equal(want))
			Expect(rep.Warnings).To(HaveLen(len(want)))
			for i, d := range want {
				Expect(rep.Warnings[i]).To(Equal("input drift: " + d.What + " changed (golden " + d.Golden + ", actual " + d.Actual + ")" + drift))
			}
		},
		Entry("a define, by name, from and to", func(_, a *checkpoint.File) {
			a.DefinesHash = "0000000000000000"
			a.Defines = map[string]json.Number{"retell_decay": "0.75", "ticks_per_day": "24", "witness_confidence": "0.8"}
		}, []checkpoint.Drift{
			{What: "define retell_decay", Golden: "0.8", Actual: "0.75"},
			{What: "define witness_confidence", Golden: "0.9", Actual: "0.8"},
		}),
		Entry("a define added and one removed", func(_, a *checkpoint.File) {
			a.DefinesHash = "0000000000000000"
			a.Defines = map[string]json.Number{"retell_decay": "0.8", "ticks_per_day": "24", "zeal": "1.0"}
		}, []checkpoint.Drift{
			{What: "define witness_confidence", Golden: "0.9", Actual: checkpoint.Absent},
			{What: "define zeal", Golden: checkpoint.Absent, Actual: "1.0"},
		}),
		Entry("the defines_hash, for a golden that records no define values", func(g, a *checkpoint.File) {
			g.Defines = nil
			a.DefinesHash = "0000000000000000"
		}, []checkpoint.Drift{{What: "defines_hash", Golden: "d8e4f9b6e758845a", Actual: "0000000000000000"}}),
		Entry("the defines_hash, when the values agree under another hash", func(_, a *checkpoint.File) {
			a.DefinesHash = "0000000000000000"
		}, []checkpoint.Drift{{What: "defines_hash", Golden: "d8e4f9b6e758845a", Actual: "0000000000000000"}}),
		Entry("fixture_hash", func(_, a *checkpoint.File) { a.FixtureHash = "ffff" }, []checkpoint.Drift{
			{What: "fixture_hash", Golden: "1d429f54160e7ac8", Actual: "ffff"},
		}),
		Entry("seed_id", func(_, a *checkpoint.File) { a.SeedID = "other" }, []checkpoint.Drift{
			{What: "seed_id", Golden: "ladder-T0.1", Actual: "other"},
		}),
		Entry("all three, in that order", func(_, a *checkpoint.File) { a.SeedID, a.FixtureHash, a.DefinesHash = "s", "f", "d" }, []checkpoint.Drift{
			{What: "defines_hash", Golden: "d8e4f9b6e758845a", Actual: "d"},
			{What: "fixture_hash", Golden: "1d429f54160e7ac8", Actual: "f"},
			{What: "seed_id", Golden: "ladder-T0.1", Actual: "s"},
		}),
	)

	It("still compares values when the inputs drifted", func() {
		actual.DefinesHash = "0000000000000000"
		actual.Samples[1].Values["witness_confidence"] = ptr(0.5)
		rep := compare()
		Expect(rep.Warnings).To(HaveLen(1))
		Expect(rep.Failures).To(Equal([]string{`checkpoint "witness_confidence" at tick 6: golden 0.9, actual 0.5 (|Δ| 0.4 > 1e-05, regime 1)`}))
	})

	It("ignores rung and case, which name the golden rather than describe the run", func() {
		actual.Rung, actual.Case = "T9.9", "other"
		Expect(cmp.Diff(checkpoint.Report{}, compare(), ignoreDiffs)).To(BeEmpty())
	})

	DescribeTable("fails any outcome difference",
		func(mutate func(*checkpoint.Outcome), failure string) {
			mutate(&actual.Outcome)
			Expect(cmp.Diff(checkpoint.Report{Failures: []string{failure}}, compare(), ignoreDiffs)).To(BeEmpty())
		},
		Entry("ticks", func(o *checkpoint.Outcome) { o.Ticks = 25 }, "outcome.ticks: golden 24, actual 25"),
		Entry("events", func(o *checkpoint.Outcome) { o.Events = 0 }, "outcome.events: golden 1, actual 0"),
		Entry("claims", func(o *checkpoint.Outcome) { o.Claims = 2 }, "outcome.claims: golden 1, actual 2"),
		Entry("variants", func(o *checkpoint.Outcome) { o.Variants = 3 }, "outcome.variants: golden 1, actual 3"),
		Entry("beliefs", func(o *checkpoint.Outcome) { o.Beliefs = 4 }, "outcome.beliefs: golden 1, actual 4"),
		Entry("log_head", func(o *checkpoint.Outcome) { o.LogHead = "cd34" }, "outcome.log_head: golden ab12, actual cd34"),
	)

	It("lists several outcome differences in field order", func() {
		actual.Outcome.LogHead, actual.Outcome.Ticks = "x", 1
		Expect(compare().Failures).To(Equal([]string{"outcome.ticks: golden 24, actual 1", "outcome.log_head: golden ab12, actual x"}))
	})

	DescribeTable("fails a value that appeared, vanished, or was never sampled",
		func(mutate func(g, a map[string]*float64), failures []string) {
			mutate(golden.Samples[0].Values, actual.Samples[0].Values)
			Expect(cmp.Diff(checkpoint.Report{Failures: failures}, compare(), ignoreDiffs)).To(BeEmpty())
		},
		Entry("null in the golden, a value in the run", func(_, a map[string]*float64) { a["witness_confidence"] = ptr(0.9) },
			[]string{`checkpoint "witness_confidence" at tick 0: golden null, actual 0.9`}),
		Entry("a value in the golden, null in the run", func(_, a map[string]*float64) { a["believers"] = nil },
			[]string{`checkpoint "believers" at tick 0: golden 0.0, actual null`}),
		Entry("a name missing from the run", func(_, a map[string]*float64) { delete(a, "believers") },
			[]string{`checkpoint "believers" at tick 0: golden 0.0, not sampled by the run`}),
		Entry("a name missing from the golden", func(_, a map[string]*float64) { a["extra"] = ptr(0.25) },
			[]string{`checkpoint "extra" at tick 0: not in the golden, actual 0.25`}),
		Entry("a null name missing from the golden", func(_, a map[string]*float64) { a["extra"] = nil },
			[]string{`checkpoint "extra" at tick 0: not in the golden, actual null`}),
		Entry("a null name missing from the run", func(_, a map[string]*float64) { delete(a, "witness_confidence") },
			[]string{`checkpoint "witness_confidence" at tick 0: golden null, not sampled by the run`}),
		Entry("several, by name", func(g, a map[string]*float64) {
			delete(a, "witness_confidence")
			a["aaa"] = ptr(1)
			a["zzz"] = ptr(2)
		}, []string{
			`checkpoint "aaa" at tick 0: not in the golden, actual 1.0`,
			`checkpoint "witness_confidence" at tick 0: golden null, not sampled by the run`,
			`checkpoint "zzz" at tick 0: not in the golden, actual 2.0`,
		}),
	)

	It("passes null against null", func() {
		Expect(golden.Samples[0].Values["witness_confidence"]).To(BeNil())
		Expect(compare().Failures).To(BeEmpty())
	})

	It("fails ticks missing from the run and ticks missing from the golden", func() {
		actual.Samples = []checkpoint.Sample{actual.Samples[0], actual.Samples[2], {Tick: 12, Values: map[string]*float64{"believers": ptr(1)}}}
		Expect(cmp.Diff(checkpoint.Report{Failures: []string{
			"checkpoint tick 6: in the golden, not sampled by the run",
			"checkpoint tick 12: sampled by the run, not in the golden",
		}}, compare(), ignoreDiffs)).To(BeEmpty())
	})

	It("matches samples by tick, not by position", func() {
		s := actual.Samples
		actual.Samples = []checkpoint.Sample{s[2], s[0], s[1]}
		Expect(cmp.Diff(checkpoint.Report{}, compare(), ignoreDiffs)).To(BeEmpty())
	})
})
