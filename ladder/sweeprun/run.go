package sweeprun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/record"
	"github.com/chronicle/ladder/ladder/seal"
	"github.com/chronicle/ladder/ladder/sweep"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// SeedID is the seed id of seed i of a sweep: derived from the
// rung's own, so the seeds are fixed by the fixture and differ from every
// other rung's.
func SeedID(f *fixture.Fixture, i int) string { return f.SeedID + "/" + strconv.Itoa(i) }

// PilotSeedID is the seed id of seed j of a sweep's pilot: disjoint from
// the sweep's own seeds, so the bound's reference is independent of what
// it judges.
func PilotSeedID(f *fixture.Fixture, j int) string { return f.SeedID + "/pilot/" + strconv.Itoa(j) }

// Columns names a sweep's aggregates in the order they are written:
// each kind at each sampled tick.
func Columns(s *fixture.Sweep) []string {
	var out []string
	for _, t := range s.At {
		for _, k := range sweep.Kinds {
			out = append(out, sweep.Name(k, t))
		}
	}
	return out
}

// Seeds runs f's world, copied into f.Sweep.Towns towns, once per seed id
// of ids, and returns each seed's aggregates in Columns order, reporting
// each seed it begins and each tick it finishes to p (nil: nowhere).
func Seeds(f *fixture.Fixture, ids []string, p *record.Progress) ([][]int64, error) {
	s := f.Sweep
	if s == nil {
		return nil, fmt.Errorf("%s: not a sweep rung", f.Name())
	}
	base, err := sweep.Towns(f.WorldConfig(), s.Towns)
	if err != nil {
		return nil, fmt.Errorf("%s (%s:%d:%d): %w", f.Name(), f.File, s.Pos.Line, s.Pos.Column, err)
	}
	out := make([][]int64, 0, len(ids))
	for _, id := range ids {
		p.InSeed(id)
		set, err := rules.NewSet(f.Disabled)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.File, err)
		}
		cfg := base
		cfg.SeedID, cfg.Rules, cfg.Sink = id, set, trace.Discard
		w, err := sim.New(cfg)
		if err != nil {
			return nil, f.Locate(err)
		}
		p.At(0)
		at := s.At
		var row []int64
		for t := int64(0); len(at) > 0; t++ {
			if err := w.Step(); err != nil {
				return nil, fmt.Errorf("%s: seed %s: %w", f.Name(), id, f.Locate(err))
			}
			if at[0] == t {
				row = append(row, sweep.Measure(w)...)
				at = at[1:]
			}
			p.At(t + 1)
		}
		out = append(out, row)
	}
	return out, nil
}

// Outcome is what a sweep's run reached: each bound's verdict as an
// expectation, and the failure lines of those that do not hold.
type Outcome struct {
	Expectations []expect.Result
	Failures     []string
}

// Run is ladder.Run for a sweep rung: every seed, then the aggregates
// file, the summary with each bound's verdict, and the seal, all in dir.
// Each bound is an expectation of the run, examining every seed. p is
// told each seed and tick as it goes (nil: nobody).
func Run(f *fixture.Fixture, dir string, p *record.Progress) (*Outcome, error) {
	s := f.Sweep
	ids := make([]string, s.Seeds)
	for i := range ids {
		ids[i] = SeedID(f, i)
	}
	rows, err := Seeds(f, ids, p)
	if err != nil {
		return nil, err
	}
	cols := Columns(s)
	var csv bytes.Buffer
	csv.WriteString("seed_id," + strings.Join(cols, ",") + "\n")
	for i, row := range rows {
		csv.WriteString(ids[i])
		for _, x := range row {
			csv.WriteString("," + strconv.FormatInt(x, 10))
		}
		csv.WriteString("\n")
	}
	summaries := map[string]sweep.Summary{}
	aggregates := canon.Object{}
	for c, name := range cols {
		xs := make([]int64, len(rows))
		for i, row := range rows {
			xs[i] = row[c]
		}
		sum, err := sweep.Summarise(xs)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", f.Name(), name, err)
		}
		summaries[name] = sum
		aggregates = append(aggregates, canon.Field{Key: name, Value: canon.Object{
			{Key: "max", Value: sum.Max}, {Key: "mean", Value: sum.Mean}, {Key: "min", Value: sum.Min}, {Key: "sd", Value: sum.SD},
		}})
	}
	res := &Outcome{}
	var bounds []any
	for i, b := range s.Bounds {
		bound := sweep.Bound{Mean: b.Mean, SD: b.SD, Pilot: b.Pilot, Z: b.Z}
		r := expect.Result{List: "sweep.bounds", Index: i, Kind: "bound", Examined: int64(s.Seeds), Unit: "seeds", At: expect.Pos(b.Pos), Tick: -1, Passed: true}
		if err := bound.Validate(); err != nil {
			r.Passed, r.Message = false, fmt.Sprintf("sweep bound %s: %v", b.Aggregate, err)
			res.Expectations = append(res.Expectations, r)
			continue
		}
		v := bound.Judge(summaries[b.Aggregate])
		r.Passed = v.Holds
		if !v.Holds {
			r.Message = fmt.Sprintf("sweep bound %s: the mean over %d seeds is %s, %s from the pilot's %s; the bound is %s "+
				"(z %s × sd %s × √(1/%d + 1/%d)): the distribution moved, or the bound was narrowed below what the sweep produces",
				b.Aggregate, v.Summary.N, canon.FormatFloat(v.Summary.Mean), canon.FormatFloat(v.Deviation), canon.FormatFloat(b.Mean),
				canon.FormatFloat(v.HalfWidth), canon.FormatFloat(b.Z), canon.FormatFloat(b.SD), v.Summary.N, b.Pilot)
		}
		res.Expectations = append(res.Expectations, r)
		bounds = append(bounds, canon.Object{
			{Key: "aggregate", Value: b.Aggregate}, {Key: "deviation", Value: v.Deviation}, {Key: "half_width", Value: v.HalfWidth},
			{Key: "holds", Value: v.Holds}, {Key: "pilot", Value: b.Pilot}, {Key: "pilot_mean", Value: b.Mean},
			{Key: "pilot_sd", Value: b.SD}, {Key: "z", Value: b.Z},
		})
	}
	for _, r := range res.Expectations {
		if !r.Passed {
			res.Failures = append(res.Failures, r.Line(f.File))
		}
	}
	if bounds == nil {
		bounds = []any{}
	}
	summary, err := canon.Marshal(canon.Object{
		{Key: "aggregates", Value: aggregates}, {Key: "bounds", Value: bounds},
		{Key: "npcs", Value: len(f.Cast) * s.Towns}, {Key: "rung", Value: f.Name()}, {Key: "seed_ids", Value: SeedID(f, 0) + " … " + SeedID(f, s.Seeds-1)},
		{Key: "seeds", Value: s.Seeds}, {Key: "ticks", Value: s.At[len(s.At)-1] + 1}, {Key: "towns", Value: s.Towns},
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", f.Name(), artifact.SummaryFile, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	// The summary is indented, a field to a line, so that a change reads
	// as the lines that moved; indenting keeps every number's canonical
	// text.
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, summary, "", "  "); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", f.Name(), artifact.SummaryFile, err)
	}
	pretty.WriteByte('\n')
	for _, a := range []struct {
		name string
		b    []byte
	}{{artifact.AggregatesFile, csv.Bytes()}, {artifact.SummaryFile, pretty.Bytes()}} {
		if err := artifact.Write(filepath.Join(dir, a.name), a.b); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name(), err)
		}
	}
	if err := seal.Write(dir, f.Name(), artifact.SweepNames); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	return res, nil
}
