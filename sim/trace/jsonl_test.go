package trace_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/trace"
)

const (
	branchJSON = `"branch":{"generation":3,"save_uuid":"save-1"}` // version 2's branch key
	branchV3   = `"branch":0`                                     // version 3's: the index of the header's one branch
	encID      = "encounter@12/market/[neighbor,witness]"
)

var header = trace.Header{SeedID: "ladder-T1.1", Branch: events.Branch{SaveUUID: "save-1", Generation: 3}, KeyframeEvery: 24}

// headerLine is the header the encoder writes for header (version 3);
// headerLineV2 is the same run's header in version 2, a core world's
// being version 1.
const (
	headerLine   = `{"branches":[{"generation":3,"save_uuid":"save-1"}],"keyframe_every":24,"kind":"header","layers":["core"],"schema":"chronicle.trace","seed_id":"ladder-T1.1","version":3}`
	headerLineV2 = `{` + branchJSON + `,"keyframe_every":24,"kind":"header","schema":"chronicle.trace","seed_id":"ladder-T1.1","version":1}`
)

func encounterRoll() trace.Roll {
	return trace.Roll{
		Roll: keyed.Roll{
			Key:   keyed.Key{SeedID: "ladder-T1.1", Purpose: "encounter", Tick: 12, Site: "market", Participants: []string{"neighbor", "witness"}},
			Value: 0.25, Natural: 0.7310585786300049, Pinned: true,
		},
		Threshold: 0.5,
	}
}

// kindCases is one record of every kind with the exact line it must become
// (seq 7, tick 12, branch save-1/3): keys sorted, floats in repr form. v2
// is the line version 2 wrote, every fact spelt; line is version 3's,
// which leaves out what another field spells (trace.Facts).
var kindCases = []struct {
	name string
	body trace.Body
	kind trace.Kind
	v2   string // the line in version 2: what ConvertV2 reads
	line string // the line in version 3
}{
	{
		"encounter", trace.Encounter{Site: "market", Pair: [2]string{"neighbor", "witness"}, Roll: encounterRoll(), Fired: true},
		trace.KindEncounter,
		`{` + branchJSON + `,"fired":true,"id":"` + encID + `","kind":"encounter","pair":["neighbor","witness"],` +
			`"roll":{"key":"` + encID + `","natural":0.7310585786300049,"pinned":true,"purpose":"encounter","threshold":0.5,"value":0.25},` +
			`"seq":7,"site":"market","tick":12}`,
		`{` + branchV3 + `,"fired":true,"id":"` + encID + `","kind":"encounter","roll":{"natural":0.7310585786300049,"pinned":true,"threshold":0.5,"value":0.25},"seq":7,"tick":12}`,
	},
	{
		"encounter with an unpinned, participant-less roll",
		trace.Encounter{Site: "", Roll: trace.Roll{Roll: keyed.Roll{Key: keyed.Key{Purpose: "p", Tick: 12}, Value: 0.75, Natural: 0.75}, Threshold: 1}},
		trace.KindEncounter,
		`{` + branchJSON + `,"fired":false,"id":"p@12//[]","kind":"encounter","pair":["",""],` +
			`"roll":{"key":"p@12//[]","natural":0.75,"pinned":false,"purpose":"p","threshold":1.0,"value":0.75},` +
			`"seq":7,"site":"","tick":12}`,
		`{` + branchV3 + `,"fired":false,"id":"p@12//[]","kind":"encounter","pair":["",""],"roll":{"purpose":"p","threshold":1.0,"value":0.75},"seq":7,"site":"","tick":12}`,
	},
	{
		"fired transmission", trace.Transmission{Via: encID, Claim: "theft@2", Variant: "theft@2#v0", Teller: "witness", Listener: "neighbor", Fired: true, Rule: "testimony-transfer", Reason: "told", Confidence: 0.72},
		trace.KindTransmission,
		`{` + branchJSON + `,"claim":"theft@2","confidence":0.72,"fired":true,"kind":"transmission","listener":"neighbor","reason":"told","rule":"testimony-transfer","seq":7,"teller":"witness","tick":12,"variant":"theft@2#v0","via":"` + encID + `"}`,
		`{` + branchV3 + `,"confidence":0.72,"fired":true,"kind":"transmission","listener":"neighbor","reason":"told","rule":"testimony-transfer","seq":7,"teller":"witness","tick":12,"variant":"theft@2#v0","via":"` + encID + `"}`,
	},
	{
		"declined transmission has no confidence", trace.Transmission{Via: "injected", Claim: "theft@2", Variant: "theft@2#v0", Teller: "witness", Listener: "neighbor", Rule: "testimony-transfer", Reason: "listener already holds the claim", Confidence: 0.72},
		trace.KindTransmission,
		`{` + branchJSON + `,"claim":"theft@2","fired":false,"kind":"transmission","listener":"neighbor","reason":"listener already holds the claim","rule":"testimony-transfer","seq":7,"teller":"witness","tick":12,"variant":"theft@2#v0","via":"injected"}`,
		`{` + branchV3 + `,"fired":false,"kind":"transmission","listener":"neighbor","reason":"listener already holds the claim","rule":"testimony-transfer","seq":7,"teller":"witness","tick":12,"variant":"theft@2#v0","via":"injected"}`,
	},
	{
		"rule evaluation with values sorted by name", trace.RuleEval{Rule: "corroboration", Subject: "neighbor/theft@2", Fired: true, Reason: "counted", Values: []trace.Value{{Name: "window", Value: 720}, {Name: "before", Value: 0.72}, {Name: "after", Value: 0.9216}}},
		trace.KindRule,
		`{` + branchJSON + `,"fired":true,"kind":"rule","reason":"counted","rule":"corroboration","seq":7,"subject":"neighbor/theft@2","tick":12,"values":{"after":0.9216,"before":0.72,"window":720.0}}`,
		`{` + branchV3 + `,"fired":true,"kind":"rule","reason":"counted","rule":"corroboration","seq":7,"subject":"neighbor/theft@2","tick":12,"values":{"after":0.9216,"before":0.72,"window":720.0}}`,
	},
	{
		"rule evaluation without values", trace.RuleEval{Rule: "belief-decay", Subject: "x", Reason: "no belief"},
		trace.KindRule,
		`{` + branchJSON + `,"fired":false,"kind":"rule","reason":"no belief","rule":"belief-decay","seq":7,"subject":"x","tick":12,"values":{}}`,
		`{` + branchV3 + `,"fired":false,"kind":"rule","reason":"no belief","rule":"belief-decay","seq":7,"subject":"x","tick":12,"values":{}}`,
	},
	{
		"event", trace.Event{ID: "theft@2", EventKind: "theft", LogSeq: 0, Hash: "ab12"},
		trace.KindEvent,
		`{` + branchJSON + `,"event":"theft","hash":"ab12","id":"theft@2","kind":"event","log_seq":0,"seq":7,"tick":12}`,
		`{` + branchV3 + `,"event":"theft","hash":"ab12","id":"theft@2","kind":"event","log_seq":0,"seq":7,"tick":12}`,
	},
	{
		"belief change", trace.BeliefChange{Holder: "neighbor", Claim: "theft@2", Variant: "theft@2#v0", Change: "formed", Confidence: 1, Stage: "heard"},
		trace.KindBelief,
		`{` + branchJSON + `,"change":"formed","claim":"theft@2","confidence":1.0,"holder":"neighbor","kind":"belief","seq":7,"stage":"heard","tick":12,"variant":"theft@2#v0"}`,
		`{` + branchV3 + `,"change":"formed","confidence":1.0,"holder":"neighbor","kind":"belief","seq":7,"stage":"heard","tick":12,"variant":"theft@2#v0"}`,
	},
	{
		"keyframe", trace.Keyframe{
			NPCs:    []trace.NPCState{{ID: "merchant", Alive: true, At: "market"}, {ID: "ghost", Alive: false, At: ""}},
			Beliefs: []trace.BeliefState{{Holder: "witness", Claim: "theft@2", Variant: "theft@2#v0", Confidence: 0.9, Verbatim: 0.5, Gist: 1e-05, Stage: "dormant"}},
		},
		trace.KindKeyframe,
		`{"beliefs":[{"claim":"theft@2","confidence":0.9,"gist":1e-05,"holder":"witness","stage":"dormant","variant":"theft@2#v0","verbatim":0.5}],` + branchJSON +
			`,"kind":"keyframe","npcs":[{"alive":true,"at":"market","id":"merchant"},{"alive":false,"at":"","id":"ghost"}],"seq":7,"tick":12}`,
		`{"beliefs":[{"claim":"theft@2","confidence":0.9,"gist":1e-05,"holder":"witness","stage":"dormant","variant":"theft@2#v0","verbatim":0.5}],` + branchV3 + `,"kind":"keyframe","npcs":[{"alive":true,"at":"market","id":"merchant"},{"alive":false,"at":"","id":"ghost"}],"seq":7,"tick":12}`,
	},
	{
		"empty keyframe", trace.Keyframe{}, trace.KindKeyframe,
		`{"beliefs":[],` + branchJSON + `,"kind":"keyframe","npcs":[],"seq":7,"tick":12}`,
		`{"beliefs":[],` + branchV3 + `,"kind":"keyframe","npcs":[],"seq":7,"tick":12}`,
	},
	// Schema v2: the social layer.
	{
		"derived event, with its rule and cause", trace.Event{ID: "escalation@40:lucan:player", EventKind: "escalation", LogSeq: 9, Hash: "cd34", Rule: "accumulation-threshold", Cause: "theft@40"},
		trace.KindEvent,
		`{` + branchJSON + `,"cause":"theft@40","event":"escalation","hash":"cd34","id":"escalation@40:lucan:player","kind":"event","log_seq":9,"rule":"accumulation-threshold","seq":7,"tick":12}`,
		`{` + branchV3 + `,"cause":"theft@40","event":"escalation","hash":"cd34","id":"escalation@40:lucan:player","kind":"event","log_seq":9,"rule":"accumulation-threshold","seq":7,"tick":12}`,
	},
	{
		"grudge", trace.Grudge{Holder: "loser", Target: "player", Change: "formed", Emotional: 0.8, Evidentiary: 0.45, Rule: "grudge-creation", Cause: "brawl@1"},
		trace.KindGrudge,
		`{` + branchJSON + `,"cause":"brawl@1","change":"formed","emotional":0.8,"evidentiary":0.45,"holder":"loser","kind":"grudge","rule":"grudge-creation","seq":7,"target":"player","tick":12}`,
		`{` + branchV3 + `,"cause":"brawl@1","change":"formed","emotional":0.8,"evidentiary":0.45,"holder":"loser","kind":"grudge","rule":"grudge-creation","seq":7,"target":"player","tick":12}`,
	},
	{
		"obligation", trace.Obligation{ID: "obligation:favour@2", Favour: "favour@2", Creditor: "ria", Debtor: "player", State: "violated", Rule: "obligations", Cause: "invoke@9"},
		trace.KindObligation,
		`{` + branchJSON + `,"cause":"invoke@9","creditor":"ria","debtor":"player","favour":"favour@2","id":"obligation:favour@2","kind":"obligation","rule":"obligations","seq":7,"state":"violated","tick":12}`,
		`{` + branchV3 + `,"cause":"invoke@9","creditor":"ria","debtor":"player","favour":"favour@2","id":"obligation:favour@2","kind":"obligation","rule":"obligations","seq":7,"state":"violated","tick":12}`,
	},
	{
		"reputation, whose first members sort before the branch", trace.Reputation{Observer: "jon", Subject: "player", Dimension: "reliability", Alpha: 1, Beta: 2, Mean: 1.0 / 3, Rule: "reputation-evidence", Cause: "invoke@9"},
		trace.KindReputation,
		`{"alpha":1.0,"beta":2.0,` + branchJSON + `,"cause":"invoke@9","dimension":"reliability","kind":"reputation","mean":0.3333333333333333,"observer":"jon","rule":"reputation-evidence","seq":7,"subject":"player","tick":12}`,
		`{"alpha":1.0,"beta":2.0,` + branchV3 + `,"cause":"invoke@9","dimension":"reliability","kind":"reputation","mean":0.3333333333333333,"observer":"jon","rule":"reputation-evidence","seq":7,"subject":"player","tick":12}`,
	},
	{
		"keyframe with every social section", trace.Keyframe{
			NPCs:         []trace.NPCState{{ID: "lucan", Alive: true, At: "market"}},
			Accumulators: []trace.AccumulatorState{{Victim: "lucan", Offender: "player", Count: 3, Armed: true}},
			Grudges:      []trace.GrudgeState{{Holder: "loser", Target: "player", Emotional: 0.8, Evidentiary: 0.45}},
			Obligations:  []trace.ObligationState{{ID: "obligation:favour@2", Favour: "favour@2", Creditor: "ria", Debtor: "player", State: "issued"}},
			Reputation:   []trace.OpinionState{{Observer: "jon", Subject: "player", Dimension: "standing", Alpha: 2, Beta: 1, Mean: 2.0 / 3}},
		},
		trace.KindKeyframe,
		`{"accumulators":[{"armed":true,"count":3,"offender":"player","victim":"lucan"}],"beliefs":[],` + branchJSON +
			`,"grudges":[{"emotional":0.8,"evidentiary":0.45,"holder":"loser","settled":false,"target":"player"}],"kind":"keyframe","npcs":[{"alive":true,"at":"market","id":"lucan"}],` +
			`"obligations":[{"creditor":"ria","debtor":"player","favour":"favour@2","id":"obligation:favour@2","state":"issued"}],` +
			`"reputation":[{"alpha":2.0,"beta":1.0,"dimension":"standing","mean":0.6666666666666666,"observer":"jon","subject":"player"}],"seq":7,"tick":12}`,
		`{"accumulators":[{"armed":true,"count":3,"offender":"player","victim":"lucan"}],"beliefs":[],` + branchV3 + `,"grudges":[{"emotional":0.8,"evidentiary":0.45,"holder":"loser","settled":false,"target":"player"}],"kind":"keyframe","npcs":[{"alive":true,"at":"market","id":"lucan"}],"obligations":[{"creditor":"ria","debtor":"player","favour":"favour@2","id":"obligation:favour@2","state":"issued"}],"reputation":[{"alpha":2.0,"beta":1.0,"dimension":"standing","mean":0.6666666666666666,"observer":"jon","subject":"player"}],"seq":7,"tick":12}`,
	},
}

// decoded is a line decoded as spelt.
func decoded(line string) map[string]any {
	GinkgoHelper()
	var rec map[string]any
	Expect(json.Unmarshal([]byte(line), &rec)).To(Succeed())
	return rec
}

// restored is a record line of header's file as a reader sees it: decoded,
// and what version 3 leaves out put back (trace.Facts.Restore).
func restored(line string) map[string]any {
	GinkgoHelper()
	facts, err := trace.FactsOf(decoded(headerLine))
	Expect(err).NotTo(HaveOccurred())
	rec := decoded(line)
	Expect(facts.Restore(rec)).To(Succeed())
	return rec
}

var _ = Describe("Buffer.AppendJSONL", func() {
	It("writes the header alone for an empty trace", func() {
		b := trace.Buffer{Header: header}
		out, err := b.AppendJSONL(nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(headerLine + "\n"))
	})

	DescribeTable("writes every record kind as one canonical line after the header",
		func(body trace.Body, kind trace.Kind, line, v2 string) {
			Expect(body.Kind()).To(Equal(kind))
			b := trace.Buffer{Header: header}
			b.Emit(trace.Record{Seq: 7, Tick: 12, Body: body})
			out, err := b.AppendJSONL(nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(cmp.Diff(headerLine+"\n"+line+"\n", string(out))).To(BeEmpty())

			By("being valid JSON whose kind, seq, tick and branch are the record's")
			var rec map[string]any
			Expect(json.Unmarshal([]byte(line), &rec)).To(Succeed())
			Expect(rec).To(HaveKeyWithValue("kind", string(kind)))
			Expect(rec).To(HaveKeyWithValue("seq", 7.0))
			Expect(rec).To(HaveKeyWithValue("tick", 12.0))
			Expect(rec).To(HaveKeyWithValue("branch", 0.0), "the index of the header's one branch")

			By("reading back, as a reader restores it, as the version-2 line's record")
			Expect(restored(line)).To(Equal(decoded(v2)))
			Expect(restored(line)).To(HaveKeyWithValue("branch", map[string]any{"generation": 3.0, "save_uuid": "save-1"}))
		},
		func() []TableEntry {
			var out []TableEntry
			for _, c := range kindCases {
				out = append(out, Entry(c.name, c.body, c.kind, c.line, c.v2))
			}
			return out
		}(),
	)

	It("covers every kind of schema v1 and v2 but supersession (tier2_records_test.go has it)", func() {
		seen := map[trace.Kind]bool{}
		for _, c := range kindCases {
			seen[c.kind] = true
		}
		Expect(seen).To(HaveLen(9))
		for _, k := range []trace.Kind{trace.KindEncounter, trace.KindTransmission, trace.KindRule, trace.KindEvent, trace.KindBelief, trace.KindKeyframe,
			trace.KindGrudge, trace.KindObligation, trace.KindReputation} {
			Expect(seen).To(HaveKey(k))
		}
	})

	It("writes version 3, naming the run's branch once and the layers its world uses", func() {
		for _, c := range []struct {
			social bool
			want   string
		}{{false, `"layers":["core"]`}, {true, `"layers":["core","social"]`}} {
			h := header
			h.Social = c.social
			out, err := (&trace.Buffer{Header: h}).AppendJSONL(nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(out)).To(Equal(`{"branches":[{"generation":3,"save_uuid":"save-1"}],"keyframe_every":24,"kind":"header",` +
				c.want + `,"schema":"chronicle.trace","seed_id":"ladder-T1.1","version":3}` + "\n"))
		}
	})

	It("writes records in emission order, one per line, each ending in a newline", func() {
		b := trace.Buffer{Header: header}
		for i, c := range kindCases {
			b.Emit(trace.Record{Seq: int64(i), Tick: int64(i / 2), Body: c.body})
		}
		out, err := b.AppendJSONL(nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(HaveSuffix("\n"))
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		Expect(lines).To(HaveLen(len(kindCases) + 1))
		Expect(lines[0]).To(Equal(headerLine))
		for i, line := range lines[1:] {
			var rec struct {
				Kind string `json:"kind"`
				Seq  int64  `json:"seq"`
				Tick int64  `json:"tick"`
			}
			Expect(json.Unmarshal([]byte(line), &rec)).To(Succeed())
			Expect(rec.Kind).To(Equal(string(kindCases[i].kind)))
			Expect(rec.Seq).To(Equal(int64(i)))
			Expect(rec.Tick).To(Equal(int64(i / 2)))
			var compact bytes.Buffer
			Expect(json.Compact(&compact, []byte(line))).To(Succeed())
			Expect(compact.String()).To(Equal(line), "no whitespace between tokens")
		}
	})

	It("appends to what is already in dst", func() {
		b := trace.Buffer{Header: header}
		b.Emit(trace.Record{Seq: 7, Tick: 12, Body: kindCases[6].body})
		out, err := b.AppendJSONL([]byte("prefix\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal("prefix\n" + headerLine + "\n" + kindCases[6].line + "\n"))
	})

	It("is the same bytes every time", func() {
		b := trace.Buffer{Header: header}
		for i, c := range kindCases {
			b.Emit(trace.Record{Seq: int64(i), Tick: 1, Body: c.body})
		}
		first, err := b.AppendJSONL(nil)
		Expect(err).NotTo(HaveOccurred())
		second, err := b.AppendJSONL(nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(bytes.Equal(first, second)).To(BeTrue())
	})

	It("refuses a record with no canonical form, naming it", func() {
		b := trace.Buffer{Header: header}
		b.Emit(trace.Record{Seq: 0, Tick: 1, Body: trace.Event{ID: "x"}})
		b.Emit(trace.Record{Seq: 4, Tick: 9, Body: trace.BeliefChange{Holder: "h", Confidence: math.NaN()}})
		out, err := b.AppendJSONL(nil)
		Expect(out).To(BeNil())
		Expect(err).To(MatchError(canon.ErrNaN))
		Expect(err).To(MatchError("trace record 4 (tick 9, belief): canon: $.confidence: NaN is not allowed"))
	})

	It("refuses a rule evaluation naming one value twice", func() {
		b := trace.Buffer{Header: header}
		b.Emit(trace.Record{Seq: 0, Tick: 1, Body: trace.RuleEval{Rule: "r", Values: []trace.Value{{Name: "a", Value: 1}, {Name: "a", Value: 2}}}})
		_, err := b.AppendJSONL(nil)
		Expect(err).To(MatchError(canon.ErrDuplicateKey))
	})

	It("refuses a header with no canonical form", func() {
		b := trace.Buffer{Header: trace.Header{SeedID: "bad\xff"}}
		_, err := b.AppendJSONL(nil)
		Expect(err).To(MatchError(canon.ErrInvalidUTF8))
		Expect(err.Error()).To(HavePrefix("trace header: "))
	})
})

var _ = Describe("Roll.Passed", func() {
	DescribeTable("is value strictly below threshold",
		func(value, threshold float64, want bool) {
			r := trace.Roll{Roll: keyed.Roll{Value: value}, Threshold: threshold}
			Expect(r.Passed()).To(Equal(want))
		},
		Entry("below", 0.25, 0.5, true),
		Entry("equal", 0.5, 0.5, false),
		Entry("above", 0.75, 0.5, false),
		Entry("zero threshold never passes", 0.0, 0.0, false),
		Entry("threshold one always passes a [0, 1) roll", 0.9999999999999999, 1.0, true),
	)
})
