package dense

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
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
// it is for tools that need every cell (a textconv), not for the ladder's
// pass/fail path. Errors are *FormatError.
func Parse(data []byte) (*Table, error) {
	r, err := newTableReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	t := &Table{Header: r.header}
	for {
		ok, err := r.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return t, nil
		}
		t.Ticks = append(t.Ticks, r.tick)
		t.Rows = append(t.Rows, slices.Clone(r.row))
	}
}

// tableReader reads a dense file a record at a time, checking it as Parse
// does: a header that starts with tick and names each column once, rows of
// the header's width whose ticks are integers that increase, and a newline
// at the end. A file that breaks a rule is a *FormatError; one that breaks
// several reports the one Parse reports, so a missing final newline comes
// before anything else.
type tableReader struct {
	rr     *recordReader
	header []string
	index  map[string]int
	row    []string
	tick   int64
	rows   int
}

func newTableReader(r io.Reader) (*tableReader, error) {
	t := &tableReader{rr: newRecordReader(r)}
	rec, err := t.rr.next()
	switch {
	case errors.Is(err, io.EOF):
		return nil, &FormatError{Line: 1, Err: ErrNoHeader}
	case err != nil:
		return nil, t.fail(err)
	}
	h, err := goldenRecord(rec, 0, 1, 0)
	if err != nil {
		return nil, t.fail(err)
	}
	if h.fields[0] != "tick" {
		return nil, t.fail(&FormatError{Line: 1, Column: 1, Err: ErrFirstColumn})
	}
	t.header, t.index = h.fields, make(map[string]int, len(h.fields))
	for i, c := range h.fields {
		if _, dup := t.index[c]; dup {
			return nil, t.fail(&FormatError{Line: 1, Column: i + 1, Err: fmt.Errorf("%w %q", ErrDuplicateColumn, c)})
		}
		t.index[c] = i
	}
	if t.rr.open {
		return nil, t.fail(nil)
	}
	return t, nil
}

// next reads the next row; false at the end of the file.
func (t *tableReader) next() (bool, error) {
	rec, err := t.rr.next()
	switch {
	case errors.Is(err, io.EOF):
		return false, nil
	case err != nil:
		return false, t.fail(err)
	case t.rr.open:
		return false, t.fail(nil)
	}
	line := t.rr.line
	r, err := goldenRecord(rec, 0, line, len(t.header))
	if err != nil {
		return false, t.fail(err)
	}
	tick, err := strconv.ParseInt(r.fields[0], 10, 64)
	if err != nil {
		return false, t.fail(&FormatError{Line: line, Column: 1, Err: fmt.Errorf("tick %q is not an integer", r.fields[0])})
	}
	if t.rows > 0 && tick <= t.tick {
		return false, t.fail(&FormatError{Line: line, Column: 1, Err: fmt.Errorf("tick %d does not follow tick %d", tick, t.tick)})
	}
	t.row, t.tick = r.fields, tick
	t.rows++
	return true, nil
}

// fail returns err, unless the file does not end with a newline, which
// Parse reports first: it reads the rest of the file to know.
func (t *tableReader) fail(err error) error {
	for {
		if _, e := t.rr.next(); e != nil {
			var fe *FormatError
			if !errors.Is(e, io.EOF) && !errors.As(e, &fe) {
				return e
			}
			break
		}
	}
	if t.rr.open {
		return &FormatError{Line: t.rr.line, Err: ErrNoFinalNewline}
	}
	return err
}

// value returns field i of the current row; "" for i < 0.
func (t *tableReader) value(i int) string {
	if i < 0 {
		return ""
	}
	return t.row[i]
}

// drain reads the rest of a file, for its first error.
func (t *tableReader) drain() error {
	for {
		ok, err := t.next()
		if err != nil || !ok {
			return err
		}
	}
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
	// order and then header order (golden's, then actual's added columns):
	// every one from Diff, the first few from DiffReaders (Dropped says how
	// many more there were).
	Cells   []Change
	Dropped int
	// MissingTicks are ticks only golden has; ExtraTicks only actual
	// (from DiffReaders, the first of each).
	MissingTicks, ExtraTicks []int64
	missing, extra           int     // how many of each there are
	common                   []int64 // ticks both have, in order (Diff only)
	// stats count every changed cell per column, kept or not.
	stats map[string]*columnStats
}

// columnStats is one column's changed cells, summed.
type columnStats struct {
	cells       int
	first, last int64
	maxDelta    float64
	numeric     bool
}

// Diff parses both files and compares them cell by cell, aligning rows by
// tick and columns by name, so a column inserted mid-header (someone new
// holds a rumour) is one added column, not a shift of every column after
// it. Errors are *FormatError, from whichever file is malformed (the
// golden first).
func Diff(golden, actual []byte) (*Delta, error) {
	return diff(bytes.NewReader(golden), bytes.NewReader(actual), -1)
}

// DiffReaders is Diff for two files read a record at a time: it holds a
// row of each, the first keep changed cells (Summary and Groups count
// every one) and a few counts per column, so files of any length compare
// in flat memory. Runs needs every cell: use Diff for it.
func DiffReaders(golden, actual io.Reader, keep int) (*Delta, error) {
	return diff(golden, actual, max(keep, 0))
}

// diff keeps every cell when keep is negative.
func diff(golden, actual io.Reader, keep int) (*Delta, error) {
	g, err := newTableReader(golden)
	if err != nil {
		return nil, fmt.Errorf("golden: %w", err)
	}
	a, err := newTableReader(actual)
	if err != nil {
		return nil, actualErr(g, err)
	}
	d := &Delta{stats: map[string]*columnStats{}}
	type pair struct {
		name string
		g, a int // column index on each side, -1 when absent
	}
	var cols []pair
	for i, c := range g.header {
		j, ok := a.index[c]
		if !ok {
			j = -1
			d.Removed = append(d.Removed, c)
		} else {
			d.Shared++
		}
		cols = append(cols, pair{c, i, j})
	}
	for j, c := range a.header {
		if _, ok := g.index[c]; !ok {
			d.Added = append(d.Added, c)
			cols = append(cols, pair{c, -1, j})
		}
	}
	okG, err := g.next()
	if err != nil {
		return nil, fmt.Errorf("golden: %w", err)
	}
	okA, err := a.next()
	if err != nil {
		return nil, actualErr(g, err)
	}
	for okG || okA {
		stepG, stepA := false, false
		switch {
		case !okA || (okG && g.tick < a.tick):
			only(&d.MissingTicks, &d.missing, g.tick, keep)
			stepG = true
		case !okG || a.tick < g.tick:
			only(&d.ExtraTicks, &d.extra, a.tick, keep)
			stepA = true
		default:
			for _, c := range cols[1:] {
				if gv, av := g.value(c.g), a.value(c.a); gv != av {
					d.change(Change{Tick: g.tick, Column: c.name, Golden: gv, Actual: av}, keep)
				}
			}
			if keep < 0 {
				d.common = append(d.common, g.tick)
			}
			stepG, stepA = true, true
		}
		if stepG {
			if okG, err = g.next(); err != nil {
				return nil, fmt.Errorf("golden: %w", err)
			}
		}
		if stepA {
			if okA, err = a.next(); err != nil {
				return nil, actualErr(g, err)
			}
		}
	}
	return d, nil
}

// actualErr is the error of a malformed actual file — unless the golden,
// read to its end, is malformed too: Diff reports the golden first.
func actualErr(g *tableReader, err error) error {
	if gerr := g.drain(); gerr != nil {
		return fmt.Errorf("golden: %w", gerr)
	}
	return fmt.Errorf("actual: %w", err)
}

// only notes a tick one side has, keeping every one when keep is
// negative and the first otherwise.
func only(list *[]int64, n *int, tick int64, keep int) {
	*n++
	if keep < 0 || len(*list) == 0 {
		*list = append(*list, tick)
	}
}

// change counts a changed cell, keeping it while fewer than keep are kept
// (every one when keep is negative).
func (d *Delta) change(c Change, keep int) {
	if keep < 0 || len(d.Cells) < keep {
		d.Cells = append(d.Cells, c)
	} else {
		d.Dropped++
	}
	s := d.stats[c.Column]
	if s == nil {
		s = &columnStats{first: c.Tick}
		d.stats[c.Column] = s
	}
	s.cells++
	s.last = c.Tick
	if x, y, ok := numbers(c.Golden, c.Actual); ok {
		s.numeric = true
		s.maxDelta = max(s.maxDelta, math.Abs(y-x))
	}
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

// ColumnSet reduces the delta to its ColumnSet. It reads Cells, so it
// needs a Delta from Diff, which keeps every cell.
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
	return len(d.Added) == 0 && len(d.Removed) == 0 && len(d.stats) == 0 && d.missing == 0 && d.extra == 0
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
	for col, s := range d.stats {
		g := get(col)
		g.Columns++
		g.Cells += s.cells
		g.First, g.Last = min(g.First, s.first), max(g.Last, s.last)
		if s.numeric {
			g.Numeric = true
			g.MaxDelta = max(g.MaxDelta, s.maxDelta)
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
	cells := 0
	first, last := int64(math.MaxInt64), int64(math.MinInt64)
	for _, c := range d.stats {
		cells += c.cells
		first, last = min(first, c.first), max(last, c.last)
	}
	s := fmt.Sprintf("%s changed in %s", plural(cells, "cell"), plural(len(d.stats), "column"))
	switch {
	case cells == 0:
	case first == last:
		s += fmt.Sprintf(", tick %d", first)
	default:
		s += fmt.Sprintf(", ticks %d-%d", first, last)
	}
	s += fmt.Sprintf("; %d added, %d removed", len(d.Added), len(d.Removed))
	if d.missing > 0 {
		s += fmt.Sprintf("; actual lacks %s from tick %d", plural(d.missing, "row"), d.MissingTicks[0])
	}
	if d.extra > 0 {
		s += fmt.Sprintf("; actual has %s more from tick %d", plural(d.extra, "row"), d.ExtraTicks[0])
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

// Count reads a dense file a record at a time, checking it as Parse does,
// and returns how many rows and columns (tick included) it has.
func Count(r io.Reader) (rows, columns int, err error) {
	t, err := newTableReader(r)
	if err != nil {
		return 0, 0, err
	}
	if err := t.drain(); err != nil {
		return 0, 0, err
	}
	return t.rows, len(t.header), nil
}
