package platformmath

import (
	"math"
	"math/cmplx" // want `imports math/cmplx`
)

func decay(t float64) float64 {
	return math.Exp(-t) // want `math.Exp may give different last bits on another platform or CPU`
}

func power(x float64) float64 {
	return math.Pow(x, 3) // want `math.Pow may give`
}

func fused(x, y, z float64) float64 {
	return math.FMA(x, y, z) // want `math.FMA may give`
}

func exact(x float64) float64 {
	return math.Sqrt(math.Abs(math.Floor(x))) + math.Ldexp(x, 2) // correctly rounded or exact everywhere
}

var _ = cmplx.Abs

func justified(x float64) float64 {
	//determinism:platform-math a plot's axis, never compared
	return math.Log(x)
}
