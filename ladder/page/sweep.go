package page

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/chronicle/ladder/sim/canon"
)

// SweepInput is a sweep rung's artifacts (its summary.json and
// aggregates.csv, docs/rung-catalogue.md) and the one seed whose world the
// run kept as an ordinary section, if any.
type SweepInput struct {
	Summary, Aggregates Artifact
	// SeedWorld is the name of the section holding seed Seed's world
	// ("T2.8/seed-17"), "" when the run kept none.
	SeedWorld string
	Seed      int
}

// SweepView is what a sweep's section shows: every bound as a row (the
// mean over the seeds, its deviation from the pilot's mean against the
// bound's half-width), and each aggregate's per-seed values.
type SweepView struct {
	Seeds, Towns, NPCs int
	Ticks              int64
	Columns            []string   // the aggregates, in the file's order
	SeedIDs            []string   // one per seed, in the file's order
	Values             [][]int64  // Values[seed][column]
	Bounds             []BoundRow // in the fixture's order
	Plots              []SweepPlot
	// Seed is the seed of interest (SeedOfInterest) and Why says why;
	// SeedWorld names its section when the run kept its world.
	Seed      int
	Why       string
	SeedWorld string
}

// BoundRow is one bound's verdict, as summary.json records it.
type BoundRow struct {
	Aggregate                                         string
	PilotMean, PilotSD, Z, Mean, Deviation, HalfWidth float64
	Pilot                                             int
	Holds                                             bool
}

// Ratio is the deviation as a share of the half-width: at most 1 holds.
func (b BoundRow) Ratio() float64 { return b.Deviation / b.HalfWidth }

// Text formats a number as the summary does.
func (BoundRow) Text(x float64) string { return canon.FormatFloat(x) }

// SweepPlot is one aggregate's per-seed values drawn on a line against
// the pilot: x positions in the plot's pixels.
type SweepPlot struct {
	Aggregate  string
	Min, Max   string // the axis's ends
	Dots       []SweepDot
	PilotX     float64 // the pilot's mean
	BandX      [2]float64
	MeanX      float64 // the run's mean over the seeds
	Holds      bool
	HasBound   bool
	Mean, SDev string
}

// SweepDot is one seed's value.
type SweepDot struct {
	Seed  int
	ID    string
	Value int64
	X, Y  float64
}

// plotWidth and the plot's margins, in pixels (page.html draws them).
const (
	plotWidth = 640.0
	plotLeft  = 40.0
	plotRight = 620.0
)

type summaryFile struct {
	Aggregates map[string]struct{ Max, Mean, Min, SD float64 } `json:"aggregates"`
	Bounds     []struct {
		Aggregate string  `json:"aggregate"`
		Deviation float64 `json:"deviation"`
		HalfWidth float64 `json:"half_width"`
		Holds     bool    `json:"holds"`
		Pilot     int     `json:"pilot"`
		PilotMean float64 `json:"pilot_mean"`
		PilotSD   float64 `json:"pilot_sd"`
		Z         float64 `json:"z"`
	} `json:"bounds"`
	NPCs  int   `json:"npcs"`
	Seeds int   `json:"seeds"`
	Ticks int64 `json:"ticks"`
	Towns int   `json:"towns"`
}

// BuildSweep reads a sweep's summary and aggregates.
func BuildSweep(in *SweepInput) (*SweepView, error) {
	raw, err := readAll(in.Summary)
	if err != nil {
		return nil, fmt.Errorf("summary.json: %w", err)
	}
	var sum summaryFile
	if err := json.Unmarshal(raw, &sum); err != nil {
		return nil, fmt.Errorf("summary.json: %w", err)
	}
	v := &SweepView{Seeds: sum.Seeds, Towns: sum.Towns, NPCs: sum.NPCs, Ticks: sum.Ticks, SeedWorld: in.SeedWorld, Seed: in.Seed}
	raw, err = readAll(in.Aggregates)
	if err != nil {
		return nil, fmt.Errorf("aggregates.csv: %w", err)
	}
	rows, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil || len(rows) == 0 {
		return nil, fmt.Errorf("aggregates.csv: %v", cmpOr(err, "empty"))
	}
	v.Columns = rows[0][1:]
	for i, r := range rows[1:] {
		v.SeedIDs = append(v.SeedIDs, r[0])
		vals := make([]int64, len(v.Columns))
		for c := range v.Columns {
			if c+1 >= len(r) {
				return nil, fmt.Errorf("aggregates.csv line %d: %d values, want %d", i+2, len(r)-1, len(v.Columns))
			}
			if vals[c], err = strconv.ParseInt(r[c+1], 10, 64); err != nil {
				return nil, fmt.Errorf("aggregates.csv line %d: %w", i+2, err)
			}
		}
		v.Values = append(v.Values, vals)
	}
	for _, b := range sum.Bounds {
		v.Bounds = append(v.Bounds, BoundRow{Aggregate: b.Aggregate, PilotMean: b.PilotMean, PilotSD: b.PilotSD, Z: b.Z,
			Mean: sum.Aggregates[b.Aggregate].Mean, Deviation: b.Deviation, HalfWidth: b.HalfWidth, Pilot: b.Pilot, Holds: b.Holds})
	}
	for c, name := range v.Columns {
		v.Plots = append(v.Plots, v.plot(c, name, sum.Aggregates[name].Mean, sum.Aggregates[name].SD))
	}
	if in.SeedWorld == "" {
		v.Seed = -1
	}
	if s, why := SeedOfInterest(v); s >= 0 {
		v.Why = why
		if in.SeedWorld == "" {
			v.Seed = s
		}
	}
	return v, nil
}

func cmpOr(err error, s string) any {
	if err != nil {
		return err
	}
	return s
}

func readAll(a Artifact) ([]byte, error) {
	rc, err := a.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// plot draws column c: each seed a dot (stacked where values meet), the
// pilot's mean, the band the mean over the seeds must stay in, and that
// mean.
func (v *SweepView) plot(c int, name string, mean, sd float64) SweepPlot {
	p := SweepPlot{Aggregate: name, Mean: canon.FormatFloat(mean), SDev: canon.FormatFloat(sd)}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, vals := range v.Values {
		lo, hi = min(lo, float64(vals[c])), max(hi, float64(vals[c]))
	}
	i := slices.IndexFunc(v.Bounds, func(b BoundRow) bool { return b.Aggregate == name })
	var b BoundRow
	if i >= 0 {
		b = v.Bounds[i]
		p.HasBound, p.Holds = true, b.Holds
		lo, hi = min(lo, b.PilotMean-b.HalfWidth, mean), max(hi, b.PilotMean+b.HalfWidth, mean)
	}
	if len(v.Values) == 0 {
		lo, hi = 0, 1
	}
	if hi == lo {
		lo, hi = lo-1, hi+1
	}
	p.Min, p.Max = strconv.FormatFloat(lo, 'g', 6, 64), strconv.FormatFloat(hi, 'g', 6, 64)
	// A bound or value so far out that the span overflows (a pilot's
	// mean near the largest float) would put NaN or an infinity into the
	// section's JSON, which cannot hold them: every x stays on the plot.
	x := func(val float64) float64 {
		at := plotLeft + float64((val-lo)/(hi-lo)*(plotRight-plotLeft))
		if math.IsNaN(at) {
			return plotLeft
		}
		return min(max(at, plotLeft), plotRight)
	}
	stack := map[int64]int{}
	for s, vals := range v.Values {
		val := vals[c]
		p.Dots = append(p.Dots, SweepDot{Seed: s, ID: v.SeedIDs[s], Value: val, X: round(x(float64(val))), Y: float64(70 - 6*stack[val])})
		stack[val]++
	}
	p.MeanX = round(x(mean))
	if p.HasBound {
		p.PilotX = round(x(b.PilotMean))
		p.BandX = [2]float64{round(x(b.PilotMean - b.HalfWidth)), round(x(b.PilotMean + b.HalfWidth))}
	}
	return p
}

func round(x float64) float64 { return math.Round(x*10) / 10 }

// SeedOfInterest is the seed a person opens first: the one farthest from
// the pilot's mean on the first bound that does not hold, or on the first
// bound when all hold (ties: the lower seed). -1 when there is no seed or
// no bound.
func SeedOfInterest(v *SweepView) (int, string) {
	if len(v.Values) == 0 || len(v.Bounds) == 0 {
		return -1, ""
	}
	b := v.Bounds[0]
	why := "the seed farthest from the pilot's mean of %s (%s)"
	if i := slices.IndexFunc(v.Bounds, func(b BoundRow) bool { return !b.Holds }); i >= 0 {
		b = v.Bounds[i]
		why = "the seed farthest from the pilot's mean of %s (%s), the first bound that does not hold"
	}
	c := slices.Index(v.Columns, b.Aggregate)
	if c < 0 {
		return -1, ""
	}
	best := 0
	for s := range v.Values {
		if math.Abs(float64(v.Values[s][c])-b.PilotMean) > math.Abs(float64(v.Values[best][c])-b.PilotMean) {
			best = s
		}
	}
	return best, fmt.Sprintf(why, b.Aggregate, canon.FormatFloat(b.PilotMean))
}
