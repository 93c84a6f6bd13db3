package detmath_test

import (
	"math"
	"math/big"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/detmath"
)

// knownAnswerEntries turns a vector table into table entries.
func knownAnswerEntries(vectors []knownAnswer) []TableEntry {
	entries := make([]TableEntry, 0, len(vectors))
	for _, v := range vectors {
		entries = append(entries, Entry("x="+strconv.FormatFloat(v.x, 'g', -1, 64), v))
	}
	return entries
}

// checkKnownAnswer asserts one vector bit for bit and, for a finite
// non-zero answer, that it lies within 1 ulp of the high-precision value.
func checkKnownAnswer(f func(float64) float64, ref func(float64) *big.Float, v knownAnswer) {
	Expect(math.Float64bits(v.x)).To(Equal(v.xBits), "input moved")
	got := f(v.x)
	Expect(math.Float64bits(got)).To(Equal(v.want), "f(%v) = %v (%#016x)", v.x, got, math.Float64bits(got))
	if got != 0 && !math.IsInf(got, 0) {
		Expect(withinOneULP(got, ref(v.x))).To(BeTrue(), "f(%v) = %v is not within 1 ulp", v.x, got)
	}
}

// compareSweep checks ours against the math package's function over a
// sweep of [lo, hi] and returns how many inputs it excused. Within 1 ulp
// passes. math.Exp on amd64 is assembly (a Taylor series after reducing by
// 1/16) whose error reaches a little over 1 ulp, so the two can land 2 ulps
// apart; such an input is excused only if the math/big reference shows ours
// within 1 ulp of the exact value, and excuses must stay rare.
func compareSweep(ours, theirs func(float64) float64, ref func(float64) *big.Float, lo, hi float64) int {
	excused := 0
	sweep(sweepPoints, lo, hi, func(x float64) {
		a, b := ours(x), theirs(x)
		d := ulpDistance(a, b)
		if d <= 1 {
			return
		}
		Expect(d).To(BeNumerically("<=", 2), "x=%v: %v vs %v", x, a, b)
		Expect(withinOneULP(a, ref(x))).To(BeTrue(), "x=%v: ours %v is not within 1 ulp of exact", x, a)
		excused++
	})
	Expect(excused).To(BeNumerically("<=", sweepPoints/1000), "too many inputs needed the reference")
	return excused
}

var _ = Describe("Exp", func() {
	It("has at least 40 committed vectors", func() {
		Expect(len(expVectors)).To(BeNumerically(">=", 40))
	})

	DescribeTable("matches the committed vectors bit for bit",
		func(v knownAnswer) { checkKnownAnswer(detmath.Exp, refExp, v) },
		knownAnswerEntries(expVectors),
	)

	DescribeTable("has the special cases of math.Exp",
		func(x, want float64) {
			Expect(math.Float64bits(detmath.Exp(x))).To(Equal(math.Float64bits(want)))
		},
		Entry("+Inf", math.Inf(1), math.Inf(1)),
		Entry("-Inf", math.Inf(-1), 0.0),
		Entry("just above the overflow threshold", math.Nextafter(7.09782712893383973096e+02, math.Inf(1)), math.Inf(1)),
		Entry("at the overflow threshold, still finite", 7.09782712893383973096e+02, math.Float64frombits(0x7fefffffffffff2a)),
		Entry("just below the underflow threshold", math.Nextafter(-7.45133219101941108420e+02, math.Inf(-1)), 0.0),
		Entry("at the underflow threshold, the least subnormal", -7.45133219101941108420e+02, math.Float64frombits(1)),
		Entry("a huge negative", -1e300, 0.0),
		Entry("tiny positive gives 1+x", 0x1p-40, 1+0x1p-40),
		Entry("tiny negative gives 1+x", -0x1p-40, 1-0x1p-40),
	)

	// fdlibm's shortcut: below 2^-28 in magnitude e^x is 1 + x, one
	// rounding. The reduction would give another last bit at these two
	// (found by comparing the two paths over 2·10^7 inputs; they agree at
	// ±2^-28 itself).
	It("is 1 + x below 2^-28 in magnitude, where the reduction would round otherwise", func() {
		for _, x := range []float64{2.0392444391219366e-09, -1.0844351529871084e-09} {
			Expect(math.Float64bits(detmath.Exp(x))).To(Equal(math.Float64bits(1+x)), "x=%v", x)
		}
	})

	It("returns NaN for NaN", func() {
		Expect(math.IsNaN(detmath.Exp(math.NaN()))).To(BeTrue())
	})

	It("stays within 1 ulp of math.Exp over 200k inputs in [-745, 709]", func() {
		excused := compareSweep(detmath.Exp, math.Exp, refExp, -745, 709)
		GinkgoWriter.Printf("math.Exp was more than 1 ulp off at %d of %d inputs\n", excused, sweepPoints)
	})

	It("stays within 1 ulp of a math/big reference on 400 inputs", func() {
		sweep(400, -745, 709.78, func(x float64) {
			got := detmath.Exp(x)
			Expect(withinOneULP(got, refExp(x))).To(BeTrue(), "Exp(%v) = %v", x, got)
		})
	})
})

var _ = Describe("Exp2", func() {
	It("has committed vectors", func() {
		Expect(len(exp2Vectors)).To(BeNumerically(">=", 30))
	})

	DescribeTable("matches the committed vectors bit for bit",
		func(v knownAnswer) { checkKnownAnswer(detmath.Exp2, refExp2, v) },
		knownAnswerEntries(exp2Vectors),
	)

	DescribeTable("has the special cases of math.Exp2",
		func(x, want float64) {
			Expect(math.Float64bits(detmath.Exp2(x))).To(Equal(math.Float64bits(want)))
		},
		Entry("+Inf", math.Inf(1), math.Inf(1)),
		Entry("-Inf", math.Inf(-1), 0.0),
		Entry("1024 overflows", 1024.0, math.Inf(1)),
		Entry("below -1074 underflows", math.Nextafter(-1074, math.Inf(-1)), 0.0),
		Entry("-1074 is the least subnormal", -1074.0, math.Float64frombits(1)),
	)

	It("returns NaN for NaN", func() {
		Expect(math.IsNaN(detmath.Exp2(math.NaN()))).To(BeTrue())
	})

	It("is exact at every integer from -1074 to 1023", func() {
		Expect(detmath.Exp2(-3)).To(Equal(0.125))
		for n := -1074; n <= 1023; n++ {
			Expect(detmath.Exp2(float64(n))).To(Equal(math.Ldexp(1, n)), "Exp2(%d)", n)
		}
	})

	It("stays within 1 ulp of math.Exp2 over 200k inputs in [-1074, 1023.99]", func() {
		excused := compareSweep(detmath.Exp2, math.Exp2, refExp2, -1074, 1023.99)
		GinkgoWriter.Printf("math.Exp2 was more than 1 ulp off at %d of %d inputs\n", excused, sweepPoints)
	})

	It("stays within 1 ulp of a math/big reference on 400 inputs", func() {
		sweep(400, -1074, 1023.99, func(x float64) {
			got := detmath.Exp2(x)
			Expect(withinOneULP(got, refExp2(x))).To(BeTrue(), "Exp2(%v) = %v", x, got)
		})
	})
})
