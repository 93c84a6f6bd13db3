package detmath

import "math"

// Exp returns e**x, the base-e exponential of x, with the same bits on every
// platform and compiler.
//
// Special cases are those of math.Exp:
//
//	Exp(+Inf) = +Inf
//	Exp(-Inf) = 0
//	Exp(NaN) = NaN
//	Exp(x) = +Inf for x > 7.09782712893383973096e+02 (overflow)
//	Exp(x) = 0 for x < -7.45133219101941108420e+02 (underflow)
//	Exp(x) = 1 + x for |x| < 2**-28
func Exp(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
		log2e = 1.44269504088896338700e+00

		overflow  = 7.09782712893383973096e+02
		underflow = -7.45133219101941108420e+02
		nearZero  = 0x1p-28
	)

	switch {
	case math.IsNaN(x):
		return x
	case x > overflow: // also +Inf
		return math.Inf(1)
	case x < underflow: // also -Inf
		return 0
	case -nearZero < x && x < nearZero:
		return 1 + x
	}

	// Reduce: x = k*ln2 + r with |r| <= ln2/2, r kept as hi - lo.
	var k int
	if x < 0 {
		k = int(float64(log2e*x) - 0.5)
	} else {
		k = int(float64(log2e*x) + 0.5)
	}
	fk := float64(k)
	hi := x - float64(fk*ln2Hi)
	lo := float64(fk * ln2Lo)
	return expmulti(hi, lo, k)
}

// Exp2 returns 2**x, the base-2 exponential of x, with the same bits on
// every platform and compiler. It is exact when x is an integer whose power
// of two is representable, subnormals included.
//
// Special cases are those of math.Exp2:
//
//	Exp2(+Inf) = +Inf
//	Exp2(-Inf) = 0
//	Exp2(NaN) = NaN
//	Exp2(x) = +Inf for x > 1.0239999999999999e+03 (overflow)
//	Exp2(x) = 0 for x < -1074 (underflow)
func Exp2(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10

		overflow  = 1.0239999999999999e+03
		underflow = -1.0740e+03
	)

	switch {
	case math.IsNaN(x):
		return x
	case x > overflow: // also +Inf
		return math.Inf(1)
	case x < underflow: // also -Inf
		return 0
	}

	// Reduce: x = k + t with |t| <= 1/2, so 2**x = 2**k * e**(t*ln2),
	// with t*ln2 kept as hi - lo. For integer x, t is 0 and the result is
	// exactly 2**k.
	var k int
	switch {
	case x > 0:
		k = int(x + 0.5)
	case x < 0:
		k = int(x - 0.5)
	}
	t := x - float64(k)
	hi := float64(t * ln2Hi)
	lo := float64(-t * ln2Lo)
	return expmulti(hi, lo, k)
}

// expmulti returns e**r * 2**k where r = hi - lo and |r| <= ln2/2.
//
// e**r comes from fdlibm's rational form 1 + r + r*c/(2-c), with c the
// degree-5 minimax polynomial in r*r evaluated by Horner's rule. Each
// product is rounded on its own by an explicit float64 conversion before it
// meets an addition or subtraction; without that, a compiler targeting a
// CPU with fused multiply-add may skip the rounding and change the last bit.
func expmulti(hi, lo float64, k int) float64 {
	const (
		p1 = 1.66666666666666657415e-01  // 0x3FC55555_55555555
		p2 = -2.77777777770155933842e-03 // 0xBF66C16C_16BEBD93
		p3 = 6.61375632143793436117e-05  // 0x3F11566A_AF25DE2C
		p4 = -1.65339022054652515390e-06 // 0xBEBBBD41_C5D26BF1
		p5 = 4.13813679705723846039e-08  // 0x3E663769_72BEA4D0
	)

	r := hi - lo
	t := float64(r * r)
	p := float64(t * p5)
	p = float64(t * (p4 + p))
	p = float64(t * (p3 + p))
	p = float64(t * (p2 + p))
	p = float64(t * (p1 + p))
	c := r - p
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	return math.Ldexp(y, k)
}
