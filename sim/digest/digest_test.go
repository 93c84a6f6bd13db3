package digest_test

import (
	"fmt"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/digest"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/roles"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/social"
)

func TestDigest(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Digest Suite")
}

// state is a world's state built by hand; it has what digest.State reads.
type state struct {
	now     int64
	npcs    []string
	dead    map[string]bool
	store   *claims.Store
	log     *events.Log
	grudges *social.Grudges
	ledger  *social.Ledger
	rep     *social.Reputation
	acc     *social.Accumulators
	// Tiers 4 and 5, read only when layers has theirs.
	layers  rules.Layers
	sched   map[string]schedule.Schedule
	weights []sim.PairWeight
	roles   *roles.Book
}

var _ digest.State = (*state)(nil)

func (s *state) Now() int64                         { return s.now }
func (s *state) NPCs() []string                     { return s.npcs }
func (s *state) Alive(id string) bool               { return !s.dead[id] }
func (s *state) Store() *claims.Store               { return s.store }
func (s *state) Log() *events.Log                   { return s.log }
func (s *state) Grudges() *social.Grudges           { return s.grudges }
func (s *state) Ledger() *social.Ledger             { return s.ledger }
func (s *state) Reputation() *social.Reputation     { return s.rep }
func (s *state) Accumulators() *social.Accumulators { return s.acc }
func (s *state) Layers() rules.Layers               { return s.layers }
func (s *state) PairWeights() []sim.PairWeight      { return s.weights }
func (s *state) Roles() *roles.Book                 { return s.roles }
func (s *state) Schedules(npc string) (base, effective schedule.Schedule, ok bool) {
	sc, ok := s.sched[npc]
	return sc.Base(), sc, ok
}

// empty returns a state with a cast and nothing else, at tick 0.
func empty(npcs ...string) *state {
	return &state{
		npcs: npcs, dead: map[string]bool{}, layers: rules.CoreOnly,
		store:   claims.NewStore(claims.Memory{VerbatimHalfLife: 72, GistHalfLife: 960, DormantGist: 0.5, ForgottenGist: 0.125}),
		log:     events.NewLog(events.Branch{SaveUUID: "s1"}),
		grudges: social.NewGrudges(social.Curves{EmotionalHalfLife: 100, EvidentiaryHalfLife: 50, Settled: 0.05}),
		ledger:  social.NewLedger(), rep: social.NewReputation(social.Prior{Alpha: 1, Beta: 1, Weight: 1}), acc: social.NewAccumulators(),
	}
}

// example is the worked example of the package documentation: a guard
// sees a thief take a ring at tick 2; the state as of tick 3.
func example() *state {
	s := empty("guard", "thief")
	s.now = 3
	_, err := s.log.Append(events.Event{ID: "theft@2", Kind: "theft", Tick: 2, Attrs: map[string]string{"actor": "thief", "item": "ring"}, Witnesses: []string{"guard"}})
	Expect(err).NotTo(HaveOccurred())
	c, err := s.store.MintClaim("theft@2", "theft", 2, claims.Slots{{Name: "actor", Type: claims.EntitySlot, Value: "thief"}, {Name: "item", Type: claims.ItemSlot, Value: "ring"}})
	Expect(err).NotTo(HaveOccurred())
	_, err = s.store.Witness("guard", c.Variant, 2, 0.9, "theft@2")
	Expect(err).NotTo(HaveOccurred())
	return s
}

// varied is the worked example with more in the sections the Memo spells
// by hand: two variants derived from the first, one from the other, each
// with its diff; a second claim; a dead NPC.
func varied() *state {
	s := example()
	s.npcs = append(s.npcs, "victim")
	s.dead["victim"] = true
	v1, err := s.store.Derive("theft@2#v0", []claims.Change{{Slot: "item", From: "ring", To: "amulet"}}, claims.Origin{Reason: "mutation", Holder: "guard", Tick: 3})
	Expect(err).NotTo(HaveOccurred())
	_, err = s.store.Derive(v1.ID, []claims.Change{{Slot: "actor", From: "thief", To: "guard"}, {Slot: "item", From: "amulet", To: "coin \"old\""}}, claims.Origin{Reason: "witness-disagrees", Holder: "thief", Tick: 3})
	Expect(err).NotTo(HaveOccurred())
	_, err = s.store.MintClaim("fight@3", "fight", 3, claims.Slots{{Name: "actor", Type: claims.EntitySlot, Value: "guard"}})
	Expect(err).NotTo(HaveOccurred())
	return s
}

// exampleText and exampleDigest are the worked example's canonical state
// and digest, checked independently with Python (json.dumps with
// sort_keys and compact separators reproduces the text; hashlib.sha256
// the digest).
const (
	exampleText = `{"accumulators":[],"beliefs":[{"anchor":2,"claim":"theft@2","confidence":"0.9","evidence":[{"chain":[],"confidence":"0.9","counted":true,"source":"","tick":2,"type":"witnessed","variant":"theft@2#v0","via":"theft@2"}],"formed_at":2,"holder":"guard","origins":["guard"],"stage":"heard","variant":"theft@2#v0"}],` +
		`"claims":[{"id":"theft@2","kind":"theft","slots":[{"name":"actor","type":"entity","value":"thief"},{"name":"item","type":"item","value":"ring"}],"tick":2,"variant":"theft@2#v0"}],` +
		`"grudges":[],"log":{"head":"90d0d479eb013d9370d954ddd6dd5f06a5cc8e82e75c0e9e03b95dbd8634663c","length":1},"npcs":[{"alive":true,"id":"guard"},{"alive":true,"id":"thief"}],` +
		`"obligations":[],"reputation":{"counted":[],"rows":[]},"supersessions":[],"tick":3,` +
		`"variants":[{"claim":"theft@2","diff":[],"id":"theft@2#v0","origin":{"holder":"","reason":"event","tick":2},"predecessor":"","slots":[{"name":"actor","type":"entity","value":"thief"},{"name":"item","type":"item","value":"ring"}]}]}`
	exampleDigest = "f24d7d4042385480a65bd1761e4d4c5b5e49a7066b8e541cc7b1e8122f21ee3b"
)

// expectMemoOf checks that m gives Of's digest of s, at s's tick and,
// every fifth tick, again at the same tick.
func expectMemoOf(m *digest.Memo, s *state) {
	GinkgoHelper()
	want, err := digest.Of(s)
	Expect(err).NotTo(HaveOccurred())
	Expect(m.Of(s)).To(Equal(want), "tick %d", s.now)
	if s.now%5 == 0 {
		Expect(m.Of(s)).To(Equal(want), "twice at one tick")
	}
}

var _ = Describe("the state digest", func() {
	It("is the SHA-256 of the canonical state of the worked example", func() {
		b, err := digest.Canonical(example())
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(Equal(exampleText))
		Expect(digest.Of(example())).To(Equal(exampleDigest))
	})

	It("has one member per section, named as the section, in key order", func() {
		var names []string
		for _, s := range digest.Sections {
			names = append(names, s.Name)
		}
		Expect(names).To(Equal([]string{"accumulators", "beliefs", "claims", "grudges", "log", "npcs", "obligations", "pair_weights", "reputation", "roles", "schedules", "supersessions", "tick", "variants"}))
	})

	It("spells every float as its repr string and refuses NaN and the infinities", func() {
		Expect(digest.Num(0.1)).To(Equal("0.1"))
		Expect(digest.Num(1e-5)).To(Equal("1e-05"))
		Expect(digest.Num(negZero())).To(Equal("-0.0"))
		for _, bad := range []float64{nan(), inf(1), inf(-1)} {
			_, err := digest.Num(bad)
			Expect(err).To(MatchError(digest.ErrNotFinite))
		}
	})

	It("refuses a state holding a NaN, naming where", func() {
		s := example()
		b, _ := s.store.Belief("guard", "theft@2")
		b.Confidence = nan()
		_, err := digest.Of(s)
		Expect(err).To(MatchError(digest.ErrNotFinite))
		Expect(err).To(MatchError(ContainSubstring("digest: beliefs at tick 3: guard/theft@2 confidence: NaN")))
	})

	// A Memo keeps each belief's evidence spelt between digests: its digest
	// must be Of's at every tick of a world whose evidence grows, with
	// beliefs formed along the way, and a refusal must be Of's too.
	It("gives, through a Memo, Of's digest at every step of a world whose evidence grows", func() {
		s := example()
		m := digest.NewMemo()
		tell := func(teller, listener string, t int64) {
			GinkgoHelper()
			if _, held := s.store.Belief(listener, "theft@2"); held {
				_, err := s.store.Corroborate(listener, claims.Testimony{Teller: teller, Chain: []string{teller}, Variant: "theft@2#v0", Tick: t, Via: "e", Confidence: 0.5}, 100)
				Expect(err).NotTo(HaveOccurred())
				return
			}
			_, err := s.store.Hear(listener, claims.Testimony{Teller: teller, Chain: []string{teller}, Variant: "theft@2#v0", Tick: t, Via: "e", Confidence: 0.5})
			Expect(err).NotTo(HaveOccurred())
		}
		for t := int64(3); t < 40; t++ {
			switch t % 3 {
			case 0:
				tell("guard", "thief", t)
			case 1:
				tell("thief", "guard", t)
			}
			s.now = t
			expectMemoOf(m, s)
		}
		b, _ := s.store.Belief("guard", "theft@2")
		Expect(len(b.Evidence)).To(BeNumerically(">", 10))
		b.Evidence[len(b.Evidence)-1].Confidence = nan() // spelt already: the memo keeps its old spelling…
		tell("thief", "guard", 41)
		b.Evidence[len(b.Evidence)-1].Confidence = nan() // …and refuses a new record Of refuses
		_, want := digest.Of(s)
		_, got := m.Of(s)
		Expect(got).To(MatchError(want.Error()))
	})

	// A Memo keeps the supersessions spelt between digests too: the store
	// only appends to them.
	It("gives, through a Memo, Of's digest at every step of a world whose supersessions grow", func() {
		s := example()
		m := digest.NewMemo()
		v1, err := s.store.Derive("theft@2#v0", []claims.Change{{Slot: "item", From: "ring", To: "brooch"}}, claims.Origin{Reason: "witness-disagrees"})
		Expect(err).NotTo(HaveOccurred())
		for t := int64(3); t < 30; t++ {
			if t%2 == 0 {
				told := claims.Testimony{Teller: "thief", Chain: []string{"thief"}, Variant: v1.ID, Tick: t, Via: fmt.Sprintf("encounter@%d", t), Confidence: 0.5}
				_, err := s.store.Resolve("guard", told, claims.Side{Variant: v1.ID, Terminal: claims.Reported, Strength: 0.5}, 0.1)
				Expect(err).NotTo(HaveOccurred())
			}
			s.now = t
			expectMemoOf(m, s)
		}
		Expect(s.store.SupersessionCount()).To(BeNumerically(">", 10))
		want, err := digest.Of(s)
		Expect(err).NotTo(HaveOccurred())
		Expect(digest.NewMemo().Of(s)).To(Equal(want), "a fresh memo spells them all at once")
	})

	// A Memo hashes the text as it spells it, section by section and
	// belief by belief: the pieces must join into Of's text whatever the
	// sections present and however many beliefs there are, none included.
	DescribeTable("gives, through a Memo, Of's digest of any state",
		func(build func() *state) {
			s := build()
			want, err := digest.Of(s)
			Expect(err).NotTo(HaveOccurred())
			Expect(digest.NewMemo().Of(s)).To(Equal(want))
		},
		Entry("the worked example", example),
		Entry("a cast and nothing else: no beliefs", func() *state { return empty("a", "b") }),
		Entry("no cast at all", func() *state { return empty() }),
		Entry("a world of Tiers 4 and 5", layered),
		Entry("variants derived with their diffs, an NPC dead, a second claim", varied),
		Entry("a cast whose NPCs spell to more than the spellers gather", func() *state {
			ids := make([]string, 3_000)
			for i := range ids {
				ids[i] = fmt.Sprintf("npc-%04d", i)
			}
			s := empty(ids...)
			s.dead["npc-1234"] = true
			return s
		}),
	)

	It("refuses through a Memo an NPC, a claim or a variant that Of refuses, in Of's words", func() {
		for _, plant := range []func(s *state){
			func(s *state) { s.npcs = append(s.npcs, "bad\xff") },
			func(s *state) {
				_, err := s.store.MintClaim("theft@9", "theft", 9, claims.Slots{{Name: "item", Type: claims.ItemSlot, Value: "ring\xff"}})
				Expect(err).NotTo(HaveOccurred())
			},
			func(s *state) {
				_, err := s.store.Derive("theft@2#v0", []claims.Change{{Slot: "item", From: "ring", To: "r\xffing"}}, claims.Origin{Reason: "mutation", Holder: "guard", Tick: 3})
				Expect(err).NotTo(HaveOccurred())
			},
		} {
			s := varied()
			plant(s)
			_, want := digest.Of(s)
			Expect(want).To(HaveOccurred())
			_, got := digest.NewMemo().Of(s)
			Expect(got).To(MatchError(want.Error()))
		}
	})

	It("refuses through a Memo what Of refuses, in Of's words, wherever it is", func() {
		for _, plant := range []func(s *state){
			func(s *state) { b, _ := s.store.Belief("guard", "theft@2"); b.Confidence = nan() },
			func(s *state) { s.weights[0].Weight = inf(1) },
		} {
			s := layered()
			plant(s)
			_, want := digest.Of(s)
			Expect(want).To(MatchError(digest.ErrNotFinite))
			_, got := digest.NewMemo().Of(s)
			Expect(got).To(MatchError(want.Error()))
		}
	})

	It("does not depend on the order the state was built in", func() {
		build := func(reverse bool) *state {
			s := empty("a", "b", "c")
			s.now = 9
			ids := []string{"theft@1", "theft@2"}
			holders := []string{"a", "b", "c"}
			if reverse {
				ids, holders = []string{"theft@2", "theft@1"}, []string{"c", "b", "a"}
			}
			for _, id := range ids {
				_, err := s.store.MintClaim(id, "theft", 1, claims.Slots{{Name: "actor", Type: claims.EntitySlot, Value: "player"}})
				Expect(err).NotTo(HaveOccurred())
			}
			for _, h := range holders {
				for _, id := range ids {
					_, err := s.store.Witness(h, id+"#v0", 1, 0.5, id)
					Expect(err).NotTo(HaveOccurred())
				}
				_, _, err := s.grudges.Bear(h, "player", 2, 0.5, 0.25, "theft@1")
				Expect(err).NotTo(HaveOccurred())
				_, _, err = s.rep.Add(social.Evidence{Observer: h, Subject: "player", Dimension: "standing", Claim: "theft@1"})
				Expect(err).NotTo(HaveOccurred())
				s.acc.For(h, "player")
			}
			return s
		}
		a, err := digest.Of(build(false))
		Expect(err).NotTo(HaveOccurred())
		Expect(digest.Of(build(true))).To(Equal(a))
	})

	// Every section must move the digest: a change to any part of the
	// state the digest claims to cover changes it.
	DescribeTable("moves with every part of the state",
		func(change func(s *state)) {
			s := example()
			_, _, err := s.grudges.Bear("guard", "thief", 2, 0.5, 0.25, "theft@2")
			Expect(err).NotTo(HaveOccurred())
			_, err = s.ledger.Issue("favour@1", "guard", "thief", 1)
			Expect(err).NotTo(HaveOccurred())
			_, _, err = s.rep.Add(social.Evidence{Observer: "guard", Subject: "thief", Dimension: "standing", Claim: "theft@2"})
			Expect(err).NotTo(HaveOccurred())
			s.acc.For("guard", "thief")
			before, err := digest.Of(s)
			Expect(err).NotTo(HaveOccurred())
			change(s)
			Expect(digest.Of(s)).NotTo(Equal(before))
		},
		Entry("the tick", func(s *state) { s.now++ }),
		Entry("a death", func(s *state) { s.dead["thief"] = true }),
		Entry("the log", func(s *state) { _, _ = s.log.Append(events.Event{ID: "x", Kind: "k", Tick: 3}) }),
		Entry("a claim", func(s *state) {
			_, _ = s.store.MintClaim("theft@9", "theft", 9, claims.Slots{{Name: "actor", Type: claims.EntitySlot, Value: "x"}})
		}),
		Entry("a variant", func(s *state) {
			_, _ = s.store.Derive("theft@2#v0", []claims.Change{{Slot: "item", From: "ring", To: "coin"}}, claims.Origin{Reason: "mutation"})
		}),
		Entry("a belief's confidence by one ulp", func(s *state) { b, _ := s.store.Belief("guard", "theft@2"); b.Confidence = next(b.Confidence) }),
		Entry("a belief's stored stage", func(s *state) { s.store.Repeat("guard", "theft@2") }),
		Entry("a belief's evidence", func(s *state) {
			_, _ = s.store.Corroborate("guard", claims.Testimony{Teller: "thief", Chain: []string{"thief"}, Variant: "theft@2#v0", Tick: 3, Via: "e", Confidence: 0.5}, 100)
		}),
		Entry("a supersession", func(s *state) {
			v, _ := s.store.Derive("theft@2#v0", []claims.Change{{Slot: "item", From: "ring", To: "coin"}}, claims.Origin{Reason: "mutation"})
			_, _ = s.store.Resolve("guard", claims.Testimony{Teller: "thief", Chain: []string{"thief"}, Variant: v.ID, Tick: 3, Via: "e", Confidence: 0.5}, claims.Side{Variant: v.ID, Terminal: claims.Reported, Strength: 0.5}, 0.1)
		}),
		Entry("a grudge", func(s *state) { g, _ := s.grudges.Get("guard", "thief"); g.Emotional = next(g.Emotional) }),
		Entry("an obligation", func(s *state) { _, _ = s.ledger.Settle("favour@1", social.Fulfilled, "invoke@3", 3) }),
		Entry("a reputation row", func(s *state) {
			_, _, _ = s.rep.Add(social.Evidence{Observer: "guard", Subject: "thief", Dimension: "standing", Claim: "theft@7"})
		}),
		Entry("another observer's row", func(s *state) {
			_, _, _ = s.rep.Add(social.Evidence{Observer: "thief", Subject: "guard", Dimension: "standing", Claim: "theft@2"})
		}),
		Entry("an accumulator", func(s *state) {
			s.acc.For("guard", "thief").Disarmed = true
		}),
	)
})
