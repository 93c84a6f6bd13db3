package detmath_test

import (
	"math"
	"testing"

	"github.com/chronicle/ladder/sim/detmath"
)

// benchInputs are the decay exponents of one day of half-hour ticks, a
// typical spread for the engine.
var benchInputs = func() []float64 {
	xs := make([]float64, 48)
	for i := range xs {
		xs[i] = -float64(i*30) / 960.0
	}
	return xs
}()

// sinkF keeps the compiler from discarding benchmarked results.
var sinkF float64

// bench runs f over benchInputs, one input per iteration.
func bench(b *testing.B, f func(float64) float64) {
	i := 0
	for b.Loop() {
		sinkF = f(benchInputs[i%len(benchInputs)])
		i++
	}
}

// BenchmarkExp measures Exp on the decay inputs.
func BenchmarkExp(b *testing.B) { bench(b, detmath.Exp) }

// BenchmarkMathExp is the baseline for BenchmarkExp.
func BenchmarkMathExp(b *testing.B) { bench(b, math.Exp) }

// BenchmarkExp2 measures Exp2 on the decay inputs.
func BenchmarkExp2(b *testing.B) { bench(b, detmath.Exp2) }

// BenchmarkMathExp2 is the baseline for BenchmarkExp2.
func BenchmarkMathExp2(b *testing.B) { bench(b, math.Exp2) }
