package social

import (
	"fmt"
	"slices"
)

// Kin is the kinship graph: undirected, fixed for the run.
type Kin struct {
	of map[string][]string // NPC → kin, sorted, without the NPC itself
}

// NewKin builds the graph from households: every two members of one
// household are kin. An NPC may belong to several households (a married
// child is kin to both families). A household of fewer than two members, or
// one naming an NPC twice, is an error: it declares nothing, or declares
// something by mistake.
func NewKin(households [][]string) (*Kin, error) {
	k := &Kin{of: map[string][]string{}}
	for i, h := range households {
		if err := CheckHousehold(h); err != nil {
			return nil, fmt.Errorf("household %d: %w", i, err)
		}
		for _, a := range h {
			for _, b := range h {
				if a != b {
					k.of[a] = insertSorted(k.of[a], b)
				}
			}
		}
	}
	return k, nil
}

// Of returns a's kin, sorted.
func (k *Kin) Of(a string) []string { return slices.Clone(k.of[a]) }

// Related reports whether a and b are kin.
func (k *Kin) Related(a, b string) bool {
	_, ok := slices.BinarySearch(k.of[a], b)
	return ok
}

// CheckHousehold says what is wrong with one household, nil when
// nothing is: one naming an NPC twice, or fewer than two NPCs. NewKin
// refuses a world with such a household; loaders refuse it with the same
// test, at the household's line.
func CheckHousehold(h []string) error {
	if dup, ok := firstRepeat(slices.Sorted(slices.Values(h))); ok {
		return fmt.Errorf("household names %s twice", dup)
	}
	if len(h) < 2 {
		return fmt.Errorf("a household names at least two NPCs (kin are every two members of one), got %d", len(h))
	}
	return nil
}

// firstRepeat returns the first value a sorted list holds twice.
func firstRepeat(sorted []string) (string, bool) {
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			return sorted[i], true
		}
	}
	return "", false
}

// insertSorted inserts s into a sorted list unless it is already there.
func insertSorted(list []string, s string) []string {
	i, found := slices.BinarySearch(list, s)
	if found {
		return list
	}
	return slices.Insert(list, i, s)
}
