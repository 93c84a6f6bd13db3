package harness_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/rerun"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/detmath"
)

// unitWorld is a small synthetic rung whose run is known tick by tick. Its
// defines are all pinned, so a change of an engine default moves rungs,
// not these specs:
//
//	tick 1: theft@1; witness sees it (v0), w2 remembers an apple (v1);
//	        witness tells neighbor in their encounter at the market
//	        (0.9 × 0.8 = 0.7200000000000001, trust discount off)
//	ticks 0–5: witness and neighbor meet every tick; merchant is alone at
//	        the farm; w2 and bystander are nowhere; nobody lives in
//	        falkreath (the ruin).
//
// Its expectations are appended after the last line, one per line, each a
// flow mapping at column 5.
const unitWorld = `rung: T1.9
title: Unit — expectation messages
tier: 1
seed_id: unit-T1.9
ticks: 6
defines: {ticks_per_day: 24, witness_confidence: 0.9, verbatim_half_life_ticks: 72, gist_half_life_ticks: 960, dormant_gist: 0.5, forgotten_gist: 0.125, corroboration_window_ticks: 720, encounter_probability: 1.0, retell_decay: 0.8, trust_floor: 0.5, default_trust: 0.5, mutation_max: 0.0, contested_dent: 0.1}
rules: {disable: [trust-discounted-retelling]}
items: [pear]
locations:
  market: {hold: whiterun}
  farm: {hold: riverwood}
  ruin: {hold: falkreath}
cast:
  merchant: {home: farm}
  witness: {home: market}
  neighbor: {home: market}
  w2: {}
  bystander: {}
events:
  - {tick: 1, kind: theft, actor: player, victim: merchant, item: sweetroll, at: market, witnesses: [witness, {npc: w2, says: {item: apple}}]}
expect:
`

const unitFile = "fixtures/T1.9-unit.yaml"

// expectLine is the line of the first expectation.
var expectLine = strings.Count(unitWorld, "\n") + 1

func unitFixture(expectations ...string) *fixture.Fixture {
	GinkgoHelper()
	src := unitWorld
	for _, e := range expectations {
		src += "  - " + e + "\n"
	}
	fs, err := fixture.Parse(unitFile, []byte(src))
	Expect(err).NotTo(HaveOccurred())
	Expect(fs).To(HaveLen(1))
	return fs[0]
}

func failures(expectations ...string) []string {
	GinkgoHelper()
	res, err := run(unitFixture(expectations...))
	Expect(err).NotTo(HaveOccurred())
	return res.Failures
}

// where is the prefix of expectation i's message when the failure is
// placed at the whole item (column 5).
func where(i int) string {
	return fmt.Sprintf("expect[%d] (%s:%d:5)", i, unitFile, expectLine+i)
}

// whereAt is the prefix of expectation i's message when the failure is
// placed at the field whose value starts with marker (its first
// occurrence in the item's text, which sits at column 5).
func whereAt(i int, expectation, marker string) string {
	GinkgoHelper()
	col := strings.Index(expectation, marker)
	Expect(col).To(BeNumerically(">=", 0), "marker %q not in %q", marker, expectation)
	return fmt.Sprintf("expect[%d] (%s:%d:%d)", i, unitFile, expectLine+i, 5+col)
}

var _ = Describe("Expectation failure messages", Label("unit"), func() {
	It("places the first expectation where the fixture text puts it", func() {
		Expect(expectLine).To(Equal(22))
		Expect(where(0)).To(Equal("expect[0] (fixtures/T1.9-unit.yaml:22:5)"))
	})

	DescribeTable("name the expectation, the position of the field that failed, the first failing tick, got and want",
		func(expectation, marker, want string) {
			Expect(failures(expectation)).To(Equal([]string{whereAt(0, expectation, marker) + want}))
		},
		// belief
		Entry("belief that should be absent",
			"{at: 2, belief: {holder: neighbor, claim: theft@1, absent: true}}",
			"true}}",
			" at tick 2: belief(neighbor, theft@1) exists (variant theft@1#v0, confidence 0.7200000000000001), want none"),
		Entry("belief that does not exist",
			"{at: 0, belief: {holder: witness, claim: theft@1, confidence: 0.9}}",
			"{holder",
			" at tick 0: belief(witness, theft@1) does not exist"),
		Entry("confidence against a literal, bit for bit",
			"{at: 1, belief: {holder: neighbor, claim: theft@1, confidence: 0.72}}",
			"0.72}",
			" at tick 1: belief(neighbor, theft@1).confidence = 0.7200000000000001, want 0.72"),
		Entry("confidence against an expression, shown with its value",
			`{at: 1, belief: {holder: neighbor, claim: theft@1, confidence: "belief(witness, theft@1).confidence * 0.8 * 0.75"}}`,
			"\"belief(witness",
			" at tick 1: belief(neighbor, theft@1).confidence = 0.7200000000000001, want 0.54 (= belief(witness, theft@1).confidence * 0.8 * 0.75)"),
		Entry("an expected value that cannot be evaluated",
			`{at: 1, belief: {holder: neighbor, claim: theft@1, confidence: "belief(bystander, theft@1).confidence"}}`,
			"\"belief(bystander",
			" at tick 1: belief(neighbor, theft@1).confidence: cannot evaluate the expected value belief(bystander, theft@1).confidence: bystander holds no belief in theft@1 at tick 1"),
		Entry("verbatim",
			"{at: 3, belief: {holder: neighbor, claim: theft@1, verbatim: 1.0}}",
			"1.0}",
			" at tick 3: belief(neighbor, theft@1).verbatim = "+canon.FormatFloat(detmath.Exp2(-2.0/72))+", want 1.0"),
		Entry("gist",
			"{at: 3, belief: {holder: neighbor, claim: theft@1, gist: 1.0}}",
			"1.0}",
			" at tick 3: belief(neighbor, theft@1).gist = "+canon.FormatFloat(detmath.Exp2(-2.0/960))+", want 1.0"),
		Entry("stage",
			"{at: 1, belief: {holder: witness, claim: theft@1, stage: heard}}",
			"heard}",
			" at tick 1: belief(witness, theft@1).stage = repeated, want heard"),
		Entry("variant",
			"{at: 1, belief: {holder: w2, claim: theft@1, variant: theft@1#v0}}",
			"theft@1#v0}",
			" at tick 1: belief(w2, theft@1).variant = theft@1#v1, want theft@1#v0"),
		Entry("sources",
			"{at: 1, belief: {holder: neighbor, claim: theft@1, sources: 2}}",
			"2}",
			" at tick 1: belief(neighbor, theft@1).sources = 1 [witness], want 2"),
		Entry("source_chain",
			"{at: 1, belief: {holder: neighbor, claim: theft@1, source_chain: [bystander]}}",
			"[bystander]",
			" at tick 1: belief(neighbor, theft@1).source_chain = [witness], want [bystander]"),
		Entry("source_chain of a witness",
			"{at: 1, belief: {holder: witness, claim: theft@1, source_chain: [w2]}}",
			"[w2]",
			" at tick 1: belief(witness, theft@1).source_chain = [], want [w2]"),
		Entry("evidence count",
			"{at: 1, belief: {holder: neighbor, claim: theft@1, evidence: [{type: reported}, {type: reported}]}}",
			"[{type: reported}, {type",
			" at tick 1: belief(neighbor, theft@1) has 1 evidence records [reported@1 from witness], want 2"),
		Entry("evidence type",
			"{at: 1, belief: {holder: neighbor, claim: theft@1, evidence: [{type: witnessed}]}}",
			"witnessed}",
			" at tick 1: belief(neighbor, theft@1).evidence[0].type = reported, want witnessed"),
		Entry("evidence source",
			"{at: 1, belief: {holder: neighbor, claim: theft@1, evidence: [{type: reported, source: bystander}]}}",
			"bystander}",
			" at tick 1: belief(neighbor, theft@1).evidence[0].source = witness, want bystander"),
		Entry("evidence via",
			"{at: 1, belief: {holder: neighbor, claim: theft@1, evidence: [{via: injected}]}}",
			"injected}",
			" at tick 1: belief(neighbor, theft@1).evidence[0].via = encounter@1/market/[neighbor,witness], want injected"),
		Entry("evidence tick",
			"{at: 1, belief: {holder: neighbor, claim: theft@1, evidence: [{tick: 2}]}}",
			"2}]",
			" at tick 1: belief(neighbor, theft@1).evidence[0].tick = 1, want 2"),
		Entry("evidence counted",
			"{at: 1, belief: {holder: neighbor, claim: theft@1, evidence: [{counted: false}]}}",
			"false}",
			" at tick 1: belief(neighbor, theft@1).evidence[0].counted = true, want false"),
		Entry("slots",
			"{at: 1, belief: {holder: w2, claim: theft@1, slots: {item: sweetroll}}}",
			"sweetroll}",
			" at tick 1: belief(w2, theft@1) slots: item = apple, want sweetroll"),

		// holders
		Entry("holders exactly",
			"{at: 1, holders: {claim: theft@1, exactly: [witness, bystander]}}",
			"[witness, bystander]",
			" at tick 1: holders of theft@1 = [neighbor, w2, witness], want exactly [bystander, witness] (missing [bystander], unexpected [neighbor, w2])"),
		Entry("holders only",
			"{at: 1, holders: {claim: theft@1, only: [witness, w2]}}",
			"[witness, w2]",
			" at tick 1: holders of theft@1 include [neighbor], outside the allowed [witness, w2]"),
		Entry("holders count, resident",
			"{at: 1, holders: {claim: theft@1, resident: whiterun, count: 3}}",
			"3}",
			" at tick 1: 2 holders of theft@1 resident in whiterun [neighbor, witness], want 3"),
		Entry("holders count, not resident",
			"{at: 1, holders: {claim: theft@1, not_resident: whiterun, count: 0}}",
			"0}",
			" at tick 1: 1 holders of theft@1 not resident in whiterun [w2], want 0"),
		Entry("holders through",
			"{at: 1, holders: {claim: theft@1, through: witness}}",
			"witness}",
			" at tick 1: w2's evidence[0] for theft@1 was witnessed, not through witness"),

		// curve, claims, variant
		Entry("curve, with the later failing ticks counted",
			"{curve: {claim: theft@1, believers: {0: 0, 1: 2}}}",
			"1: 2}",
			" at tick 1: believers(theft@1) = 3, want 2 on the curve (and 4 more ticks)"),
		Entry("claims count",
			"{at: 0, claims: {count: 1}}",
			"1}",
			" at tick 0: 0 claims [], want 1"),
		Entry("claims variants",
			"{at: 1, claims: {id: theft@1, variants: 1}}",
			"1}",
			" at tick 1: claim theft@1 has 2 variants [theft@1#v0, theft@1#v1], want 1"),
		Entry("claims id before the claim exists",
			"{at: 0, claims: {id: theft@1, lineage: intact}}",
			"theft@1,",
			" at tick 0: claim theft@1 does not exist"),
		Entry("variant diff",
			"{variant: {id: theft@1#v1, diff: {item: [sweetroll, pear]}}}",
			"{item: [sweetroll, pear]}",
			" at tick 5: variant theft@1#v1 diff = [{item sweetroll apple}], want [{item sweetroll pear}]"),
		Entry("variant predecessor",
			"{variant: {id: theft@1#v1, predecessor: null}}",
			"null}",
			` at tick 5: variant theft@1#v1 predecessor = "theft@1#v0", want ""`),
		Entry("variant that does not exist yet",
			"{at: 0, variant: {id: theft@1#v1, predecessor: theft@1#v0}}",
			"theft@1#v1,",
			" at tick 0: variant theft@1#v1 does not exist"),
		Entry("variant slots",
			"{variant: {id: theft@1#v1, slots: {item: pear}}}",
			"pear}",
			" at tick 5: variant theft@1#v1: item = apple, want pear"),

		// value, npc
		Entry("value against a literal",
			`{value: {expr: "believers(theft@1)", equals: 2}}`,
			"2}",
			" at tick 5: believers(theft@1) = 3.0, want 2.0"),
		Entry("value against an expression",
			`{value: {expr: "believers(theft@1)", equals: "holders(theft@1) - 1"}}`,
			"\"holders(",
			" at tick 5: believers(theft@1) = 3.0, want 2.0 (= holders(theft@1) - 1)"),
		Entry("value that cannot be evaluated",
			`{at: 0, value: {expr: "belief(neighbor, theft@1).confidence", equals: 0}}`,
			"\"belief(neighbor",
			" at tick 0: belief(neighbor, theft@1).confidence: neighbor holds no belief in theft@1 at tick 0"),
		Entry("npc alive",
			"{npc: {id: merchant, alive: false}}",
			"false}",
			" at tick 5: merchant alive = true, want false"),
		Entry("npc at",
			"{at: 1, npc: {id: witness, at: farm}}",
			"farm}",
			` at tick 1: witness is at "market", want "farm"`),
		Entry("npc nowhere",
			"{at: 1, npc: {id: witness, at: null}}",
			"null}",
			` at tick 1: witness is at "market", want ""`),

		// whole-run subjects: no tick in the message; a timed trace count is
		// placed at its range's first tick
		Entry("trace count",
			"{trace: {match: {kind: encounter, fired: true}, count: 99}}",
			"99}",
			`: 6 trace records match {"fired":true,"kind":"encounter"} in ticks [0, 5], want 99`),
		Entry("trace count within a range",
			"{from: 2, to: 3, trace: {match: {kind: encounter}, count: 1}}",
			"1}}",
			` at tick 2: 2 trace records match {"kind":"encounter"} in ticks [2, 3], want 1`),
		Entry("trace exists: false",
			"{trace: {match: {kind: event, event: theft}, exists: false}}",
			"false}",
			` at tick 1: 1 trace records match {"event":"theft","kind":"event"} in ticks [0, 5], want none`),
		Entry("trace exists",
			"{trace: {match: {kind: supersession}}}",
			"{kind: supersession}",
			`: no trace record matches {"kind":"supersession"} in ticks [0, 5] (of 0 supersession records examined)`),
		Entry("trace match on a nested roll",
			"{trace: {match: {kind: encounter, roll: {pinned: true}}}}",
			"{kind: encounter, roll",
			`: no trace record matches {"kind":"encounter","roll":{"pinned":true}} in ticks [0, 5] (of 6 encounter records examined)`),
		Entry("events",
			"{events: {kind: killing, count: 1}}",
			"1}",
			": 0 killing events in ticks [0, 5], want 1"),
		Entry("events within a range",
			"{from: 2, events: {kind: theft, count: 1}}",
			"1}",
			": 0 theft events in ticks [2, 5], want 1"),

		// duplicate_rejected
		Entry("duplicate_rejected without a belief",
			"{duplicate_rejected: {holder: bystander, claim: theft@1}}",
			"{holder",
			" at tick 5: bystander holds no belief in theft@1, so there is nothing to duplicate"),
	)

	DescribeTable("say nothing when the expectation holds",
		func(expectation string) {
			Expect(failures(expectation)).To(BeEmpty())
		},
		Entry("belief fields", `{at: 1, belief: {holder: neighbor, claim: theft@1, confidence: "belief(witness, theft@1).confidence * defines.retell_decay", verbatim: 1.0, gist: 1.0, stage: heard, variant: theft@1#v0, sources: 1, source_chain: [witness]}}`),
		Entry("evidence, unset keys matching anything", "{at: 1, belief: {holder: neighbor, claim: theft@1, evidence: [{type: reported, source: witness, via: \"encounter@1/market/[neighbor,witness]\", tick: 1, counted: true}]}}"),
		Entry("absent after the event", "{from: 1, belief: {holder: bystander, claim: theft@1, absent: true}}"),
		Entry("holders", "{from: 1, holders: {claim: theft@1, exactly: [witness, neighbor, w2], only: [w2, neighbor, witness], count: 3}}"),
		Entry("holders through, the NPC itself included", "{from: 1, holders: {claim: theft@1, resident: whiterun, through: witness}}"),
		Entry("curve", "{curve: {claim: theft@1, believers: {0: 0, 1: 3}}}"),
		Entry("claims and lineage", "{from: 1, claims: {count: 1, id: theft@1, variants: 2, lineage: intact}}"),
		Entry("variant", "{variant: {id: theft@1#v1, predecessor: theft@1#v0, diff: {item: [sweetroll, apple]}, slots: {item: apple, actor: player}}}"),
		Entry("value", `{always: true, value: {expr: "holders(theft@1)", equals: "believers(theft@1)"}}`),
		Entry("npc", "{always: true, npc: {id: merchant, alive: true, at: farm}}"),
		Entry("trace", "{trace: {match: {kind: encounter, fired: true}, count: 6}}"),
		Entry("events", "{events: {kind: theft, count: 1}}"),
		Entry("duplicate_rejected", "{from: 1, duplicate_rejected: {holder: witness, claim: theft@1}}"),
	)

	It("lists one line per failed expectation, in fixture order, each at its own position", func() {
		items := []string{
			"{at: 0, claims: {count: 1}}",
			"{claims: {count: 1}}",
			"{always: true, belief: {holder: neighbor, claim: theft@1, confidence: 0.72}}",
			"{events: {kind: killing, count: 1}}",
		}
		Expect(failures(items...)).To(Equal([]string{
			whereAt(0, items[0], "1}") + " at tick 0: 0 claims [], want 1",
			whereAt(2, items[2], "{holder") + " at tick 0: belief(neighbor, theft@1) does not exist (and 5 more ticks)",
			whereAt(3, items[3], "1}") + ": 0 killing events in ticks [0, 5], want 1",
		}))
	})

	// A known bug is pinned elsewhere: checker.fail counts failing checks,
	// not failing ticks, so two wrong fields of one belief at its only
	// checked tick read "(and 1 more ticks)". Its Pending spec is in
	// tools/ladder (render's failures.txt), because a Pending spec in this
	// suite fails `make ladder`, which runs with --fail-on-pending whatever
	// the label filter.
})

var _ = Describe("Explain", Label("unit"), func() {
	explain := func(tick int64, holder, claim string) (string, error) {
		GinkgoHelper()
		w, err := ladder.Build(unitFixture("{events: {kind: theft, count: 1}}"), nil)
		Expect(err).NotTo(HaveOccurred())
		for w.Now() < tick {
			Expect(w.Step()).To(Succeed())
		}
		var out strings.Builder
		err = rerun.Explain(&out, w, holder, claim)
		return out.String(), err
	}

	It("writes a hearsay belief's provenance and its variant's lineage", func() {
		out, err := explain(3, "neighbor", "theft@1")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(`belief(neighbor, theft@1) as of tick 3
  variant     theft@1#v0
  confidence  0.7200000000000001
  verbatim    ` + canon.FormatFloat(detmath.Exp2(-2.0/72)) + `   gist ` + canon.FormatFloat(detmath.Exp2(-2.0/960)) + `   stage heard
  formed at   tick 1; last reinforced at tick 1
  origins     [witness] (distinct eyewitnesses counted towards confidence)
  evidence
    1. tick 1, reported: heard from witness, chain witness, via encounter@1/market/[neighbor,witness], confidence 0.7200000000000001, counted
  variant lineage
    theft@1#v0 (what happened)
`))
	})

	It("writes a witness's belief in a variant of its own, with the lineage back to what happened", func() {
		out, err := explain(1, "w2", "theft@1")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(`belief(w2, theft@1) as of tick 1
  variant     theft@1#v1
  confidence  0.9
  verbatim    1.0   gist 1.0   stage heard
  formed at   tick 1; last reinforced at tick 1
  origins     [w2] (distinct eyewitnesses counted towards confidence)
  evidence
    1. tick 1, witnessed: saw it, via theft@1, confidence 0.9, counted
  variant lineage
    theft@1#v1 from theft@1#v0 by item: sweetroll → apple (witness-disagrees, by w2 at tick 1)
    theft@1#v0 (what happened)
`))
	})

	It("refuses a holder without the belief, naming the tick", func() {
		out, err := explain(4, "bystander", "theft@1")
		Expect(err).To(MatchError("bystander holds no belief in theft@1 at tick 4"))
		Expect(out).To(BeEmpty())
	})
})
