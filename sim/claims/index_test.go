package claims_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/claims"
)

// The store's indexes answer questions a brute-force scan over every
// belief could answer; these specs hold them to that scan in random
// stores.

var npcs = []string{"aela", "brenuin", "carlotta", "danica", "eorlund", "farkas", "hulda", "irileth", "jon", "lars"}

// randomMemory draws half-lives short enough for stages to change within
// a few hundred ticks, thresholds anywhere in [0, 1] (forgotten at most
// dormant, as the defines demand), and now and then a rule switched off.
func randomMemory(rng *rand.Rand) claims.Memory {
	d := rng.Float64()
	m := claims.Memory{VerbatimHalfLife: 1 + 100*rng.Float64(), GistHalfLife: 1 + 300*rng.Float64(), DormantGist: d, ForgottenGist: d * rng.Float64()}
	switch rng.IntN(12) {
	case 0:
		m.NoStages = true
	case 1:
		m.NoDecay = true
	case 2:
		m.ForgottenGist = m.DormantGist
	case 3:
		m.DormantGist, m.ForgottenGist = 1, 0
	}
	return m
}

// storeOps changes a store at tick t the ways the engine does: witnesses
// and listeners form beliefs, tellings refresh them (corroboration) or
// contest them (another variant), tellers repeat them.
type storeOps struct {
	rng    *rand.Rand
	s      *claims.Store
	claims []string
}

func newStoreOps(rng *rand.Rand, m claims.Memory) storeOps {
	o := storeOps{rng: rng, s: claims.NewStore(m)}
	for i := range 3 {
		id := fmt.Sprintf("theft@%d", i)
		c, err := o.s.MintClaim(id, "theft", int64(i), theftSlots())
		Expect(err).NotTo(HaveOccurred())
		_, err = o.s.Derive(c.Variant, itemSwap, claims.Origin{Reason: "witness-disagrees"})
		Expect(err).NotTo(HaveOccurred())
		o.claims = append(o.claims, id)
	}
	return o
}

func (o storeOps) step(t int64, n int) {
	for range n {
		h, c := npcs[o.rng.IntN(len(npcs))], o.claims[o.rng.IntN(len(o.claims))]
		variant := fmt.Sprintf("%s#v%d", c, o.rng.IntN(2))
		b, holds := o.s.Belief(h, c)
		teller := npcs[o.rng.IntN(len(npcs))]
		told := claims.Testimony{Teller: teller, Chain: []string{teller}, Variant: variant, Tick: t, Via: "test", Confidence: o.rng.Float64()}
		var err error
		switch {
		case !holds && o.rng.IntN(2) == 0:
			_, err = o.s.Witness(h, variant, t, 0.9, c)
		case !holds:
			_, err = o.s.Hear(h, told)
		case o.rng.IntN(3) == 0:
			o.s.Repeat(h, c)
		case b.Variant == variant:
			_, err = o.s.Corroborate(h, told, 720)
		default:
			_, err = o.s.Resolve(h, told, claims.Side{Variant: variant, Terminal: claims.Reported, Strength: told.Confidence}, 0.1)
		}
		Expect(err).NotTo(HaveOccurred())
	}
}

// every returns every belief, sorted by holder, then claim.
func (o storeOps) every() []*claims.Belief {
	var out []*claims.Belief
	for _, h := range npcs {
		for _, c := range o.s.Held(h) {
			b, _ := o.s.Belief(h, c)
			out = append(out, b)
		}
	}
	return out
}

func names(bs []*claims.Belief) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Holder + "/" + b.Claim
	}
	return out
}

var _ = Describe("Store.Transitions (the stage calendar)", func() {
	It("names exactly the beliefs whose derived stage differs from the tick before, as a scan of every belief finds them", func() {
		rng := rand.New(rand.NewPCG(21, 22))
		transitions, stores := 0, 0
		for range 60 {
			m := randomMemory(rng)
			o := newStoreOps(rng, m)
			for t := int64(0); t < 600; t++ {
				if t < 200 || rng.IntN(20) == 0 {
					o.step(t, rng.IntN(3))
				}
				if t == 0 {
					continue
				}
				var want []*claims.Belief
				for _, b := range o.every() {
					if b.Anchor < t && b.StageAt(t-1, m) != b.StageAt(t, m) {
						want = append(want, b)
					}
				}
				got := o.s.Transitions(t)
				Expect(names(got)).To(Equal(names(want)), "tick %d, memory %+v", t, m)
				transitions += len(want)
			}
			stores++
		}
		Expect(stores).To(Equal(60))
		Expect(transitions).To(BeNumerically(">", 500), "enough transitions examined")
	})

	It("has nothing to say when stages or decay are off", func() {
		for _, m := range []claims.Memory{{GistHalfLife: 1, DormantGist: 0.5, ForgottenGist: 0.25, NoStages: true}, {GistHalfLife: 1, DormantGist: 0.5, ForgottenGist: 0.25, NoDecay: true}} {
			o := newStoreOps(rand.New(rand.NewPCG(1, 1)), m)
			o.step(0, 10)
			for t := int64(1); t < 100; t++ {
				Expect(o.s.Transitions(t)).To(BeEmpty())
			}
		}
	})
})

var _ = Describe("Store phases", func() {
	It("read every belief as it stood when the phase began, however the phase changes or creates beliefs", func() {
		rng := rand.New(rand.NewPCG(23, 24))
		examined, changed := 0, 0
		for round := range 200 {
			o := newStoreOps(rng, memory)
			o.step(0, rng.IntN(25))
			t := int64(1 + round%5)
			o.s.BeginPhase()
			before := map[string]claims.Belief{}
			for _, b := range o.every() {
				c := *b
				c.Evidence, c.Origins = slices.Clone(b.Evidence), slices.Clone(b.Origins)
				before[b.Holder+"/"+b.Claim] = c
			}
			o.step(t, rng.IntN(25))
			for _, h := range npcs {
				for _, c := range o.claims {
					was, existed := before[h+"/"+c]
					got, ok := o.s.AsOfPhase(h, c)
					Expect(ok).To(Equal(existed), "%s/%s", h, c)
					if existed {
						// DeepEqual first: a diff is built only to explain a
						// failure, which keeps the spec quick under emulation.
						if !reflect.DeepEqual(&was, got) {
							Fail(fmt.Sprintf("%s/%s as of the phase's start: %s", h, c, cmp.Diff(&was, got)))
						}
						if now, _ := o.s.Belief(h, c); !reflect.DeepEqual(&was, now) {
							changed++
						}
					}
					examined++
				}
			}
			o.s.EndPhase()
			for _, h := range npcs {
				for _, c := range o.claims {
					got, ok := o.s.AsOfPhase(h, c)
					now, holds := o.s.Belief(h, c)
					Expect(ok).To(Equal(holds))
					Expect(got).To(BeIdenticalTo(now), "outside a phase it is the belief itself")
				}
			}
		}
		Expect(examined).To(Equal(200 * len(npcs) * 3))
		Expect(changed).To(BeNumerically(">", 200), "beliefs the phase changed were examined")
	})

	It("begun while one is open, start from the beliefs as they are, not from the open phase's copies", func() {
		rng := rand.New(rand.NewPCG(27, 28))
		examined, copies := 0, 0
		for round := range 50 {
			o := newStoreOps(rng, memory)
			o.step(0, 10+rng.IntN(15))
			o.s.BeginPhase()
			o.step(int64(1+round%5), 10+rng.IntN(15))
			o.s.BeginPhase() // closes the first
			for _, h := range npcs {
				for _, c := range o.claims {
					got, ok := o.s.AsOfPhase(h, c)
					now, holds := o.s.Belief(h, c)
					Expect(ok).To(Equal(holds), "%s/%s", h, c)
					if !holds {
						continue
					}
					if !reflect.DeepEqual(got, now) {
						Fail(fmt.Sprintf("%s/%s as of the second phase's start: %s", h, c, cmp.Diff(now, got)))
					}
					if got != now {
						copies++ // a copy, though equal to the belief
					}
					examined++
				}
			}
			o.s.EndPhase()
		}
		Expect(examined).To(BeNumerically(">", 100))
		Expect(copies).To(BeZero(), "a phase that changed nothing yet keeps no copies")
	})
})

var _ = Describe("Store.BeliefsOf", func() {
	It("is each holder's beliefs in claim order, the ones Belief returns", func() {
		rng := rand.New(rand.NewPCG(25, 26))
		examined := 0
		for range 50 {
			o := newStoreOps(rng, memory)
			for t := range int64(20) {
				o.step(t, rng.IntN(6))
			}
			for _, h := range npcs {
				got := o.s.BeliefsOf(h)
				Expect(names(got)).To(Equal(names(func() []*claims.Belief {
					var want []*claims.Belief
					for _, c := range o.s.Held(h) {
						b, _ := o.s.Belief(h, c)
						want = append(want, b)
					}
					return want
				}())))
				for _, b := range got {
					want, _ := o.s.Belief(h, b.Claim)
					Expect(b).To(BeIdenticalTo(want))
					examined++
				}
			}
		}
		Expect(examined).To(BeNumerically(">", 500))
	})
})

var _ = Describe("Store.Holding", func() {
	It("taken before a holder's first belief, shows every belief BeliefsOf shows later", func() {
		rng := rand.New(rand.NewPCG(27, 28))
		examined, empty := 0, 0
		for range 50 {
			o := newStoreOps(rng, memory)
			held := map[string]*claims.Holding{}
			for _, h := range npcs {
				held[h] = o.s.Holding(h)
				Expect(held[h].Beliefs()).To(BeEmpty())
			}
			for t := range int64(20) {
				o.step(t, rng.IntN(6))
				for _, h := range npcs {
					Expect(o.s.Holding(h)).To(BeIdenticalTo(held[h]), "one handle for the store's life")
					got, want := held[h].Beliefs(), o.s.BeliefsOf(h)
					Expect(got).To(HaveLen(len(want)))
					for i := range got {
						Expect(got[i]).To(BeIdenticalTo(want[i]))
						examined++
					}
					if len(want) == 0 {
						empty++
					}
				}
			}
		}
		Expect(examined).To(BeNumerically(">", 500))
		Expect(empty).To(BeNumerically(">", 0), "some holders were looked at before their first belief")
	})

	It("a nil Holding holds nothing", func() {
		var h *claims.Holding
		Expect(h.Beliefs()).To(BeNil())
	})
})
