package dense

import (
	"cmp"
	"slices"
	"strings"
)

// headerIndex is a header's column names and a lookup by name, held in
// flat pieces however many columns there are: a string holding the
// names, where each starts and ends in it, and the column numbers in name
// order for a binary search. The string is the header's own text unless a
// name in it is quoted. A city's header has tens of thousands of columns,
// and a []string and a map[string]int of them cost several times the
// bytes of the names themselves: the golden's parsed header was the
// largest part of a 10,000-NPC run's dense stream (docs/performance.md).
type headerIndex struct {
	names  string
	starts []int32 // column j's name is names[starts[j]:ends[j]]
	ends   []int32
	byName []int32 // column numbers sorted by name, equal names by number
}

// parseHeader indexes the header record header (its newline included, or
// none at the end of a file), unquoting its fields as parseRecord does;
// false when the record does not parse.
func parseHeader(header string) (headerIndex, bool) {
	if header == "" {
		return headerIndex{}, false
	}
	rec := []byte(header) // for parseField; the names stay in header
	h := headerIndex{names: header}
	quoted := false
	if !h.scan(rec, func(pos, next int, _ string) {
		h.starts, h.ends = append(h.starts, int32(pos)), append(h.ends, int32(next))
		quoted = quoted || pos < len(rec) && rec[pos] == '"'
	}) {
		return headerIndex{}, false
	}
	if quoted { // the names are the unquoted values, one after another
		var names strings.Builder
		h.starts, h.ends = h.starts[:0], h.ends[:0]
		h.scan(rec, func(_, _ int, value string) {
			h.starts = append(h.starts, int32(names.Len()))
			names.WriteString(value)
			h.ends = append(h.ends, int32(names.Len()))
		})
		h.names = names.String()
	}
	h.byName = make([]int32, len(h.ends))
	for j := range h.byName {
		h.byName[j] = int32(j)
	}
	slices.SortFunc(h.byName, func(a, b int32) int {
		return cmp.Or(strings.Compare(h.name(int(a)), h.name(int(b))), cmp.Compare(a, b))
	})
	return h, true
}

// scan shows each field of the record rec to field — where it starts and
// ends in rec, and its unquoted value — as parseRecord reads them; false
// when one does not parse.
func (h *headerIndex) scan(rec []byte, field func(pos, next int, value string)) bool {
	for pos := 0; ; {
		value, next, err := parseField(rec, pos)
		if err != nil {
			return false
		}
		field(pos, next, value)
		if next == len(rec) || rec[next] == '\n' {
			return true
		}
		pos = next + 1 // past the comma
	}
}

// width is the number of columns.
func (h *headerIndex) width() int { return len(h.ends) }

// name is column j's name.
func (h *headerIndex) name(j int) string { return h.names[h.starts[j]:h.ends[j]] }

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
