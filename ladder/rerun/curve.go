package rerun

import (
	"fmt"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/record"
)

// CurvePoint is one tick of a claim's spread: believers (living holders
// whose rumour is not forgotten, what `curve:` expectations check) and
// holders (every stored belief).
type CurvePoint struct {
	Tick      int64 `csv:"tick"`
	Believers int   `csv:"believers"`
	Holders   int   `csv:"holders"`
}

// Curve runs a fixture and samples a claim's spread at every tick, for
// writing `curve:` expectations and for plotting.
func Curve(f *fixture.Fixture, claim string) ([]CurvePoint, error) {
	w, err := ladder.Build(f, nil)
	if err != nil {
		return nil, err
	}
	v := record.ViewOf(w)
	out := make([]CurvePoint, 0, f.Ticks)
	for t := int64(0); t < f.Ticks; t++ {
		if err := w.Step(); err != nil {
			return nil, f.Locate(err)
		}
		out = append(out, CurvePoint{Tick: t, Believers: v.Believers(claim), Holders: v.Holders(claim)})
	}
	if _, ok := w.Store().Claim(claim); !ok {
		return nil, fmt.Errorf("%s: no claim %q in the run (claims are event ids)", f.Name(), claim)
	}
	return out, nil
}

// Steps reduces a curve to the step function a `curve:` expectation
// writes: the tick and believer count wherever the count changes, from
// tick 0.
func Steps(points []CurvePoint) []fixture.Step {
	var out []fixture.Step
	for _, p := range points {
		if len(out) == 0 || int64(p.Believers) != out[len(out)-1].Count {
			out = append(out, fixture.Step{Tick: p.Tick, Count: int64(p.Believers)})
		}
	}
	return out
}
