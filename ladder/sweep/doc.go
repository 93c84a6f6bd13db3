// Package sweep runs one world shape over many seeds and judges the
// aggregates against a statistical bound: the distributional regime the
// seed reserves for casts of about a thousand, where a single seed's exact
// numbers say little about whether the engine still spreads news the way
// it did.
//
// A sweep rung (a fixture with a sweep: block) copies its world into
// Towns separate towns (Towns), runs it once per seed id
// "<seed_id>/<i>", i = 0 … seeds−1, and at each sampled tick counts
// (Measure) the NPCs who hold a belief ("informed") and the distinct
// variants anyone holds ("variants"). Each seed is deterministic, so the
// per-seed counts are exact and compared byte for byte with their golden;
// the bound is what survives a legitimate engine change that moves
// individual seeds.
//
// The bound (Bound) is on the mean over the N seeds of one aggregate. Its
// reference is a pilot sweep of M other seeds ("<seed_id>/pilot/<j>") with
// mean μ₀ and sample standard deviation s₀; seeds are independent draws
// of the same distribution, so by the central limit theorem X̄ − μ̂₀ is
// close to normal with standard deviation σ·√(1/N + 1/M), and
//
//	|X̄ − μ₀| ≤ z · s₀ · √(1/N + 1/M)
//
// holds with probability 1 − α for the two-sided normal quantile z of α
// (z = 3.89 for α = 1e-4). docs/determinism.md derives it in full. The
// arithmetic is integer sums and IEEE-exact square roots, so a summary is
// the same bytes on every platform.
package sweep
