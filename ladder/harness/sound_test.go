package harness_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/fixture"
)

// Sound assertions at run time: each reproduction of a check that used to
// pass without looking, now failing, and the counts every check reports.
var _ = Describe("Sound assertions", Label("unit"), func() {
	results := func(expectations ...string) []expect.Result {
		GinkgoHelper()
		res, err := run(unitFixture(expectations...))
		Expect(err).NotTo(HaveOccurred())
		return res.Expectations
	}

	DescribeTable("a negative or counting assertion that examined nothing fails as checked nothing",
		func(expectation, want string) {
			Expect(failures(expectation)).To(Equal([]string{where(0) + want}))
		},
		Entry("a trace match over a range with no record of its kind",
			"{trace: {match: {kind: supersession, holder: witness}, exists: false}}",
			": checked nothing: examined 0 supersession records in ticks [0, 5]"),
		Entry("a trace count of 0 over a range with no record of its kind",
			"{from: 2, trace: {match: {kind: event, event: killing}, count: 0}}",
			": checked nothing: examined 0 event records in ticks [2, 5]"),
		Entry("holders scoped to a hold nobody lives in",
			"{always: true, holders: {claim: theft@1, resident: falkreath, count: 0}}",
			": checked nothing: examined 0 NPCs in scope in ticks [0, 5]"),
		Entry("holders through, where no holder in scope has evidence to trace",
			"{at: 0, holders: {claim: theft@1, through: witness}}",
			": checked nothing: examined 0 evidence records of holders in scope in ticks [0, 0]"),
		Entry("an events count over a range with no canonical event",
			"{from: 2, events: {kind: killing, count: 0}}",
			": checked nothing: examined 0 canonical events in ticks [2, 5]"),
	)

	It("counts what each check examined, and passes negatives that looked", func() {
		rs := results(
			"{trace: {match: {kind: encounter, pair: {includes: [merchant]}}, exists: false}}",
			"{always: true, holders: {claim: theft@1, resident: riverwood, count: 0}}",
			"{from: 1, holders: {claim: theft@1, resident: whiterun, through: witness}}",
			"{always: true, belief: {holder: bystander, claim: theft@1, absent: true}}",
			"{events: {kind: killing, count: 0}}",
		)
		type seen struct {
			Passed   bool
			Examined int64
			Unit     string
		}
		var got []seen
		for _, r := range rs {
			got = append(got, seen{r.Passed, r.Examined, r.Unit})
		}
		Expect(got).To(Equal([]seen{
			{true, 6, "encounter records"},
			{true, 6, "NPCs in scope"},                        // the merchant, at six ticks
			{true, 5, "evidence records of holders in scope"}, // neighbor's one record, ticks 1-5
			{true, 6, "ticks"},
			{true, 1, "canonical events"},
		}))
	})

	// A list was compared element by element, in order: "pair: [witness,
	// neighbor]" never matched the record's sorted ["neighbor","witness"],
	// and a one-member list matched nothing at all.
	DescribeTable("a pair matches as a set, a subset only when spelt includes",
		func(match string, want int64) {
			rs := results("{trace: {match: " + match + ", count: 99}}")
			Expect(rs[0].Message).To(HavePrefix("%d trace records match", want))
		},
		Entry("in the record's order", "{kind: encounter, pair: [neighbor, witness]}", int64(6)),
		Entry("in the other order", "{kind: encounter, pair: [witness, neighbor]}", int64(6)),
		Entry("includes one member", "{kind: encounter, pair: {includes: [witness]}}", int64(6)),
		Entry("includes both", "{kind: encounter, pair: {includes: [witness, neighbor]}}", int64(6)),
		Entry("includes someone who never meets", "{kind: encounter, pair: {includes: [merchant]}}", int64(0)),
	)

	It("fails a NaN from an expression at run time at its line, never as a struct dump", func() {
		item := `{at: 0, value: {expr: "tick / tick", equals: 1}}`
		Expect(failures(item)).To(Equal([]string{
			whereAt(0, item, `"tick / tick"`) + " at tick 0: tick / tick = nan: an assertion cannot compare it",
		}))
	})

	It("fails an expected value that is infinite at run time at its line", func() {
		item := `{at: 0, value: {expr: "tick", equals: "1 / tick"}}`
		Expect(failures(item)).To(Equal([]string{
			whereAt(0, item, `"1 / tick"`) + " at tick 0: tick: the expected value 1 / tick is inf: an assertion cannot compare with it",
		}))
	})

	It("fails a checkpoint that is NaN at run time at its line, recording null", func() {
		src := unitWorld + "  - {events: {kind: theft, count: 1}}\ncheckpoints: {every: 3, values: {ratio: \"holders(theft@1) / tick\"}}\n"
		fs, err := fixture.Parse(unitFile, []byte(src))
		Expect(err).NotTo(HaveOccurred())
		res, err := run(fs[0])
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Failures).To(Equal([]string{
			"checkpoints.values.ratio (fixtures/T1.9-unit.yaml:23:41) at tick 0: holders(theft@1) / tick = nan: a checkpoint must be finite",
		}))
		Expect(res.Checkpoints.Samples[0].Values["ratio"]).To(BeNil())
		Expect(*res.Checkpoints.Samples[1].Values["ratio"]).To(Equal(1.0)) // 3 holders at tick 3
		Expect(artifacts(res)[ladder.CheckpointsFile]).To(ContainSubstring(`"ratio": null`), "the artifacts are written, the NaN as null")
	})
})
