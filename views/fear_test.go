package views_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/views"
)

// town is a World by hand, read through Engine: a store, where each NPC is, who is alive.
type town struct {
	tick  int64
	store *claims.Store
	npcs  []string
	at    map[string]string
	dead  map[string]bool
}

func (s *town) Tick() int64           { return s.tick }
func (s *town) Store() *claims.Store  { return s.store }
func (s *town) NPCs() []string        { return s.npcs }
func (s *town) Alive(npc string) bool { return !s.dead[npc] }
func (s *town) At(npc string) string  { return s.at[npc] }

var _ views.World = (*town)(nil)

var _ = Describe("The fear view", func() {
	var s *town
	mem := claims.Memory{VerbatimHalfLife: 72, GistHalfLife: 960, DormantGist: 0.5, ForgottenGist: 0.125}

	witness := func(holder, claim string, confidence float64) {
		GinkgoHelper()
		_, err := s.store.Witness(holder, claim+"#v0", 0, confidence, "")
		Expect(err).NotTo(HaveOccurred())
	}

	BeforeEach(func() {
		s = &town{store: claims.NewStore(mem), npcs: []string{"ann", "bo", "cy", "dee", "eve"},
			at: map[string]string{"ann": "hall", "bo": "hall", "cy": "market", "dee": "hall"}, dead: map[string]bool{}}
		for _, c := range []struct{ id, kind string }{{"killing@0", "killing"}, {"brawl@0", "brawl"}, {"theft@0", "theft"}, {"favour@0", "favour"}} {
			_, err := s.store.MintClaim(c.id, c.kind, 0, claims.Slots{{Name: "actor", Type: claims.EntitySlot, Value: "player"}})
			Expect(err).NotTo(HaveOccurred())
		}
		witness("ann", "killing@0", 0.9)
		witness("ann", "favour@0", 0.9) // no severity: no fear
		witness("bo", "brawl@0", 0.8)
		witness("cy", "theft@0", 0.6)
		witness("dee", "killing@0", 0.5)
		witness("eve", "killing@0", 0.9) // nowhere
		s.tick = 960                     // one gist half-life: gist 0.5
	})

	It("weighs each belief by severity × confidence × gist, and drills down to it", func() {
		f := views.At(views.Engine(s), "hall")
		Expect(f.Contributions).To(Equal([]views.Contribution{
			{Holder: "ann", Claim: "killing@0", Variant: "killing@0#v0", Kind: "killing", Confidence: 0.9, Gist: 0.5, Severity: 1, Weight: 0.45},
			{Holder: "bo", Claim: "brawl@0", Variant: "brawl@0#v0", Kind: "brawl", Confidence: 0.8, Gist: 0.5, Severity: 0.5, Weight: 0.2},
			{Holder: "dee", Claim: "killing@0", Variant: "killing@0#v0", Kind: "killing", Confidence: 0.5, Gist: 0.5, Severity: 1, Weight: 0.25},
		}))
		Expect(f.Total).To(Equal(0.45 + 0.2 + 0.25))
	})

	It("groups by where each holder is now, nowhere included, sorted", func() {
		var got []string
		var totals []float64
		for _, f := range views.ByLocation(views.Engine(s)) {
			got = append(got, f.Location)
			totals = append(totals, f.Total)
		}
		Expect(got).To(Equal([]string{"", "hall", "market"}))
		Expect(totals).To(Equal([]float64{0.45, 0.45 + 0.2 + 0.25, 0.075}))
		Expect(views.Everywhere(views.Engine(s)).Contributions).To(HaveLen(5))
	})

	It("counts the living only, and forgets what is forgotten", func() {
		s.dead["ann"] = true
		Expect(views.At(views.Engine(s), "hall").Total).To(Equal(0.2 + 0.25))
		s.tick = 960*3 + 1 // gist below 0.125: forgotten
		Expect(views.Everywhere(views.Engine(s)).Contributions).To(BeEmpty())
		Expect(views.At(views.Engine(s), "hall").Total).To(BeZero())
	})

	It("is empty where nobody holds anything fearful", func() {
		f := views.At(views.Engine(s), "temple")
		Expect(f.Contributions).To(BeEmpty())
		Expect(f.Total).To(BeZero())
	})

	It("only reads: the store is the same after any number of views", func() {
		before := s.store.BeliefsOf("ann")[0].Stage
		for range 3 {
			views.ByLocation(views.Engine(s))
			views.Everywhere(views.Engine(s))
		}
		Expect(s.store.BeliefsOf("ann")[0].Stage).To(Equal(before))
		Expect(s.store.BeliefCount()).To(Equal(6))
	})
})
