package canon_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/chronicle/ladder/sim/canon"
)

// splitmix64 is a tiny deterministic generator, so that benchmark inputs are
// identical on every run and every machine.
type splitmix64 uint64

func (s *splitmix64) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// realisticFloats returns n values: 40% full-precision fractions in [0,1),
// 20% six-decimal fractions, 20% small integers, 10% tiny and 10% huge
// magnitudes, some negative.
func realisticFloats(n int) []float64 {
	rng := splitmix64(1)
	out := make([]float64, n)
	for i := range out {
		r := rng.next()
		unit := float64(r>>11) / (1 << 53)
		var f float64
		switch r % 10 {
		case 0, 1, 2, 3:
			f = unit
		case 4, 5:
			f = float64(r>>40%1000000) / 1e6
		case 6, 7:
			f = float64(r >> 50 % 1000)
		case 8:
			f = unit * math.Pow(10, -float64(5+r>>32%300))
		default:
			f = unit * math.Pow(10, float64(17+r>>32%290))
		}
		if r>>63 == 1 {
			f = -f
		}
		out[i] = f
	}
	return out
}

// BenchmarkAppendFloat compares AppendFloat with the bare strconv call it
// builds on, over the same 2^20 values.
func BenchmarkAppendFloat(b *testing.B) {
	values := realisticFloats(1 << 20)
	mask := len(values) - 1
	run := func(b *testing.B, format func([]byte, float64) []byte) {
		buf := make([]byte, 0, 32)
		b.SetBytes(8) // one float64 in per operation
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			buf = format(buf[:0], values[i&mask])
		}
	}
	b.Run("repr", func(b *testing.B) { run(b, canon.AppendFloat) })
	b.Run("strconv", func(b *testing.B) {
		run(b, func(dst []byte, f float64) []byte { return strconv.AppendFloat(dst, f, 'e', -1, 64) })
	})
}
