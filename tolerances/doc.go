// Package tolerances holds the ladder's numeric comparison regimes as data,
// each with its written derivation: the invariant it protects, the formula,
// what size parameter it grows with, and the failure it guards against.
//
// Three comparison regimes (0–2) exist as data here:
//
//   - Regime 0, byte identity, for dense CSV and trace goldens: every value
//     of every tick must be the same bytes. It has no tolerance because the
//     engine promises the same bits on every platform.
//   - Regime 1, checkpoint values: |golden − actual| ≤ 1e-5, absolute. It is
//     the contract that survives a deliberate reimplementation (another
//     language, another decay routine) where byte identity cannot.
//   - Regime 2, the invariant audit (Audit, Invariants): the engine's own
//     state after every tick of every rung, graded ok / warn / alarm. Each
//     invariant has its derivation here (Invariant: the statement, the ok
//     bound as a function of size, where the arithmetic is exact, the
//     failure it guards against); the bound is 0 where the arithmetic is
//     exact and (n + 3)·2⁻⁵³·|v| for a sum of n roundings (SumBound), a
//     residual beyond it is a warn up to 1e-6 and an alarm beyond. The
//     checks are in sim/audit; docs/tolerances.md is the reader's copy.
//
// Beside them, regime 3, the size-scaled bound (SizeScaled, sizescaled.go), compares
// two computations of one sum over a population whose summation order may
// legitimately differ — T6's fear view against an independent
// recomputation: |a − b| ≤ 2·γ(n − 1 + r)·Σ|xᵢ|, growing with the number
// of terms and their magnitude; its derivation is written beside it.
//
// A fifth, distributional, judges a sweep rung's aggregates: the
// mean over N seeds within z · s₀ · √(1/N + 1/M) of an M-seed pilot's mean
// (package ladder/sweep, which holds its bound as data; the derivation is
// in docs/determinism.md). It is not a comparison of two values and so
// is not a Regime; the per-seed values it summarises are compared under
// regime 0.
//
// A regime compares with go-cmp's approximate-equality formula,
// |x − y| ≤ max(Fraction·min(|x|, |y|), Margin), so a relative regime can be
// added later without changing any caller. NaN is never within any regime:
// a NaN in a golden or a checkpoint is an error, not a comparison.
package tolerances
