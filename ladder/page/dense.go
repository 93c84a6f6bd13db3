package page

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// denseReader reads a dense CSV (docs/dense-columns.md) a row at a time.
// It checks only what the page relies on: a header starting with "tick",
// rectangular rows, and integer ticks that increase.
type denseReader struct {
	rc    io.ReadCloser
	r     *csv.Reader
	cols  []string
	index map[string]int
	row   []string
	tick  int64
	rows  int
}

func openDense(src Artifact) (*denseReader, error) {
	rc, err := src.Open()
	if err != nil {
		return nil, err
	}
	d := &denseReader{rc: rc, r: csv.NewReader(bufio.NewReaderSize(rc, 64<<10))}
	d.r.ReuseRecord = true
	header, err := d.r.Read()
	if err != nil {
		rc.Close()
		return nil, fmt.Errorf("header: %w", err)
	}
	if header[0] != "tick" {
		rc.Close()
		return nil, fmt.Errorf("header: first column is %q, not \"tick\"", header[0])
	}
	d.cols = slices.Clone(header)
	d.index = make(map[string]int, len(header))
	for i, c := range d.cols {
		d.index[c] = i
	}
	return d, nil
}

// next reads the next row; false at the end of the file.
func (d *denseReader) next() (bool, error) {
	row, err := d.r.Read()
	if errors.Is(err, io.EOF) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	line, _ := d.r.FieldPos(0)
	tick, err := strconv.ParseInt(row[0], 10, 64)
	if err != nil {
		return false, fmt.Errorf("line %d: tick %q is not an integer", line, row[0])
	}
	if d.rows > 0 && tick <= d.tick {
		return false, fmt.Errorf("line %d: tick %d does not follow tick %d", line, tick, d.tick)
	}
	d.row, d.tick = row, tick
	d.rows++
	return true, nil
}

func (d *denseReader) close() { d.rc.Close() }

// cell returns column col of the current row, "" when the file has no such
// column.
func (d *denseReader) cell(col string) string {
	if j, ok := d.index[col]; ok {
		return d.row[j]
	}
	return ""
}

// col is column name's index, -1 when the file has none; at reads the
// current row's cell at such an index. Readers of every row look their
// columns up once.
func (d *denseReader) col(name string) int {
	if j, ok := d.index[name]; ok {
		return j
	}
	return -1
}

func (d *denseReader) at(j int) string {
	if j < 0 {
		return ""
	}
	return d.row[j]
}

// countRows counts a dense file's rows without parsing them (records
// holding a quoted newline count twice; the count only sizes the curves'
// samples).
func countRows(src Artifact) (int, error) {
	rc, err := src.Open()
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	buf := make([]byte, 64<<10)
	n := 0
	for {
		k, err := rc.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if errors.Is(err, io.EOF) {
			return max(n-1, 0), nil
		}
		if err != nil {
			return 0, err
		}
	}
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

// Tracks is what the page reads from one dense CSV: every NPC's presence
// and every belief's state over the section's rows (Rows.From–Rows.To), and
// every claim's believer count over the whole run, each as change points
// so that a long quiet run costs nothing. A run longer than the curves'
// resolution has its believer counts sampled: each point is then the
// largest count in its stretch of ticks (Rows.Sample ticks long), so a
// brief peak still shows.
type Tracks struct {
	NPCs      []NPCTrack
	Beliefs   []BeliefTrack
	Believers map[string][]Point // by claim
	// Social is every social record (Blocks) with columns, sorted by
	// block in the contract's order, then by key; none for a world
	// without social state.
	Social []SocialTrack
}

// columns are the columns of a dense file the page reads, by the contract:
// "<npc>/alive", "<npc>/at", "<claim>/believers",
// "<holder>/<claim>/<field>" and the social blocks'
// "<block>/<key…>/<field>"; columns of other shapes are not shown.
type columns struct {
	npcs, claims []string
	pairs        [][2]string
	social       []socialKey
}

func columnsOf(cols []string) columns {
	var out columns
	seen := map[[2]string]bool{}
	seenSocial := map[socialKey]bool{}
	for _, c := range cols[1:] {
		if b, key, _, ok := socialColumn(c); ok {
			if k := (socialKey{b, key}); !seenSocial[k] {
				seenSocial[k] = true
				out.social = append(out.social, k)
			}
			continue
		}
		parts := strings.Split(c, "/")
		switch {
		case len(parts) == 2 && parts[1] == "alive":
			out.npcs = append(out.npcs, parts[0])
		case len(parts) == 2 && parts[1] == "believers":
			out.claims = append(out.claims, parts[0])
		case len(parts) == 3 && parts[2] == "variant":
			p := [2]string{parts[0], parts[1]}
			if !seen[p] {
				seen[p] = true
				out.pairs = append(out.pairs, p)
			}
		}
	}
	return out
}

// curveSampler gathers every claim's believer curve over a whole file, sampled
// in stretches of sample ticks.
type curveSampler struct {
	claims []string
	cols   []int // each claim's believers column, looked up on the first row
	sample int64
	points map[string][]Point
	open   map[string]Point // the stretch being gathered: its first tick and largest count
}

func newCurves(claims []string, sample int64) *curveSampler {
	return &curveSampler{claims: claims, sample: max(sample, 1), points: map[string][]Point{}, open: map[string]Point{}}
}

func (c *curveSampler) row(d *denseReader) error {
	if c.cols == nil {
		c.cols = make([]int, len(c.claims))
		for i, id := range c.claims {
			c.cols[i] = d.col(id + "/believers")
		}
	}
	for i, id := range c.claims {
		var n int64
		if s := d.at(c.cols[i]); s != "" {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return fmt.Errorf("tick %d, column %q: %q is not an integer", d.tick, id+"/believers", s)
			}
			n = v
		}
		if c.sample == 1 {
			c.add(id, Point{Tick: d.tick, Count: n})
			continue
		}
		o, ok := c.open[id]
		switch {
		case !ok:
			c.open[id] = Point{Tick: d.tick, Count: n}
		case d.tick-o.Tick >= c.sample:
			c.add(id, o)
			c.open[id] = Point{Tick: d.tick, Count: n}
		default:
			o.Count = max(o.Count, n)
			c.open[id] = o
		}
	}
	return nil
}

// add appends a point where the count changes.
func (c *curveSampler) add(id string, p Point) {
	pts := c.points[id]
	if len(pts) == 0 || pts[len(pts)-1].Count != p.Count {
		c.points[id] = append(pts, p)
	}
}

func (c *curveSampler) done() map[string][]Point {
	for _, id := range c.claims {
		if o, ok := c.open[id]; ok {
			c.add(id, o)
		}
		if _, ok := c.points[id]; !ok {
			c.points[id] = nil
		}
	}
	return c.points
}

// tracker gathers NPC presence and belief states over the rows from a tick
// to a tick.
type tracker struct {
	cols     columns
	from, to int64
	out      *Tracks
	// The columns each track reads, looked up on the first row: per NPC
	// alive and at; per belief variant, confidence, stage, sources; per
	// social record its fields.
	npcCols, pairCols, socialCols [][]int
}

func newTracker(cols columns, from, to int64) *tracker {
	t := &tracker{cols: cols, from: from, to: to, out: &Tracks{}}
	for _, id := range cols.npcs {
		t.out.NPCs = append(t.out.NPCs, NPCTrack{ID: id})
	}
	for _, p := range cols.pairs {
		t.out.Beliefs = append(t.out.Beliefs, BeliefTrack{Holder: p[0], Claim: p[1]})
	}
	slices.SortFunc(t.cols.social, compareSocial)
	for _, k := range t.cols.social {
		t.out.Social = append(t.out.Social, SocialTrack{Block: Blocks[k.block].Name, Key: k.key})
	}
	return t
}

func (t *tracker) row(d *denseReader) {
	if d.tick < t.from || d.tick > t.to {
		return
	}
	if t.npcCols == nil {
		t.lookUp(d)
	}
	for i := range t.cols.npcs {
		tr := &t.out.NPCs[i]
		c := t.npcCols[i]
		p := Presence{Tick: d.tick, Alive: d.at(c[0]) == "True", At: d.at(c[1])}
		if n := len(tr.Changes); n == 0 || tr.Changes[n-1].Alive != p.Alive || tr.Changes[n-1].At != p.At {
			tr.Changes = append(tr.Changes, p)
		}
	}
	for i := range t.cols.pairs {
		tr := &t.out.Beliefs[i]
		c := t.pairCols[i]
		s := BeliefState{Tick: d.tick, Variant: d.at(c[0]), Confidence: d.at(c[1]), Stage: d.at(c[2]), Sources: d.at(c[3])}
		s.Held = s.Variant != ""
		if n := len(tr.Changes); n == 0 || !sameBelief(tr.Changes[n-1], s) {
			tr.Changes = append(tr.Changes, s)
		}
	}
	for i := range t.cols.social {
		tr := &t.out.Social[i]
		st := SocialState{Tick: d.tick, Values: make([]string, len(t.socialCols[i]))}
		for j, c := range t.socialCols[i] {
			st.Values[j] = d.at(c)
		}
		if n := len(tr.Changes); n == 0 || !slices.Equal(tr.Changes[n-1].Values, st.Values) {
			tr.Changes = append(tr.Changes, st)
		}
	}
}

// lookUp finds the columns every track reads.
func (t *tracker) lookUp(d *denseReader) {
	for _, id := range t.cols.npcs {
		t.npcCols = append(t.npcCols, []int{d.col(id + "/alive"), d.col(id + "/at")})
	}
	for _, p := range t.cols.pairs {
		prefix := p[0] + "/" + p[1] + "/"
		t.pairCols = append(t.pairCols, []int{d.col(prefix + "variant"), d.col(prefix + "confidence"), d.col(prefix + "stage"), d.col(prefix + "sources")})
	}
	for _, k := range t.cols.social {
		b := Blocks[k.block]
		var cs []int
		for _, f := range b.Fields {
			cs = append(cs, d.col(b.Name+"/"+k.key+"/"+f))
		}
		t.socialCols = append(t.socialCols, cs)
	}
}

func (t *tracker) done() *Tracks {
	slices.SortFunc(t.out.Beliefs, func(a, b BeliefTrack) int {
		if c := strings.Compare(a.Holder, b.Holder); c != 0 {
			return c
		}
		return strings.Compare(a.Claim, b.Claim)
	})
	return t.out
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

// differ compares two dense files column by column as their rows stream
// by, matching columns by name and rows by tick, so a new column (someone
// new holds a rumour) does not hide where the shared columns first differ.
// A column only one side has counts towards the first divergence from the
// first tick it holds a value; Cells counts changed cells of shared
// columns. It keeps a count per column, never a row.
type differ struct {
	golden, actual *denseReader
	d              DenseDiff
	counts         map[string]int
	firstAdded     map[string]int64 // first tick an added column holds a value
	firstRemoved   map[string]int64
}

func newDiffer(golden, actual *denseReader) *differ {
	f := &differ{golden: golden, actual: actual, counts: map[string]int{},
		firstAdded: map[string]int64{}, firstRemoved: map[string]int64{},
		d: DenseDiff{FirstTick: -1, FromTick: -1, ToTick: -1}}
	for _, c := range actual.cols {
		if _, ok := golden.index[c]; !ok {
			f.d.Added = append(f.d.Added, c)
		}
	}
	for _, c := range golden.cols {
		if _, ok := actual.index[c]; !ok {
			f.d.Removed = append(f.d.Removed, c)
		}
	}
	return f
}

// firstValue notes the first tick each one-sided column holds a value.
func firstValue(d *denseReader, cols []string, first map[string]int64) {
	for _, c := range cols {
		if _, ok := first[c]; !ok && d.cell(c) != "" {
			first[c] = d.tick
		}
	}
}

// common compares the current rows of both files, which have the same
// tick.
func (f *differ) common() {
	tick := f.golden.tick
	for _, col := range f.golden.cols[1:] {
		if _, ok := f.actual.index[col]; !ok || f.golden.cell(col) == f.actual.cell(col) {
			continue
		}
		if f.d.FirstTick < 0 {
			f.d.FirstTick, f.d.FirstColumn = tick, col
		}
		if f.d.FromTick < 0 || tick < f.d.FromTick {
			f.d.FromTick = tick
		}
		f.d.ToTick = max(f.d.ToTick, tick)
		f.d.Cells++
		f.counts[col]++
	}
}

func (f *differ) done() DenseDiff {
	d := f.d
	// A column only one side has diverges where it first holds a value.
	for _, side := range []struct {
		cols  []string
		first map[string]int64
	}{{d.Added, f.firstAdded}, {d.Removed, f.firstRemoved}} {
		for _, col := range side.cols {
			if tick, ok := side.first[col]; ok && (d.FirstTick < 0 || tick < d.FirstTick) {
				d.FirstTick, d.FirstColumn = tick, col
			}
		}
	}
	d.Columns = len(f.counts)
	for c, n := range f.counts {
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

// merge walks two dense files together by tick, calling actual for every
// actual row, golden for every golden row and both (after those) for a
// tick both have. A malformed golden (a read error, or golden's own
// error) stops the golden's side: merge returns that error as goldenErr
// and carries on with the actual alone.
func merge(a, g *denseReader, actual, golden func() error, both func()) (goldenErr, err error) {
	okA, err := a.next()
	if err != nil {
		return nil, err
	}
	okG := g != nil
	advanceG := func() {
		if okG, goldenErr = g.next(); goldenErr != nil {
			okG = false
		}
	}
	if okG {
		advanceG()
	}
	for okA || okG {
		switch {
		case okG && (!okA || g.tick < a.tick):
			if goldenErr = golden(); goldenErr != nil {
				okG = false
				continue
			}
			advanceG()
			continue
		case okA && (!okG || a.tick < g.tick):
		default:
			if goldenErr = golden(); goldenErr != nil {
				okG = false
			} else {
				both()
				advanceG()
			}
		}
		if err := actual(); err != nil {
			return goldenErr, err
		}
		if okA, err = a.next(); err != nil {
			return goldenErr, err
		}
	}
	return goldenErr, nil
}
