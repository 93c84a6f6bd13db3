// Package tolerances holds the ladder's numeric comparison regimes as data,
// each with its written derivation: the invariant it protects, the formula,
// what size parameter it grows with, and the failure it guards against.
//
// Two comparison regimes exist today:
//
//   - Regime 0, byte identity, for dense CSV and trace goldens: every value
//     of every tick must be the same bytes. It has no tolerance because the
//     engine promises the same bits on every platform.
//   - Regime 1, checkpoint values: |golden − actual| ≤ 1e-5, absolute. It is
//     the contract that survives a deliberate reimplementation (another
//     language, another decay routine) where byte identity cannot.
//
// A third regime, distributional, judges a sweep rung's aggregates: the
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
