package social_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/social"
)

var _ = Describe("Ledger", func() {
	var l *social.Ledger
	BeforeEach(func() {
		l = social.NewLedger()
		for _, f := range []string{"favour@3", "favour@1", "favour@2"} {
			_, err := l.Issue(f, "benefactor", "debtor", 1)
			Expect(err).NotTo(HaveOccurred())
		}
	})

	It("issues one obligation per favour, listed by id", func() {
		var ids []string
		for _, o := range l.All() {
			ids = append(ids, o.ID)
			Expect(o.State).To(Equal(social.Issued))
			Expect(o.Cause).To(Equal(o.Favour))
		}
		Expect(ids).To(Equal([]string{"obligation:favour@1", "obligation:favour@2", "obligation:favour@3"}))
		_, err := l.Issue("favour@1", "benefactor", "debtor", 5)
		Expect(err).To(MatchError(ContainSubstring("already issued")))
	})

	It("moves issued to fulfilled or violated once, and never back", func() {
		o, why := l.Settle("favour@1", social.Fulfilled, "invoke@10", 10)
		Expect(why).To(BeEmpty())
		Expect(o.State).To(Equal(social.Fulfilled))
		Expect(o.Since).To(Equal(int64(10)))
		Expect(o.Cause).To(Equal("invoke@10"))

		o, why = l.Settle("favour@2", social.Violated, "invoke@11", 11)
		Expect(why).To(BeEmpty())
		Expect(o.State).To(Equal(social.Violated))

		for _, outcome := range []social.ObligationState{social.Fulfilled, social.Violated} {
			o, why = l.Settle("favour@1", outcome, "invoke@12", 12)
			Expect(why).To(Equal("already fulfilled"))
			Expect(o.Since).To(Equal(int64(10)), "a refused transition changes nothing")
		}
		o, _ = l.Get("obligation:favour@3")
		Expect(o.State).To(Equal(social.Issued))
	})

	It("declines an unknown favour and a bogus outcome with their reasons", func() {
		o, why := l.Settle("favour@9", social.Fulfilled, "invoke@10", 10)
		Expect(o).To(BeNil())
		Expect(why).To(Equal("no obligation was issued for favour@9"))
		_, why = l.Settle("favour@1", social.Issued, "invoke@10", 10)
		Expect(why).To(ContainSubstring("neither fulfilled nor violated"))
	})

	It("refuses a debt to oneself", func() {
		_, err := l.Issue("favour@7", "a", "a", 1)
		Expect(err).To(MatchError(ContainSubstring("cannot owe itself")))
	})
})
