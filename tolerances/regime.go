package tolerances

import (
	"errors"
	"fmt"
	"math"
)

// Regime is one comparison rule with its derivation.
type Regime struct {
	ID       int
	Name     string
	Fraction float64 // relative part: Fraction·min(|x|, |y|)
	Margin   float64 // absolute part

	// The written derivation, shown in docs and failure reports.
	Invariant   string // what must hold
	Formula     string
	GrowsWith   string // the size parameter the tolerance scales with, or why none
	FailureMode string // what a breach means
	Reason      string // why this number
}

// New validates a regime: parameters must be finite and non-negative.
func New(r Regime) (Regime, error) {
	for _, p := range []struct {
		name string
		v    float64
	}{{"fraction", r.Fraction}, {"margin", r.Margin}} {
		if math.IsNaN(p.v) || math.IsInf(p.v, 0) || p.v < 0 {
			return Regime{}, fmt.Errorf("regime %d (%s): %s %v must be finite and non-negative", r.ID, r.Name, p.name, p.v)
		}
	}
	return r, nil
}

// ErrNaN reports a NaN offered for comparison.
var ErrNaN = errors.New("NaN cannot be compared")

// Within reports whether actual is within the regime's tolerance of golden.
// Infinities are within only when equal.
func (r Regime) Within(golden, actual float64) (bool, error) {
	if math.IsNaN(golden) || math.IsNaN(actual) {
		return false, fmt.Errorf("regime %d: golden %v, actual %v: %w", r.ID, golden, actual, ErrNaN)
	}
	if golden == actual {
		return true, nil
	}
	if math.IsInf(golden, 0) || math.IsInf(actual, 0) {
		return false, nil
	}
	delta := math.Abs(golden - actual)
	return delta <= max(r.Fraction*min(math.Abs(golden), math.Abs(actual)), r.Margin), nil
}

func mustRegime(r Regime) Regime {
	r, err := New(r)
	if err != nil {
		panic(err) // a package-level regime with bad parameters is a programming error caught by any test run
	}
	return r
}

// ByteIdentity is regime 0: dense CSV and trace goldens.
var ByteIdentity = mustRegime(Regime{
	ID:          0,
	Name:        "byte identity",
	Invariant:   "a run reproduces every tracked value of every tick, and every trace record, as the same bytes",
	Formula:     "golden == actual, byte for byte",
	GrowsWith:   "nothing: the engine's arithmetic is platform-independent (keyed rolls, pure-Go transcendental functions, no FMA fusion), so there is no error to accumulate",
	FailureMode: "any behavioural change at any tick, however small; the report names the first divergent tick and column",
	Reason:      "a tolerance would hide a real divergence smaller than it; repr-exact floats lose nothing",
})

// Checkpoint is regime 1: sampled checkpoint values.
var Checkpoint = mustRegime(Regime{
	ID:          1,
	Name:        "checkpoint",
	Margin:      1e-5,
	Invariant:   "each sampled value (a confidence, a strength, a count) stays where the baseline put it",
	Formula:     "|golden − actual| ≤ 1e-5",
	GrowsWith:   "nothing: each checkpoint is one scalar read from state, not a sum over entities, so its error does not grow with the cast",
	FailureMode: "behavioural drift: a rule or coefficient moved a value the rung samples",
	Reason:      "values live in [0, 1] or are counts; 1e-5 is far above the few-ulp differences a faithful reimplementation (another language, another libm) may show, and far below any change a rule or coefficient edit makes",
})
