package ladder

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/seal"
	"github.com/chronicle/ladder/ladder/sweep"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/rules"
)

// SweepSeedID is the seed id of seed i of a sweep: derived from the
// rung's own, so the seeds are fixed by the fixture and differ from every
// other rung's.
func SweepSeedID(f *fixture.Fixture, i int) string { return f.SeedID + "/" + strconv.Itoa(i) }

// PilotSeedID is the seed id of seed j of a sweep's pilot: disjoint from
// the sweep's own seeds, so the bound's reference is independent of what
// it judges.
func PilotSeedID(f *fixture.Fixture, j int) string { return f.SeedID + "/pilot/" + strconv.Itoa(j) }

// SweepColumns names a sweep's aggregates in the order they are written:
// each kind at each sampled tick.
func SweepColumns(s *fixture.Sweep) []string {
	var out []string
	for _, t := range s.At {
		for _, k := range sweep.Kinds {
			out = append(out, sweep.Name(k, t))
		}
	}
	return out
}

// Sweep runs f's world, copied into f.Sweep.Towns towns, once per seed id
// of ids, and returns each seed's aggregates in SweepColumns order.
func Sweep(f *fixture.Fixture, ids []string) ([][]int64, error) {
	return sweepSeeds(f, ids, nil)
}

// sweepSeeds is Sweep reporting each seed it begins and each tick it
// finishes to p.
func sweepSeeds(f *fixture.Fixture, ids []string, p *progress) ([][]int64, error) {
	s := f.Sweep
	if s == nil {
		return nil, fmt.Errorf("%s: not a sweep rung", f.Name())
	}
	base, err := sweep.Towns(worldConfig(f), s.Towns)
	if err != nil {
		return nil, fmt.Errorf("%s (%s:%d:%d): %w", f.Name(), f.File, s.Pos.Line, s.Pos.Column, err)
	}
	out := make([][]int64, 0, len(ids))
	for _, id := range ids {
		p.inSeed(id)
		set, err := rules.NewSet(f.Disabled)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.File, err)
		}
		cfg := base
		cfg.SeedID, cfg.Rules, cfg.Sink = id, set, discard{}
		w, err := sim.New(cfg)
		if err != nil {
			return nil, f.Locate(err)
		}
		p.at(0)
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
			p.at(t + 1)
		}
		out = append(out, row)
	}
	return out, nil
}

// sweepCompared is how a sweep's artifacts compared with their goldens.
type sweepCompared struct {
	root string
}

// runSweep is Run for a sweep rung: every seed, then the aggregates file,
// the summary with each bound's verdict, and the seal. Each bound is an
// expectation of the run, examining every seed.
func runSweep(f *fixture.Fixture, opt Options) (*Result, error) {
	s := f.Sweep
	ids := make([]string, s.Seeds)
	for i := range ids {
		ids[i] = SweepSeedID(f, i)
	}
	rows, err := sweepSeeds(f, ids, opt.progress)
	if err != nil {
		return nil, err
	}
	cols := SweepColumns(s)
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
	res := &Result{Fixture: f, Dir: opt.Dir}
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
		{Key: "npcs", Value: len(f.Cast) * s.Towns}, {Key: "rung", Value: f.Name()}, {Key: "seed_ids", Value: SweepSeedID(f, 0) + " … " + SweepSeedID(f, s.Seeds-1)},
		{Key: "seeds", Value: s.Seeds}, {Key: "ticks", Value: s.At[len(s.At)-1] + 1}, {Key: "towns", Value: s.Towns},
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", f.Name(), artifact.SummaryFile, err)
	}
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
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
		if err := artifact.Write(res.Path(a.name), a.b); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name(), err)
		}
	}
	if err := seal.Write(opt.Dir, f.Name(), Sealed(f)); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	if opt.Goldens != "" {
		res.sweep = &sweepCompared{root: opt.Goldens}
	}
	return res, nil
}

// verifySweep compares a sweep's artifacts with their goldens byte for
// byte: each seed is deterministic, so any difference is a change of
// behaviour, reported at its first differing line (the seed and the
// aggregate for the aggregates file).
func verifySweep(r *Result) Verdict {
	f := r.Fixture
	var v Verdict
	root := r.sweep.root
	if p, ok := missingGoldens(root, f); ok {
		v.Problems = append(v.Problems, p)
		return v
	}
	dir := filepath.Join(root, filepath.FromSlash(f.GoldenDir()))
	for _, name := range artifact.SweepNames {
		golden, err := os.ReadFile(filepath.Join(dir, name))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			v.Problems = append(v.Problems, missingGolden(root, f, name))
			continue
		case err != nil:
			v.Problems = append(v.Problems, problem(f, name, -1, "cannot read the golden: %v", err))
			continue
		}
		actual, err := os.ReadFile(r.Path(name))
		if err != nil {
			v.Problems = append(v.Problems, problem(f, name, -1, "cannot read the run's: %v", err))
			continue
		}
		if p, ok := sweepDivergence(f, name, golden, actual); ok {
			v.Problems = append(v.Problems, p)
		}
	}
	return v
}

// sweepDivergence is the first line where a sweep artifact differs from
// its golden; in the aggregates file, the seed and the first aggregate
// that differ.
func sweepDivergence(f *fixture.Fixture, name string, golden, actual []byte) (Problem, bool) {
	if bytes.Equal(golden, actual) {
		return Problem{}, false
	}
	g, a := strings.Split(string(golden), "\n"), strings.Split(string(actual), "\n")
	i := 0
	for i < len(g) && i < len(a) && g[i] == a[i] {
		i++
	}
	at := func(l []string) string {
		if i < len(l) {
			return l[i]
		}
		return "(end of file)"
	}
	if name == artifact.AggregatesFile && i > 0 && i < len(g) && i < len(a) {
		header := strings.Split(g[0], ",")
		gc, ac := strings.Split(g[i], ","), strings.Split(a[i], ",")
		for c := 1; c < len(gc) && c < len(ac) && c < len(header) && gc[0] == ac[0]; c++ {
			if gc[c] != ac[c] {
				p := problem(f, name, -1, "first divergence at line %d, seed %s, aggregate %q: golden %s, actual %s "+
					"(each seed is deterministic, so any difference is a change of behaviour; the bounds say whether the distribution still holds)",
					i+1, gc[0], header[c], gc[c], ac[c])
				p.Column, p.Golden, p.Actual = header[c], gc[c], ac[c]
				return p, true
			}
		}
	}
	p := problem(f, name, -1, "first different line %d: golden `%s`, actual `%s`", i+1, at(g), at(a))
	p.Golden, p.Actual = at(g), at(a)
	return p, true
}
