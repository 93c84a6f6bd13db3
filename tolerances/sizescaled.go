package tolerances

import (
	"fmt"
	"math"
)

// Regime 3, the size-scaled bound, compares two computations of one sum
// over a population whose summation order may legitimately differ: a fear
// total summed by location and by claim, a reputation total summed by
// observer and by subject. Byte identity would be wrong here (the two
// orders round differently), and a fixed margin would be wrong too (the
// rounding error grows with the number of terms and their size).
//
// Derivation. Let u = 2⁻⁵³, the unit roundoff of float64 (half an ulp of
// 1), and γ(k) = k·u / (1 − k·u) for k·u < 1. Summing n floating-point
// numbers x₁ … xₙ one after another, in any order, gives a result ŝ with
//
//	|ŝ − Σxᵢ| ≤ γ(n−1) · Σ|xᵢ|
//
// (Higham, Accuracy and Stability of Numerical Algorithms, §4.2: each of
// the n−1 additions rounds once, and a term added early passes through
// every later rounding). Pairwise or compensated summation satisfy the
// same bound (theirs is smaller). When each term is itself a product
// computed with r roundings (severity × confidence × gist: r = 2), and
// the two paths may form the terms differently, each term carries a
// relative error of at most γ(r) too, and the errors compose into
// γ(n−1+r). Two computations of one sum are each within that of the exact
// sum, so they are within twice it of each other:
//
//	|a − b| ≤ 2 · γ(n − 1 + r) · Σ|xᵢ|
//
// The bound grows linearly with n (the seed's "1e-11 · N" shape, derived
// rather than chosen) and with the magnitude Σ|xᵢ| of the terms, not of
// the sum: terms that cancel still carry their rounding. It has no floor:
// one term computed the same way twice must be the same bits, and two
// empty sums are both zero. It is a worst case; a real discrepancy is
// usually a few ulps, often zero.
//
// Failure mode: a breach means the two paths do not sum the same terms — a
// belief counted in one and not the other, a term weighted differently,
// a holder placed at another location — never rounding alone.

// SizeScaled is regime 3: sums over a population, compared across
// summation orders.
var SizeScaled = SizeScaledRegime{
	ID:          3,
	Name:        "size-scaled sum",
	Invariant:   "two computations of one sum over a population, in different orders or by different paths, add up the same terms",
	Formula:     "|a − b| ≤ 2·γ(n − 1 + r)·Σ|xᵢ|, γ(k) = k·u/(1 − k·u), u = 2⁻⁵³; n terms, r roundings to form each term",
	GrowsWith:   "the number of terms n (linearly) and their magnitude Σ|xᵢ|: each addition can round once, and an early term passes through every later rounding",
	FailureMode: "the two paths disagree on the terms (a belief counted once, a weight computed differently), which rounding cannot explain",
	Reason:      "the standard worst-case bound for recursive summation (Higham §4.2), doubled because both results may err in opposite directions; no margin is chosen, so nothing is pulled from thin air",
}

// SizeScaledRegime is a tolerance for sums: its bound is a function of the
// sum's size, not a fixed number.
type SizeScaledRegime struct {
	ID   int
	Name string

	// The written derivation, shown in docs and failure reports.
	Invariant   string
	Formula     string
	GrowsWith   string
	FailureMode string
	Reason      string
}

// Sum describes the sum two computations are compared on.
type Sum struct {
	Terms     int     // n: how many terms are summed
	Magnitude float64 // Σ|xᵢ|
	// TermRoundings is r: how many roundings forming one term may take
	// (0 when both paths are handed the same term values).
	TermRoundings int
}

// unitRoundoff is u = 2⁻⁵³.
const unitRoundoff = 0x1p-53

// gamma is γ(k) = k·u / (1 − k·u); ok is false when k·u ≥ 1, where no
// bound exists.
func gamma(k int) (float64, bool) {
	ku := float64(float64(k) * unitRoundoff) // rounded, never fused into 1 - ku
	if ku >= 1 {
		return 0, false
	}
	return ku / (1 - ku), true
}

// Bound returns 2·γ(n − 1 + r)·Σ|xᵢ| for the sum: the largest |a − b| two
// computations of it may show. Negative, NaN or infinite parameters are
// refused, as is a sum too long for any bound (n·u ≥ 1).
func (r SizeScaledRegime) Bound(s Sum) (float64, error) {
	switch {
	case s.Terms < 0 || s.TermRoundings < 0:
		return 0, fmt.Errorf("regime %d (%s): terms %d and term roundings %d must not be negative", r.ID, r.Name, s.Terms, s.TermRoundings)
	case math.IsNaN(s.Magnitude) || math.IsInf(s.Magnitude, 0) || s.Magnitude < 0:
		return 0, fmt.Errorf("regime %d (%s): magnitude %v must be finite and non-negative", r.ID, r.Name, s.Magnitude)
	case s.Terms == 0:
		return 0, nil
	}
	g, ok := gamma(s.Terms - 1 + s.TermRoundings)
	if !ok {
		return 0, fmt.Errorf("regime %d (%s): %d terms: no bound once n·u reaches 1", r.ID, r.Name, s.Terms)
	}
	return 2 * g * s.Magnitude, nil
}

// Within reports whether a and b, two computations of the sum s, agree
// within the bound; it also returns the bound. NaN is never within.
func (r SizeScaledRegime) Within(a, b float64, s Sum) (bool, float64, error) {
	if math.IsNaN(a) || math.IsNaN(b) {
		return false, 0, fmt.Errorf("regime %d: %v and %v: %w", r.ID, a, b, ErrNaN)
	}
	bound, err := r.Bound(s)
	if err != nil {
		return false, 0, err
	}
	if a == b {
		return true, bound, nil
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return false, bound, nil
	}
	return math.Abs(a-b) <= bound, bound, nil
}
