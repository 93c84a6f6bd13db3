package detmath_test

import (
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/detmath"
)

// logVectors pin Log; the comment is the decimal. Every one is also within
// 1 ulp of math.Log except the subnormal input, where amd64's assembly
// math.Log is far off (it gives -709.09 for 5e-324, whose log is -744.44).
var logVectors = []knownAnswer{
	{1, 0x3ff0000000000000, 0x0000000000000000},               // 0
	{2, 0x4000000000000000, 0x3fe62e42fefa39ef},               // 0.6931471805599453
	{0.5, 0x3fe0000000000000, 0xbfe62e42fefa39ef},             // -0.6931471805599453
	{10, 0x4024000000000000, 0x40026bb1bbb55516},              // 2.302585092994046
	{100, 0x4059000000000000, 0x40126bb1bbb55516},             // 4.605170185988092
	{1000, 0x408f400000000000, 0x401ba18a998fffa0},            // 6.907755278982137
	{math.E, 0x4005bf0a8b145769, 0x3ff0000000000000},          // 1
	{3, 0x4008000000000000, 0x3ff193ea7aad030a},               // 1.0986122886681096
	{7, 0x401c000000000000, 0x3fff2272ae325a57},               // 1.9459101490553132
	{0.1, 0x3fb999999999999a, 0xc0026bb1bbb55515},             // -2.3025850929940455
	{1e-300, 0x01a56e1fc2f8f359, 0xc085963447f87fb5},          // -690.7755278982137
	{5e-324, 0x0000000000000001, 0xc0874385446d71c3},          // -744.4400719213812
	{1e300, 0x7e37e43c8800759c, 0x4085963447f87fb5},           // 690.7755278982137
	{math.MaxFloat64, 0x7fefffffffffffff, 0x40862e42fefa39ef}, // 709.782712893384
	{1.5, 0x3ff8000000000000, 0x3fd9f323ecbf984c},             // 0.4054651081081644
	{0.75, 0x3fe8000000000000, 0xbfd269621134db92},            // -0.2876820724517809
	{12, 0x4028000000000000, 0x4003e116bcd39e7d},              // 2.4849066497880004
	{40, 0x4044000000000000, 0x400d82d33b32720d},              // 3.6888794541139363
	{200, 0x4069000000000000, 0x4015317a1b949c53},             // 5.298317366548036
	{5000, 0x40b3880000000000, 0x402108cd8bc5b177},            // 8.517193191416238
	{200000, 0x41086a0000000000, 0x402869825a924dfa},          // 12.206072645530174
	{1 + 0x1p-52, 0x3ff0000000000001, 0x3cafffffffffffff},     // 2.2204460492503128e-16
	{1 - 0x1p-53, 0x3fefffffffffffff, 0xbca0000000000000},     // -1.1102230246251565e-16
	{math.Sqrt2, 0x3ff6a09e667f3bcd, 0x3fd62e42fefa39f0},      // 0.3465735902799727
	{math.Sqrt2 / 2, 0x3fe6a09e667f3bcd, 0xbfd62e42fefa39ee},  // -0.3465735902799726
}

// signedULPs is how many float64 values apart a and b are, for two
// results of one sign.
func signedULPs(a, b float64) uint64 {
	return ulpDistance(math.Abs(a), math.Abs(b))
}

var _ = Describe("Log", func() {
	It("has at least 20 committed vectors", func() {
		Expect(len(logVectors)).To(BeNumerically(">=", 20))
	})

	DescribeTable("matches the committed vectors bit for bit",
		func(v knownAnswer) {
			Expect(math.Float64bits(v.x)).To(Equal(v.xBits), "input moved")
			got := detmath.Log(v.x)
			Expect(math.Float64bits(got)).To(Equal(v.want), "Log(%v) = %v (%#016x)", v.x, got, math.Float64bits(got))
			if v.x >= 0x1p-1022 { // math.Log is not to be trusted below the normals (above)
				Expect(signedULPs(got, math.Log(v.x))).To(BeNumerically("<=", 1), "Log(%v) = %v, math.Log %v", v.x, got, math.Log(v.x))
			}
		},
		knownAnswerEntries(logVectors))

	DescribeTable("has the special cases of math.Log",
		func(x, want float64) {
			got := detmath.Log(x)
			if math.IsNaN(want) {
				Expect(math.IsNaN(got)).To(BeTrue(), "Log(%v) = %v", x, got)
				return
			}
			Expect(got).To(Equal(want))
		},
		Entry("+Inf", math.Inf(1), math.Inf(1)),
		Entry("0", 0.0, math.Inf(-1)),
		Entry("-0", math.Copysign(0, -1), math.Inf(-1)),
		Entry("a negative number", -1.0, math.NaN()),
		Entry("-Inf", math.Inf(-1), math.NaN()),
		Entry("NaN", math.NaN(), math.NaN()),
	)

	It("stays within 1 ulp of math.Log over 200k inputs in [1, 1e6] and in [1e-6, 1]", func() {
		for _, r := range [][2]float64{{1, 1e6}, {1e-6, 1}} {
			sweep(sweepPoints, r[0], r[1], func(x float64) {
				Expect(signedULPs(detmath.Log(x), math.Log(x))).To(BeNumerically("<=", 1), "x=%v", x)
			})
		}
	})

	It("is undone by Exp within 1 ulp over 200k inputs in [-700, 700]", func() {
		sweep(sweepPoints, -700, 700, func(y float64) {
			x := detmath.Exp(y)
			Expect(ulpDistance(detmath.Exp(detmath.Log(x)), x)).To(BeNumerically("<=", 1), "y=%v", y)
		})
	})
})
