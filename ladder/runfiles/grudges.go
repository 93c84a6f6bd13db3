package runfiles

import (
	"cmp"
	"slices"

	"github.com/chronicle/ladder/sim/social"
	"github.com/chronicle/ladder/sim/trace"
)

// Grudges rebuilds the grudge table as of the last of recs from its
// grudge records, sorted by holder then target as the engine keeps it.
// A formed or reinforced record spells the strengths at its tick, which
// becomes the anchor the strengths decay from (social.Grudge); a settled
// record changes nothing stored: settling is derived on read.
func Grudges(recs []trace.Record) []*social.Grudge {
	by := map[[2]string]*social.Grudge{}
	var out []*social.Grudge
	for _, r := range recs {
		g, ok := r.Body.(*trace.Grudge)
		if !ok || g.Change == trace.GrudgeSettled {
			continue
		}
		k := [2]string{g.Holder, g.Target}
		s := by[k]
		if s == nil {
			s = &social.Grudge{Holder: g.Holder, Target: g.Target, FormedAt: r.Tick}
			by[k] = s
			out = append(out, s)
		}
		s.Emotional, s.Evidentiary, s.Anchor = g.Emotional, g.Evidentiary, r.Tick
		s.Causes = append(s.Causes, g.Cause)
	}
	slices.SortFunc(out, func(a, b *social.Grudge) int {
		return cmp.Or(cmp.Compare(a.Holder, b.Holder), cmp.Compare(a.Target, b.Target))
	})
	return out
}
