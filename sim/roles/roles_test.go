package roles_test

import (
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/roles"
	"github.com/chronicle/ladder/sim/schedule"
)

func court() []roles.Role {
	return []roles.Role{
		{ID: "steward", Faction: "court", Appointer: "jarl", Holder: "proventus",
			Duties: []schedule.Block{{At: "hall", From: 8, To: 18, Every: 24, Until: schedule.Forever}}},
		{ID: "jarl", Faction: "court", Holder: "balgruuf"},
	}
}

var _ = Describe("references", func() {
	It("name a role as role:<id>, and nothing else parses as one", func() {
		Expect(roles.Ref("steward")).To(Equal("role:steward"))
		id, ok := roles.Parse("role:steward")
		Expect(ok).To(BeTrue())
		Expect(id).To(Equal("steward"))
		for _, s := range []string{"steward", "role:", "roles:steward", ""} {
			_, ok := roles.Parse(s)
			Expect(ok).To(BeFalse(), s)
		}
		Expect(roles.DutyID("steward", 1)).To(Equal("duties:steward:1"))
	})
})

var _ = Describe("Book", func() {
	It("holds the roles sorted by id and resolves references through them, to the holder or to nobody", func() {
		b, err := roles.NewBook(court())
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Len()).To(Equal(2))
		Expect([]string{b.All()[0].ID, b.All()[1].ID}).To(Equal([]string{"jarl", "steward"}))
		who, ok := b.Resolve("role:steward")
		Expect(ok).To(BeTrue())
		Expect(who).To(Equal("proventus"))
		who, ok = b.Resolve("player")
		Expect(ok).To(BeTrue())
		Expect(who).To(Equal("player"), "not a reference: itself")
		_, ok = b.Resolve("role:mage")
		Expect(ok).To(BeFalse())
		r, ok := b.Of("proventus")
		Expect(ok).To(BeTrue())
		Expect(r.ID).To(Equal("steward"))

		r, err = b.Vacate("steward", 12)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Vacant()).To(BeTrue())
		Expect(r.Previous).To(Equal("proventus"))
		Expect(r.Since).To(Equal(int64(12)))
		who, _ = b.Resolve("role:steward")
		Expect(who).To(BeEmpty(), "vacant: the reference resolves to nobody")
		_, ok = b.Of("proventus")
		Expect(ok).To(BeFalse())

		r, err = b.Appoint("steward", "irileth", 36)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Holder).To(Equal("irileth"))
		Expect(r.Since).To(Equal(int64(36)))
		Expect(r.Previous).To(Equal("proventus"), "the last holder before the vacancy")
		who, _ = b.Resolve("role:steward")
		Expect(who).To(Equal("irileth"))
	})

	DescribeTable("refuses a book that cannot be run",
		func(edit func([]roles.Role) []roles.Role, want string) {
			_, err := roles.NewBook(edit(court()))
			Expect(err).To(MatchError(want))
		},
		Entry("a role twice", func(rs []roles.Role) []roles.Role { return append(rs, roles.Role{ID: "jarl"}) }, `role "jarl" is declared twice`),
		Entry("no id", func(rs []roles.Role) []roles.Role { return append(rs, roles.Role{}) }, "a role has no id"),
		Entry("an unknown appointer", func(rs []roles.Role) []roles.Role { rs[0].Appointer = "king"; return rs }, `role steward: appointer "king" is not a declared role`),
		Entry("a role appointing itself", func(rs []roles.Role) []roles.Role { rs[0].Appointer = "steward"; return rs }, "role steward appoints itself"),
		Entry("one NPC in two roles", func(rs []roles.Role) []roles.Role { rs[1].Holder = "proventus"; return rs }, "proventus holds two roles, steward and jarl"),
		Entry("a bad duty", func(rs []roles.Role) []roles.Role { rs[0].Duties[0].To = 8; return rs }, "role steward: duty 0: block range [8, 8) is empty or negative"),
	)

	It("refuses to vacate a vacant role, to fill a held one, or to give one NPC two", func() {
		b, err := roles.NewBook(court())
		Expect(err).NotTo(HaveOccurred())
		_, err = b.Appoint("steward", "irileth", 1)
		Expect(err).To(MatchError("appoint: role steward is held by proventus"))
		_, err = b.Vacate("steward", 2)
		Expect(err).NotTo(HaveOccurred())
		_, err = b.Vacate("steward", 3)
		Expect(err).To(MatchError("vacate: role steward is vacant already"))
		_, err = b.Appoint("steward", "balgruuf", 4)
		Expect(err).To(MatchError("appoint: balgruuf holds jarl already"))
		_, err = b.Appoint("steward", "", 4)
		Expect(err).To(MatchError("appoint: role steward to nobody"))
		_, err = b.Vacate("mage", 4)
		Expect(err).To(MatchError(`vacate: no role "mage"`))
	})
})

var _ = Describe("succession scores", func() {
	It("adds the kin bonus to the trust, once rounded", func() {
		Expect(roles.Score(0.5, true, 0.25)).To(Equal(0.75))
		Expect(roles.Score(0.9, false, 0.25)).To(Equal(0.9))
		Expect(roles.Score(0.1, true, 0.2)).To(Equal(0.30000000000000004), "one IEEE addition, not the exact sum")
	})

	It("keeps every candidate that shares the top score bit for bit, in the order given", func() {
		top := roles.Top([]roles.Candidate{{NPC: "a", Score: 0.75}, {NPC: "b", Score: 0.9}, {NPC: "c", Score: 0.75}, {NPC: "d", Score: 0.9}})
		Expect(top).To(Equal([]roles.Candidate{{NPC: "b", Score: 0.9}, {NPC: "d", Score: 0.9}}))
		Expect(roles.Top([]roles.Candidate{{NPC: "a", Score: 0.30000000000000004}, {NPC: "b", Score: 0.3}})).To(HaveLen(1), "bits, not tolerance")
		Expect(roles.Top(nil)).To(BeEmpty())
		Expect(roles.Top([]roles.Candidate{{NPC: "a", Score: math.Inf(-1)}})).To(HaveLen(1))
	})
})
