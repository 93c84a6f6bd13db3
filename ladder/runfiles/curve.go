package runfiles

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/ladder/rerun"
)

// Curve is a claim's spread at every tick of the run, as rerun.Curve
// samples it from the engine: believers from the dense file's
// <claim>/believers column, holders the NPCs with a belief in the claim
// (a <holder>/<claim>/variant cell) at the tick.
func (d *Dense) Curve(claim string) ([]rerun.CurvePoint, error) {
	col, ok := d.column[claim+"/believers"]
	if !ok {
		return nil, fmt.Errorf("no claim %q in the run (no %s/believers column; claims are event ids)", claim, claim)
	}
	var variants []int
	for i, c := range d.Header {
		if strings.HasSuffix(c, "/"+claim+"/variant") {
			variants = append(variants, i)
		}
	}
	out := make([]rerun.CurvePoint, len(d.Ticks))
	for i, row := range d.Rows {
		p := rerun.CurvePoint{Tick: d.Ticks[i]}
		if row[col] != "" {
			n, err := strconv.Atoi(row[col])
			if err != nil {
				return nil, fmt.Errorf("tick %d: %s/believers: %w", d.Ticks[i], claim, err)
			}
			p.Believers = n
		}
		for _, v := range variants {
			if row[v] != "" {
				p.Holders++
			}
		}
		out[i] = p
	}
	return out, nil
}
