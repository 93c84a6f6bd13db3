package claims_test

import (
	"math"
	"math/big"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/claims"
)

// memory is the engine's default memory (rules.Default()): verbatim halves
// every 72 ticks, gist every 960; dormant below 0.5, forgotten below 0.125.
var memory = claims.Memory{VerbatimHalfLife: 72, GistHalfLife: 960, DormantGist: 0.5, ForgottenGist: 0.125}

const (
	theft = "theft@2" // the claim id equals the event id
	v0    = "theft@2#v0"
	v1    = "theft@2#v1"
	v2    = "theft@2#v2"
)

// theftSlots are given out of name order on purpose: the store sorts them.
func theftSlots() claims.Slots {
	return claims.Slots{
		{Name: "victim", Type: claims.EntitySlot, Value: "merchant"},
		{Name: "actor", Type: claims.EntitySlot, Value: "player"},
		{Name: "location", Type: claims.LocationSlot, Value: "whiterun_market"},
		{Name: "item", Type: claims.ItemSlot, Value: "sweetroll"},
	}
}

// newTheftStore returns a store holding the claim theft@2 (minted at tick 2).
func newTheftStore() *claims.Store {
	s := claims.NewStore(memory)
	_, err := s.MintClaim(theft, "theft", 2, theftSlots())
	Expect(err).NotTo(HaveOccurred())
	return s
}

// itemSwap derives theft@2#v1 from v0: the item became an apple.
var itemSwap = []claims.Change{{Slot: "item", From: "sweetroll", To: "apple"}}

// report is testimony of v0 told by the last NPC of chain.
func report(chain []string, tick int64, confidence float64) claims.Testimony {
	return claims.Testimony{
		Teller: chain[len(chain)-1], Chain: chain, Variant: v0,
		Tick: tick, Via: "encounter@test", Confidence: confidence,
	}
}

// noisyOrOracle computes 1 − (1 − c)(1 − r) with every operation rounded to
// float64 on its own (round to nearest even), independently of the code
// under test and of whether the compiler would fuse a multiply-add here.
func noisyOrOracle(c, r float64) float64 {
	f := func(x float64) *big.Float { return new(big.Float).SetPrec(53).SetFloat64(x) }
	op := func() *big.Float { return new(big.Float).SetPrec(53).SetMode(big.ToNearestEven) }
	a := op().Sub(f(1), f(c))
	b := op().Sub(f(1), f(r))
	p := op().Mul(a, b)
	out, _ := op().Sub(f(1), p).Float64()
	return out
}

// expectBits asserts that got and want are the same float64 bit for bit.
func expectBits(got, want float64) {
	GinkgoHelper()
	Expect(math.Float64bits(got)).To(Equal(math.Float64bits(want)),
		"got %v (%#016x), want %v (%#016x)", got, math.Float64bits(got), want, math.Float64bits(want))
}

// slotValue returns the value of a slot that must exist.
func slotValue(s claims.Slots, name string) string {
	GinkgoHelper()
	sl, ok := s.Get(name)
	Expect(ok).To(BeTrue(), "no slot %q", name)
	return sl.Value
}
