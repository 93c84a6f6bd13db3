package detmath

import "math"

// Log returns the natural logarithm of x with the same bits on every
// platform and compiler: fdlibm's algorithm, which the math package's
// pure-Go code also follows, written so that no compiler may fuse. On
// amd64 math.Log is assembly, and elsewhere a compiler may fuse its
// products, so its last bit is the machine's; this one is the standard's.
//
// Special cases are those of math.Log:
//
//	Log(+Inf) = +Inf
//	Log(0) = -Inf
//	Log(x < 0) = NaN
//	Log(NaN) = NaN
func Log(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01 // 0x3FE62E42_FEE00000
		ln2Lo = 1.90821492927058770002e-10 // 0x3DEA39EF_35793C76
		l1    = 6.666666666666735130e-01   // 0x3FE55555_55555593
		l2    = 3.999999999940941908e-01   // 0x3FD99999_9997FA04
		l3    = 2.857142874366239149e-01   // 0x3FD24924_94229359
		l4    = 2.222219843214978396e-01   // 0x3FCC71C5_1D8E78AF
		l5    = 1.818357216161805012e-01   // 0x3FC74664_96CB03DE
		l6    = 1.531383769920937332e-01   // 0x3FC39A09_D078C69F
		l7    = 1.479819860511658591e-01   // 0x3FC2F112_DF3E5244
	)

	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}

	// Reduce: x = 2**k * (1 + f) with sqrt(2)/2 <= 1 + f < sqrt(2).
	f1, ki := math.Frexp(x)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)

	// log(1 + f) = f - f*f/2 + s*(f*f/2 + R), s = f/(2 + f), R a minimax
	// polynomial in s*s, each product rounded before it meets a sum.
	s := f / (2 + f)
	s2 := float64(s * s)
	s4 := float64(s2 * s2)
	t1 := float64(s2 * (l1 + float64(s4*(l3+float64(s4*(l5+float64(s4*l7)))))))
	t2 := float64(s4 * (l2 + float64(s4*(l4+float64(s4*l6)))))
	r := t1 + t2
	hfsq := float64(float64(0.5*f) * f)
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*ln2Lo))) - f)
}
