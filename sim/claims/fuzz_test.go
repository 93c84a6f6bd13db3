package claims_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/chronicle/ladder/sim/claims"
)

// FuzzNoisyOr checks NoisyOr against an exact, per-operation-rounded oracle
// for every pair of confidences in [0, 1], and that it never falls below
// either input or rises above 1.
func FuzzNoisyOr(f *testing.F) {
	for _, seed := range [][2]float64{{0, 0}, {0.5, 0.5}, {0.9, 0.72}, {1, 0.3}, {0, 0.1}, {1e-300, 0.999999999}} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, c, r float64) {
		if !(c >= 0 && c <= 1 && r >= 0 && r <= 1) {
			t.Skip("confidences live in [0, 1]")
		}
		got := claims.NoisyOr(c, r)
		one := func(x float64) *big.Float { return new(big.Float).SetPrec(53).SetFloat64(x) }
		op := func() *big.Float { return new(big.Float).SetPrec(53) }
		p := op().Mul(op().Sub(one(1), one(c)), op().Sub(one(1), one(r)))
		want, _ := op().Sub(one(1), p).Float64()
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("NoisyOr(%v, %v) = %v (%#x), want %v (%#x)", c, r, got, math.Float64bits(got), want, math.Float64bits(want))
		}
		if got != claims.NoisyOr(r, c) {
			t.Fatalf("NoisyOr(%v, %v) is not symmetric", c, r)
		}
		// Rounding 1 − c can lose up to half an ulp of 1 below c.
		if got > 1 || got < math.Max(c, r)-0x1p-53 {
			t.Fatalf("NoisyOr(%v, %v) = %v is outside [max(c, r), 1]", c, r, got)
		}
	})
}
