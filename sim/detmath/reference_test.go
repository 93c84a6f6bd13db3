package detmath_test

import (
	"math"
	"math/big"
)

// refPrec is the working precision of the reference, far above float64's
// 53 bits so that rounding inside the reference cannot decide a verdict.
const refPrec = 256

// refExp returns e**x to refPrec bits, from the Taylor series of
// e**(x/2**s) squared s times, with s chosen so |x/2**s| <= 1/2.
func refExp(x float64) *big.Float {
	s := 0
	for math.Abs(x) > math.Ldexp(0.5, s) {
		s++
	}
	r := new(big.Float).SetPrec(refPrec).SetFloat64(x)
	r.SetMantExp(r, -s)
	sum := taylorExp(r)
	for range s {
		sum.Mul(sum, sum)
	}
	return sum
}

// refExp2 returns 2**x to refPrec bits as 2**n * e**(f*ln2), where n is
// the integer part of x and f its fraction.
func refExp2(x float64) *big.Float {
	n, f := math.Modf(x) // exact
	arg := new(big.Float).SetPrec(refPrec).SetFloat64(f)
	arg.Mul(arg, ln2)
	sum := taylorExp(arg)
	return sum.SetMantExp(sum, int(n))
}

// taylorExp sums e**r for |r| <= 1 until the terms no longer matter.
func taylorExp(r *big.Float) *big.Float {
	sum := new(big.Float).SetPrec(refPrec).SetInt64(1)
	term := new(big.Float).SetPrec(refPrec).SetInt64(1)
	for n := int64(1); ; n++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetInt64(n))
		if term.Sign() == 0 || term.MantExp(nil) < -refPrec-8 {
			return sum
		}
		sum.Add(sum, term)
	}
}

// ln2 is ln 2 to refPrec bits, computed once.
var ln2 = refLn2()

// refLn2 returns ln 2 = sum over k >= 1 of 1/(k * 2**k) to refPrec bits.
func refLn2() *big.Float {
	sum := new(big.Float).SetPrec(refPrec)
	for k := 1; k < refPrec+16; k++ {
		term := new(big.Float).SetPrec(refPrec).SetInt64(1)
		term.Quo(term, new(big.Float).SetInt64(int64(k)))
		sum.Add(sum, term.SetMantExp(term, -k))
	}
	return sum
}

// withinOneULP reports whether the exact value lies strictly between the
// float64 neighbours of got, which is the same as |got - exact| < 1 ulp.
func withinOneULP(got float64, exact *big.Float) bool {
	below := new(big.Float).SetFloat64(math.Nextafter(got, math.Inf(-1)))
	above := new(big.Float).SetFloat64(math.Nextafter(got, math.Inf(1)))
	return below.Cmp(exact) < 0 && exact.Cmp(above) < 0
}
