package dense

import (
	"cmp"
	"slices"
	"strings"
)

// headerIndex is a header's column names and a lookup by name, held in
// three flat pieces however many columns there are: the names one after
// another in one string, where each ends, and the column numbers in name
// order for a binary search. A city's header has tens of thousands of
// columns, and a []string and a map[string]int of them cost several
// times the bytes of the names themselves: the golden's parsed header
// was the largest part of a 10,000-NPC run's dense stream
// (docs/performance.md).
type headerIndex struct {
	names  string
	ends   []int32 // column j's name is names[ends[j-1]:ends[j]] (from 0 for j = 0)
	byName []int32 // column numbers sorted by name, equal names by number
}

// parseHeader indexes the header record rec (its newline included, or
// none at the end of a file), unquoting its fields as parseRecord does;
// false when the record does not parse.
func parseHeader(rec []byte) (headerIndex, bool) {
	var h headerIndex
	if len(rec) == 0 {
		return h, false
	}
	var names strings.Builder
	for pos := 0; ; {
		value, next, err := parseField(rec, pos)
		if err != nil {
			return headerIndex{}, false
		}
		names.WriteString(value)
		h.ends = append(h.ends, int32(names.Len()))
		if next == len(rec) || rec[next] == '\n' {
			break
		}
		pos = next + 1 // past the comma
	}
	h.names = names.String()
	h.byName = make([]int32, len(h.ends))
	for j := range h.byName {
		h.byName[j] = int32(j)
	}
	slices.SortFunc(h.byName, func(a, b int32) int {
		return cmp.Or(strings.Compare(h.name(int(a)), h.name(int(b))), cmp.Compare(a, b))
	})
	return h, true
}

// width is the number of columns.
func (h *headerIndex) width() int { return len(h.ends) }

// name is column j's name.
func (h *headerIndex) name(j int) string {
	start := int32(0)
	if j > 0 {
		start = h.ends[j-1]
	}
	return h.names[start:h.ends[j]]
}

// find returns the number of the column named name (the last, if several
// are), as a map from name to number built in column order would.
func (h *headerIndex) find(name string) (int, bool) {
	k, _ := slices.BinarySearchFunc(h.byName, name, func(j int32, name string) int {
		return cmp.Or(strings.Compare(h.name(int(j)), name), -1) // past every column so named
	})
	if k == 0 || h.name(int(h.byName[k-1])) != name {
		return 0, false
	}
	return int(h.byName[k-1]), true
}

// repeats reports whether two columns have the same name.
func (h *headerIndex) repeats() bool {
	for k := 1; k < len(h.byName); k++ {
		if h.name(int(h.byName[k])) == h.name(int(h.byName[k-1])) {
			return true
		}
	}
	return false
}
