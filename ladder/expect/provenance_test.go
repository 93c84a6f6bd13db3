package expect_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/sim/claims"
)

var _ = Describe("provenance by: encounter", func() {
	var w *fakeWorld
	BeforeEach(func() {
		w = newFakeWorld(map[string]string{"w": "whiterun", "carrier": "whiterun", "m1": "markarth"})
		_, err := w.store.MintClaim("theft@1", "theft", 1, claims.Slots{{Name: "item", Type: claims.ItemSlot, Value: "sweetroll"}})
		Expect(err).NotTo(HaveOccurred())
		_, err = w.store.Witness("w", "theft@1#v0", 1, 0.9, "theft@1")
		Expect(err).NotTo(HaveOccurred())
	})

	judge := func(item string) expect.Result {
		GinkgoHelper()
		r := expect.Start(decode(item))
		w.tick = 2
		r.Tick(w)
		return r.Finish()[0]
	}
	tell := func(via string) {
		GinkgoHelper()
		_, err := w.store.Hear("carrier", claims.Testimony{Teller: "w", Chain: []string{"w"}, Variant: "theft@1#v0", Tick: 2, Via: via, Confidence: 0.72})
		Expect(err).NotTo(HaveOccurred())
	}
	const item = "{at: 2, provenance: {claim: theft@1, by: encounter}}"

	It("passes when a report came through an encounter", func() {
		tell("encounter@2/market/[carrier,w]")
		res := judge(item)
		Expect(res.Passed).To(BeTrue(), res.Message)
		Expect(res.Examined).To(Equal(int64(2)))
	})

	It("fails a report that came another way", func() {
		tell("injected")
		res := judge(item)
		Expect(res.Passed).To(BeFalse())
		Expect(res.Message).To(Equal("carrier's evidence[0] for theft@1 came via injected, not an encounter"))
	})

	It("fails as could not have matched when nobody was told: every record it examined was witnessed", func() {
		res := judge(item)
		Expect(res.Passed).To(BeFalse())
		Expect(res.Message).To(Equal("could not have matched: no holder came by theft@1 through a report in the range (every record was witnessed), " +
			"so there was no report to have come another way than an encounter — " +
			"a negative must examine something that could have matched (examined 1 evidence records of holders in ticks [2, 2])"))
	})
})
