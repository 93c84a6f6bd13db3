package canon_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/chronicle/ladder/sim/canon"
)

// shortest returns strconv's shortest round-trip digits of a finite f and
// the decimal point position decpt, with f = ±0.d1..dn × 10^decpt.
func shortest(f float64) (digits string, decpt int) {
	s := strconv.FormatFloat(math.Abs(f), 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(exp)
	return strings.Replace(mant, ".", "", 1), e + 1
}

// spelledDigits recovers the significant digits and decimal point position
// from a canon spelling of a finite non-zero value.
func spelledDigits(s string) (digits string, decpt int) {
	s = strings.TrimPrefix(s, "-")
	mant, exp, hasExp := strings.Cut(s, "e")
	e := 0
	if hasExp {
		e, _ = strconv.Atoi(exp)
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	all := intPart + frac
	decpt = len(intPart) + e
	trimmed := strings.TrimLeft(all, "0")
	decpt -= len(all) - len(trimmed)
	return strings.TrimRight(trimmed, "0"), decpt
}

func FuzzAppendFloat(f *testing.F) {
	for _, seed := range []float64{0, 1, 100, 1e-5, 1e16, 1e15, 1e-4, 0.30000000000000004, 5e-324, 1.2345678901234568e+17,
		123456789012345.67, math.MaxFloat64, 2.2250738585072014e-308, -2.5, 9.8, 0.7200000000000001} {
		f.Add(math.Float64bits(seed))
		f.Add(math.Float64bits(-seed))
	}
	f.Add(math.Float64bits(math.Inf(1)))
	f.Add(math.Float64bits(math.Inf(-1)))
	f.Add(uint64(0x7ff8000000000001))
	f.Fuzz(func(t *testing.T, bits uint64) {
		v := math.Float64frombits(bits)
		got := canon.FormatFloat(v)
		switch {
		case math.IsNaN(v):
			if got != "nan" {
				t.Fatalf("NaN spelled %q", got)
			}
			return
		case math.IsInf(v, 0):
			if want := map[bool]string{false: "inf", true: "-inf"}[v < 0]; got != want {
				t.Fatalf("%v spelled %q, want %q", v, got, want)
			}
			return
		}
		back, err := strconv.ParseFloat(got, 64)
		if err != nil || math.Float64bits(back) != bits {
			t.Fatalf("%x spelled %q parses back to %x (err %v)", bits, got, math.Float64bits(back), err)
		}
		if v == 0 {
			if got != "0.0" && got != "-0.0" {
				t.Fatalf("zero spelled %q", got)
			}
			return
		}
		digits, decpt := shortest(v)
		gotDigits, gotDecpt := spelledDigits(got)
		if gotDigits != digits || gotDecpt != decpt {
			t.Fatalf("%x spelled %q: digits %s×10^%d, want %s×10^%d", bits, got, gotDigits, gotDecpt, digits, decpt)
		}
		if exponent := strings.Contains(got, "e"); exponent != (decpt <= -4 || decpt > 16) {
			t.Fatalf("%x spelled %q: exponent notation %v with decpt %d", bits, got, exponent, decpt)
		}
		if !strings.Contains(got, "e") && !strings.Contains(got, ".") {
			t.Fatalf("%x spelled %q: fixed notation without a point", bits, got)
		}
	})
}
