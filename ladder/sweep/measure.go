package sweep

import (
	"fmt"
	"math"
	"strconv"

	"github.com/chronicle/ladder/sim"
)

// The aggregates a sweep counts at a sampled tick, each named
// "<kind>@<tick>" in the fixture, the aggregates file and the summary.
const (
	// Informed counts the NPCs who hold a belief in any claim.
	Informed = "informed"
	// Variants counts the distinct variants that anyone holds: the
	// versions of the news that survive.
	Variants = "variants"
)

// Kinds lists the aggregates in the order a sweep writes them per tick.
var Kinds = []string{Informed, Variants}

// Name is the column name of an aggregate at a tick: "informed@239".
func Name(kind string, tick int64) string { return kind + "@" + strconv.FormatInt(tick, 10) }

// Measure counts every aggregate of Kinds in w as it stands, in Kinds
// order. NPCs are visited in the world's canonical order and variants
// are counted as a set, so the counts do not depend on map order.
func Measure(w *sim.World) []int64 {
	var informed int64
	variants := map[string]bool{}
	for _, id := range w.NPCs() {
		held := w.Store().BeliefsOf(id)
		if len(held) > 0 {
			informed++
		}
		for _, b := range held {
			variants[b.Variant] = true
		}
	}
	return []int64{informed, int64(len(variants))}
}

// Summary describes one aggregate over the seeds of a sweep.
type Summary struct {
	N        int
	Mean, SD float64 // SD is the sample standard deviation (N − 1)
	Min, Max int64
}

// Summarise returns the summary of xs: the mean from the integer sum, the
// sample standard deviation from squared deviations summed in seed order,
// each product rounded before it is added (no fused multiply-add), so
// the result is the same on every platform.
func Summarise(xs []int64) (Summary, error) {
	if len(xs) < 2 {
		return Summary{}, fmt.Errorf("summarise: %d values: a spread needs at least 2", len(xs))
	}
	s := Summary{N: len(xs), Min: xs[0], Max: xs[0]}
	var sum int64
	for _, x := range xs {
		sum += x
		s.Min, s.Max = min(s.Min, x), max(s.Max, x)
	}
	s.Mean = float64(sum) / float64(len(xs))
	var ss float64
	for _, x := range xs {
		d := float64(x) - s.Mean
		ss += float64(d * d)
	}
	s.SD = math.Sqrt(ss / float64(len(xs)-1))
	return s, nil
}
