package claims_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/claims"
)

var _ = Describe("SideOf", func() {
	It("counts each origin once: a teller repeating a rumour is one source", func() {
		s := newTheftStore()
		_, err := s.Hear("bram", report([]string{"cait"}, 4, 0.72))
		Expect(err).NotTo(HaveOccurred())
		for _, tick := range []int64{5, 6} {
			_, err := s.Corroborate("bram", report([]string{"cait"}, tick, 0.72), 720)
			Expect(err).NotTo(HaveOccurred())
		}
		b, _ := s.Belief("bram", theft)
		Expect(b.Evidence).To(HaveLen(3))
		Expect(claims.SideOf(b)).To(Equal(claims.Side{Variant: v0, Terminal: claims.Reported, Strength: 0.72}))
	})

	It("sums distinct origins, the first telling of each, and a relay counts as its root", func() {
		s := newTheftStore()
		_, err := s.Hear("hilde", report([]string{"ada"}, 4, 0.72))
		Expect(err).NotTo(HaveOccurred())
		// eve's first telling counts; a relay of ada's through finn is ada again.
		for _, t := range []claims.Testimony{report([]string{"eve"}, 5, 0.5), report([]string{"eve"}, 6, 0.72), report([]string{"ada", "finn"}, 7, 0.9)} {
			_, err := s.Corroborate("hilde", t, 720)
			Expect(err).NotTo(HaveOccurred())
		}
		b, _ := s.Belief("hilde", theft)
		expectBits(claims.SideOf(b).Strength, float64(0.72+0.5))
	})

	It("counts the holder's own eyewitness evidence as the holder's origin", func() {
		s := newTheftStore()
		_, err := s.Witness("ada", v0, 2, 0.9, theft)
		Expect(err).NotTo(HaveOccurred())
		// A report that ends at ada herself rests on her own observation.
		_, err = s.Corroborate("ada", report([]string{"ada", "bo"}, 5, 0.72), 720)
		Expect(err).NotTo(HaveOccurred())
		b, _ := s.Belief("ada", theft)
		Expect(claims.SideOf(b)).To(Equal(claims.Side{Variant: v0, Terminal: claims.Witnessed, Strength: 0.9}))
	})
})

var _ = Describe("Store.Resolve", func() {
	// bram holds v0, told three times by cait alone; hilde holds v1 from
	// two independent eyewitnesses, ada and eve. Both sides are hearsay.
	contest := func() (*claims.Store, claims.Side) {
		s := newTheftStore()
		_, err := s.Derive(v0, itemSwap, claims.Origin{Reason: "witness-disagrees"})
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Hear("bram", report([]string{"cait"}, 4, 0.72))
		Expect(err).NotTo(HaveOccurred())
		for _, tick := range []int64{5, 6} {
			_, err := s.Corroborate("bram", report([]string{"cait"}, tick, 0.72), 720)
			Expect(err).NotTo(HaveOccurred())
		}
		apple := func(teller string, tick int64) claims.Testimony {
			t := report([]string{teller}, tick, 0.72)
			t.Variant = v1
			return t
		}
		_, err = s.Hear("hilde", apple("ada", 4))
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Corroborate("hilde", apple("eve", 5), 720)
		Expect(err).NotTo(HaveOccurred())
		hb, _ := s.Belief("hilde", theft)
		return s, claims.SideOf(hb)
	}

	It("lets two independent origins beat one repeated three times, and records the supersession in the store", func() {
		s, hilde := contest()
		expectBits(hilde.Strength, 1.44)
		incoming := claims.Testimony{Teller: "hilde", Chain: []string{"ada", "hilde"}, Variant: v1, Tick: 10, Via: "encounter@10", Confidence: 0.576}
		r, err := s.Resolve("bram", incoming, hilde, 0.1)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Reason).To(Equal("stronger evidence"))
		Expect(r.Held.Strength).To(Equal(0.72))
		want := claims.Supersession{Holder: "bram", Claim: theft, Loser: v0, Winner: v1, Tick: 10, Via: "encounter@10", Kept: false}
		Expect(r.Supersession).To(Equal(want))
		Expect(s.Supersessions()).To(Equal([]claims.Supersession{want}))
		b, _ := s.Belief("bram", theft)
		Expect(b.Variant).To(Equal(v1))
	})

	It("keeps the held variant on a full tie and says so", func() {
		s, _ := contest()
		incoming := claims.Testimony{Teller: "dag", Chain: []string{"dag"}, Variant: v1, Tick: 10, Via: "encounter@10", Confidence: 0.72}
		r, err := s.Resolve("bram", incoming, claims.Side{Variant: v1, Terminal: claims.Reported, Strength: 0.72}, 0.1)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Reason).To(Equal("tie: the held variant stays"))
		Expect(s.Supersessions()).To(Equal([]claims.Supersession{{Holder: "bram", Claim: theft, Loser: v1, Winner: v0, Tick: 10, Via: "encounter@10", Kept: true}}))
	})
})
