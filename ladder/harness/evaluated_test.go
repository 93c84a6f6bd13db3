package harness_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/fixture"
)

// evaluatedWorld is a synthetic social rung in which one rule is seen at
// work once and the others of its layer never:
//
//	tick 1: the player robs hoarder, a guild member, before hoarder's own
//	        eyes — rule 11 evaluates it, below threshold (count 1)
//	tick 2: hoarder tells clerk of it through the console: one
//	        transmission, which no social rule decides
//	tick 3: the player robs drifter (no faction), seen by clerk alone —
//	        out of rule 11's scope: no evaluation
//
// The theft of a guild member puts the world in the social layer, so
// grudge-creation, tell-decision and reputation-evidence are enabled and
// their layer present — and none of them is ever asked anything. Nobody
// is anywhere, so nobody meets anybody.
const evaluatedWorld = `rung: T3.9
title: Unit — negatives about rules that were, or were never, evaluated
tier: 3
seed_id: unit-T3.9-evaluated
ticks: 6
defines: {witness_confidence: 0.9, retell_decay: 0.8, escalation_threshold: 3, escalation_rearm: 1}
rules: {disable: [trust-discounted-retelling]}
locations:
  market: {hold: whiterun}
cast:
  hoarder: {faction: guild}
  clerk: {}
  drifter: {}
events:
  - {tick: 1, kind: theft, actor: player, victim: hoarder, item: ring, at: market, witnesses: [hoarder]}
  - {tick: 2, kind: report, from: hoarder, to: clerk, claim: theft@1}
  - {tick: 3, kind: theft, actor: player, victim: drifter, item: ring, at: market, witnesses: [clerk]}
expect:
`

const evaluatedFile = "fixtures/T3.9-unit.yaml"

var evaluatedLine = strings.Count(evaluatedWorld, "\n") + 1

// evaluatedFailures runs evaluatedWorld with the expectations and returns
// its failures.
func evaluatedFailures(expectations ...string) []string {
	GinkgoHelper()
	src := evaluatedWorld
	for _, e := range expectations {
		src += "  - " + e + "\n"
	}
	fs, err := fixture.Parse(evaluatedFile, []byte(src))
	Expect(err).NotTo(HaveOccurred())
	res, err := run(fs[0])
	Expect(err).NotTo(HaveOccurred())
	return res.Failures
}

// evaluatedAt is the prefix of the first expectation's message placed at
// the field whose value starts with marker.
func evaluatedAt(expectation, marker string) string {
	GinkgoHelper()
	col := strings.Index(expectation, marker)
	Expect(col).To(BeNumerically(">=", 0), "marker %q not in %q", marker, expectation)
	return fmt.Sprintf("expect[0] (%s:%d:%d)", evaluatedFile, evaluatedLine, 5+col)
}

var _ = Describe("A negative about a rule", Label("unit"), func() {
	It("passes when the rule was evaluated in its range and nothing matched, whatever the record kind", func() {
		Expect(evaluatedFailures(
			// Evaluated once, below threshold: it never fired.
			"{trace: {match: {kind: rule, rule: accumulation-threshold, fired: true}, exists: false}}",
			"{to: 1, trace: {match: {kind: rule, rule: accumulation-threshold, reason: threshold reached}, count: 0}}",
			// An event record naming the rule, and one of the kind it derives.
			"{trace: {match: {kind: event, rule: accumulation-threshold}, exists: false}}",
			"{trace: {match: {kind: event, event: escalation}, exists: false}}",
			"{events: {kind: escalation, count: 0}}",
			// Counting and positive patterns are not negatives.
			"{trace: {match: {kind: rule, rule: accumulation-threshold, subject: hoarder/theft@1, reason: below threshold}, count: 1}}",
			"{trace: {match: {kind: rule, rule: witness-creates-belief}, count: 2}}",
		)).To(BeEmpty())
	})

	DescribeTable("fails as could not have matched when the rule was never evaluated in its range, at the field that makes it negative",
		func(expectation, marker, want, examined string) {
			Expect(evaluatedFailures(expectation)).To(Equal([]string{evaluatedAt(expectation, marker) + ": could not have matched: " + want +
				" — a negative must examine something that could have matched (examined " + examined + ")"}))
		},
		Entry("a rule of the world's layer that nothing asks (T3.1's grudge-creation)",
			"{trace: {match: {kind: rule, rule: grudge-creation}, exists: false}}", "false}",
			"rule grudge-creation was never evaluated in this run (examined 0 records of it)", "6 rule records in ticks [0, 5]"),
		Entry("reputation-evidence, the same",
			"{trace: {match: {kind: rule, rule: reputation-evidence}, count: 0}}", "0}",
			"rule reputation-evidence was never evaluated in this run (examined 0 records of it)", "6 rule records in ticks [0, 5]"),
		Entry("a transmission the rule would have decided",
			"{trace: {match: {kind: transmission, rule: tell-decision, fired: false}, exists: false}}", "false}}",
			"rule tell-decision was never evaluated in this run (examined 0 records of it)", "1 transmission records in ticks [0, 5]"),
		Entry("a rule evaluated, but not in the expectation's range",
			"{from: 2, trace: {match: {kind: rule, rule: accumulation-threshold, fired: true}, exists: false}}", "false}",
			"rule accumulation-threshold was never evaluated in ticks [2, 5] (examined 0 records of it)", "3 rule records in ticks [2, 5]"),
		Entry("an event of a kind a rule derives, that rule never evaluated in the range",
			"{from: 2, trace: {match: {kind: event, event: escalation}, exists: false}}", "false}",
			"rule accumulation-threshold was never evaluated in ticks [2, 5] (examined 0 records of it)", "1 event records in ticks [2, 5]"),
		Entry("a count of no events of a kind a rule derives, the same",
			"{from: 2, events: {kind: escalation, count: 0}}", "0}",
			"rule accumulation-threshold was never evaluated in ticks [2, 5] (examined 0 records of it)", "1 canonical events in ticks [2, 5]"),
	)
})
