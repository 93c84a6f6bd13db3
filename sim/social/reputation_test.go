package social_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/social"
)

var _ = Describe("Reputation", func() {
	var r *social.Reputation
	BeforeEach(func() { r = social.NewReputation(social.Prior{Alpha: 1, Beta: 1, Weight: 1}) })

	It("has no row for an observer who received no evidence, not a prior row", func() {
		_, ok := r.Get("stranger", "player", "standing")
		Expect(ok).To(BeFalse())
		Expect(r.All()).To(BeEmpty())
	})

	It("adds the weight to α for evidence for and to β for evidence against", func() {
		o, moved, err := r.Add(social.Evidence{Observer: "guard", Subject: "player", Dimension: "standing", For: true, Claim: "title@5", Tick: 5})
		Expect(err).NotTo(HaveOccurred())
		Expect(moved).To(BeTrue())
		expectBits(o.Alpha, 2)
		expectBits(o.Beta, 1)
		expectBits(o.Mean(), 2.0/3)
		Expect(o.Updated).To(Equal(int64(5)), "the tick of the evidence that moved it")
		o, _, _ = r.Add(social.Evidence{Observer: "guard", Subject: "player", Dimension: "standing", For: false, Claim: "refusal@9"})
		expectBits(o.Beta, 2)
		expectBits(o.Counted, 2)
		expectBits(o.Alpha+o.Beta, 2+o.Counted)
	})

	It("counts the pieces of evidence for and against, and lists the (observer, claim) pairs counted, sorted", func() {
		for _, e := range []social.Evidence{
			{Observer: "guard", Subject: "player", Dimension: "standing", For: true, Claim: "title@5"},
			{Observer: "guard", Subject: "player", Dimension: "standing", For: false, Claim: "refusal@9"},
			{Observer: "guard", Subject: "player", Dimension: "standing", For: true, Claim: "title@12"},
			{Observer: "guard", Subject: "player", Dimension: "standing", For: true, Claim: "title@12"},
			{Observer: "aela", Subject: "player", Dimension: "standing", For: false, Claim: "refusal@9"},
		} {
			_, _, err := r.Add(e)
			Expect(err).NotTo(HaveOccurred())
		}
		o, _ := r.Get("guard", "player", "standing")
		Expect([]int64{o.For, o.Against}).To(Equal([]int64{2, 1}), "the repeat of title@12 is not counted")
		Expect(r.Counted()).To(Equal([][2]string{{"aela", "refusal@9"}, {"guard", "refusal@9"}, {"guard", "title@12"}, {"guard", "title@5"}}))
		Expect(r.CountedLen()).To(Equal(4))
	})

	It("counts each (observer, claim) once, however often it is heard", func() {
		e := social.Evidence{Observer: "guard", Subject: "player", Dimension: "standing", For: true, Claim: "title@5"}
		_, _, _ = r.Add(e)
		o, moved, err := r.Add(e)
		Expect(err).NotTo(HaveOccurred())
		Expect(moved).To(BeFalse())
		expectBits(o.Alpha, 2)
	})

	It("counts a claim once whatever subject it names, answering with the row it moved", func() {
		// An observer who believed the title went to hulda, then switched to
		// a variant naming the player, still holds one claim.
		_, _, _ = r.Add(social.Evidence{Observer: "guard", Subject: "hulda", Dimension: "standing", For: true, Claim: "title@5"})
		o, moved, err := r.Add(social.Evidence{Observer: "guard", Subject: "player", Dimension: "standing", For: true, Claim: "title@5"})
		Expect(err).NotTo(HaveOccurred())
		Expect(moved).To(BeFalse())
		Expect(o).NotTo(BeNil())
		Expect(o.Subject).To(Equal("hulda"), "the row the claim's evidence moved")
		expectBits(o.Alpha, 2)
		_, ok := r.Get("guard", "player", "standing")
		Expect(ok).To(BeFalse(), "no row for the new subject")
		Expect(r.CountedLen()).To(Equal(1))
	})

	It("keeps opinions observer-local: one observer's evidence moves nobody else", func() {
		_, _, _ = r.Add(social.Evidence{Observer: "a", Subject: "player", Dimension: "standing", For: true, Claim: "title@5"})
		_, ok := r.Get("b", "player", "standing")
		Expect(ok).To(BeFalse())
		Expect(r.All()).To(HaveLen(1))
	})

	It("lists opinions by observer, subject, dimension", func() {
		for _, e := range []social.Evidence{
			{Observer: "b", Subject: "p", Dimension: "standing", Claim: "1"},
			{Observer: "a", Subject: "q", Dimension: "standing", Claim: "2"},
			{Observer: "a", Subject: "p", Dimension: "standing", Claim: "3"},
			{Observer: "a", Subject: "p", Dimension: "reliability", Claim: "4"},
		} {
			_, _, err := r.Add(e)
			Expect(err).NotTo(HaveOccurred())
		}
		var got []string
		for _, o := range r.All() {
			got = append(got, o.Observer+"/"+o.Subject+"/"+o.Dimension)
		}
		Expect(got).To(Equal([]string{"a/p/reliability", "a/p/standing", "a/q/standing", "b/p/standing"}))
	})

	It("refuses an opinion of oneself", func() {
		_, _, err := r.Add(social.Evidence{Observer: "a", Subject: "a", Dimension: "standing", Claim: "x"})
		Expect(err).To(MatchError(ContainSubstring("in its own eyes")))
	})
})
