package social_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/social"
)

var _ = Describe("Accumulator", func() {
	th := social.Threshold{Fire: 4, Rearm: 2, Window: 720}
	theft := func(t int64) social.Offence { return social.Offence{Claim: fmt.Sprintf("theft@%d", t), Tick: t} }

	It("fires exactly once at the threshold, and not on the fifth offence", func() {
		var a social.Accumulator
		var got []social.Judgement
		for _, t := range []int64{10, 20, 30, 40, 50} {
			got = append(got, a.Note(theft(t), t, th))
		}
		Expect(got).To(Equal([]social.Judgement{
			{Count: 1, Reason: "below threshold"},
			{Count: 2, Reason: "below threshold"},
			{Count: 3, Reason: "below threshold"},
			{Count: 4, Fired: true, Reason: "threshold reached"},
			{Count: 5, Reason: "already escalated: re-arms when the count falls to the re-arm level"},
		}))
		Expect(a.Disarmed).To(BeTrue())
	})

	It("counts only offences within the window (event tick ≥ now − window)", func() {
		var a social.Accumulator
		a.Note(theft(0), 0, th)
		a.Note(theft(1), 1, th)
		a.Note(theft(2), 2, th)
		j := a.Note(theft(721), 721, th) // theft@0 is now 721 ticks old
		Expect(j).To(Equal(social.Judgement{Count: 3, Reason: "below threshold"}))
		Expect(a.Count(722, 720)).To(Equal(2))
	})

	It("re-arms when the count falls to the re-arm level, then can fire again", func() {
		var a social.Accumulator
		for _, t := range []int64{0, 1, 2, 3} {
			a.Note(theft(t), t, th)
		}
		Expect(a.Disarmed).To(BeTrue())
		// At 1000 only nothing is within the window: 0 ≤ 2 re-arms.
		j := a.Note(theft(1000), 1000, th)
		Expect(j).To(Equal(social.Judgement{Count: 1, Rearmed: true, Reason: "below threshold"}))
		for _, t := range []int64{1001, 1002} {
			a.Note(theft(t), t, th)
		}
		Expect(a.Note(theft(1003), 1003, th).Fired).To(BeTrue())
	})

	It("re-arms at exactly the re-arm level, not only below it", func() {
		var a social.Accumulator
		for _, t := range []int64{0, 1, 2, 3} {
			a.Note(theft(t), t, th)
		}
		// At 722 the window holds theft@2 and theft@3: two, the re-arm level.
		j := a.Note(theft(722), 722, th)
		Expect(j).To(Equal(social.Judgement{Count: 3, Rearmed: true, Reason: "below threshold"}))
	})

	It("stays disarmed while the count is above the re-arm level", func() {
		var a social.Accumulator
		for _, t := range []int64{0, 100, 200, 300} {
			a.Note(theft(t), t, th)
		}
		// At 750 theft@0 has left the window: three remain, above 2.
		j := a.Note(theft(750), 750, th)
		Expect(j.Rearmed).To(BeFalse())
		Expect(j.Fired).To(BeFalse())
		Expect(j.Count).To(Equal(4))
	})

	It("does not count one offence twice", func() {
		var a social.Accumulator
		a.Note(theft(5), 5, th)
		j := a.Note(theft(5), 9, th)
		Expect(j).To(Equal(social.Judgement{Count: 1, Reason: "offence already counted"}))
		Expect(a.Offences).To(HaveLen(1))
	})

	It("keeps one accumulator per (victim, offender), listed in order", func() {
		s := social.NewAccumulators()
		s.For("zed", "player").Note(theft(1), 1, th)
		s.For("amy", "player")
		s.For("amy", "galmar")
		Expect(s.For("zed", "player").Offences).To(HaveLen(1))
		var got []string
		for _, a := range s.All() {
			got = append(got, a.Victim+"/"+a.Offender)
		}
		Expect(got).To(Equal([]string{"amy/galmar", "amy/player", "zed/player"}))
	})
})
