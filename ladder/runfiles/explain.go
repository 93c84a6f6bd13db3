package runfiles

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/chronicle/ladder/ladder/lineage"
)

// Lineage reads the run's claims, variants, contests and evidence from
// its trace, up to tick until (every record when until < 0).
func (r *Run) Lineage(until int64) (*lineage.Lineage, error) {
	f, err := r.Open(TraceFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	l, err := lineage.Read(f, until)
	if err != nil {
		return nil, fmt.Errorf("%s/%s: %w", r.Where, TraceFile, err)
	}
	return l, nil
}

// Explain is holder's belief in claim as of tick at, from the run's
// files: its evidence and the variants from the trace's records up to
// the tick; its variant, confidence, strengths and stage from the dense
// file's row for the tick — what rerun.Explain reads from the engine.
func (r *Run) Explain(holder, claim string, at int64) (*lineage.Provenance, error) {
	l, err := r.Lineage(at)
	if err != nil {
		return nil, err
	}
	b, ok := l.Belief(holder, claim)
	if !ok {
		return nil, fmt.Errorf("%s holds no belief in %s at tick %d", holder, claim, at)
	}
	d, err := r.Dense()
	if err != nil {
		return nil, err
	}
	i, ok := slices.BinarySearch(d.Ticks, at)
	if !ok {
		return nil, fmt.Errorf("%s/%s: no row for tick %d", r.Where, DenseFile, at)
	}
	p := &lineage.Provenance{
		Holder: holder, Claim: claim, Tick: at, FormedAt: b.FormedAt, Anchor: b.Anchor,
		Origins: slices.Clone(b.Origins), Evidence: slices.Clone(b.Evidence),
	}
	col := holder + "/" + claim + "/"
	cell := func(name string) (string, error) {
		v := d.Cell(i, col+name)
		if v == "" {
			return "", fmt.Errorf("%s/%s: tick %d: no %s%s although the trace has the belief", r.Where, DenseFile, at, col, name)
		}
		return v, nil
	}
	number := func(name string) (float64, error) {
		v, err := cell(name)
		if err != nil {
			return 0, err
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, fmt.Errorf("%s/%s: tick %d: %s%s: %w", r.Where, DenseFile, at, col, name, err)
		}
		return x, nil
	}
	if p.Variant, err = cell("variant"); err != nil {
		return nil, err
	}
	if p.Stage, err = cell("stage"); err != nil {
		return nil, err
	}
	for _, n := range []struct {
		name string
		x    *float64
	}{{"confidence", &p.Confidence}, {"verbatim", &p.Verbatim}, {"gist", &p.Gist}} {
		if *n.x, err = number(n.name); err != nil {
			return nil, err
		}
	}
	if p.Lineage, err = l.Ancestry(p.Variant); err != nil {
		return nil, fmt.Errorf("%s/%s: %s's belief in %s: %w", r.Where, TraceFile, holder, claim, err)
	}
	return p, nil
}
