package tolerances_test

import (
	"errors"
	"math"
	"testing"

	"github.com/chronicle/ladder/tolerances"
)

// FuzzWithin checks Within's contract on arbitrary inputs: NaN is always
// ErrNaN; otherwise it is symmetric, reflexive, true for equal values, and
// under a pure margin agrees with |x − y| ≤ margin.
func FuzzWithin(f *testing.F) {
	f.Add(0.9, 0.901, 0.0, 1e-5)
	f.Add(100.0, 101.0, 0.01, 0.0)
	f.Add(math.Inf(1), math.Inf(1), 0.0, 0.0)
	f.Add(math.NaN(), 1.0, 0.0, 0.0)
	f.Add(0.0, math.Copysign(0, -1), 0.0, 0.0)
	f.Fuzz(func(t *testing.T, x, y, fraction, margin float64) {
		r, err := tolerances.New(tolerances.Regime{Fraction: fraction, Margin: margin})
		if err != nil {
			return
		}
		got, err := r.Within(x, y)
		if math.IsNaN(x) || math.IsNaN(y) {
			if !errors.Is(err, tolerances.ErrNaN) || got {
				t.Fatalf("Within(%v, %v) = %v, %v; want false, ErrNaN", x, y, got, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("Within(%v, %v): %v", x, y, err)
		}
		if sym, _ := r.Within(y, x); sym != got {
			t.Fatalf("Within is not symmetric for %v, %v", x, y)
		}
		if self, _ := r.Within(x, x); !self {
			t.Fatalf("Within(%v, %v) is false", x, x)
		}
		if x == y && !got {
			t.Fatalf("equal values %v, %v not within", x, y)
		}
		if (math.IsInf(x, 0) || math.IsInf(y, 0)) && x != y && got {
			t.Fatalf("infinity %v within %v", x, y)
		}
		if fraction == 0 && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
			if want := math.Abs(x-y) <= margin; got != want {
				t.Fatalf("Within(%v, %v) margin %v = %v, want %v", x, y, margin, got, want)
			}
		}
	})
}
