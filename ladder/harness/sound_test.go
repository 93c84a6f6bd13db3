package harness_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/artifact"
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
			"{trace: {match: {kind: rule, rule: mutation-policy, fired: true}, exists: false}}", // evaluated at the telling, never mutating (mutation_max 0)
			"{holders: {claim: theft@1, only: [neighbor, w2, witness]}}",
			"{curve: {claim: theft@1, believers: {0: 0, 1: 3}}}", // neighbor is told at tick 1
			"{provenance: {claim: theft@1, by: encounter}}",
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
			{true, 1, "evidence records of holders in scope"}, // neighbor's one record, read once (evidence only accumulates)
			{true, 6, "ticks"},
			{true, 5, "rule records"}, // the minting, the two witnesses, the telling's disabled trust discount, its mutation
			{true, 5, "NPCs in scope"},
			{true, 6, "ticks"},
			{true, 3, "evidence records of holders"}, // one told at tick 2: the report "by encounter" examines
		}))
	})

	// A negative passes only if it examined something that could have
	// matched it: each of these passed before, having looked at records or
	// ticks that could never have held what it denies.
	DescribeTable("a negative that could not have matched fails, saying why",
		func(expectation, marker, want string) {
			Expect(failures(expectation)).To(Equal([]string{whereAt(0, expectation, marker) + ": could not have matched: " + want}))
		},
		Entry("a subject no record has",
			`{trace: {match: {kind: rule, rule: witness-creates-belief, subject: bystander/theft@1}, exists: false}}`, "false}",
			`no rule record in the range has subject "bystander/theft@1", so the pattern names nothing the run wrote — `+
				"a negative must examine something that could have matched (examined 5 rule records in ticks [0, 5])"),
		Entry("a rule the fixture disables",
			`{trace: {match: {kind: rule, rule: trust-discounted-retelling, fired: true}, count: 0}}`, "0}",
			"rule trust-discounted-retelling is disabled in this fixture (rules.disable): it writes only its disabled records; assert those instead — "+
				"a negative must examine something that could have matched (examined 5 rule records in ticks [0, 5])"),
		Entry("a rule of a layer the world does not use",
			`{trace: {match: {kind: rule, rule: accumulation-threshold}, exists: false}}`, "false}",
			"rule accumulation-threshold belongs to the social layer, which this world does not use (it injects no brawl, favour, invocation, title or secret, declares no household, and robs nobody with a faction) — "+
				"a negative must examine something that could have matched (examined 5 rule records in ticks [0, 5])"),
		Entry("a grudge in a world with no grudge source",
			`{grudge: {holder: witness, target: player, absent: true}}`, "true}",
			"this world has no grudges: rule grudge-creation belongs to the social layer, which this world does not use (it injects no brawl, favour, invocation, title or secret, declares no household, and robs nobody with a faction) — "+
				"a negative must examine something that could have matched (examined 1 ticks in ticks [5, 5])"),
		Entry("no grudge at all, in that world",
			`{grudge: {count: 0}}`, "0}",
			"this world has no grudges: rule grudge-creation belongs to the social layer, which this world does not use (it injects no brawl, favour, invocation, title or secret, declares no household, and robs nobody with a faction) — "+
				"a negative must examine something that could have matched (examined 5 NPCs (as holders) in ticks [5, 5])"),
		Entry("a reputation row in a world with no evidence",
			`{reputation: {observer: witness, subject: player, dimension: standing, absent: true}}`, "true}",
			"this world has no reputation: rule reputation-evidence belongs to the social layer, which this world does not use (it injects no brawl, favour, invocation, title or secret, declares no household, and robs nobody with a faction) — "+
				"a negative must examine something that could have matched (examined 1 ticks in ticks [5, 5])"),
		Entry("no override in a world that lays none",
			`{schedule: {npc: witness, override: none}}`, "none}",
			"this world has no schedules: no mourning can be laid (rule schedule-write-back belongs to the schedule layer, which this world does not use (it needs the social layer and a location tagged temple)) "+
				"and no duty can move (rule role-succession belongs to the roles layer, which this world does not use (it declares no role)) — "+
				"a negative must examine something that could have matched (examined 1 ticks in ticks [5, 5])"),
		Entry("an event kind the world cannot append",
			`{events: {kind: killing, count: 0}}`, "0}",
			"no killing event can happen in this world: the fixture injects none — "+
				"a negative must examine something that could have matched (examined 1 canonical events in ticks [0, 5])"),
		Entry("a belief in a claim not yet in the world",
			`{at: 0, belief: {holder: neighbor, claim: theft@1, absent: true}}`, "true}",
			"claim theft@1 was not in the world at any checked tick, so nobody could have held it — "+
				"a negative must examine something that could have matched (examined 1 ticks in ticks [0, 0])"),
		Entry("a chain that must not hold an NPC who never held the claim",
			`{from: 1, provenance: {claim: theft@1, not_through: bystander}}`, "bystander}",
			"bystander held no belief in theft@1 at any checked tick, so no evidence chain could have held them — "+
				"a negative must examine something that could have matched (examined 3 evidence records of holders in ticks [1, 5])"), // each record read once
		Entry("holders of a claim not yet in the world",
			`{at: 0, holders: {claim: theft@1, count: 0}}`, "0}",
			"claim theft@1 was not in the world at any checked tick, so nobody could have held it — "+
				"a negative must examine something that could have matched (examined 5 NPCs in scope in ticks [0, 0])"),
		Entry("nobody outside a set holding a claim not yet in the world",
			`{at: 0, holders: {claim: theft@1, only: [witness]}}`, "[witness]",
			"claim theft@1 was not in the world at any checked tick, so nobody could have held it — "+
				"a negative must examine something that could have matched (examined 5 NPCs in scope in ticks [0, 0])"),
		Entry("a curve of nobody, of a claim never in the world",
			`{curve: {claim: "escalation@3:merchant:player", believers: {0: 0}}}`, "{0: 0}",
			"claim escalation@3:merchant:player was not in the world at any tick, so nobody could have believed it — "+
				"a negative must examine something that could have matched (examined 6 ticks in ticks [0, 5])"),
	)

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
		Expect(artifacts(res)[artifact.CheckpointsFile]).To(ContainSubstring(`"ratio": null`), "the artifacts are written, the NaN as null")
	})
})
