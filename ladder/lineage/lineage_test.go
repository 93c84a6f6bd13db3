package lineage_test

import (
	"bytes"
	"strings"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/lineage"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/trace"
)

// rec is one record of a synthetic trace at a tick.
type rec struct {
	tick int64
	body trace.Body
}

// file writes records as the engine's writer would.
func file(recs ...rec) []byte {
	GinkgoHelper()
	buf := &trace.Buffer{Header: trace.Header{SeedID: "s", Branch: events.Branch{SaveUUID: "u"}, KeyframeEvery: 24}}
	for i, r := range recs {
		buf.Emit(trace.Record{Seq: int64(i), Tick: r.tick, Body: r.body})
	}
	out, err := buf.AppendJSONL(nil)
	Expect(err).NotTo(HaveOccurred())
	return out
}

func read(data []byte, until int64) (*lineage.Lineage, error) {
	return lineage.Read(bytes.NewReader(data), until)
}

const enc = "encounter@3/market/[a,b]"

// story: a witnesses theft@1 and tells b at tick 3, mutated; c, who saw
// it too, tells b the original at tick 5 and wins the contest; a tells
// b again at tick 6 (an origin b has counted: not counted).
func story() []rec {
	slots := []trace.Slot{{Name: "actor", Type: "entity", Value: "player"}, {Name: "item", Type: "item", Value: "ring"}}
	return []rec{
		{1, trace.Event{ID: "theft@1", EventKind: "theft", Hash: strings.Repeat("0", 64)}},
		{1, trace.Variant{ID: "theft@1#v0", Claim: "theft@1", Reason: "event", Slots: slots}},
		{1, trace.BeliefChange{Holder: "a", Claim: "theft@1", Variant: "theft@1#v0", Change: "formed", Confidence: 0.9, Stage: "heard",
			Evidence: &trace.Evidence{Type: "witnessed", Variant: "theft@1#v0", Via: "theft@1", Confidence: 0.9, Counted: true}}},
		{1, trace.BeliefChange{Holder: "c", Claim: "theft@1", Variant: "theft@1#v0", Change: "formed", Confidence: 0.9, Stage: "heard",
			Evidence: &trace.Evidence{Type: "witnessed", Variant: "theft@1#v0", Via: "theft@1", Confidence: 0.9, Counted: true}}},
		{3, trace.Variant{ID: "theft@1#v1", Claim: "theft@1", Predecessor: "theft@1#v0", Reason: "mutation:memory", By: "a",
			Diff: []trace.SlotChange{{Slot: "item", From: "ring", To: "sword"}}, Slots: []trace.Slot{slots[0], {Name: "item", Type: "item", Value: "sword"}}}},
		{3, trace.BeliefChange{Holder: "b", Claim: "theft@1", Variant: "theft@1#v1", Change: "formed", Confidence: 0.72, Stage: "heard",
			Evidence: &trace.Evidence{Type: "reported", Variant: "theft@1#v1", Chain: []string{"a"}, Via: enc, Confidence: 0.72, Counted: true}}},
		{3, trace.BeliefChange{Holder: "a", Claim: "theft@1", Variant: "theft@1#v0", Change: "repeated", Confidence: 0.9, Stage: "repeated"}},
		{5, trace.Supersession{Holder: "b", Claim: "theft@1", Loser: "theft@1#v1", Winner: "theft@1#v0", Via: "injected"}},
		{5, trace.BeliefChange{Holder: "b", Claim: "theft@1", Variant: "theft@1#v0", Change: "contested", Confidence: 0.6, Stage: "heard",
			Evidence: &trace.Evidence{Type: "reported", Variant: "theft@1#v0", Chain: []string{"c"}, Via: "injected", Confidence: 0.72, Counted: true}}},
		{6, trace.BeliefChange{Holder: "b", Claim: "theft@1", Variant: "theft@1#v0", Change: "reinforced", Confidence: 0.6, Stage: "heard",
			Evidence: &trace.Evidence{Type: "reported", Variant: "theft@1#v0", Chain: []string{"a"}, Via: "injected", Confidence: 0.72}}},
	}
}

var _ = Describe("Read", func() {
	It("gives every claim its variants and contests, and every belief its evidence, origins, formation and anchor", func() {
		l, err := read(file(story()...), -1)
		Expect(err).NotTo(HaveOccurred())
		Expect(l.Claims).To(HaveLen(1))
		c := l.Claims[0]
		Expect([]any{c.ID, c.Kind, c.Tick}).To(Equal([]any{"theft@1", "theft", int64(1)}))
		Expect(cmp.Diff([]lineage.Variant{
			{ID: "theft@1#v0", Reason: "event", Tick: 1, Slots: claims.Slots{{Name: "actor", Type: "entity", Value: "player"}, {Name: "item", Type: "item", Value: "ring"}}},
			{ID: "theft@1#v1", Predecessor: "theft@1#v0", Reason: "mutation:memory", By: "a", Tick: 3,
				Diff:  []claims.Change{{Slot: "item", From: "ring", To: "sword"}},
				Slots: claims.Slots{{Name: "actor", Type: "entity", Value: "player"}, {Name: "item", Type: "item", Value: "sword"}}},
		}, c.Variants)).To(BeEmpty())
		Expect(c.Supersessions).To(Equal([]lineage.Supersession{{Holder: "b", Loser: "theft@1#v1", Winner: "theft@1#v0", Via: "injected", Tick: 5}}))
		b, ok := l.Belief("b", "theft@1")
		Expect(ok).To(BeTrue())
		Expect([]int64{b.FormedAt, b.Anchor}).To(Equal([]int64{3, 6}))
		// A contest's counted evidence is no new origin; a and c are
		// the roots of b's evidence, but only a was counted.
		Expect(b.Origins).To(Equal([]string{"a"}))
		Expect(b.Evidence).To(HaveLen(3))
		Expect(b.Evidence[1]).To(Equal(claims.Evidence{Type: claims.Reported, Tick: 5, Variant: "theft@1#v0", Source: "c", Chain: []string{"c"}, Via: "injected", Confidence: 0.72, Counted: true}))
		a, _ := l.Belief("a", "theft@1")
		Expect(a.Origins).To(Equal([]string{"a"}), "a witness is its own origin")
		Expect(a.Evidence).To(HaveLen(1), "repeating a rumour adds no evidence")
	})

	It("reads what existed as of a tick: nothing minted, contested or heard after it", func() {
		l, err := read(file(story()...), 4)
		Expect(err).NotTo(HaveOccurred())
		Expect(l.Claims[0].Variants).To(HaveLen(2))
		Expect(l.Claims[0].Supersessions).To(BeEmpty())
		b, _ := l.Belief("b", "theft@1")
		Expect(b.Evidence).To(HaveLen(1))
		anc, err := l.Ancestry("theft@1#v1")
		Expect(err).NotTo(HaveOccurred())
		Expect([]string{anc[0].ID, anc[1].ID}).To(Equal([]string{"theft@1#v1", "theft@1#v0"}))
		l, err = read(file(story()...), 0)
		Expect(err).NotTo(HaveOccurred())
		Expect(l.Claims).To(BeEmpty())
		_, err = l.Ancestry("theft@1#v0")
		Expect(err).To(MatchError("variant theft@1#v0 is not in the trace's variant records"))
	})

	DescribeTable("refuses a trace it cannot place, naming the line",
		func(edit func([]rec) []rec, want string) {
			_, err := read(file(edit(story())...), -1)
			Expect(err).To(MatchError(want))
		},
		Entry("a variant of no event", func(r []rec) []rec { return r[1:] },
			"trace line 2: variant record: variant theft@1#v0: no event theft@1 before it"),
		Entry("a variant before its predecessor", func(r []rec) []rec { return append(r[:1:1], r[4:]...) },
			"trace line 3: variant record: variant theft@1#v1: its predecessor theft@1#v0 was not minted before it"),
		Entry("evidence before the belief formed", func(r []rec) []rec { return append(r[:5:5], r[8:]...) },
			"trace line 7: belief record: b's belief in theft@1 is contested before it formed"),
		Entry("a belief formed twice", func(r []rec) []rec { return append(r[:4:4], r[3]) },
			"trace line 6: belief record: c's belief in theft@1 formed twice"),
		Entry("a contest of a claim never minted", func(r []rec) []rec {
			return append(r[:2:2], rec{5, trace.Supersession{Holder: "b", Claim: "theft@9", Loser: "theft@9#v1", Winner: "theft@9#v0", Via: "injected"}})
		}, "trace line 4: supersession record: a contest of theft@9, whose variants were never minted"),
		Entry("a belief change that heard something, without its evidence", func(r []rec) []rec {
			b := r[2].body.(trace.BeliefChange)
			b.Evidence = nil
			return append(r[:2:2], rec{1, b})
		}, "trace line 4: belief record: a's belief in theft@1 is formed without the evidence it heard"),
	)

	It("names a field of the wrong type", func() {
		data := bytes.Replace(file(story()...), []byte(`"counted":true`), []byte(`"counted":"yes"`), 1)
		_, err := read(data, -1)
		Expect(err).To(MatchError("trace line 4: belief record: evidence.counted is string, want a bool"))
	})

	It("says a trace written before variant records cannot draw a tree, rather than drawing none", func() {
		var old []rec
		for _, r := range story() {
			if _, ok := r.body.(trace.Variant); !ok {
				old = append(old, r)
			}
		}
		_, err := read(file(old[:4]...), -1)
		Expect(err).To(MatchError(lineage.ErrNoVariants))
		// Older still: belief records without their evidence.
		for i, r := range old {
			if b, ok := r.body.(trace.BeliefChange); ok {
				b.Evidence = nil
				old[i].body = b
			}
		}
		_, err = read(file(old...), -1)
		Expect(err).To(MatchError(lineage.ErrNoVariants))
		_, err = read(file(old[:3]...), -1)
		Expect(err).To(MatchError(lineage.ErrNoVariants), "the first belief without its evidence says so")
		l, err := read(file(), -1)
		Expect(err).NotTo(HaveOccurred(), "a run that minted nothing has an empty lineage")
		Expect(l.Claims).To(BeEmpty())
	})
})

var _ = Describe("Provenance.Write", func() {
	It("spells a belief's account, its evidence and the held variant's lineage", func() {
		l, err := read(file(story()...), -1)
		Expect(err).NotTo(HaveOccurred())
		b, _ := l.Belief("b", "theft@1")
		anc, err := l.Ancestry("theft@1#v1")
		Expect(err).NotTo(HaveOccurred())
		p := lineage.Provenance{Holder: "b", Claim: "theft@1", Tick: 6, Variant: "theft@1#v1", Confidence: 0.6, Verbatim: 0.5, Gist: 0.75, Stage: "heard",
			FormedAt: b.FormedAt, Anchor: b.Anchor, Origins: b.Origins, Evidence: b.Evidence[:1], Lineage: anc}
		var out bytes.Buffer
		p.Write(&out)
		Expect(out.String()).To(Equal(`belief(b, theft@1) as of tick 6
  variant     theft@1#v1
  confidence  0.6
  verbatim    0.5   gist 0.75   stage heard
  formed at   tick 3; last reinforced at tick 6
  origins     [a] (distinct eyewitnesses counted towards confidence)
  evidence
    1. tick 3, reported: heard from a, chain a, via encounter@3/market/[a,b], confidence 0.72, counted
  variant lineage
    theft@1#v1 from theft@1#v0 by item: ring → sword (mutation:memory, by a at tick 3)
    theft@1#v0 (what happened)
`))
	})
})
