package detmath_test

import "math"

// sweepPoints is how many inputs each sweep visits.
const sweepPoints = 200_000

// sweep calls visit with n inputs spread over [lo, hi]: the two ends, then
// points drawn by a 64-bit linear congruential generator (Knuth's MMIX
// constants). The sequence is fixed, so every run and platform tests the
// same inputs, and the generator is simple enough to need no library.
func sweep(n int, lo, hi float64, visit func(x float64)) {
	visit(lo)
	visit(hi)
	state := uint64(0x9e3779b97f4a7c15)
	for range n - 2 {
		state = state*6364136223846793005 + 1442695040888963407
		unit := float64(state>>11) * 0x1p-53
		visit(lo + float64(unit*(hi-lo)))
	}
}

// ulpDistance returns how many float64 values apart a and b are. Both must
// be non-negative, which holds for every exponential.
func ulpDistance(a, b float64) uint64 {
	ua, ub := math.Float64bits(a), math.Float64bits(b)
	if ua > ub {
		return ua - ub
	}
	return ub - ua
}
