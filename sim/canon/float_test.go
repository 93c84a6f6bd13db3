package canon_test

import (
	"math"
	"strconv"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/canon"
)

var _ = Describe("FormatFloat", func() {
	DescribeTable("spells floats as CPython repr does",
		func(f float64, want string) {
			Expect(canon.FormatFloat(f)).To(Equal(want))
			Expect(string(canon.AppendFloat([]byte("x="), f))).To(Equal("x=" + want))
		},
		Entry("100.0", 100.0, "100.0"),
		Entry("1e-05", 1e-05, "1e-05"),
		Entry("1e+16", 1e16, "1e+16"),
		Entry("1e15", 1e15, "1000000000000000.0"),
		Entry("0.0001", 0.0001, "0.0001"),
		Entry("0.001", 0.001, "0.001"),
		Entry("9.999999999999999e-05", 9.999999999999999e-05, "9.999999999999999e-05"),
		Entry("0.30000000000000004", 0.30000000000000004, "0.30000000000000004"),
		Entry("smallest subnormal", 5e-324, "5e-324"),
		Entry("subnormal", 3e-310, "3e-310"),
		Entry("negative zero", math.Copysign(0, -1), "-0.0"),
		Entry("zero", 0.0, "0.0"),
		Entry("1.2345678901234568e+17", 1.2345678901234568e+17, "1.2345678901234568e+17"),
		Entry("1.2345678901234568e+16", 12345678901234567.0, "1.2345678901234568e+16"),
		Entry("fixed with fraction", 123456789012345.67, "123456789012345.67"),
		Entry("fixed at 16 digits", 1234567890123456.7, "1234567890123456.8"),
		Entry("123.456", 123.456, "123.456"),
		Entry("largest", 1.7976931348623157e+308, "1.7976931348623157e+308"),
		Entry("smallest normal", 2.2250738585072014e-308, "2.2250738585072014e-308"),
		Entry("0.1", 0.1, "0.1"),
		Entry("1.0", 1.0, "1.0"),
		Entry("-2.5", -2.5, "-2.5"),
		Entry("-1e-07", -1e-07, "-1e-07"),
		Entry("-0.0001", -0.0001, "-0.0001"),
		Entry("-1e15", -1e15, "-1000000000000000.0"),
		Entry("1e22", 1e22, "1e+22"),
		Entry("1e100", 1e100, "1e+100"),
		Entry("inf", math.Inf(1), "inf"),
		Entry("-inf", math.Inf(-1), "-inf"),
		Entry("nan", math.NaN(), "nan"),
		Entry("9.8", 9.8, "9.8"),
		Entry("0.5", 0.5, "0.5"),
		Entry("0.7200000000000001", 0.7200000000000001, "0.7200000000000001"),
		Entry("0.557396", 0.557396, "0.557396"),
	)

	It("does not allocate when the buffer has room", func() {
		buf := make([]byte, 0, 64)
		values := []float64{0.0001, 1e15, 123.456, 5e-324, math.NaN(), -0.30000000000000004}
		allocs := testing.AllocsPerRun(100, func() {
			for _, f := range values {
				buf = canon.AppendFloat(buf[:0], f)
			}
		})
		Expect(allocs).To(BeZero())
	})

	It("round-trips every spelling to the same bits", func() {
		for _, bits := range []uint64{0, 1, 0x000fffffffffffff, 0x0010000000000000, 0x3fb999999999999a, 0x7fefffffffffffff, 0x8000000000000001} {
			f := math.Float64frombits(bits)
			back, err := strconv.ParseFloat(canon.FormatFloat(f), 64)
			Expect(err).NotTo(HaveOccurred())
			Expect(math.Float64bits(back)).To(Equal(bits))
		}
	})
})
