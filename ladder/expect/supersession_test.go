package expect_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/sim/claims"
)

var _ = Describe("supersession", func() {
	var w *fakeWorld
	BeforeEach(func() {
		w = newFakeWorld(map[string]string{"w": "whiterun", "carrier": "whiterun", "m1": "markarth"})
		_, err := w.store.MintClaim("theft@1", "theft", 1, claims.Slots{{Name: "item", Type: claims.ItemSlot, Value: "sweetroll"}})
		Expect(err).NotTo(HaveOccurred())
		_, err = w.store.Derive("theft@1#v0", []claims.Change{{Slot: "item", From: "sweetroll", To: "apple"}}, claims.Origin{Reason: "witness-disagrees"})
		Expect(err).NotTo(HaveOccurred())
		_, err = w.store.Witness("w", "theft@1#v0", 1, 0.9, "theft@1")
		Expect(err).NotTo(HaveOccurred())
		_, err = w.store.Hear("carrier", claims.Testimony{Teller: "m1", Chain: []string{"m1"}, Variant: "theft@1#v1", Tick: 1, Via: "e1", Confidence: 0.72})
		Expect(err).NotTo(HaveOccurred())
	})

	// contest has the carrier hear w's eyewitness version at tick 3: it
	// switches from v1 to v0.
	contest := func() {
		GinkgoHelper()
		_, err := w.store.Resolve("carrier", claims.Testimony{Teller: "w", Chain: []string{"w"}, Variant: "theft@1#v0", Tick: 3, Via: "e3", Confidence: 0.72},
			claims.Side{Variant: "theft@1#v0", Terminal: claims.Witnessed, Strength: 0.9}, 0.1)
		Expect(err).NotTo(HaveOccurred())
	}

	run := func(item string, ticks ...int64) expect.Result {
		GinkgoHelper()
		r := expect.Start(decode(item))
		for _, t := range ticks {
			if t == 3 {
				contest()
			}
			w.tick = t
			r.Tick(w)
		}
		return r.Finish()[0]
	}

	It("finds the store's record, every field compared, and counts what it examined", func() {
		res := run(`{from: 3, supersession: {holder: carrier, claim: theft@1, loser: "theft@1#v1", winner: "theft@1#v0", kept: false, via: e3, tick: 3, count: 1}}`, 2, 3, 4)
		Expect(res.Passed).To(BeTrue(), res.Message)
		Expect(res.Examined).To(Equal(int64(1)), "the one record, read once at tick 3: records only accumulate")
	})

	DescribeTable("fails when a field differs, naming what the store holds",
		func(item, message string) {
			res := run(item, 3)
			Expect(res.Passed).To(BeFalse())
			Expect(res.Message).To(Equal(message))
		},
		Entry("kept", `{at: 3, supersession: {holder: carrier, kept: true}}`,
			"no supersession record matches {holder: carrier, kept: true}; the store holds [{holder: carrier, claim: theft@1, loser: theft@1#v1, winner: theft@1#v0, kept: false, via: e3, tick: 3}]"),
		Entry("winner", `{at: 3, supersession: {holder: carrier, loser: "theft@1#v0", winner: "theft@1#v1"}}`,
			"no supersession record matches {holder: carrier, loser: theft@1#v0, winner: theft@1#v1}; the store holds [{holder: carrier, claim: theft@1, loser: theft@1#v1, winner: theft@1#v0, kept: false, via: e3, tick: 3}]"),
		Entry("holder", `{at: 3, supersession: {holder: w}}`,
			"no supersession record matches {holder: w}; the store holds [{holder: carrier, claim: theft@1, loser: theft@1#v1, winner: theft@1#v0, kept: false, via: e3, tick: 3}]"),
		Entry("tick", `{at: 3, supersession: {holder: carrier, tick: 4}}`,
			"no supersession record matches {holder: carrier, tick: 4}; the store holds [{holder: carrier, claim: theft@1, loser: theft@1#v1, winner: theft@1#v0, kept: false, via: e3, tick: 3}]"),
		Entry("via", `{at: 3, supersession: {holder: carrier, via: e1}}`,
			"no supersession record matches {holder: carrier, via: e1}; the store holds [{holder: carrier, claim: theft@1, loser: theft@1#v1, winner: theft@1#v0, kept: false, via: e3, tick: 3}]"),
		Entry("count", `{at: 3, supersession: {holder: carrier, count: 2}}`,
			"1 supersession records match {holder: carrier}, want 2; the store holds [{holder: carrier, claim: theft@1, loser: theft@1#v1, winner: theft@1#v0, kept: false, via: e3, tick: 3}]"),
		Entry("count: 0", `{at: 3, supersession: {holder: carrier, count: 0}}`,
			"1 supersession records match {holder: carrier}, want 0; the store holds [{holder: carrier, claim: theft@1, loser: theft@1#v1, winner: theft@1#v0, kept: false, via: e3, tick: 3}]"),
	)

	It("fails before the contest, when the store holds nothing yet", func() {
		res := run(`{from: 2, supersession: {holder: carrier}}`, 2, 3)
		Expect(res.Passed).To(BeFalse())
		Expect(res.Tick).To(Equal(int64(2)))
		Expect(res.Message).To(Equal("no supersession record matches {holder: carrier}; the store holds none"))
	})

	DescribeTable("passes a count of none that could have matched: its holder held the claim, its variants and via were in the store",
		func(item string) {
			res := run(item, 3, 4, 5)
			Expect(res.Passed).To(BeTrue(), res.Message)
		},
		Entry("a holder who held the claim", `{from: 3, supersession: {holder: w, count: 0}}`),
		Entry("a variant in the store", `{from: 3, supersession: {holder: carrier, winner: "theft@1#v1", count: 0}}`),
		Entry("a via a record came by", `{from: 3, supersession: {holder: w, via: e3, count: 0}}`),
	)

	DescribeTable("fails a count of none that could not have matched, saying why",
		func(item, why string) {
			res := run(item, 3, 4, 5)
			Expect(res.Passed).To(BeFalse())
			Expect(res.Message).To(Equal("could not have matched: " + why + " — a negative must examine something that could have matched " +
				"(examined 1 supersession records in the store in ticks [3, 9])"))
		},
		Entry("a holder who never held the claim",
			`{from: 3, supersession: {holder: m1, claim: theft@1, count: 0}}`,
			"m1 held no belief in theft@1 at any checked tick, so they had no contest of it"),
		Entry("a holder who held nothing",
			`{from: 3, supersession: {holder: m1, count: 0}}`,
			"m1 held no belief at any checked tick, so they had no contest"),
		Entry("a variant never in the store",
			`{from: 3, supersession: {holder: carrier, winner: "theft@1#v5", count: 0}}`,
			"a variant the pattern names (theft@1#v5) was not in the store at any checked tick, so no contest could have named it"),
		Entry("a via no record came by",
			`{from: 3, supersession: {holder: carrier, via: e9, count: 0}}`,
			`no supersession record in the range came via "e9", so the pattern names nothing the run wrote`),
	)

	It("refuses count: 0 over a store with no supersession at all as checked nothing", func() {
		res := run(`{to: 2, supersession: {holder: carrier, count: 0}}`, 0, 1, 2)
		Expect(res.Passed).To(BeFalse())
		Expect(res.Message).To(Equal("checked nothing: examined 0 supersession records in the store in ticks [0, 2]"))
	})
})

var _ = Describe("variant predecessors", func() {
	var w *fakeWorld
	BeforeEach(func() {
		w = newFakeWorld(map[string]string{"w": "whiterun"})
		_, err := w.store.MintClaim("theft@1", "theft", 1, claims.Slots{
			{Name: "item", Type: claims.ItemSlot, Value: "sweetroll"}, {Name: "location", Type: claims.LocationSlot, Value: "market"}})
		Expect(err).NotTo(HaveOccurred())
		_, err = w.store.Derive("theft@1#v0", []claims.Change{{Slot: "item", From: "sweetroll", To: "apple"}}, claims.Origin{Reason: "mutation"})
		Expect(err).NotTo(HaveOccurred())
		_, err = w.store.Derive("theft@1#v1", []claims.Change{{Slot: "location", From: "market", To: "mine"}}, claims.Origin{Reason: "mutation"})
		Expect(err).NotTo(HaveOccurred())
	})

	check := func(item string) expect.Result {
		GinkgoHelper()
		r := expect.Start(decode(item))
		w.tick = 9
		r.Tick(w)
		return r.Finish()[0]
	}

	It("walks a lineage of depth two back to the original, nearest first", func() {
		res := check(`{variant: {id: "theft@1#v2", predecessor: "theft@1#v1", predecessors: ["theft@1#v1", "theft@1#v0"], diff: {location: [market, mine]}}}`)
		Expect(res.Passed).To(BeTrue(), res.Message)
		Expect(check(`{variant: {id: "theft@1#v0", predecessors: []}}`).Passed).To(BeTrue())
	})

	It("fails a chain that skips a generation, naming both chains", func() {
		res := check(`{variant: {id: "theft@1#v2", predecessors: ["theft@1#v0"]}}`)
		Expect(res.Passed).To(BeFalse())
		Expect(res.Message).To(Equal("variant theft@1#v2 predecessors = [theft@1#v1, theft@1#v0], want [theft@1#v0]"))
	})
})
