package sweep

import (
	"fmt"
	"math"
)

// Bound is the distributional check of one aggregate: the mean over a
// sweep's N seeds must lie within Z · SD · √(1/N + 1/Pilot) of Mean, where
// Mean and SD are a pilot sweep's mean and sample standard deviation over
// Pilot other seeds, and Z is the two-sided normal quantile of the false
// alarm rate the bound accepts (see the package doc).
type Bound struct {
	Mean, SD float64
	Pilot    int
	Z        float64
}

// Validate refuses parameters no bound can be made of.
func (b Bound) Validate() error {
	switch {
	case math.IsNaN(b.Mean) || math.IsInf(b.Mean, 0):
		return fmt.Errorf("mean %v must be finite", b.Mean)
	case math.IsNaN(b.SD) || math.IsInf(b.SD, 0) || b.SD <= 0:
		return fmt.Errorf("sd %v must be finite and positive", b.SD)
	case b.Pilot < 2:
		return fmt.Errorf("pilot %d: a pilot's spread needs at least 2 seeds", b.Pilot)
	case math.IsNaN(b.Z) || math.IsInf(b.Z, 0) || b.Z <= 0:
		return fmt.Errorf("z %v must be finite and positive", b.Z)
	}
	return nil
}

// HalfWidth is how far the mean over n seeds may lie from the pilot's.
func (b Bound) HalfWidth(n int) float64 {
	return float64(b.Z*b.SD) * math.Sqrt(1/float64(n)+1/float64(b.Pilot))
}

// Verdict is one bound judged against a sweep.
type Verdict struct {
	Bound   Bound
	Summary Summary
	// Deviation is |mean − pilot mean|; HalfWidth the bound on it.
	Deviation, HalfWidth float64
	Holds                bool
}

// Judge checks the bound against the summary of a sweep.
func (b Bound) Judge(s Summary) Verdict {
	v := Verdict{Bound: b, Summary: s, Deviation: math.Abs(s.Mean - b.Mean), HalfWidth: b.HalfWidth(s.N)}
	v.Holds = v.Deviation <= v.HalfWidth
	return v
}
