package page

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// table is a parsed dense CSV: its header and its rows, as written.
type table struct {
	cols  []string
	index map[string]int
	rows  [][]string
	ticks []int64
}

// parseDense reads a dense CSV (docs/dense-columns.md). It checks only what
// the page relies on: a header starting with "tick", rectangular rows and
// integer ticks.
func parseDense(data []byte) (*table, error) {
	r := csv.NewReader(bytes.NewReader(data))
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	if header[0] != "tick" {
		return nil, fmt.Errorf("header: first column is %q, not \"tick\"", header[0])
	}
	t := &table{cols: header, index: make(map[string]int, len(header))}
	for i, c := range header {
		t.index[c] = i
	}
	for {
		row, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		tick, err := strconv.ParseInt(row[0], 10, 64)
		if err != nil {
			line, _ := r.FieldPos(0)
			return nil, fmt.Errorf("line %d: tick %q is not an integer", line, row[0])
		}
		t.rows = append(t.rows, row)
		t.ticks = append(t.ticks, tick)
	}
	return t, nil
}

// cell returns column col of row i, "" when the table has no such column.
func (t *table) cell(i int, col string) string {
	if j, ok := t.index[col]; ok {
		return t.rows[i][j]
	}
	return ""
}

// Presence is where an NPC is from a tick on.
type Presence struct {
	Tick  int64
	Alive bool
	At    string // "" when dead or nowhere
}

// NPCTrack is an NPC's presence at every tick, as change points.
type NPCTrack struct {
	ID      string
	Changes []Presence
}

// BeliefState is a belief's dense columns from a tick on. Held is false
// before the belief forms. Values are the dense CSV's text, so they read
// exactly as in the golden and in failure messages.
type BeliefState struct {
	Tick                                int64
	Held                                bool
	Variant, Confidence, Stage, Sources string
}

// BeliefTrack is one (holder, claim) belief over the run, as change points.
type BeliefTrack struct {
	Holder, Claim string
	Changes       []BeliefState
}

// Point is a claim's believer count from a tick on.
type Point struct {
	Tick  int64
	Count int64
}

// Tracks is what the page reads from one dense CSV: every NPC's presence,
// every belief's state and every claim's believer count, each as change
// points so that a long quiet run costs nothing.
type Tracks struct {
	Ticks     []int64 // the tick of each row
	NPCs      []NPCTrack
	Beliefs   []BeliefTrack
	Believers map[string][]Point // by claim
}

// tracksOf reads tracks from a parsed dense CSV. Column names follow the
// contract: "<npc>/alive", "<npc>/at", "<claim>/believers" and
// "<holder>/<claim>/<field>"; columns of other shapes are not shown.
func tracksOf(t *table) (*Tracks, error) {
	out := &Tracks{Ticks: t.ticks, Believers: map[string][]Point{}}
	var npcs, claimIDs []string
	type pair struct{ holder, claim string }
	var pairs []pair
	seen := map[pair]bool{}
	for _, c := range t.cols[1:] {
		parts := strings.Split(c, "/")
		switch {
		case len(parts) == 2 && parts[1] == "alive":
			npcs = append(npcs, parts[0])
		case len(parts) == 2 && parts[1] == "believers":
			claimIDs = append(claimIDs, parts[0])
		case len(parts) == 3 && parts[2] == "variant":
			p := pair{parts[0], parts[1]}
			if !seen[p] {
				seen[p] = true
				pairs = append(pairs, p)
			}
		}
	}
	for _, id := range npcs {
		tr := NPCTrack{ID: id}
		for i, tick := range t.ticks {
			p := Presence{Tick: tick, Alive: t.cell(i, id+"/alive") == "True", At: t.cell(i, id+"/at")}
			if n := len(tr.Changes); n == 0 || tr.Changes[n-1].Alive != p.Alive || tr.Changes[n-1].At != p.At {
				tr.Changes = append(tr.Changes, p)
			}
		}
		out.NPCs = append(out.NPCs, tr)
	}
	for _, id := range claimIDs {
		var pts []Point
		for i, tick := range t.ticks {
			var n int64
			if s := t.cell(i, id+"/believers"); s != "" {
				v, err := strconv.ParseInt(s, 10, 64)
				if err != nil {
					return nil, fmt.Errorf("tick %d, column %q: %q is not an integer", tick, id+"/believers", s)
				}
				n = v
			}
			if len(pts) == 0 || pts[len(pts)-1].Count != n {
				pts = append(pts, Point{Tick: tick, Count: n})
			}
		}
		out.Believers[id] = pts
	}
	for _, p := range pairs {
		tr := BeliefTrack{Holder: p.holder, Claim: p.claim}
		prefix := p.holder + "/" + p.claim + "/"
		for i, tick := range t.ticks {
			s := BeliefState{
				Tick: tick, Variant: t.cell(i, prefix+"variant"), Confidence: t.cell(i, prefix+"confidence"),
				Stage: t.cell(i, prefix+"stage"), Sources: t.cell(i, prefix+"sources"),
			}
			s.Held = s.Variant != ""
			if n := len(tr.Changes); n == 0 || !sameBelief(tr.Changes[n-1], s) {
				tr.Changes = append(tr.Changes, s)
			}
		}
		out.Beliefs = append(out.Beliefs, tr)
	}
	slices.SortFunc(out.Beliefs, func(a, b BeliefTrack) int {
		if c := strings.Compare(a.Holder, b.Holder); c != 0 {
			return c
		}
		return strings.Compare(a.Claim, b.Claim)
	})
	return out, nil
}

func sameBelief(a, b BeliefState) bool {
	return a.Held == b.Held && a.Variant == b.Variant && a.Confidence == b.Confidence && a.Stage == b.Stage && a.Sources == b.Sources
}

// DenseDiff is how far an actual dense CSV is from its golden, column by
// column: the first divergent tick and column, how many cells changed in
// how many columns, the tick range they span, and the columns only one
// side has.
type DenseDiff struct {
	FirstTick   int64 // -1 when no shared cell differs
	FirstColumn string
	Cells       int
	Columns     int
	FromTick    int64
	ToTick      int64
	Added       []string // columns only the actual run has
	Removed     []string // columns only the golden has
	// RowsDiffer is set when the two files cover different ticks; cells
	// are compared over the ticks both have.
	RowsDiffer bool
	// Top are the columns with the most changed cells, most first (at
	// most eight).
	Top []ColumnChange
}

// ColumnChange is one column's changed-cell count.
type ColumnChange struct {
	Column string
	Cells  int
}

// diffDense compares two parsed dense CSVs column by column, matching
// columns by name and rows by tick, so a new column (someone new holds a
// rumour) does not hide where the shared columns first differ. A column
// only one side has counts towards the first divergence from the first
// tick it holds a value; Cells counts changed cells of shared columns.
func diffDense(golden, actual *table) DenseDiff {
	d := DenseDiff{FirstTick: -1, FromTick: -1, ToTick: -1}
	for _, c := range actual.cols {
		if _, ok := golden.index[c]; !ok {
			d.Added = append(d.Added, c)
		}
	}
	for _, c := range golden.cols {
		if _, ok := actual.index[c]; !ok {
			d.Removed = append(d.Removed, c)
		}
	}
	rowOf := make(map[int64]int, len(actual.ticks))
	for i, t := range actual.ticks {
		rowOf[t] = i
	}
	d.RowsDiffer = !slices.Equal(golden.ticks, actual.ticks)
	counts := map[string]int{}
	for gi, tick := range golden.ticks {
		ai, ok := rowOf[tick]
		if !ok {
			continue
		}
		for gj, col := range golden.cols[1:] {
			aj, ok := actual.index[col]
			if !ok || golden.rows[gi][gj+1] == actual.rows[ai][aj] {
				continue
			}
			if d.FirstTick < 0 {
				d.FirstTick, d.FirstColumn = tick, col
			}
			if d.FromTick < 0 || tick < d.FromTick {
				d.FromTick = tick
			}
			d.ToTick = max(d.ToTick, tick)
			d.Cells++
			counts[col]++
		}
	}
	// A column only one side has diverges where it first holds a value.
	firstValue := func(t *table, cols []string) {
		for _, col := range cols {
			j := t.index[col]
			for i, tick := range t.ticks {
				if t.rows[i][j] != "" {
					if d.FirstTick < 0 || tick < d.FirstTick {
						d.FirstTick, d.FirstColumn = tick, col
					}
					break
				}
			}
		}
	}
	firstValue(actual, d.Added)
	firstValue(golden, d.Removed)
	d.Columns = len(counts)
	for c, n := range counts {
		d.Top = append(d.Top, ColumnChange{Column: c, Cells: n})
	}
	slices.SortFunc(d.Top, func(a, b ColumnChange) int {
		if a.Cells != b.Cells {
			return b.Cells - a.Cells
		}
		return strings.Compare(a.Column, b.Column)
	})
	if len(d.Top) > 8 {
		d.Top = d.Top[:8]
	}
	return d
}
