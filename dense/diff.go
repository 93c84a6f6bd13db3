package dense

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Table is a parsed dense file: its header and its rows, each row's first
// field being its tick.
type Table struct {
	Header []string
	Ticks  []int64
	Rows   [][]string // unquoted fields, the tick included
}

// Parse reads a whole dense file. Unlike Compare it parses everything, so
// it is for tools that need every cell (a cell-level diff, a textconv),
// not for the ladder's pass/fail path. Errors are *FormatError.
func Parse(data []byte) (*Table, error) {
	if len(data) == 0 {
		return nil, &FormatError{Line: 1, Err: ErrNoHeader}
	}
	if data[len(data)-1] != '\n' {
		return nil, &FormatError{Line: countRows(data), Err: ErrNoFinalNewline}
	}
	header, err := goldenRecord(data, 0, 1, 0)
	if err != nil {
		return nil, err
	}
	if header.fields[0] != "tick" {
		return nil, &FormatError{Line: 1, Column: 1, Err: ErrFirstColumn}
	}
	seen := make(map[string]bool, len(header.fields))
	for i, c := range header.fields {
		if seen[c] {
			return nil, &FormatError{Line: 1, Column: i + 1, Err: fmt.Errorf("%w %q", ErrDuplicateColumn, c)}
		}
		seen[c] = true
	}
	t := &Table{Header: header.fields}
	for start, line := header.end, 2; start < len(data); line++ {
		r, err := goldenRecord(data, start, line, len(t.Header))
		if err != nil {
			return nil, err
		}
		tick, err := strconv.ParseInt(r.fields[0], 10, 64)
		if err != nil {
			return nil, &FormatError{Line: line, Column: 1, Err: fmt.Errorf("tick %q is not an integer", r.fields[0])}
		}
		if n := len(t.Ticks); n > 0 && tick <= t.Ticks[n-1] {
			return nil, &FormatError{Line: line, Column: 1, Err: fmt.Errorf("tick %d does not follow tick %d", tick, t.Ticks[n-1])}
		}
		t.Ticks = append(t.Ticks, tick)
		t.Rows = append(t.Rows, r.fields)
		start = r.end
	}
	return t, nil
}

// Change is one changed cell: its tick and column, and its value on each
// side. A column one side does not have reads as empty there, which is
// what an empty cell means ("not held").
type Change struct {
	Tick           int64
	Column         string
	Golden, Actual string
}

// Delta is every difference between two dense files, cell by cell.
type Delta struct {
	// Added and Removed are the columns only actual, or only golden, has,
	// in header order.
	Added, Removed []string
	// Shared counts the columns both have, tick included.
	Shared int
	// Cells are the changed cells of the ticks both files have, in tick
	// order and then header order (golden's, then actual's added columns).
	Cells []Change
	// MissingTicks are ticks only golden has; ExtraTicks only actual.
	MissingTicks, ExtraTicks []int64
	common                   []int64 // ticks both have, in order
}

// Diff parses both files and compares them cell by cell, aligning rows by
// tick and columns by name, so a column inserted mid-header (someone new
// holds a rumour) is one added column, not a shift of every column after
// it. Errors are *FormatError, from whichever file is malformed.
func Diff(golden, actual []byte) (*Delta, error) {
	g, err := Parse(golden)
	if err != nil {
		return nil, fmt.Errorf("golden: %w", err)
	}
	a, err := Parse(actual)
	if err != nil {
		return nil, fmt.Errorf("actual: %w", err)
	}
	d := &Delta{}
	gIndex, aIndex := index(g.Header), index(a.Header)
	type pair struct {
		name string
		g, a int // column index on each side, -1 when absent
	}
	var cols []pair
	for i, c := range g.Header {
		j, ok := aIndex[c]
		if !ok {
			j = -1
			d.Removed = append(d.Removed, c)
		} else {
			d.Shared++
		}
		cols = append(cols, pair{c, i, j})
	}
	for j, c := range a.Header {
		if _, ok := gIndex[c]; !ok {
			d.Added = append(d.Added, c)
			cols = append(cols, pair{c, -1, j})
		}
	}
	i, j := 0, 0
	for i < len(g.Ticks) || j < len(a.Ticks) {
		switch {
		case j == len(a.Ticks) || (i < len(g.Ticks) && g.Ticks[i] < a.Ticks[j]):
			d.MissingTicks = append(d.MissingTicks, g.Ticks[i])
			i++
		case i == len(g.Ticks) || a.Ticks[j] < g.Ticks[i]:
			d.ExtraTicks = append(d.ExtraTicks, a.Ticks[j])
			j++
		default:
			for _, c := range cols[1:] {
				gv, av := field(g.Rows[i], c.g), field(a.Rows[j], c.a)
				if gv != av {
					d.Cells = append(d.Cells, Change{Tick: g.Ticks[i], Column: c.name, Golden: gv, Actual: av})
				}
			}
			d.common = append(d.common, g.Ticks[i])
			i, j = i+1, j+1
		}
	}
	return d, nil
}

func index(header []string) map[string]int {
	m := make(map[string]int, len(header))
	for i, c := range header {
		m[c] = i
	}
	return m
}

func field(row []string, i int) string {
	if i < 0 {
		return ""
	}
	return row[i]
}

// ColumnSet is what a Delta says about two files whose headers differ,
// reduced to what a one-line failure message needs: the columns only one
// side has, the first changed cell in Cells' order and the first in a
// column both have, and the first tick only one side has.
type ColumnSet struct {
	Added, Removed           []string
	First, FirstShared       *Change // nil when there is none
	FirstMissing, FirstExtra *int64  // the first of MissingTicks and of ExtraTicks; nil when empty
}

// ColumnSet reduces the delta to its ColumnSet.
func (d *Delta) ColumnSet() ColumnSet {
	cs := ColumnSet{Added: d.Added, Removed: d.Removed}
	oneSide := map[string]bool{}
	for _, c := range slices.Concat(d.Added, d.Removed) {
		oneSide[c] = true
	}
	for i, c := range d.Cells {
		if cs.First == nil {
			cs.First = &d.Cells[i]
		}
		if !oneSide[c.Column] {
			cs.FirstShared = &d.Cells[i]
			break
		}
	}
	if len(d.MissingTicks) > 0 {
		cs.FirstMissing = &d.MissingTicks[0]
	}
	if len(d.ExtraTicks) > 0 {
		cs.FirstExtra = &d.ExtraTicks[0]
	}
	return cs
}

// Empty reports whether the files hold the same cells.
func (d *Delta) Empty() bool {
	return len(d.Added) == 0 && len(d.Removed) == 0 && len(d.Cells) == 0 &&
		len(d.MissingTicks) == 0 && len(d.ExtraTicks) == 0
}

// Group summarises the changed cells of related columns — those a key
// function maps to the same key, such as every holder's confidence in one
// claim (`*/theft@10/confidence`).
type Group struct {
	Key string
	// Columns counts the distinct columns with a changed cell; Added and
	// Removed count the group's columns only one side has (changed or not).
	Columns, Added, Removed int
	Cells                   int
	First, Last             int64 // ticks of the first and last changed cell
	// MaxDelta is the largest |actual − golden| over cells where both sides
	// are numbers; Numeric is false when no cell had two numbers.
	MaxDelta float64
	Numeric  bool
}

// Groups folds the changed cells into groups by key, ordered by the tick
// of their first change and then by key. Groups of added or removed
// columns without a changed cell are included, with no cells.
func (d *Delta) Groups(key func(column string) string) []Group {
	byKey := map[string]*Group{}
	get := func(col string) *Group {
		k := key(col)
		g := byKey[k]
		if g == nil {
			g = &Group{Key: k, First: math.MaxInt64, Last: math.MinInt64}
			byKey[k] = g
		}
		return g
	}
	for _, c := range d.Added {
		get(c).Added++
	}
	for _, c := range d.Removed {
		get(c).Removed++
	}
	seen := map[string]bool{}
	for _, c := range d.Cells {
		g := get(c.Column)
		if !seen[c.Column] {
			seen[c.Column] = true
			g.Columns++
		}
		g.Cells++
		g.First, g.Last = min(g.First, c.Tick), max(g.Last, c.Tick)
		if x, y, ok := numbers(c.Golden, c.Actual); ok {
			g.Numeric = true
			g.MaxDelta = max(g.MaxDelta, math.Abs(y-x))
		}
	}
	out := make([]Group, 0, len(byKey))
	for _, g := range byKey {
		out = append(out, *g)
	}
	slices.SortFunc(out, func(a, b Group) int { return cmp.Or(cmp.Compare(a.First, b.First), cmp.Compare(a.Key, b.Key)) })
	return out
}

func numbers(a, b string) (float64, float64, bool) {
	x, errX := strconv.ParseFloat(a, 64)
	y, errY := strconv.ParseFloat(b, 64)
	ok := errX == nil && errY == nil && !math.IsNaN(x) && !math.IsNaN(y) && !math.IsInf(x, 0) && !math.IsInf(y, 0)
	return x, y, ok
}

// String summarises a group in one line, e.g.
//
//	*/theft@10/confidence: 23 columns, 3,196 cells, ticks 10-239, max |Δ| 0.0123
func (g Group) String() string {
	var parts []string
	if g.Added > 0 {
		parts = append(parts, fmt.Sprintf("%s added", plural(g.Added, "column")))
	}
	if g.Removed > 0 {
		parts = append(parts, fmt.Sprintf("%s removed", plural(g.Removed, "column")))
	}
	if g.Cells > 0 {
		ticks := fmt.Sprintf("tick %d", g.First)
		if g.Last != g.First {
			ticks = fmt.Sprintf("ticks %d-%d", g.First, g.Last)
		}
		parts = append(parts, plural(g.Columns, "column"), plural(g.Cells, "cell"), ticks)
		if g.Numeric {
			parts = append(parts, "max |Δ| "+strconv.FormatFloat(g.MaxDelta, 'g', 3, 64))
		}
	}
	return g.Key + ": " + strings.Join(parts, ", ")
}

// Summary says how much changed, in one line, e.g.
//
//	3,196 cells changed in 23 columns, ticks 10-239; 6 columns added, 0 removed
func (d *Delta) Summary() string {
	cols := map[string]bool{}
	first, last := int64(math.MaxInt64), int64(math.MinInt64)
	for _, c := range d.Cells {
		cols[c.Column] = true
		first, last = min(first, c.Tick), max(last, c.Tick)
	}
	s := fmt.Sprintf("%s changed in %s", plural(len(d.Cells), "cell"), plural(len(cols), "column"))
	switch {
	case len(d.Cells) == 0:
	case first == last:
		s += fmt.Sprintf(", tick %d", first)
	default:
		s += fmt.Sprintf(", ticks %d-%d", first, last)
	}
	s += fmt.Sprintf("; %d added, %d removed", len(d.Added), len(d.Removed))
	if n := len(d.MissingTicks); n > 0 {
		s += fmt.Sprintf("; actual lacks %s from tick %d", plural(n, "row"), d.MissingTicks[0])
	}
	if n := len(d.ExtraTicks); n > 0 {
		s += fmt.Sprintf("; actual has %s more from tick %d", plural(n, "row"), d.ExtraTicks[0])
	}
	return s
}

// Run is a stretch of consecutive changed cells of one column — ticks
// First to Last with no unchanged tick between — that all change the same
// way (the same golden and actual values).
type Run struct {
	Column         string
	First, Last    int64
	Cells          int
	Golden, Actual string
}

// Runs groups the changed cells column by column (in the order columns
// first change) into runs: a confidence that moved from 0.72 to 0.7 for
// two hundred ticks is one run, a decaying value that differs at every
// tick is one run per tick.
func (d *Delta) Runs() []Run {
	pos := make(map[int64]int, len(d.common))
	for i, t := range d.common {
		pos[t] = i
	}
	var order []string
	byCol := map[string][]Change{}
	for _, c := range d.Cells {
		if _, ok := byCol[c.Column]; !ok {
			order = append(order, c.Column)
		}
		byCol[c.Column] = append(byCol[c.Column], c)
	}
	var out []Run
	for _, col := range order {
		for _, c := range byCol[col] {
			if n := len(out); n > 0 && out[n-1].Column == col && out[n-1].Golden == c.Golden && out[n-1].Actual == c.Actual && pos[out[n-1].Last]+1 == pos[c.Tick] {
				out[n-1].Last = c.Tick
				out[n-1].Cells++
				continue
			}
			out = append(out, Run{Column: col, First: c.Tick, Last: c.Tick, Cells: 1, Golden: c.Golden, Actual: c.Actual})
		}
	}
	return out
}

// String shows a run as one line: `ticks 10-239 (230 cells): 0.72 → 0.7`.
func (r Run) String() string {
	ticks := fmt.Sprintf("tick %d", r.First)
	if r.Last != r.First {
		ticks = fmt.Sprintf("ticks %d-%d (%s)", r.First, r.Last, plural(r.Cells, "cell"))
	}
	return fmt.Sprintf("%s: %s → %s", ticks, shown(r.Golden), shown(r.Actual))
}

// plural writes n with thousands separators and the noun, pluralised.
func plural(n int, noun string) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if n != 1 {
		noun += "s"
	}
	return s + " " + noun
}
