package digest_test

import "math"

func nan() float64           { return math.NaN() }
func inf(sign int) float64   { return math.Inf(sign) }
func next(x float64) float64 { return math.Nextafter(x, 2) }

func negZero() float64 { return math.Copysign(0, -1) }
