package expect_test

import (
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/expr"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/roles"
	"github.com/chronicle/ladder/sim/social"
)

// fakeWorld is a World built by hand: a store written directly, NPCs and
// their holds given, the tick set by the spec. Checks run against it
// without the engine, so these specs pin the kinds and nothing else.
type fakeWorld struct {
	tick       int64
	store      *claims.Store
	homes      map[string]string // npc → hold
	grudges    *social.Grudges
	reputation *social.Reputation
	ledger     *social.Ledger
	placements map[string]sim.Placement
	roles      *roles.Book
	references map[string][]roles.Reference
	alive      map[string]bool // nil: everyone is alive
}

var _ expect.World = (*fakeWorld)(nil)

func newFakeWorld(homes map[string]string) *fakeWorld {
	return &fakeWorld{
		store: claims.NewStore(claims.Memory{VerbatimHalfLife: 72, GistHalfLife: 960, DormantGist: 0.5, ForgottenGist: 0.125}), homes: homes,
		grudges:    social.NewGrudges(social.Curves{EmotionalHalfLife: 2880, EvidentiaryHalfLife: 1920, Settled: 0.05}),
		reputation: social.NewReputation(social.Prior{Alpha: 1, Beta: 1, Weight: 1}),
		ledger:     social.NewLedger(),
		placements: map[string]sim.Placement{},
		roles:      &roles.Book{},
		references: map[string][]roles.Reference{},
	}
}

func (w *fakeWorld) Placement(npc string) sim.Placement       { return w.placements[npc] }
func (w *fakeWorld) Roles() *roles.Book                       { return w.roles }
func (w *fakeWorld) References(role string) []roles.Reference { return w.references[role] }

func (w *fakeWorld) Grudge(holder, target string) (expr.Grudge, bool) {
	g, ok := w.grudges.Get(holder, target)
	if !ok {
		return expr.Grudge{}, false
	}
	return expr.Grudge{Emotional: g.EmotionalAt(w.tick, w.grudges.Curves()), Evidentiary: g.EvidentiaryAt(w.tick, w.grudges.Curves())}, true
}

func (w *fakeWorld) Opinion(observer, subject, dimension string) (expr.Opinion, bool) {
	o, ok := w.reputation.Get(observer, subject, dimension)
	if !ok {
		return expr.Opinion{}, false
	}
	return expr.Opinion{Alpha: o.Alpha, Beta: o.Beta, Mean: o.Mean()}, true
}

func (w *fakeWorld) Grudges() *social.Grudges       { return w.grudges }
func (w *fakeWorld) Reputation() *social.Reputation { return w.reputation }
func (w *fakeWorld) Ledger() *social.Ledger         { return w.ledger }

func (w *fakeWorld) Tick() int64                   { return w.tick }
func (w *fakeWorld) Define(string) (float64, bool) { return 0, false }
func (w *fakeWorld) Belief(string, string) (expr.Belief, bool) {
	return expr.Belief{}, false
}
func (w *fakeWorld) Believers(c string) int     { return len(w.store.Holders(c)) }
func (w *fakeWorld) Holders(c string) int       { return len(w.store.Holders(c)) }
func (w *fakeWorld) Store() *claims.Store       { return w.store }
func (w *fakeWorld) Alive(npc string) bool      { return w.alive == nil || w.alive[npc] }
func (w *fakeWorld) At(string) string           { return "" }
func (w *fakeWorld) Resident(npc string) string { return w.homes[npc] }
func (w *fakeWorld) NPCs() []string {
	var out []string
	for n := range w.homes {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// decode loads expectations through the real loader, in a fixture whose
// world matches the fake one's ids.
func decode(items ...string) []expect.Expectation {
	GinkgoHelper()
	src := `rung: T2.9
title: t
tier: 2
seed_id: s
ticks: 10
locations:
  market: {hold: whiterun}
  mine: {hold: markarth}
cast:
  w: {home: market}
  carrier: {home: market}
  m1: {home: mine}
events:
  - {tick: 1, kind: theft, actor: player, victim: w, item: sweetroll, at: market, witnesses: [w]}
expect:
`
	for _, it := range items {
		src += "  - " + it + "\n"
	}
	fs, err := fixture.Parse("fixtures/T2.9-t.yaml", []byte(src))
	Expect(err).NotTo(HaveOccurred())
	return fs[0].Expect
}

var _ = Describe("holders through", func() {
	var w *fakeWorld
	BeforeEach(func() {
		w = newFakeWorld(map[string]string{"w": "whiterun", "carrier": "whiterun", "m1": "markarth"})
		_, err := w.store.MintClaim("theft@1", "theft", 1, claims.Slots{{Name: "item", Value: "sweetroll"}})
		Expect(err).NotTo(HaveOccurred())
		_, err = w.store.Witness("w", "theft@1#v0", 1, 0.9, "theft@1")
		Expect(err).NotTo(HaveOccurred())
		_, err = w.store.Hear("carrier", claims.Testimony{Teller: "w", Chain: []string{"w"}, Variant: "theft@1#v0", Tick: 1, Via: "e1", Confidence: 0.72})
		Expect(err).NotTo(HaveOccurred())
		_, err = w.store.Hear("m1", claims.Testimony{Teller: "carrier", Chain: []string{"w", "carrier"}, Variant: "theft@1#v0", Tick: 2, Via: "e2", Confidence: 0.576})
		Expect(err).NotTo(HaveOccurred())
	})

	run := func(ticks ...int64) []expect.Result {
		GinkgoHelper()
		r := expect.Start(decode("{from: 2, holders: {claim: theft@1, resident: markarth, through: carrier}}"))
		for _, t := range ticks {
			w.tick = t
			r.Tick(w)
		}
		return r.Finish()
	}

	It("passes when every evidence record of every holder in scope carries the NPC", func() {
		res := run(2, 3)
		Expect(res[0].Passed).To(BeTrue(), res[0].Message)
		Expect(res[0].Examined).To(Equal(int64(1)), "m1's one record, read once: evidence only accumulates")
	})

	// T2.6 checked only the chain that formed each belief: a holder who
	// later heard it another way still passed.
	It("examines every evidence record, not only the first", func() {
		_, err := w.store.Corroborate("m1", claims.Testimony{Teller: "w", Chain: []string{"w"}, Variant: "theft@1#v0", Tick: 3, Via: "e3", Confidence: 0.72}, 720)
		Expect(err).NotTo(HaveOccurred())
		res := run(2, 3)
		Expect(res[0].Passed).To(BeFalse())
		Expect(res[0].Tick).To(Equal(int64(2)))
		Expect(res[0].Line("f.yaml")).To(Equal("expect[0] (f.yaml:16:70) at tick 2: m1's evidence[1] for theft@1 came by [w], not through carrier (and 1 more ticks)"))
	})

	It("does not count the NPC as through itself, and fails when that leaves nothing to trace", func() {
		r := expect.Start(decode("{from: 2, holders: {claim: theft@1, resident: whiterun, through: carrier}}"))
		w.tick = 2
		r.Tick(w)
		res := r.Finish()
		// w witnessed it (empty chain): not through the carrier.
		Expect(res[0].Message).To(Equal("w's evidence[0] for theft@1 was witnessed, not through carrier"))

		r = expect.Start(decode("{from: 2, holders: {claim: theft@1, resident: markarth, through: m1}}"))
		r.Tick(w)
		res = r.Finish()
		Expect(res[0].Message).To(Equal("checked nothing: examined 0 evidence records of holders in scope in ticks [2, 9]"))
	})
})

var _ = Describe("Run", func() {
	It("calls tick checks only within their range and reports what they examined", func() {
		w := newFakeWorld(map[string]string{"w": "whiterun"})
		r := expect.Start(decode("{from: 3, to: 4, claims: {count: 0}}", "{at: 9, claims: {count: 0}}"))
		for t := int64(0); t < 10; t++ {
			w.tick = t
			r.Tick(w)
		}
		res := r.Finish()
		Expect([]int64{res[0].Examined, res[1].Examined}).To(Equal([]int64{2, 1}))
		Expect(res[0].Passed && res[1].Passed).To(BeTrue())
	})

	It("shows trace records only to trace checks whose range holds their tick, one at a time", func() {
		r := expect.Start(decode("{from: 2, to: 3, trace: {match: {kind: rule, rule: corroboration}, count: 1}}"))
		for tick, rule := range []string{"corroboration", "corroboration", "corroboration", "x", "corroboration"} {
			r.Trace(expect.Record{"kind": "rule", "rule": rule, "tick": float64(tick)})
		}
		res := r.Finish()
		Expect(res[0].Passed).To(BeTrue(), res[0].Message)
		Expect(res[0].Examined).To(Equal(int64(2)))
	})

	It("can run a decoded fixture twice with the same verdict", func() {
		items := decode("{trace: {match: {kind: rule, rule: corroboration}, count: 1}}")
		for range 2 {
			r := expect.Start(items)
			r.Trace(expect.Record{"kind": "rule", "rule": "corroboration", "tick": 1.0})
			Expect(r.Finish()[0].Passed).To(BeTrue())
		}
	})
})
