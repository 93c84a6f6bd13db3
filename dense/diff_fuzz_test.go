package dense_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/chronicle/ladder/dense"
)

// FuzzDiff checks Diff against Compare and against itself: a file differs
// from itself in nothing; two files Diff finds different are different to
// Compare too; and Diff(y, x) mirrors Diff(x, y).
func FuzzDiff(f *testing.F) {
	table := fuzzTable(f)
	f.Add(table, table)
	for i := range table {
		replaced := bytes.Clone(table)
		replaced[i] ^= 0x01
		inserted := append(append(bytes.Clone(table[:i]), ','), table[i:]...)
		f.Add(table, replaced)
		f.Add(inserted, table)
	}
	f.Add(lines("tick,a,b", "0,1,2"), lines("tick,b,c,a", "0,2,3,1", "1,,,"))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		if _, err := dense.Parse(x); err == nil {
			d, err := dense.Diff(x, x)
			if err != nil || !d.Empty() {
				t.Fatalf("a file differs from itself: %v %+v", err, d)
			}
		}
		d, err := dense.Diff(x, y)
		if err != nil {
			return
		}
		if !d.Empty() {
			if c, _ := dense.Compare(x, y); c == nil {
				t.Fatalf("Diff finds %s but Compare finds nothing", d.Summary())
			}
		}
		m, err := dense.Diff(y, x)
		if err != nil {
			t.Fatalf("Diff(x, y) parsed both but Diff(y, x) fails: %v", err)
		}
		if !slices.Equal(d.Added, m.Removed) || !slices.Equal(d.Removed, m.Added) || len(d.Cells) != len(m.Cells) ||
			!slices.Equal(d.MissingTicks, m.ExtraTicks) || d.Shared != m.Shared {
			t.Fatalf("Diff is not symmetric: %+v against %+v", d, m)
		}
		var cells int
		for _, g := range d.Groups(func(string) string { return "all" }) {
			cells += g.Cells
		}
		var run int
		for _, r := range d.Runs() {
			run += r.Cells
		}
		if cells != len(d.Cells) || run != len(d.Cells) {
			t.Fatalf("groups hold %d cells and runs %d, of %d", cells, run, len(d.Cells))
		}
	})
}
