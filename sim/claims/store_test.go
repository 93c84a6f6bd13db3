package claims_test

import (
	"errors"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/claims"
)

var _ = Describe("Store.MintClaim", func() {
	It("mints one claim per event with its original variant v0", func() {
		s := claims.NewStore(memory)
		c, err := s.MintClaim(theft, "theft", 2, theftSlots())
		Expect(err).NotTo(HaveOccurred())

		sorted := claims.Slots{
			{Name: "actor", Type: claims.EntitySlot, Value: "player"},
			{Name: "item", Type: claims.ItemSlot, Value: "sweetroll"},
			{Name: "location", Type: claims.LocationSlot, Value: "whiterun_market"},
			{Name: "victim", Type: claims.EntitySlot, Value: "merchant"},
		}
		Expect(cmp.Diff(&claims.Claim{ID: theft, Kind: "theft", Tick: 2, Slots: sorted, Variant: v0}, c)).To(BeEmpty())

		v, ok := s.Variant(v0)
		Expect(ok).To(BeTrue())
		Expect(cmp.Diff(&claims.Variant{
			ID: v0, Claim: theft, Slots: sorted,
			Origin: claims.Origin{Reason: "event", Tick: 2},
		}, v)).To(BeEmpty())

		got, ok := s.Claim(theft)
		Expect(ok).To(BeTrue())
		Expect(got).To(BeIdenticalTo(c))
		Expect(s.VariantCount()).To(Equal(1))
		Expect(cmp.Diff(memory, s.Memory(), cmpopts.IgnoreUnexported(claims.Memory{}))).To(BeEmpty())
	})

	It("does not keep the caller's slot slice", func() {
		s := claims.NewStore(memory)
		in := theftSlots()
		c, err := s.MintClaim(theft, "theft", 2, in)
		Expect(err).NotTo(HaveOccurred())
		in[0].Value = "tampered"
		Expect(slotValue(c.Slots, "victim")).To(Equal("merchant"))
	})

	It("refuses a second claim for the same event with ErrDuplicateClaim and changes nothing", func() {
		s := newTheftStore()
		first, _ := s.Claim(theft)

		c, err := s.MintClaim(theft, "kill", 9, claims.Slots{{Name: "victim", Type: claims.EntitySlot, Value: "guard"}})
		Expect(err).To(MatchError(claims.ErrDuplicateClaim))
		Expect(errors.Is(err, claims.ErrDuplicateClaim)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring(theft))
		Expect(c).To(BeNil())

		again, _ := s.Claim(theft)
		Expect(again).To(BeIdenticalTo(first))
		Expect(again.Kind).To(Equal("theft"))
		Expect(s.ClaimIDs()).To(Equal([]string{theft}))
		Expect(s.VariantCount()).To(Equal(1))
		Expect(s.Variants(theft)).To(HaveLen(1))
	})

	It("lists claim ids sorted, as a copy", func() {
		s := claims.NewStore(memory)
		for _, id := range []string{"theft@9", "kill@3", "theft@10", "assault@5"} {
			_, err := s.MintClaim(id, "x", 1, nil)
			Expect(err).NotTo(HaveOccurred())
		}
		ids := s.ClaimIDs()
		Expect(ids).To(Equal([]string{"assault@5", "kill@3", "theft@10", "theft@9"}))
		ids[0] = "tampered"
		Expect(s.ClaimIDs()[0]).To(Equal("assault@5"))
	})

	It("reports unknown claims and variants as absent", func() {
		s := newTheftStore()
		_, ok := s.Claim("kill@1")
		Expect(ok).To(BeFalse())
		_, ok = s.Variant("theft@2#v7")
		Expect(ok).To(BeFalse())
	})
})

var _ = Describe("Slots", func() {
	It("finds slots by name and reports missing ones", func() {
		s := newTheftStore()
		c, _ := s.Claim(theft)
		sl, ok := c.Slots.Get("item")
		Expect(ok).To(BeTrue())
		Expect(sl).To(Equal(claims.Slot{Name: "item", Type: claims.ItemSlot, Value: "sweetroll"}))
		_, ok = c.Slots.Get("weapon")
		Expect(ok).To(BeFalse())
	})

	It("applies changes to a copy", func() {
		s := newTheftStore()
		c, _ := s.Claim(theft)
		out, err := c.Slots.Apply(itemSwap)
		Expect(err).NotTo(HaveOccurred())
		Expect(slotValue(out, "item")).To(Equal("apple"))
		Expect(slotValue(c.Slots, "item")).To(Equal("sweetroll"))
	})
})

var _ = Describe("Store.Derive", func() {
	var s *claims.Store
	origin := claims.Origin{Reason: "witness-disagrees", Holder: "witness", Tick: 2}

	BeforeEach(func() { s = newTheftStore() })

	It("creates v1 naming its predecessor, with the diff sorted by slot and the slots applied", func() {
		changes := []claims.Change{
			{Slot: "location", From: "whiterun_market", To: "riverwood"},
			{Slot: "actor", From: "player", To: "thief"},
		}
		v, err := s.Derive(v0, changes, origin)
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Diff(&claims.Variant{
			ID: v1, Claim: theft, Predecessor: v0,
			Diff: []claims.Change{
				{Slot: "actor", From: "player", To: "thief"},
				{Slot: "location", From: "whiterun_market", To: "riverwood"},
			},
			Slots: claims.Slots{
				{Name: "actor", Type: claims.EntitySlot, Value: "thief"},
				{Name: "item", Type: claims.ItemSlot, Value: "sweetroll"},
				{Name: "location", Type: claims.LocationSlot, Value: "riverwood"},
				{Name: "victim", Type: claims.EntitySlot, Value: "merchant"},
			},
			Origin: origin,
		}, v)).To(BeEmpty())

		By("leaving the caller's change slice and the predecessor untouched")
		Expect(changes[0].Slot).To(Equal("location"))
		p, _ := s.Variant(v0)
		Expect(slotValue(p.Slots, "actor")).To(Equal("player"))
		Expect(slotValue(p.Slots, "location")).To(Equal("whiterun_market"))
		c, _ := s.Claim(theft)
		Expect(slotValue(c.Slots, "actor")).To(Equal("player"))
	})

	It("returns the same variant when the same step is taken twice, whatever the order or origin", func() {
		a, err := s.Derive(v0, []claims.Change{
			{Slot: "item", From: "sweetroll", To: "apple"},
			{Slot: "actor", From: "player", To: "thief"},
		}, origin)
		Expect(err).NotTo(HaveOccurred())
		b, err := s.Derive(v0, []claims.Change{
			{Slot: "actor", From: "player", To: "thief"},
			{Slot: "item", From: "sweetroll", To: "apple"},
		}, claims.Origin{Reason: "mutation", Holder: "gossip", Tick: 40})
		Expect(err).NotTo(HaveOccurred())
		Expect(b).To(BeIdenticalTo(a))
		Expect(b.Origin).To(Equal(origin), "the first lineage step keeps its origin")
		Expect(s.VariantCount()).To(Equal(2))

		By("not consuming a variant number")
		c, err := s.Derive(v0, itemSwap, origin)
		Expect(err).NotTo(HaveOccurred())
		Expect(c.ID).To(Equal(v2))
	})

	It("creates a new variant for the same diff from a different predecessor", func() {
		a, err := s.Derive(v0, []claims.Change{{Slot: "actor", From: "player", To: "thief"}}, origin)
		Expect(err).NotTo(HaveOccurred())
		b, err := s.Derive(a.ID, itemSwap, origin)
		Expect(err).NotTo(HaveOccurred())
		c, err := s.Derive(v0, itemSwap, origin)
		Expect(err).NotTo(HaveOccurred())
		Expect([]string{a.ID, b.ID, c.ID}).To(Equal([]string{v1, v2, "theft@2#v3"}))
		Expect(b.Predecessor).To(Equal(v1))
		Expect(slotValue(b.Slots, "actor")).To(Equal("thief"))
		Expect(slotValue(c.Slots, "actor")).To(Equal("player"))
	})

	DescribeTable("rejects invalid steps without minting anything",
		func(predecessor string, changes []claims.Change, is error, mentions string) {
			v, err := s.Derive(predecessor, changes, origin)
			Expect(err).To(HaveOccurred())
			Expect(v).To(BeNil())
			if is != nil {
				Expect(err).To(MatchError(is))
			}
			Expect(err.Error()).To(ContainSubstring(mentions))
			Expect(s.VariantCount()).To(Equal(1))
			Expect(s.Variants(theft)).To(HaveLen(1))

			By("leaving the next variant number free")
			next, err := s.Derive(v0, itemSwap, origin)
			Expect(err).NotTo(HaveOccurred())
			Expect(next.ID).To(Equal(v1))
		},
		Entry("unknown slot", v0, []claims.Change{{Slot: "weapon", From: "dagger", To: "axe"}}, nil, `no slot "weapon"`),
		Entry("wrong From", v0, []claims.Change{{Slot: "item", From: "apple", To: "bread"}}, nil, `slot "item" is "sweetroll", not "apple"`),
		Entry("To equal to From", v0, []claims.Change{{Slot: "item", From: "sweetroll", To: "sweetroll"}}, nil, `change from "sweetroll" to itself`),
		Entry("slot changed twice", v0, []claims.Change{
			{Slot: "item", From: "sweetroll", To: "apple"},
			{Slot: "actor", From: "player", To: "thief"},
			{Slot: "item", From: "apple", To: "bread"},
		}, nil, `slot "item" changed twice`),
		Entry("empty diff", v0, []claims.Change{}, nil, "at least one changed slot"),
		Entry("nil diff", v0, nil, nil, "at least one changed slot"),
		Entry("unknown predecessor", "theft@2#v9", itemSwap, claims.ErrUnknownVariant, "theft@2#v9"),
		Entry("predecessor of an unknown claim", "kill@1#v0", itemSwap, claims.ErrUnknownVariant, "kill@1#v0"),
	)
})

var _ = Describe("Store.Variants", func() {
	It("lists a claim's variants in creation order, v0 first, apart from other claims", func() {
		s := newTheftStore()
		_, err := s.MintClaim("kill@5", "kill", 5, claims.Slots{{Name: "victim", Type: claims.EntitySlot, Value: "guard"}})
		Expect(err).NotTo(HaveOccurred())

		_, err = s.Derive(v0, []claims.Change{{Slot: "location", From: "whiterun_market", To: "riverwood"}}, claims.Origin{Reason: "mutation"})
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Derive("kill@5#v0", []claims.Change{{Slot: "victim", From: "guard", To: "bard"}}, claims.Origin{Reason: "mutation"})
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Derive(v1, []claims.Change{{Slot: "actor", From: "player", To: "thief"}}, claims.Origin{Reason: "mutation"})
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Derive(v0, []claims.Change{{Slot: "actor", From: "player", To: "beggar"}}, claims.Origin{Reason: "mutation"})
		Expect(err).NotTo(HaveOccurred())

		ids := func(vs []*claims.Variant) []string {
			out := make([]string, len(vs))
			for i, v := range vs {
				out[i] = v.ID
			}
			return out
		}
		Expect(ids(s.Variants(theft))).To(Equal([]string{v0, v1, v2, "theft@2#v3"}))
		Expect(ids(s.Variants("kill@5"))).To(Equal([]string{"kill@5#v0", "kill@5#v1"}))
		Expect(s.Variants("nothing@0")).To(BeEmpty())
		Expect(s.VariantCount()).To(Equal(6))
	})
})

var _ = Describe("Store.Witness", func() {
	It("forms a heard belief at the given confidence with one counted witnessed evidence", func() {
		s := newTheftStore()
		b, err := s.Witness("witness", v0, 2, 0.9, theft)
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Diff(&claims.Belief{
			Holder: "witness", Claim: theft, Variant: v0, Confidence: 0.9,
			FormedAt: 2, Anchor: 2, Stage: claims.Heard,
			Evidence: []claims.Evidence{{Type: claims.Witnessed, Tick: 2, Variant: v0, Via: theft, Confidence: 0.9, Counted: true}},
			Origins:  []string{"witness"},
		}, b)).To(BeEmpty())
		Expect(b.SourceChain()).To(BeEmpty())
		Expect(b.Evidence[0].Root("witness")).To(Equal("witness"))

		got, ok := s.Belief("witness", theft)
		Expect(ok).To(BeTrue())
		Expect(got).To(BeIdenticalTo(b))
		Expect(s.BeliefCount()).To(Equal(1))
		Expect(s.Holders(theft)).To(Equal([]string{"witness"}))
		Expect(s.Held("witness")).To(Equal([]string{theft}))
	})

	It("can witness a derived variant, believing the claim it belongs to", func() {
		s := newTheftStore()
		_, err := s.Derive(v0, itemSwap, claims.Origin{Reason: "witness-disagrees", Holder: "w2", Tick: 2})
		Expect(err).NotTo(HaveOccurred())
		b, err := s.Witness("w2", v1, 2, 0.9, theft)
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Claim).To(Equal(theft))
		Expect(b.Variant).To(Equal(v1))
	})

	It("refuses an unknown variant with ErrUnknownVariant", func() {
		s := newTheftStore()
		_, err := s.Witness("witness", "theft@2#v5", 2, 0.9, theft)
		Expect(err).To(MatchError(claims.ErrUnknownVariant))
		Expect(s.BeliefCount()).To(BeZero())
		Expect(s.Holders(theft)).To(BeEmpty())
	})
})

var _ = Describe("Store.Hear", func() {
	It("forms a heard belief whose evidence carries the teller and the full chain", func() {
		s := newTheftStore()
		chain := []string{"witness", "gossip"}
		b, err := s.Hear("listener", claims.Testimony{Teller: "gossip", Chain: chain, Variant: v0, Tick: 7, Via: "encounter@7/market/[gossip,listener]", Confidence: 0.576})
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Diff(&claims.Belief{
			Holder: "listener", Claim: theft, Variant: v0, Confidence: 0.576,
			FormedAt: 7, Anchor: 7, Stage: claims.Heard,
			Evidence: []claims.Evidence{{
				Type: claims.Reported, Tick: 7, Variant: v0, Source: "gossip", Chain: []string{"witness", "gossip"},
				Via: "encounter@7/market/[gossip,listener]", Confidence: 0.576, Counted: true,
			}},
			Origins: []string{"witness"},
		}, b)).To(BeEmpty())

		By("copying the chain in and out")
		chain[0] = "tampered"
		Expect(b.Evidence[0].Chain).To(Equal([]string{"witness", "gossip"}))
		sc := b.SourceChain()
		Expect(sc).To(Equal([]string{"witness", "gossip"}))
		sc[0] = "tampered"
		Expect(b.SourceChain()).To(Equal([]string{"witness", "gossip"}))
		Expect(b.Evidence[0].Root("listener")).To(Equal("witness"))
	})

	DescribeTable("requires the chain to end with the teller",
		func(teller string, chain []string) {
			s := newTheftStore()
			b, err := s.Hear("listener", claims.Testimony{Teller: teller, Chain: chain, Variant: v0, Tick: 7, Via: "x", Confidence: 0.5})
			Expect(err).To(MatchError(ContainSubstring("must end with the teller")))
			Expect(b).To(BeNil())
			Expect(s.BeliefCount()).To(BeZero())
			Expect(s.Holders(theft)).To(BeEmpty())
			Expect(s.Held("listener")).To(BeEmpty())
		},
		Entry("nil chain", "gossip", nil),
		Entry("empty chain", "gossip", []string{}),
		Entry("chain ending elsewhere", "gossip", []string{"gossip", "witness"}),
		Entry("chain without the teller", "gossip", []string{"witness"}),
		Entry("empty teller against a chain", "", []string{"witness"}),
	)

	It("accepts a chain that is just the teller (the teller is the eyewitness)", func() {
		s := newTheftStore()
		b, err := s.Hear("listener", report([]string{"witness"}, 5, 0.72))
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Origins).To(Equal([]string{"witness"}))
	})

	It("refuses an unknown variant with ErrUnknownVariant", func() {
		s := newTheftStore()
		t := report([]string{"witness"}, 5, 0.72)
		t.Variant = "theft@2#v3"
		_, err := s.Hear("listener", t)
		Expect(err).To(MatchError(claims.ErrUnknownVariant))
		Expect(s.BeliefCount()).To(BeZero())
	})
})

var _ = Describe("one belief per (holder, claim)", func() {
	type step func(s *claims.Store) (*claims.Belief, error)
	witness := func(variant string) step {
		return func(s *claims.Store) (*claims.Belief, error) { return s.Witness("npc", variant, 2, 0.9, theft) }
	}
	hear := func(teller, variant string) step {
		return func(s *claims.Store) (*claims.Belief, error) {
			return s.Hear("npc", claims.Testimony{Teller: teller, Chain: []string{teller}, Variant: variant, Tick: 5, Via: "e", Confidence: 0.72})
		}
	}

	DescribeTable("every path to a second belief is ErrDuplicateBelief and leaves the first untouched",
		func(first, second step) {
			s := newTheftStore()
			_, err := s.Derive(v0, itemSwap, claims.Origin{Reason: "mutation"})
			Expect(err).NotTo(HaveOccurred())
			b, err := first(s)
			Expect(err).NotTo(HaveOccurred())
			snapshot := *b
			snapshot.Evidence = append([]claims.Evidence(nil), b.Evidence...)
			snapshot.Origins = append([]string(nil), b.Origins...)

			again, err := second(s)
			Expect(err).To(MatchError(claims.ErrDuplicateBelief))
			Expect(errors.Is(err, claims.ErrDuplicateBelief)).To(BeTrue())
			Expect(again).To(BeNil())

			got, ok := s.Belief("npc", theft)
			Expect(ok).To(BeTrue())
			Expect(got).To(BeIdenticalTo(b))
			Expect(cmp.Diff(&snapshot, got)).To(BeEmpty())
			Expect(s.BeliefCount()).To(Equal(1))
			Expect(s.Holders(theft)).To(Equal([]string{"npc"}))
			Expect(s.Held("npc")).To(Equal([]string{theft}))
		},
		Entry("witness, then witness the same variant", witness(v0), witness(v0)),
		Entry("witness, then witness another variant", witness(v0), witness(v1)),
		Entry("witness, then hear", witness(v0), hear("gossip", v0)),
		Entry("witness, then hear another variant", witness(v0), hear("gossip", v1)),
		Entry("hear, then witness", hear("gossip", v0), witness(v0)),
		Entry("hear, then witness another variant", hear("gossip", v0), witness(v1)),
		Entry("hear, then hear from another teller", hear("gossip", v0), hear("bard", v0)),
		Entry("hear, then hear another variant", hear("gossip", v0), hear("bard", v1)),
	)

	It("lets the same holder believe two different claims and two holders believe one claim", func() {
		s := newTheftStore()
		_, err := s.MintClaim("kill@5", "kill", 5, nil)
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Witness("npc", v0, 2, 0.9, theft)
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Witness("npc", "kill@5#v0", 5, 0.9, "kill@5")
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Witness("other", v0, 2, 0.9, theft)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.BeliefCount()).To(Equal(3))
	})
})

var _ = Describe("Store.Holders and Store.Held", func() {
	It("list sorted names whatever the order beliefs formed in, as copies", func() {
		s := newTheftStore()
		for _, id := range []string{"kill@5", "assault@9"} {
			_, err := s.MintClaim(id, "x", 5, nil)
			Expect(err).NotTo(HaveOccurred())
		}
		for _, h := range []string{"zed", "amy", "mo", "bo"} {
			_, err := s.Witness(h, v0, 2, 0.9, theft)
			Expect(err).NotTo(HaveOccurred())
		}
		for _, c := range []string{"kill@5", theft, "assault@9"} {
			if c == theft {
				continue // amy already believes it
			}
			_, err := s.Witness("amy", c+"#v0", 5, 0.9, c)
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(s.Holders(theft)).To(Equal([]string{"amy", "bo", "mo", "zed"}))
		Expect(s.Held("amy")).To(Equal([]string{"assault@9", "kill@5", theft}))
		Expect(s.Held("zed")).To(Equal([]string{theft}))
		Expect(s.Holders("kill@5")).To(Equal([]string{"amy"}))
		Expect(s.Holders("nothing@1")).To(BeEmpty())
		Expect(s.Held("nobody")).To(BeEmpty())

		h := s.Holders(theft)
		h[0] = "tampered"
		Expect(s.Holders(theft)[0]).To(Equal("amy"))
		held := s.Held("amy")
		held[0] = "tampered"
		Expect(s.Held("amy")[0]).To(Equal("assault@9"))
	})
})

var _ = Describe("Store.Repeat", func() {
	It("moves the stored stage to repeated once and reports whether it changed", func() {
		s := newTheftStore()
		b, err := s.Witness("witness", v0, 2, 0.9, theft)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Repeat("witness", theft)).To(BeTrue())
		Expect(b.Stage).To(Equal(claims.Repeated))
		Expect(b.StageAt(3, memory)).To(Equal(claims.Repeated))
		Expect(s.Repeat("witness", theft)).To(BeFalse())
		Expect(b.Stage).To(Equal(claims.Repeated))
	})

	It("reports false without a belief", func() {
		s := newTheftStore()
		Expect(s.Repeat("nobody", theft)).To(BeFalse())
		Expect(s.Repeat("nobody", "nothing@1")).To(BeFalse())
		Expect(s.BeliefCount()).To(BeZero())
	})
})
