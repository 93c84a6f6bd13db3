package canon_test

import (
	"math"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/canon"
)

var _ = Describe("FloatCache", func() {
	// spelt appends f through c after a prefix, as a row or a line does.
	spelt := func(c *canon.FloatCache, f float64) string {
		return string(c.Append([]byte("x="), f))
	}

	It("spells a value as AppendFloat does the first time and every time after", func() {
		var c canon.FloatCache
		for _, f := range []float64{0.5, 0.7200000000000001, 1e16, 5e-324, 0.5, 0.7200000000000001, 1e16, 5e-324} {
			Expect(spelt(&c, f)).To(Equal("x=" + canon.FormatFloat(f)))
		}
	})

	It("tells zero from negative zero, though the empty slot's bits are zero's", func() {
		var c canon.FloatCache
		Expect(spelt(&c, 0)).To(Equal("x=0.0"))
		Expect(spelt(&c, math.Copysign(0, -1))).To(Equal("x=-0.0"))
		Expect(spelt(&c, 0)).To(Equal("x=0.0"))
	})

	It("spells the 24-byte values, which no slot can hold, as AppendFloat does every time", func() {
		var c canon.FloatCache
		const longest = -1.2345678901234567e-100 // 24 bytes
		Expect(canon.FormatFloat(longest)).To(HaveLen(24))
		for range 3 {
			Expect(spelt(&c, longest)).To(Equal("x=" + canon.FormatFloat(longest)))
		}
	})

	It("spells as AppendFloat does without a cache (nil)", func() {
		var c *canon.FloatCache
		Expect(spelt(c, 0.7200000000000001)).To(Equal("x=0.7200000000000001"))
	})

	It("gives a slot to the newest of values that share it, never the wrong spelling", func() {
		var c canon.FloatCache
		// Far more values than slots: many share one, each replacing the last.
		values := make([]float64, 0, 20000)
		for i := range 20000 {
			values = append(values, float64(i)/7)
		}
		for range 2 {
			for _, f := range values {
				Expect(c.Append(nil, f)).To(Equal(canon.AppendFloat(nil, f)))
			}
		}
	})
})

// FuzzFloatCache spells a sequence of values through one cache, each
// twice, NaNs and infinities too, and requires AppendFloat's bytes every
// time: a hit, a miss and a replaced slot are all invisible.
func FuzzFloatCache(f *testing.F) {
	f.Add(0.5, 0.25, uint64(1), uint16(3))
	f.Add(math.Copysign(0, -1), 0.0, uint64(1<<52), uint16(64))
	f.Add(-1.2345678901234567e-100, 1e16, uint64(12345), uint16(4096))
	f.Fuzz(func(t *testing.T, a, b float64, step uint64, n uint16) {
		var c canon.FloatCache
		bits := math.Float64bits(a)
		for i := range int(n)%5000 + 2 {
			v := math.Float64frombits(bits)
			if i%2 == 1 {
				v = b
			}
			for range 2 {
				if got, want := string(c.Append(nil, v)), canon.FormatFloat(v); got != want {
					t.Fatalf("%v (bits %#x): cache spelt %q, AppendFloat %q", v, math.Float64bits(v), got, want)
				}
			}
			bits += step
		}
	})
}
