package harness_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/detmath"
)

// socialWorld is a small synthetic social rung whose run is known tick by
// tick; every social define it reads is pinned:
//
//	tick 1: the player beats loser before o1 — loser's grudge against the
//	        player, emotional 0.5 + 0.05 × 1, evidentiary 0.9 × 0.5; ria
//	        does the player a favour (obligation:favour@1 issued)
//	tick 2: ria calls it in before jon and is refused: violated, ria's
//	        grudge (0.4, 0.45), jon's opinion of the player's reliability
//	        α 1, β 2
//	tick 3: o1 reports the brawl to jon through the console
//
// Nobody is anywhere, so nobody meets anybody.
const socialWorld = `rung: T3.9
title: Unit — social expectation messages
tier: 3
seed_id: unit-T3.9
ticks: 5
defines: {witness_confidence: 0.9, grudge_humiliation: 0.5, grudge_audience_weight: 0.05, grudge_refusal: 0.4, grudge_evidence_weight: 0.5,
          grudge_emotional_half_life_ticks: 2880, grudge_evidentiary_half_life_ticks: 1920, grudge_settled: 0.05,
          reputation_prior_alpha: 1, reputation_prior_beta: 1, reputation_weight: 1, retell_decay: 0.8}
rules: {disable: [trust-discounted-retelling]}
locations:
  market: {hold: whiterun}
  hall: {hold: whiterun}
cast:
  loser: {}
  o1: {}
  ria: {}
  jon: {}
events:
  - {tick: 1, kind: brawl, actor: player, victim: loser, at: market, witnesses: [o1]}
  - {tick: 1, kind: favour, actor: ria, recipient: player, at: hall}
  - {tick: 2, kind: invoke, actor: ria, recipient: player, favour: favour@1, outcome: refused, at: hall, witnesses: [jon]}
  - {tick: 3, kind: report, from: o1, to: jon, claim: brawl@1}
expect:
`

const socialFile = "fixtures/T3.9-unit.yaml"

var socialLine = strings.Count(socialWorld, "\n") + 1

func socialFailures(expectation string) []string {
	GinkgoHelper()
	fs, err := fixture.Parse(socialFile, []byte(socialWorld+"  - "+expectation+"\n"))
	Expect(err).NotTo(HaveOccurred())
	res, err := ladder.Run(fs[0], ladder.Options{Dir: GinkgoT().TempDir()})
	Expect(err).NotTo(HaveOccurred())
	return res.Failures
}

func socialAt(expectation, marker string) string {
	GinkgoHelper()
	col := strings.Index(expectation, marker)
	Expect(col).To(BeNumerically(">=", 0), "marker %q not in %q", marker, expectation)
	return fmt.Sprintf("expect[0] (%s:%d:%d)", socialFile, socialLine, 5+col)
}

var _ = Describe("Social expectation failure messages", Label("unit"), func() {
	loserE := canon.FormatFloat(0.5 + 0.05)

	It("passes on the world as it is, so each failure below is the field's alone", func() {
		for _, e := range []string{
			"{from: 1, grudge: {holder: loser, target: player, emotional_above_evidentiary: true, causes: [brawl@1], settled: false}}",
			"{at: 1, grudge: {holder: loser, target: player, emotional: 0.55, evidentiary: 0.45}}",
			"{from: 2, grudge: {count: 2}}",
			"{from: 2, reputation: {observer: jon, subject: player, dimension: reliability, alpha: 1, beta: 2, mean: 0.3333333333333333}}",
			"{at: 2, reputation: {subject: player, dimension: reliability, changed: [jon], observers: [jon]}}",
			"{from: 2, obligation: {favour: favour@1, state: violated, creditor: ria, debtor: player}}",
			"{from: 1, provenance: {claim: brawl@1, witnessed: [loser, o1]}}",
			"{logged_first: {claim: invoke@2}}",
		} {
			Expect(socialFailures(e)).To(BeEmpty(), e)
		}
	})

	DescribeTable("name the expectation, the position of the field that failed, the first failing tick, got and want",
		func(expectation, marker, want string) {
			Expect(socialFailures(expectation)).To(Equal([]string{socialAt(expectation, marker) + want}))
		},
		// grudge
		Entry("a grudge's emotional strength",
			"{at: 1, grudge: {holder: loser, target: player, emotional: 0.5}}", "0.5}",
			" at tick 1: grudge(loser, player).emotional = "+loserE+", want 0.5"),
		Entry("a grudge's evidentiary strength, as an expression",
			`{at: 3, grudge: {holder: loser, target: player, evidentiary: "0.45"}}`, `"0.45"`,
			" at tick 3: grudge(loser, player).evidentiary = "+canon.FormatFloat(float64(0.45*detmath.Exp2(-(2.0/1920))))+", want 0.45 (= 0.45)"),
		Entry("a grudge that does not exist yet",
			"{at: 0, grudge: {holder: loser, target: player, settled: false}}", "{holder",
			" at tick 0: grudge(loser, player) does not exist (grudges: [])"),
		Entry("a grudge that should be absent",
			"{at: 2, grudge: {holder: ria, target: player, absent: true}}", "true}",
			" at tick 2: grudge(ria, player) exists (emotional 0.4, evidentiary 0.45, causes [invoke@2]), want none"),
		Entry("a grudge proven more than felt",
			"{at: 2, grudge: {holder: ria, target: player, emotional_above_evidentiary: true}}", "true}",
			" at tick 2: grudge(ria, player).emotional = 0.4 is not above its evidentiary 0.45"),
		Entry("a grudge's causes, a sequence",
			"{at: 2, grudge: {holder: ria, target: player, causes: [favour@1]}}", "[favour@1]",
			" at tick 2: grudge(ria, player).causes = [invoke@2], want [favour@1]"),
		Entry("a grudge that is not settled",
			"{at: 2, grudge: {holder: ria, target: player, settled: true}}", "true}",
			" at tick 2: grudge(ria, player).settled = false (total 0.8500000000000001, settled below 0.05), want true"),
		Entry("a count of grudges",
			"{at: 2, grudge: {target: player, count: 1}}", "1}",
			" at tick 2: 2 grudges against player [loser->player, ria->player], want 1"),
		// reputation
		Entry("a reputation row's beta",
			"{at: 2, reputation: {observer: jon, subject: player, dimension: reliability, beta: 1}}", "1}",
			" at tick 2: reputation(jon, player, reliability).beta = 2.0, want 1.0"),
		Entry("a reputation row that does not exist",
			"{at: 2, reputation: {observer: o1, subject: player, dimension: reliability, alpha: 1}}", "{observer",
			" at tick 2: reputation(o1, player, reliability) does not exist (observers with a row: [jon])"),
		Entry("a reputation row that should be absent",
			"{at: 2, reputation: {observer: jon, subject: player, dimension: reliability, absent: true}}", "true}",
			" at tick 2: reputation(jon, player, reliability) exists (alpha 1.0, beta 2.0), want none"),
		Entry("whose rows there are",
			"{at: 2, reputation: {subject: player, dimension: reliability, observers: [o1]}}", "[o1]",
			" at tick 2: observers with a row for player's reliability = [jon], want exactly [o1] (missing [o1], unexpected [jon])"),
		Entry("whose rows changed at the tick",
			"{at: 3, reputation: {subject: player, dimension: reliability, changed: [jon]}}", "[jon]",
			" at tick 3: rows for player's reliability changed at tick 3 for [], want exactly [jon] (missing [jon], unexpected [])"),
		// obligation
		Entry("an obligation's state",
			"{at: 1, obligation: {favour: favour@1, state: violated}}", "violated}",
			" at tick 1: obligation:favour@1.state = issued (since tick 1, by favour@1), want violated"),
		Entry("an obligation's creditor",
			"{at: 1, obligation: {favour: favour@1, creditor: jon}}", "jon}",
			" at tick 1: obligation:favour@1.creditor = ria, want jon"),
		Entry("an obligation that does not exist yet",
			"{at: 0, obligation: {favour: favour@1, state: issued}}", "{favour",
			" at tick 0: obligation:favour@1 does not exist"),
		Entry("an obligation that should be absent",
			"{at: 1, obligation: {favour: favour@1, absent: true}}", "true}",
			" at tick 1: obligation:favour@1 exists (issued, owed by player to ria), want none"),
		// provenance
		Entry("news that came by the console, not an encounter",
			"{at: 3, provenance: {claim: brawl@1, by: encounter}}", "encounter}",
			" at tick 3: jon's evidence[0] for brawl@1 came via injected, not an encounter"),
		Entry("a chain through the NPC that must not be in one",
			"{at: 3, provenance: {claim: brawl@1, not_through: o1}}", "o1}",
			" at tick 3: jon's evidence[0] for brawl@1 came through o1 (chain [o1])"),
		Entry("the origins, a set",
			"{at: 1, provenance: {claim: brawl@1, witnessed: [loser]}}", "[loser]",
			" at tick 1: holders of brawl@1 with witnessed evidence = [loser, o1], want exactly [loser]"),
		// Each record is read once, yet a broken one fails every later tick
		// of the range, and one made before the range is read at its start.
		Entry("a chain through the NPC, failing at every later tick too",
			"{from: 3, provenance: {claim: brawl@1, not_through: o1}}", "o1}",
			" at tick 3: jon's evidence[0] for brawl@1 came through o1 (chain [o1]) (and 1 more ticks)"),
		Entry("a record made before the range, read at the range's first tick",
			"{from: 4, provenance: {claim: brawl@1, not_through: o1}}", "o1}",
			" at tick 4: jon's evidence[0] for brawl@1 came through o1 (chain [o1])"),
		Entry("the origins, at every tick of the range",
			"{from: 1, provenance: {claim: brawl@1, witnessed: [loser]}}", "[loser]",
			" at tick 1: holders of brawl@1 with witnessed evidence = [loser, o1], want exactly [loser] (and 3 more ticks)"),
	)

	It("counts what each social check examined, and fails one that examined nothing", func() {
		fs, err := fixture.Parse(socialFile, []byte(socialWorld+"  - {at: 0, provenance: {claim: invoke@2, by: encounter}}\n"))
		Expect(err).NotTo(HaveOccurred())
		res, err := ladder.Run(fs[0], ladder.Options{Dir: GinkgoT().TempDir()})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Failures).To(Equal([]string{fmt.Sprintf("expect[0] (%s:%d:5): checked nothing: examined 0 evidence records of holders in ticks [0, 0]", socialFile, socialLine)}))
		for _, c := range []struct {
			item     string
			examined int64
		}{
			{"{always: true, grudge: {count: 2}}", 5 * 4},
			{"{always: true, reputation: {subject: player, dimension: standing, observers: []}}", 5 * 4},
			{"{logged_first: {claim: brawl@1}}", 5}, // loser and o1 formed; at tick 3 the transmission, jon formed, o1 repeated
		} {
			fs, err := fixture.Parse(socialFile, []byte(socialWorld+"  - "+c.item+"\n"))
			Expect(err).NotTo(HaveOccurred())
			res, err := ladder.Run(fs[0], ladder.Options{Dir: GinkgoT().TempDir()})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Expectations[0].Examined).To(Equal(c.examined), c.item)
		}
	})
})
