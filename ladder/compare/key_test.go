package compare_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/compare"
)

var _ = Describe("ParseKey", func() {
	DescribeTable("splits a key as the trace writes it",
		func(s string, want compare.Key) {
			k, err := compare.ParseKey(s)
			Expect(err).NotTo(HaveOccurred())
			Expect(k).To(Equal(want))
			Expect(k.String()).To(Equal(s))
		},
		Entry("an encounter", "encounter@12/whiterun_market/[neighbor,witness]",
			compare.Key{Purpose: "encounter", Tick: 12, Site: "whiterun_market", Participants: []string{"neighbor", "witness"}}),
		Entry("a directed roll keeps its order", "mutation-value@4/market/[ralof,neighbor]",
			compare.Key{Purpose: "mutation-value", Tick: 4, Site: "market", Participants: []string{"ralof", "neighbor"}}),
		Entry("no site, no participants", "p@0//[]", compare.Key{Purpose: "p", Tick: 0}),
		Entry("ids with punctuation", "succession@7/hall:1/[a.b,c~d]", compare.Key{Purpose: "succession", Tick: 7, Site: "hall:1", Participants: []string{"a.b", "c~d"}}),
	)

	DescribeTable("refuses what is not a key",
		func(s, want string) {
			_, err := compare.ParseKey(s)
			Expect(err).To(MatchError(want))
		},
		Entry("no purpose", "@1/m/[a]", `roll key "@1/m/[a]": want purpose@tick/site/[participants]`),
		Entry("no tick", "encounter/m/[a]", `roll key "encounter/m/[a]": want purpose@tick/site/[participants]`),
		Entry("a tick that is not one", "e@x/m/[a]", `roll key "e@x/m/[a]": tick "x" is not a tick`),
		Entry("a negative tick", "e@-1/m/[a]", `roll key "e@-1/m/[a]": tick "-1" is not a tick`),
		Entry("a padded tick", "e@01/m/[a]", `roll key "e@01/m/[a]": tick "01" is not a tick`),
		Entry("no site", "e@1", `roll key "e@1": no site after the tick`),
		Entry("no participant list", "e@1/m", `roll key "e@1/m": want the participants as [a,b] after the site`),
		Entry("an empty participant", "e@1/m/[a,]", `roll key "e@1/m/[a,]": participant "" is not an id`),
		Entry("a bracket in the site", "e@1/m]/[a]", `roll key "e@1/m]/[a]": site "m]" is not an id`),
		Entry("a slash in a participant", "e@1/m/[a/b]", `roll key "e@1/m/[a/b]": participant "a/b" is not an id`),
	)

	It("says whether an NPC takes part", func() {
		k, err := compare.ParseKey("encounter@1/m/[a,b]")
		Expect(err).NotTo(HaveOccurred())
		Expect(k.Involves("b")).To(BeTrue())
		Expect(k.Involves("c")).To(BeFalse())
	})
})
