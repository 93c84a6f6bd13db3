package verdict

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// RungDrift is one input that moved for one rung or case.
type RungDrift struct {
	Rung   string `json:"rung"`
	What   string `json:"what"`
	Golden string `json:"golden"`
	Actual string `json:"actual"`
}

// DriftLines groups input drift across a run: one line per distinct change
// (what moved, from what, to what) naming every rung it touched — a define
// changed for the whole ladder is one line, not one per rung. Lines are
// ordered by what moved, then by values; rungs by name.
func DriftLines(drift []RungDrift) []string {
	type change struct{ what, golden, actual string }
	rungs := map[change][]string{}
	for _, d := range drift {
		c := change{d.What, d.Golden, d.Actual}
		if !slices.Contains(rungs[c], d.Rung) {
			rungs[c] = append(rungs[c], d.Rung)
		}
	}
	changes := slices.SortedFunc(maps.Keys(rungs), func(a, b change) int {
		return cmp.Or(cmp.Compare(a.what, b.what), cmp.Compare(a.golden, b.golden), cmp.Compare(a.actual, b.actual))
	})
	out := make([]string, len(changes))
	for i, c := range changes {
		names := rungs[c]
		slices.Sort(names)
		where := "in " + names[0]
		if len(names) > 1 {
			where = fmt.Sprintf("in %d rungs: %s", len(names), strings.Join(names, ", "))
		}
		out[i] = fmt.Sprintf("%s: %s → %s %s", c.what, c.golden, c.actual, where)
	}
	return out
}
