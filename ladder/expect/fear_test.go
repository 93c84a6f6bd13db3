package expect_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/views"
)

// fearTown is a world by hand, read through views.Engine: a store, the
// cast, where each NPC is, who is dead.
type fearTown struct {
	tick  int64
	store *claims.Store
	at    map[string]string
	dead  map[string]bool
}

func (s *fearTown) Tick() int64           { return s.tick }
func (s *fearTown) Store() *claims.Store  { return s.store }
func (s *fearTown) NPCs() []string        { return []string{"ann", "bo", "cy"} }
func (s *fearTown) Alive(npc string) bool { return !s.dead[npc] }
func (s *fearTown) At(npc string) string  { return s.at[npc] }

var _ views.World = (*fearTown)(nil)

var _ = Describe("The fear recomputation", func() {
	var s *fearTown

	BeforeEach(func() {
		s = &fearTown{store: claims.NewStore(claims.Memory{VerbatimHalfLife: 72, GistHalfLife: 960, DormantGist: 0.5, ForgottenGist: 0.125}),
			at: map[string]string{"ann": "hall", "bo": "hall", "cy": "market"}, dead: map[string]bool{}}
		for _, c := range []struct{ id, kind string }{{"killing@0", "killing"}, {"brawl@0", "brawl"}, {"theft@0", "theft"}, {"title@0", "title"}} {
			_, err := s.store.MintClaim(c.id, c.kind, 0, claims.Slots{{Name: "actor", Type: claims.EntitySlot, Value: "player"}})
			Expect(err).NotTo(HaveOccurred())
		}
		for _, b := range []struct {
			holder, claim string
			confidence    float64
		}{{"ann", "killing@0", 0.9}, {"ann", "title@0", 0.9}, {"bo", "brawl@0", 0.8}, {"cy", "theft@0", 0.6}} {
			_, err := s.store.Witness(b.holder, b.claim+"#v0", 0, b.confidence, "")
			Expect(err).NotTo(HaveOccurred())
		}
		s.tick = 960 // one gist half-life: every gist is 0.5
	})

	// The severities are the specification's, held by the check itself:
	// a killing 1, a brawl 0.5, a theft 0.25, anything else nothing.
	It("weighs each kind by its own severities, (confidence × gist) × severity", func() {
		total, sum := expect.RecomputeFear(views.Engine(s), "hall")
		Expect(total).To(Equal(0.2 + 0.45))
		Expect(sum.Terms).To(Equal(2))
		total, sum = expect.RecomputeFear(views.Engine(s), "market")
		Expect(total).To(Equal(0.075))
		Expect(sum.Terms).To(Equal(1))
		total, sum = expect.RecomputeFear(views.Engine(s), views.Everyone)
		// Claim by claim (brawl, killing, theft), summed by halves, each
		// addition rounded (variables, not constants Go would fold).
		brawl, killing, theft := 0.2, 0.45, 0.075
		Expect(total).To(Equal(brawl + (killing + theft)))
		Expect(sum.Terms).To(Equal(3)) // the title carries no fear
	})

	It("counts the living only", func() {
		s.dead["ann"] = true
		total, sum := expect.RecomputeFear(views.Engine(s), "hall")
		Expect(total).To(Equal(0.2))
		Expect(sum.Terms).To(Equal(1))
	})
})
