package fusion

func unguarded(x, y, z float64) float64 {
	return x*y + z // want `x \* y is a float product added or subtracted unguarded`
}

func unguardedSub(x, y, z float64) float64 {
	return z - x*y // want `x \* y is a float product`
}

func guarded(x, y, z float64) float64 {
	return float64(x*y) + z
}

func held(x, y, z float64) float64 {
	p := x * y
	return p + z // want `x \* y is a float product`
}

func heldGuarded(x, y, z float64) float64 {
	p := float64(x * y)
	return p + z
}

func accumulate(xs, ws []float64) (s float64) {
	for i := range xs {
		s += xs[i] * ws[i] // want `xs\[i\] \* ws\[i\] is a float product`
	}
	return s
}

func integers(a, b, c int) int {
	return a*b + c // integers are exact
}

func constant(x float64) float64 {
	return 2*0.5 + x // a constant product is folded exactly
}

func justified(x, y, z float64) float64 {
	return x*y + z //determinism:fusion a screen coordinate, never compared
}
