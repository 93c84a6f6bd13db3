package canon

import (
	"math"
	"strconv"
)

// Decimal-point positions that CPython writes in fixed notation. A value
// 0.d1..dn × 10^decpt is written in exponent notation when decpt is outside
// [minFixedDecpt, maxFixedDecpt].
const (
	minFixedDecpt = -3
	maxFixedDecpt = 16
)

// zeros is the padding source for fixed notation; its length covers the
// longest run of padding zeros any fixed-notation value needs.
const zeros = "0000000000000000"

// FormatFloat returns f written exactly as CPython's repr(float) writes it.
func FormatFloat(f float64) string {
	var buf [32]byte
	return string(AppendFloat(buf[:0], f))
}

// AppendFloat appends f written exactly as CPython's repr(float) writes it and
// returns the extended buffer. It formats the shortest round-trip digits once
// with strconv and rearranges those bytes in place, so it does not allocate
// when dst has room for the result (24 bytes always suffice).
func AppendFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "nan"...)
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'e', -1, 64)
	// dst[start:] is now [-]d1[.d2..dn]e±XX or, for exponents beyond two
	// digits (always exponent notation), [-]d1[.d2..dn]e±XXX.
	e := len(dst) - 4
	if dst[e] != 'e' {
		return dst
	}
	exp := int(dst[e+2]-'0')*10 + int(dst[e+3]-'0')
	if dst[e+1] == '-' {
		exp = -exp
	}
	decpt := exp + 1
	if decpt < minFixedDecpt || decpt > maxFixedDecpt {
		// CPython's exponent notation matches strconv's byte for byte.
		return dst
	}
	p := start // first digit
	if dst[p] == '-' {
		p++
	}
	n := e - p // number of digits
	if n > 1 {
		n-- // do not count the point after d1
	}
	switch {
	case decpt >= n:
		return appendIntegral(dst, p, n, decpt)
	case decpt > 0:
		// d1..d(decpt) . d(decpt+1)..dn: shift d2..d(decpt) left over the point.
		copy(dst[p+1:p+decpt], dst[p+2:p+decpt+1])
		dst[p+decpt] = '.'
		return dst[:p+n+1]
	default:
		return appendFraction(dst, p, n, decpt)
	}
}

// appendIntegral rewrites the n digits at dst[p:] (in strconv's exponent
// layout) as an integral value with decimal point position decpt >= n:
// the digits, decpt-n zeros, then ".0".
func appendIntegral(dst []byte, p, n, decpt int) []byte {
	if n > 1 {
		copy(dst[p+1:], dst[p+2:p+n+1])
	}
	dst = append(dst[:p+n], zeros[:decpt-n]...)
	return append(dst, '.', '0')
}

// appendFraction rewrites the n digits at dst[p:] (in strconv's exponent
// layout) as a value below one with decimal point position decpt <= 0:
// "0.", -decpt zeros, then the digits.
func appendFraction(dst []byte, p, n, decpt int) []byte {
	end := p + 2 - decpt + n
	if len(dst) < end {
		dst = append(dst, zeros[:end-len(dst)]...)
	}
	d1 := dst[p]
	if n > 1 {
		copy(dst[p+3-decpt:end], dst[p+2:p+n+1])
	}
	dst[p+2-decpt] = d1
	dst[p] = '0'
	dst[p+1] = '.'
	copy(dst[p+2:p+2-decpt], zeros)
	return dst[:end]
}
