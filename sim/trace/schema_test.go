package trace_test

import (
	"bytes"
	"encoding/json"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/trace"
)

// everyKind is one record of each kind with every optional part present,
// so its encoding shows every field the encoders can write.
func everyKind() []trace.Record {
	roll := &trace.Roll{Roll: keyed.Roll{Key: keyed.Key{SeedID: "s", Purpose: "encounter", Tick: 3, Site: "market", Participants: []string{"a", "b"}}, Value: 0.25, Natural: 0.25}, Threshold: 0.5}
	bodies := []trace.Body{
		trace.Encounter{Site: "market", Pair: [2]string{"a", "b"}, Roll: *roll, Fired: true, Weighted: true, Weight: 0.5},
		trace.Transmission{Via: "injected", Claim: "theft@1", Variant: "theft@1#v0", Teller: "a", Listener: "b", Fired: true, Rule: "testimony-transfer", Confidence: 0.72},
		trace.RuleEval{Rule: "mutation-policy", Subject: "b<-a/theft@1", Fired: true, Reason: "r", Values: []trace.Value{{Name: "p", Value: 0.1}}, Roll: roll},
		trace.Event{ID: "escalation@9:a:player", EventKind: "escalation", LogSeq: 0, Hash: "00", Rule: "accumulation-threshold", Cause: "theft@1"},
		trace.BeliefChange{Holder: "b", Claim: "theft@1", Variant: "theft@1#v0", Change: "formed", Confidence: 0.72, Stage: "heard",
			Evidence: &trace.Evidence{Type: "reported", Variant: "theft@1#v0", Chain: []string{"a"}, Via: "injected", Confidence: 0.72, Counted: true}},
		trace.Variant{ID: "theft@1#v1", Claim: "theft@1", Predecessor: "theft@1#v0", Diff: []trace.SlotChange{{Slot: "item", From: "ring", To: "sword"}},
			Slots: []trace.Slot{{Name: "item", Type: "item", Value: "sword"}}, Reason: "mutation:memory", By: "a"},
		trace.Keyframe{NPCs: []trace.NPCState{{ID: "a", Alive: true, At: "market"}}, Beliefs: []trace.BeliefState{{Holder: "a", Claim: "theft@1", Variant: "theft@1#v0"}},
			Accumulators: []trace.AccumulatorState{{Victim: "a", Offender: "player", Count: 1, Armed: true}},
			Grudges:      []trace.GrudgeState{{Holder: "a", Target: "player", Emotional: 0.8, Evidentiary: 0.45}},
			Obligations:  []trace.ObligationState{{ID: "obligation:favour@1", Favour: "favour@1", Creditor: "a", Debtor: "player", State: "issued"}},
			Reputation:   []trace.OpinionState{{Observer: "b", Subject: "player", Dimension: "standing", Alpha: 2, Beta: 1, Mean: 0.6666666666666666}},
			Roles:        []trace.RoleState{{ID: "steward", Holder: "a", Since: 0}}},
		trace.Supersession{Holder: "b", Claim: "theft@1", Loser: "theft@1#v1", Winner: "theft@1#v0", Via: "injected"},
		trace.Grudge{Holder: "a", Target: "player", Change: "formed", Emotional: 0.8, Evidentiary: 0.45, Rule: "grudge-creation", Cause: "brawl@1"},
		trace.Obligation{ID: "obligation:favour@1", Favour: "favour@1", Creditor: "a", Debtor: "player", State: "issued", Rule: "obligations", Cause: "favour@1"},
		trace.Reputation{Observer: "b", Subject: "player", Dimension: "standing", Alpha: 2, Beta: 1, Mean: 0.6666666666666666, Rule: "reputation-evidence", Cause: "title@1"},
		trace.Schedule{NPC: "a", Change: "overridden", Override: "rewrite@2:a:killing@2", At: "temple", From: 3, To: 75, Rule: "schedule-write-back", Cause: "killing@2"},
		trace.Role{Role: "steward", Change: "appointed", Holder: "b", Previous: "", Rule: "role-succession", Cause: "vacancy@9:steward"},
	}
	out := make([]trace.Record, len(bodies))
	for i, b := range bodies {
		out[i] = trace.Record{Seq: int64(i), Tick: 3, Body: b}
	}
	return out
}

// paths lists the dotted paths of a decoded record, descending into
// mappings except where the schema says the keys are open.
func paths(kind trace.Kind, prefix string, m map[string]any) []string {
	var out []string
	for k, v := range m {
		p := k
		if prefix != "" {
			p = prefix + "." + k
		}
		out = append(out, p)
		if sub, ok := v.(map[string]any); ok && shape(kind, p) != trace.ShapeOpenObject {
			out = append(out, paths(kind, p, sub)...)
		}
	}
	return out
}

func shape(kind trace.Kind, path string) trace.Shape {
	for _, f := range trace.Fields(kind) {
		if f.Path == path {
			return f.Shape
		}
	}
	return ""
}

var _ = Describe("Fields (the record schema as data)", func() {
	// records are everyKind's records as a file spells them (as spelt)
	// and as a reader sees them (restored: trace.Facts.Restore put back
	// what version 3 leaves out). The schema lists facts, which a
	// fixture's patterns match after restore: a field version 3 leaves
	// out is still one the schema lists.
	records := func(header trace.Header) (spelt, restored []map[string]any) {
		GinkgoHelper()
		buf := &trace.Buffer{Header: header, Records: everyKind()}
		data, err := buf.AppendJSONL(nil)
		Expect(err).NotTo(HaveOccurred())
		ls := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
		var h map[string]any
		Expect(json.Unmarshal(ls[0], &h)).To(Succeed())
		facts, err := trace.FactsOf(h)
		Expect(err).NotTo(HaveOccurred())
		Expect(facts.Version()).To(Equal(trace.Version3))
		for _, line := range ls[1:] {
			var rec, back map[string]any
			Expect(json.Unmarshal(line, &rec)).To(Succeed())
			Expect(json.Unmarshal(line, &back)).To(Succeed())
			Expect(facts.Restore(back)).To(Succeed())
			spelt, restored = append(spelt, rec), append(restored, back)
		}
		return spelt, restored
	}
	byKind := func(recs []map[string]any) map[trace.Kind][]string {
		out := map[trace.Kind][]string{}
		for _, rec := range recs {
			kind := trace.Kind(rec["kind"].(string))
			out[kind] = append(out[kind], paths(kind, "", rec)...)
		}
		return out
	}
	encoded := func() map[trace.Kind][]string {
		GinkgoHelper()
		_, restored := records(trace.Header{SeedID: "s", Branch: events.Branch{SaveUUID: "u"}})
		return byKind(restored)
	}

	It("lists every field an encoded record of each kind carries, as spelt and as restored", func() {
		spelt, restored := records(trace.Header{SeedID: "s", Branch: events.Branch{SaveUUID: "u"}})
		for name, got := range map[string]map[trace.Kind][]string{"spelt": byKind(spelt), "restored": byKind(restored)} {
			Expect(got).To(HaveLen(len(trace.Kinds())), name)
			for kind, ps := range got {
				for _, p := range ps {
					Expect(shape(kind, p)).NotTo(BeEmpty(), "%s %s record carries %q, which the schema does not list", name, kind, p)
				}
			}
		}
	})

	It("lists no field that no encoded record carries, once a reader restores what version 3 leaves out", func() {
		got := encoded()
		for _, kind := range trace.Kinds() {
			fields := trace.Fields(kind)
			Expect(fields).NotTo(BeEmpty(), "kind %s", kind)
			for _, f := range fields {
				Expect(slices.Contains(got[kind], f.Path)).To(BeTrue(), "schema lists %s.%s, which no encoded record carries", kind, f.Path)
			}
		}
	})

	It("gives a fixed-size set exactly that many members in an encoded record, as a reader restores it", func() {
		_, restored := records(trace.Header{SeedID: "s"})
		checked := 0
		for _, rec := range restored {
			for _, f := range trace.Fields(trace.Kind(rec["kind"].(string))) {
				if f.Shape == trace.ShapeSet && f.Size > 0 {
					Expect(rec[f.Path]).To(HaveLen(f.Size), "%s.%s", rec["kind"], f.Path)
					checked++
				}
			}
		}
		Expect(checked).To(BeNumerically(">", 0))
	})

	It("returns each kind's fields sorted by path, each path once, and nothing for an unknown kind", func() {
		for _, kind := range trace.Kinds() {
			fs := trace.Fields(kind)
			Expect(fs).NotTo(BeEmpty(), "%s", kind)
			for i := 1; i < len(fs); i++ {
				Expect(fs[i-1].Path < fs[i].Path).To(BeTrue(), "%s: %q before %q", kind, fs[i-1].Path, fs[i].Path)
			}
		}
		Expect(trace.Fields("header")).To(BeNil())
	})
})
