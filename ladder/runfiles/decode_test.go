package runfiles_test

import (
	"bytes"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	cmp "github.com/chronicle/ladder/ladder/compare"
	"github.com/chronicle/ladder/ladder/runfiles"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/trace"
)

// Records written by the engine's own encoder are decoded back to what
// was written; a line that is not what its kind writes is an error naming
// the field. The records are the spec's own, not a rung's.
var _ = Describe("Decode", func() {
	// encode writes bodies as a trace (sim/trace's encoder) and reads them
	// back with the trace reader the instruments use.
	encode := func(bodies ...trace.Body) []cmp.Record {
		GinkgoHelper()
		b := trace.Buffer{Header: trace.Header{SeedID: "spec", Branch: events.Branch{SaveUUID: "53eb2a19-73a1-86aa-b069-f60dae056b5f"}, KeyframeEvery: 24, Social: true}}
		for i, body := range bodies {
			b.Emit(trace.Record{Seq: int64(i), Tick: int64(i), Body: body})
		}
		data, err := b.AppendJSONL(nil)
		Expect(err).NotTo(HaveOccurred())
		rd, err := cmp.NewReader(bytes.NewReader(data))
		Expect(err).NotTo(HaveOccurred())
		var out []cmp.Record
		for range bodies {
			rec, err := rd.Next()
			Expect(err).NotTo(HaveOccurred())
			out = append(out, rec)
		}
		return out
	}

	It("gives back every field of the kinds the instruments show", func() {
		bodies := []trace.Body{
			&trace.RuleEval{Rule: "role-succession", Subject: "steward/duties:steward:0", Fired: true, Reason: "duty lapsed", Values: []trace.Value{{Name: "lapses", Value: 2}, {Name: "witnesses", Value: 0.5}}},
			&trace.Event{ID: "lapse@3:steward:0", EventKind: "lapse", LogSeq: 4, Hash: "ab", Rule: "role-succession", Cause: "vacancy@2:steward"},
			&trace.Grudge{Holder: "jon", Target: "player", Change: "formed", Emotional: 0.4, Evidentiary: 0.1 + 0.2, Rule: "grudge-creation", Cause: "invoke@2"},
			&trace.Obligation{ID: "obligation:favour@1", Favour: "favour@1", Creditor: "role:steward", Debtor: "player", State: "issued", Rule: "obligations", Cause: "favour@1"},
			&trace.Reputation{Observer: "a", Subject: "player", Dimension: "standing", Alpha: 2, Beta: 1, Mean: 2.0 / 3, Rule: "reputation-evidence", Cause: "title@1"},
			&trace.Schedule{NPC: "frida", Change: "overridden", Override: "rewrite@2:frida:killing@2", At: "temple", From: 3, To: 27, Rule: "schedule-write-back", Cause: "killing@2"},
			&trace.Schedule{NPC: "frida", Change: "duties taken", Override: "duties:steward:0", At: "hall", From: 9, Rule: "role-succession", Cause: "appointment@9"},
			&trace.Role{Role: "steward", Change: "vacant", Holder: "", Previous: "proventus", Rule: "role-succession", Cause: "death@killing@9"},
		}
		for i, rec := range encode(bodies...) {
			got, err := runfiles.Decode(rec)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(bodies[i]), "line %d", rec.Line)
		}
	})

	It("passes over the kinds it does not decode", func() {
		rec := encode(&trace.BeliefChange{Holder: "a", Claim: "theft@1", Variant: "theft@1#v0", Change: "formed", Confidence: 1, Stage: "heard"})[0]
		Expect(runfiles.Decode(rec)).To(BeNil())
	})

	It("names every field of the wrong type, never panics", func() {
		rec := cmp.Record{Line: 7, Kind: "schedule", Fields: map[string]any{"npc": 3.0, "from": 1.5, "to": "x"}}
		_, err := runfiles.Decode(rec)
		Expect(err).To(MatchError(ContainSubstring("schedule record: npc is float64, want a string")))
		Expect(strings.Count(err.Error(), ";")).To(Equal(2), err.Error())
		_, err = runfiles.Decode(cmp.Record{Kind: "rule", Fields: map[string]any{"values": map[string]any{"n": "one"}}})
		Expect(err).To(MatchError(ContainSubstring("values.n is string, want a number")))
	})
})
