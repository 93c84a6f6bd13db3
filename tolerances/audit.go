package tolerances

import (
	"math"
	"math/big"
	"strconv"
)

// Grade is regime 2's verdict on one invariant for one record at one tick.
// The order matters: a worse grade is a larger value.
type Grade int

const (
	// OK: the invariant holds, or its residual is within what rounding
	// can explain.
	OK Grade = iota
	// Warn: a residual beyond what rounding explains, but at most the
	// regime's Margin (1e-6): the arithmetic changed, not the logic.
	Warn
	// Alarm: a residual beyond the Margin, a NaN, or a broken structural
	// invariant (a duplicate, a cycle, a state going back).
	Alarm
)

// String returns "ok", "warn" or "alarm".
func (g Grade) String() string {
	switch g {
	case OK:
		return "ok"
	case Warn:
		return "warn"
	case Alarm:
		return "alarm"
	}
	return "grade(" + strconv.Itoa(int(g)) + ")"
}

// Audit is regime 2: the invariant audit every rung runs at every tick.
// Its Margin is the warn ceiling; the ok bound is each invariant's own
// (Invariants), 0 where the arithmetic is exact.
var Audit = mustRegime(Regime{
	ID:          2,
	Name:        "invariant audit",
	Margin:      1e-6,
	Invariant:   "the engine's state is one a correct engine could hold: the structural invariants (one claim per event, one belief per holder and claim, intact lineage, obligations only moving forward) hold exactly, and every float invariant's residual is within what rounding explains",
	Formula:     "|r| ≤ bound(n): ok; bound(n) < |r| ≤ 1e-6: warn; |r| > 1e-6, NaN, or a structural break: alarm",
	GrowsWith:   "the bound of a float invariant grows with n, the number of roundings behind the value it checks (n·2⁻⁵³·|value|); structural invariants and ranges kept by exact operations have bound 0 at any size",
	FailureMode: "warn: arithmetic that rounds where the derivation says it cannot (a reordered sum, an unguarded product); alarm: a logic bug that left impossible state (a duplicate belief, an orphan variant, a confidence of 1.2)",
	Reason:      "1e-6 is the seed's alarm line for one residual: far above the accumulated rounding of any sum the engine does (n·2⁻⁵³ for n ≪ 10⁹), far below any value a rule writes; the ladder runs strict, so a warn fails it too",
})

// Grade grades a residual against bound, the most that rounding can
// explain: |residual| ≤ bound is OK, up to r.Margin is Warn, beyond it
// (or NaN) is Alarm. It is how regime 2 grades a float invariant.
func (r Regime) Grade(residual, bound float64) Grade {
	a := math.Abs(residual)
	switch {
	case math.IsNaN(residual) || math.IsNaN(bound):
		return Alarm
	case a <= bound:
		return OK
	case a <= r.Margin:
		return Warn
	}
	return Alarm
}

// Failing reports whether g fails a run: an alarm always, a warn only in
// strict mode (the ladder's default).
func (g Grade) Failing(strict bool) bool {
	return g == Alarm || g == Warn && strict
}

// Unit is the unit roundoff of float64, 2⁻⁵³: one rounding of a result x
// is off by at most Unit·|x|.
const Unit = 0x1p-53

// SumBound is the rounding a value s can carry when it was built by n
// additions of non-negative terms, each rounded once: every partial sum is
// at most s, so each rounding is at most Unit·s and together at most
// n·Unit·s.
func SumBound(n int64, s float64) float64 {
	return float64(n) * Unit * math.Abs(s)
}

// ExactSteps returns the largest n for which start + k·step is a float64
// for every k from 0 to n, so that adding step to start n times never
// rounds; ok is false when that holds for every n (step is 0). start and
// step must be finite and non-negative.
//
// Both are integers times a common power of two, start = A·2^q and
// step = B·2^q, so start + k·step = (A + k·B)·2^q, which a float64 holds
// exactly while A + k·B ≤ 2⁵³. With a prior of 1 and a weight of 1 that is
// 2⁵³ − 1 steps: integer counts never round.
func ExactSteps(start, step float64) (n int64, ok bool) {
	if step == 0 {
		return 0, false
	}
	q := min(lowBit(start), lowBit(step))
	a := scaled(start, q)
	b := scaled(step, q)
	limit := new(big.Int).Lsh(big.NewInt(1), 53)
	room := new(big.Int).Sub(limit, a)
	if room.Sign() < 0 {
		return -1, true
	}
	k := room.Quo(room, b)
	if !k.IsInt64() {
		return math.MaxInt64, true
	}
	return k.Int64(), true
}

// lowBit returns the exponent of x's lowest set bit (x = m·2^e with m odd),
// or a large value for 0 so that it never sets the common exponent.
func lowBit(x float64) int {
	if x == 0 {
		return math.MaxInt32
	}
	frac, exp := math.Frexp(x) // x = frac·2^exp, 0.5 ≤ frac < 1
	m := uint64(math.Ldexp(frac, 53))
	e := exp - 53
	for m&1 == 0 {
		m >>= 1
		e++
	}
	return e
}

// scaled returns x / 2^q as an integer; q is at most x's lowest bit.
func scaled(x float64, q int) *big.Int {
	if x == 0 {
		return new(big.Int)
	}
	f := new(big.Float).SetFloat64(x)
	f.SetMantExp(f, -q)
	i, _ := f.Int(nil)
	return i
}
