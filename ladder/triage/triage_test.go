package triage_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/triage"
)

// A synthetic world's trace, written as the engine writes one: a header,
// then records with seq and tick. Each spec copies it and plants one kind
// of drift, so nothing here pins a rung's output.
const header = `{"branch":{"generation":0,"save_uuid":"u"},"keyframe_every":24,"kind":"header","schema":"chronicle.trace","seed_id":"s","version":2}`

var base = []string{
	`{"id":"theft@2","kind":"event","event":"theft","hash":"aa11","tick":2}`,
	`{"fired":true,"kind":"rule","reason":"saw it","rule":"witness-creates-belief","subject":"witness/theft@2","tick":2,"values":{"confidence":0.9}}`,
	`{"change":"formed","claim":"theft@2","confidence":0.9,"holder":"witness","kind":"belief","tick":2,"variant":"theft@2#v0"}`,
	`{"fired":true,"id":"encounter@12/market/[neighbor,witness]","kind":"encounter","pair":["neighbor","witness"],"roll":{"threshold":0.5,"value":0.2},"tick":12}`,
	`{"claim":"theft@2","confidence":0.72,"fired":true,"kind":"transmission","listener":"neighbor","rule":"testimony-transfer","teller":"witness","tick":12,"via":"encounter@12/market/[neighbor,witness]"}`,
	`{"beliefs":[{"claim":"theft@2","confidence":0.9,"holder":"witness"}],"grudges":[],"kind":"keyframe","tick":24}`,
}

// file numbers the records' seq as the engine does and joins the lines.
func file(recs []string) string {
	var b strings.Builder
	b.WriteString(header + "\n")
	for i, r := range recs {
		b.WriteString(strings.Replace(r, "{", fmt.Sprintf(`{"seq":%d,`, i), 1) + "\n")
	}
	return b.String()
}

// planted returns base with line i (0-based, after the header) replaced;
// "" removes it.
func planted(i int, line string) []string {
	out := append([]string(nil), base...)
	if line == "" {
		return append(out[:i], out[i+1:]...)
	}
	out[i] = line
	return out
}

func align(golden, actual []string) *triage.Report {
	GinkgoHelper()
	rep, err := triage.Align(strings.NewReader(file(golden)), strings.NewReader(file(actual)))
	Expect(err).NotTo(HaveOccurred())
	return rep
}

var _ = Describe("Align", func() {
	It("finds nothing when the traces are the same", func() {
		rep := align(base, base)
		Expect(rep.Earliest).To(BeNil())
		Expect(rep.Class()).To(Equal(triage.NoDrift))
	})

	It("calls a number that moved in the same records value drift, rooted at the first record that moved", func() {
		rep := align(base, planted(4, strings.Replace(base[4], "0.72", "0.75", 1)))
		Expect(rep.Class()).To(Equal(triage.ValueDrift))
		Expect(rep.Count[triage.Moved]).To(Equal(1))
		e := rep.Earliest
		Expect(e.Tick).To(BeEquivalentTo(12))
		Expect(e.Line).To(Equal(6)) // the header is line 1
		Expect(e.Seq).To(BeEquivalentTo(4))
		Expect(e.Field).To(Equal("confidence"))
		Expect(e.String()).To(Equal(`tick 12, trace line 6: transmission "witness->neighbor theft@2 via encounter@12/market/[neighbor,witness]" (rule testimony-transfer): confidence golden 0.72, actual 0.75`))
		Expect(e.Decision()).To(Equal("made by the testimony-transfer evaluation"))
		Expect(rep.Summary()).To(HavePrefix("value drift: same records and decisions, values moved; first: tick 12"))
	})

	It("calls a decision that flipped control-flow drift, naming it by key even when a value moved first", func() {
		actual := planted(1, strings.Replace(base[1], "0.9", "0.8", 1))
		actual[3] = strings.Replace(actual[3], `"fired":true`, `"fired":false`, 1)
		rep := align(base, actual)
		Expect(rep.Class()).To(Equal(triage.ControlFlowDrift))
		Expect(rep.Earliest.Kind).To(Equal("rule"), "the root is the earliest difference, the value")
		Expect(rep.Earliest.Decision()).To(Equal("the witness-creates-belief evaluation"))
		first := rep.FirstControlFlow()
		Expect(first.Change).To(Equal(triage.Flipped))
		Expect(first.Field).To(Equal("fired"))
		Expect(first.Decision()).To(Equal(`the encounter roll "encounter@12/market/[neighbor,witness]"`))
		Expect(rep.Summary()).To(Equal(`control-flow drift: first flipped decision: tick 12, trace line 5: encounter "encounter@12/market/[neighbor,witness]": fired golden true, actual false; records 1 flipped, 1 moved`))
	})

	It("calls a roll drawn in one run and not the other control-flow drift, as ladder compare does, even when its record's reason stayed", func() {
		rolled := `{"fired":false,"kind":"rule","reason":"memory: no slot has an alternative","roll":{"key":"mutation@12/market/[neighbor,witness,theft@2]","natural":0.1,"pinned":false,"purpose":"mutation","threshold":0.2,"value":0.1},"rule":"mutation-policy","subject":"neighbor<-witness/theft@2","tick":12,"values":{}}`
		unrolled := `{"fired":false,"kind":"rule","reason":"memory: no slot has an alternative","rule":"mutation-policy","subject":"neighbor<-witness/theft@2","tick":12,"values":{}}`
		golden := append(append([]string(nil), base[:5]...), rolled, base[5])
		actual := append(append([]string(nil), base[:5]...), unrolled, base[5])
		rep := align(golden, actual)
		Expect(rep.Class()).To(Equal(triage.ControlFlowDrift))
		first := rep.FirstControlFlow()
		Expect(first.Change).To(Equal(triage.Flipped))
		Expect(first.Field).To(Equal("roll.key"), "the roll one run drew")
	})

	It("names a record that vanished by its golden line, and one that appeared by the run's", func() {
		rep := align(base, planted(4, ""))
		Expect(rep.Class()).To(Equal(triage.ControlFlowDrift))
		Expect(rep.First[triage.Vanished].String()).To(Equal(`tick 12, golden trace line 6: transmission "witness->neighbor theft@2 via encounter@12/market/[neighbor,witness]" (rule testimony-transfer): in the golden trace only (a record vanished)`))
		Expect(rep.First[triage.Vanished].Seq).To(BeEquivalentTo(-1), "no record of the run to link to")

		rep = align(planted(4, ""), base)
		Expect(rep.First[triage.Appeared].Line).To(Equal(6))
		Expect(rep.First[triage.Appeared].String()).To(HaveSuffix("in the actual trace only (a record appeared)"))
	})

	It("roots a tick only one trace has, whichever it is, before the later ticks both have", func() {
		extra := `{"fired":false,"id":"encounter@7/market/[neighbor,witness]","kind":"encounter","pair":["neighbor","witness"],"roll":{"threshold":0.5,"value":0.8},"tick":7}`
		withTick7 := append(append(append([]string(nil), base[:3]...), extra), base[3:]...)
		rep := align(base, withTick7)
		Expect(rep.Earliest.Tick).To(BeEquivalentTo(7))
		Expect(rep.Earliest.Change).To(Equal(triage.Appeared))
		Expect(rep.Earliest.Line).To(Equal(5), "the run's line of the record")
		Expect(rep.Count[triage.Appeared]).To(Equal(1), "the later ticks pair as before")
		Expect(rep.Count[triage.Moved] + rep.Count[triage.Vanished] + rep.Count[triage.Flipped]).To(BeZero())

		rep = align(withTick7, base)
		Expect(rep.Earliest.Tick).To(BeEquivalentTo(7))
		Expect(rep.Earliest.Change).To(Equal(triage.Vanished))
		Expect(rep.Earliest.String()).To(HavePrefix(`tick 7, golden trace line 5: encounter "encounter@7/market/[neighbor,witness]"`))
		Expect(rep.Count[triage.Vanished]).To(Equal(1))
	})

	It("calls the same record under another id identity drift, not a record added and one removed", func() {
		actual := planted(0, `{"id":"theft@3","kind":"event","event":"theft","hash":"bb22","tick":2}`)
		rep := align(base, actual)
		Expect(rep.Class()).To(Equal(triage.IdentityDrift))
		Expect(rep.Count[triage.Appeared] + rep.Count[triage.Vanished]).To(BeZero())
		d := rep.First[triage.Renamed]
		Expect(d.Key).To(Equal(`"theft@2"`))
		Expect(d.NewKey).To(Equal(`"theft@3"`))
		Expect(rep.Summary()).To(HavePrefix(`identity drift: first renamed record: tick 2, trace line 2: event "theft@2": the same record under another id, "theft@3"`))
	})

	It("names the rule evaluation behind a belief record, which names no rule, from its provenance earlier in the tick", func() {
		rep := align(base, planted(2, strings.Replace(base[2], "0.9", "0.95", 1)))
		Expect(rep.Earliest.Kind).To(Equal("belief"))
		Expect(rep.Earliest.Rule).To(Equal("witness-creates-belief"))
		Expect(rep.Earliest.Decision()).To(Equal("made by the witness-creates-belief evaluation"))
	})

	It("keeps a record about someone else a different record, even when its numbers agree", func() {
		actual := planted(2, strings.ReplaceAll(base[2], `"witness"`, `"neighbor"`))
		rep := align(base, actual)
		Expect(rep.Class()).To(Equal(triage.ControlFlowDrift))
		Expect(rep.Count[triage.Appeared]).To(Equal(1))
		Expect(rep.Count[triage.Vanished]).To(Equal(1))
	})

	It("roots a difference only the state shows at the keyframe, naming the layer of state", func() {
		rep := align(base, planted(5, strings.Replace(base[5], "0.9", "0.85", 1)))
		Expect(rep.Class()).To(Equal(triage.ValueDrift))
		Expect(rep.Earliest.Kind).To(Equal("keyframe"))
		Expect(rep.Earliest.Decision()).To(HavePrefix("no record before it moved"))
		Expect(rep.Layer).To(Equal("beliefs"))
		Expect(rep.LayerTick).To(BeEquivalentTo(24))
	})

	It("pairs records by key within a tick, not by position", func() {
		swapped := append([]string(nil), base...)
		swapped[3], swapped[4] = swapped[4], swapped[3]
		rep := align(base, swapped)
		Expect(rep.Earliest).To(BeNil())
	})

	It("refuses what is not a trace", func() {
		_, err := triage.Align(strings.NewReader("nope\n"), strings.NewReader(file(base)))
		Expect(err).To(MatchError(ContainSubstring("golden:")))
	})
})

var _ = Describe("Class", func() {
	It("reads a renamed record after a flipped decision as the flip's consequence, not identity drift", func() {
		actual := append([]string(nil), base...)
		actual[3] = strings.Replace(actual[3], `"fired":true`, `"fired":false`, 1)
		actual[4] = strings.Replace(actual[4], "encounter@12/", "encounter@13/", 1) // an id naming the tick of what moved
		rep := align(base, actual)
		Expect(rep.Count[triage.Renamed]).To(Equal(1))
		Expect(rep.Class()).To(Equal(triage.ControlFlowDrift))
	})
})
