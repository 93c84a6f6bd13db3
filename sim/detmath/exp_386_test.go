//go:build 386

package detmath_test

import (
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/detmath"
)

// On 386 the math package runs the same fdlibm code in pure Go and the
// compiler has no fused multiply-add to reach for, so every product there
// is rounded exactly as the explicit conversions in this package demand.
// The two implementations must then agree bit for bit.
var _ = Describe("on 386, where math runs unfused pure Go", func() {
	It("Exp equals math.Exp bit for bit over the sweep", func() {
		sweep(sweepPoints, -746, 710, func(x float64) {
			Expect(math.Float64bits(detmath.Exp(x))).To(Equal(math.Float64bits(math.Exp(x))), "x=%v", x)
		})
	})

	It("Exp2 equals math.Exp2 bit for bit over the sweep", func() {
		sweep(sweepPoints, -1075, 1024, func(x float64) {
			Expect(math.Float64bits(detmath.Exp2(x))).To(Equal(math.Float64bits(math.Exp2(x))), "x=%v", x)
		})
	})
})

var _ = Describe("on 386, where math.Log runs unfused pure Go", func() {
	It("Log equals math.Log bit for bit over the sweep", func() {
		sweep(sweepPoints, 0x1p-1022, 1e6, func(x float64) {
			Expect(math.Float64bits(detmath.Log(x))).To(Equal(math.Float64bits(math.Log(x))), "x=%v", x)
		})
	})
})
