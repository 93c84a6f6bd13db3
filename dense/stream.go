package dense

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/chronicle/ladder/sim/canon"
)

// ErrUnplacedColumn means a row held a column the final header left out.
var ErrUnplacedColumn = errors.New("column has values but no place in the header")

// Stream writes the dense file of a run as the run produces it, one row
// per tick, when the columns are not all known until the run ends (claims
// and beliefs appear mid-run, and the header is the sorted union). It
// never holds more than one row:
//
//   - The caller numbers the columns, in the order they first appear,
//     and hands each row over as a cell per number, so that a cell is
//     placed without its name being built or looked up: at city scale a
//     row has tens of thousands of cells every tick. Each row is encoded
//     once and spilled to a temporary file in that column-stable form: its
//     tick and its cells by number. Finish writes the file in one pass over
//     the spill, in the final column order.
//   - Given a golden, each row is also laid out in the golden's columns and
//     compared with the golden's next row as it is produced. When the run
//     ends with the golden's header, that layout is exactly the row the
//     file will hold, so the first divergence is found without the file;
//     when it ends with another header, the cell changes were tracked per
//     column as Diff would see them.
//   - Given a golden whose header parses, and a second file to write
//     (WriteThrough), each row's layout in the golden's columns is also
//     written there as it is produced, after the golden's header. A run
//     that ends with the golden's header — every passing run, and most
//     failing ones — then has its file already written, and Finish does
//     not assemble it from the spill; only a run whose columns changed
//     pays for both.
//
// The spill format is private to Stream: per row, the tick as a varint;
// as uvarints, the number of columns known so far, the size of the
// row's codes and the size of its fields' bytes; then the codes, in
// column order — for a field not the same as the previous row's, its
// length plus one as a uvarint; for a run of fields the same as the
// previous row's, a 0 and the run's length as a uvarint — and the bytes
// of the fields that are not the same, one after another. Most of a
// city's cells do not change from one tick to the next, so most of a
// row is neither spilled again nor given a code of its own, and a row is
// written, and read back, in whole pieces however many cells it has.
type Stream struct {
	spill io.ReadWriteSeeker
	w     *bufio.Writer
	// index numbers the columns by name that the golden's header does not
	// name (every column, without a golden header); those it names are
	// numbered in the golden's own index (goldenRows.mint), so that a
	// city's tens of thousands of column names are not indexed twice.
	index  map[string]int
	names  []string // by number: the caller's slice, not a copy
	row    []byte   // the current row: its tick's field, then every column's
	bounds []int32  // column i's field is row[bounds[i]:bounds[i+1]]; bounds[0] ends the tick's
	// lastKind and lastBits are the previous row as it was handed over
	// and encoded, lastRow and lastBounds its bytes and bounds, laid out
	// as the current row's. A number, Bool or Empty cell of the kind and
	// bits its column had then is spelled as it was spelled then, since
	// most of a city's cells do not change from one tick to the next and
	// a float's shortest round-trip spelling is the dearest part of a row;
	// a string, cheap to spell, is spelled and its bytes compared. Kinds
	// and bits, not whole Cells: a whole Str cell would keep the caller's
	// last string alive, and a city's row has a hundred thousand columns.
	// Empty after a row that could not be encoded.
	lastKind   []cellKind
	lastBits   []uint64
	lastRow    []byte
	lastBounds []int32
	rows       int
	bad        []cellFault
	head       []byte      // the current row's tick, width and sizes, spilled
	codes      []byte      // the current row's spill codes (see the spill format)
	fresh      []byte      // the current row's fields not the same as the previous row's
	gold       *goldenRows // nil without a golden
	// through is where each row's golden layout is written as it comes
	// (WriteThrough), nil when it is not; throughWhole says Finish found
	// the file whole there.
	through      *bufio.Writer
	throughWhole bool

	// floats spells the floats that did change from memory: a city's
	// decaying weights take the same few thousand values in every row.
	floats canon.FloatCache
}

type cellFault struct {
	name string
	err  error
}

// NewStream starts a dense file. spill is scratch space the stream owns
// until Finish (a temporary file); golden, when not nil, is the golden
// dense file to compare with as the rows arrive.
func NewStream(spill io.ReadWriteSeeker, golden io.Reader) *Stream {
	s := &Stream{spill: spill, w: bufio.NewWriterSize(spill, 64<<10), index: map[string]int{}}
	if golden != nil {
		s.gold = newGoldenRows(golden)
	}
	return s
}

// ErrLateWriteThrough means WriteThrough was called after the first row.
var ErrLateWriteThrough = errors.New("dense: write-through asked for after the first row")

// WriteThrough has the stream write the file to w as the rows arrive,
// laid out in the golden's columns after the golden's header, so that a
// run ending with the golden's header need not assemble its file from
// the spill at the end (see Stream). It reports whether it will: not
// without a golden, or with one whose header does not parse or names a
// column twice (no run's header can equal that). Finish then writes the
// file to its out only when the run's header is not the golden's, and
// Through says which of the two holds it. It must come before the first
// row (ErrLateWriteThrough).
func (s *Stream) WriteThrough(w io.Writer) (bool, error) {
	if s.rows > 0 {
		return false, ErrLateWriteThrough
	}
	if s.gold == nil || s.gold.cols.width() == 0 || s.gold.cols.repeats() {
		return false, nil
	}
	s.through = bufio.NewWriterSize(w, 64<<10)
	s.through.WriteString(s.gold.f.header) // a failure to write is kept by the writer for Finish
	return true, nil
}

// Through reports, after Finish, whether the file is the one written
// through (WriteThrough) rather than the one Finish wrote to its out.
func (s *Stream) Through() bool { return s.throughWhole }

// Row adds the row of one tick (the tick column is implied): cells[i] is
// the cell of column number i, whose name is names[i]; an Empty cell is
// an empty field. A column keeps its number for the whole run, so names
// only grows from row to row: the names beyond the last row's are this
// row's new columns. The stream keeps names itself, not a copy, and only
// reads it, so the names already handed over must not change (a caller
// appends to the slice it hands over, and may go on appending while the
// stream reads the names it was handed, on another goroutine). Errors are
// *EncodeError: cells and names of different lengths, or fewer names
// than the last row's; a new column
// named "tick" or named as an earlier one, of which the first by name is
// reported and none is added; a NaN or invalid UTF-8, of which the first
// by name is reported.
func (s *Stream) Row(tick int64, names []string, cells []Cell) error {
	if len(cells) != len(names) || len(names) < len(s.names) {
		return &EncodeError{Row: s.rows, Err: fmt.Errorf("%w: %d cells for %d names, %d columns so far", ErrRowLength, len(cells), len(names), len(s.names))}
	}
	if err := s.add(names); err != nil {
		return err
	}
	s.row, s.lastRow = s.lastRow, s.row
	s.bounds, s.lastBounds = s.lastBounds, s.bounds
	s.row = strconv.AppendInt(s.row[:0], tick, 10)
	s.bounds = append(s.bounds[:0], int32(len(s.row)))
	s.codes, s.fresh = s.codes[:0], s.fresh[:0]
	same := 0 // the run of fields the same as the last row's, not yet coded
	for i := range cells {
		c := &cells[i]
		kind := c.kind()
		had := i < len(s.lastKind) // the column had a field in the last row
		if had && kind != kindStr && kind == s.lastKind[i] && c.bits == s.lastBits[i] {
			s.row = append(s.row, s.lastField(i)...)
			same++
		} else {
			start := len(s.row)
			var err error
			if s.row, err = appendCell(s.row, c, &s.floats); err != nil {
				s.row = s.row[:start]
				s.bad = append(s.bad, cellFault{names[i], err})
			}
			if err == nil && had && kind == kindStr && bytes.Equal(s.row[start:], s.lastField(i)) {
				same++
			} else {
				s.codes, same = sameRun(s.codes, same), 0
				s.codes = binary.AppendUvarint(s.codes, uint64(len(s.row)-start)+1)
				s.fresh = append(s.fresh, s.row[start:]...)
			}
		}
		s.bounds = append(s.bounds, int32(len(s.row)))
		// The column's kind and bits become the last row's once read:
		// in place, or appended for a column new in this row.
		if had {
			s.lastKind[i], s.lastBits[i] = kind, c.bits
		} else {
			s.lastKind, s.lastBits = append(s.lastKind, kind), append(s.lastBits, c.bits)
		}
	}
	s.codes = sameRun(s.codes, same)
	if err := s.fault(); err != nil {
		s.lastKind, s.lastBits = s.lastKind[:0], s.lastBits[:0]
		return err
	}
	if err := s.spillRow(tick); err != nil {
		return err
	}
	if s.gold != nil {
		s.gold.row(s, tick)
	}
	s.rows++
	return nil
}

// lastField is column i's field in the last row.
func (s *Stream) lastField(i int) []byte { return s.lastRow[s.lastBounds[i]:s.lastBounds[i+1]] }

// sameRun appends the spill code of a run of n fields the same as the
// last row's (nothing when n is 0).
func sameRun(codes []byte, n int) []byte {
	if n == 0 {
		return codes
	}
	return binary.AppendUvarint(append(codes, 0), uint64(n))
}

// add numbers the columns of names beyond the last row's, or adds none
// and says why.
func (s *Stream) add(names []string) error {
	known := len(s.names)
	s.bad = s.bad[:0]
	for i := known; i < len(names); i++ {
		if _, dup := s.number(names[i]); dup || names[i] == "tick" {
			s.bad = append(s.bad, cellFault{names[i], ErrDuplicateColumn})
			continue
		}
		if j, ok := s.gold.column(names[i]); ok {
			s.gold.mint[j] = int32(i)
		} else {
			s.index[names[i]] = i
		}
	}
	if err := s.fault(); err != nil {
		for _, name := range names[known:] {
			if j, ok := s.gold.column(name); ok && s.gold.mint[j] >= int32(known) {
				s.gold.mint[j] = -1
			} else if n, ok := s.index[name]; ok && n >= known {
				delete(s.index, name)
			}
		}
		return err
	}
	s.names = names
	if s.gold != nil {
		for i := known; i < len(names); i++ {
			if _, ok := s.gold.column(names[i]); !ok {
				s.gold.added = append(s.gold.added, i)
			}
		}
	}
	return nil
}

// GoldenColumns returns how many columns the golden's header names after
// the tick: as many as a run that matches its golden will have, so that a
// caller can make room for them once. 0 without a golden, or with one
// whose header does not parse.
func (s *Stream) GoldenColumns() int {
	if s.gold == nil {
		return 0
	}
	return max(s.gold.cols.width()-1, 0)
}

// Name returns the golden header's own string for the column named
// name, when the header names it (not as its tick), and name otherwise:
// a caller that builds its column names, tens of thousands in a city,
// then holds each of a run with a golden once, the header holding them
// all already. It reads only the golden's header, which never changes,
// so it may be called while another goroutine calls Row.
func (s *Stream) Name(name string) string {
	if j, ok := s.gold.column(name); ok {
		return s.gold.cols.name(j)
	}
	return name
}

// number returns the number of the column named name, if the stream has
// one.
func (s *Stream) number(name string) (int, bool) {
	if j, ok := s.gold.column(name); ok {
		n := s.gold.mint[j]
		return int(n), n >= 0
	}
	n, ok := s.index[name]
	return n, ok
}

// fault returns the first of the current row's faults by name, or nil.
func (s *Stream) fault() error {
	if len(s.bad) == 0 {
		return nil
	}
	f := slices.MinFunc(s.bad, func(a, b cellFault) int { return cmp.Compare(a.name, b.name) })
	return &EncodeError{Row: s.rows, Column: f.name, Err: f.err}
}

// field returns column i's encoded field in the current row ("" when it
// has no cell).
func (s *Stream) field(i int) []byte { return s.row[s.bounds[i]:s.bounds[i+1]] }

func (s *Stream) spillRow(tick int64) error {
	s.head = binary.AppendVarint(s.head[:0], tick)
	s.head = binary.AppendUvarint(s.head, uint64(len(s.names)))
	s.head = binary.AppendUvarint(s.head, uint64(len(s.codes)))
	s.head = binary.AppendUvarint(s.head, uint64(len(s.fresh)))
	s.w.Write(s.head)
	s.w.Write(s.codes)
	if _, err := s.w.Write(s.fresh); err != nil {
		return fmt.Errorf("dense: spill: %w", err)
	}
	return nil
}

// Rows returns how many rows have been added.
func (s *Stream) Rows() int { return s.rows }

// Comparison is how a streamed dense file compares with its golden.
type Comparison struct {
	// Divergence is what Compare(golden, file) returns for the two whole
	// files: nil when they are byte-identical.
	Divergence *Divergence
	// Err is a golden malformed where Compare reads it (a *FormatError),
	// in which case Divergence is nil.
	Err error
	// Columns is, when the two headers differ and the golden is well
	// formed throughout, what Diff(golden, file).ColumnSet() returns;
	// nil otherwise.
	Columns *ColumnSet
}

// Finish writes the whole file to out — the header of "tick" and columns,
// then every row in that column order — and, given a golden, returns how
// the file compares with it. columns must name every column that held a
// cell (others may be named: they are empty throughout). When that header
// is the golden's and the rows were written through (WriteThrough), the
// file written through is the whole file: Finish flushes it and writes
// nothing to out (Through). Errors are failures to write the file; a
// mismatch with the golden is the Comparison.
func (s *Stream) Finish(columns []string, out io.Writer) (*Comparison, error) {
	header, at, err := s.header(columns)
	if err != nil {
		return nil, err
	}
	for i, p := range at {
		if p < 0 {
			return nil, &EncodeError{Row: -1, Column: s.names[i], Err: ErrUnplacedColumn}
		}
	}
	if s.through != nil && string(header) == s.gold.f.header {
		if err := s.through.Flush(); err != nil {
			return nil, fmt.Errorf("dense: write through: %w", err)
		}
		s.throughWhole = true
	} else if err := s.assemble(header, len(columns), at, out); err != nil {
		return nil, err
	}
	if s.gold == nil {
		return nil, nil
	}
	return s.gold.finish(header, columns), nil
}

// header spells the header of "tick" and columns and refuses it as
// Encode would, and returns with it each column number's place in it, -1
// for none. It runs while the rest of the run is still live, and a city's
// header has 80,000 names: spelt at the golden header's size, not grown
// by doubling, and with a set only of the names the stream never
// numbered (empty throughout: few), since a repeat of a numbered one
// meets its number's place already taken.
func (s *Stream) header(columns []string) ([]byte, []int, error) {
	var dst []byte
	if s.gold != nil {
		dst = make([]byte, 0, len(s.gold.f.header))
	}
	at := make([]int, len(s.names))
	for i := range at {
		at[i] = -1
	}
	unnumbered := map[string]bool{"tick": true}
	header, err := appendNames(append(dst, "tick"...), columns, func(j int, name string) bool {
		if i, ok := s.number(name); ok {
			repeat := at[i] >= 0
			at[i] = j
			return repeat
		}
		repeat := unnumbered[name]
		unnumbered[name] = true
		return repeat
	})
	return header, at, err
}

// assemble reads the spill back and writes the file.
func (s *Stream) assemble(header []byte, width int, at []int, out io.Writer) error {
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("dense: spill: %w", err)
	}
	size, err := s.spill.Seek(0, io.SeekEnd)
	if err != nil {
		return fmt.Errorf("dense: spill: %w", err)
	}
	if _, err := s.spill.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("dense: spill: %w", err)
	}
	in := bufio.NewReaderSize(s.spill, 64<<10)
	w := bufio.NewWriterSize(out, 64<<10)
	w.Write(header)
	fields := make([][2]int, width) // by header place: [start, end) in row, or empty
	var piece, line []byte
	// This row's fields and the previous row's, one after another by
	// column number, and where each ends.
	var row, prev []byte
	var ends, prevEnds []int
	for range s.rows {
		tick, err := binary.ReadVarint(in)
		if err != nil {
			return fmt.Errorf("dense: spill: %w", err)
		}
		var sizes [3]uint64 // columns, codes, fields
		for i := range sizes {
			if sizes[i], err = binary.ReadUvarint(in); err != nil {
				return fmt.Errorf("dense: spill: %w", err)
			}
		}
		if sizes[0] > uint64(len(at)) || sizes[1] > uint64(size) || sizes[2] > uint64(size) {
			return errors.New("dense: spill: a row larger than the spill or wider than the stream")
		}
		piece = slices.Grow(piece[:0], int(sizes[1]+sizes[2]))[:sizes[1]+sizes[2]]
		if _, err := io.ReadFull(in, piece); err != nil {
			return fmt.Errorf("dense: spill: %w", err)
		}
		codes, fresh := piece[:sizes[1]], piece[sizes[1]:]
		row, prev, ends, prevEnds = prev[:0], row, prevEnds[:0], ends
		for i, width := 0, int(sizes[0]); i < width; {
			// A run of fields the same as the previous row's is copied in
			// one piece.
			if len(codes) > 0 && codes[0] == 0 {
				run, n := binary.Uvarint(codes[1:])
				switch {
				case n <= 0 || run == 0:
					return errors.New("dense: spill: a run of unchanged fields without its length")
				case run > uint64(width-i) || i+int(run) > len(prevEnds):
					return errors.New("dense: spill: a field the same as one the previous row lacks")
				}
				same := int(run)
				from := fieldStart(prevEnds, i)
				shift := len(row) - from
				row = append(row, prev[from:prevEnds[i+same-1]]...)
				for _, end := range prevEnds[i : i+same] {
					ends = append(ends, end+shift)
				}
				codes, i = codes[1+n:], i+same
				continue
			}
			c, n := binary.Uvarint(codes)
			switch {
			case n <= 0:
				return errors.New("dense: spill: a row's codes end early")
			case c-1 > uint64(len(fresh)):
				return errors.New("dense: spill: a row's fields end early")
			}
			row, fresh, codes = append(row, fresh[:c-1]...), fresh[c-1:], codes[n:]
			ends = append(ends, len(row))
			i++
		}
		clear(fields)
		for i := range ends {
			fields[at[i]] = [2]int{fieldStart(ends, i), ends[i]}
		}
		line = strconv.AppendInt(line[:0], tick, 10)
		for _, f := range fields {
			line = append(append(line, ','), row[f[0]:f[1]]...)
		}
		if _, err := w.Write(append(line, '\n')); err != nil {
			return err
		}
	}
	return w.Flush()
}

// fieldStart is where field i starts in a row whose fields end at ends.
func fieldStart(ends []int, i int) int {
	if i == 0 {
		return 0
	}
	return ends[i-1]
}

// goldenRows compares a stream's rows with a golden as they arrive: for
// Compare, each row laid out in the golden's columns, byte for byte; for
// Diff (when the headers turn out to differ), each cell by column name,
// rows matched by tick, keeping the first change of every column.
type goldenRows struct {
	f *follower
	// cols are the golden's header fields; width 0 when it does not
	// parse.
	cols   headerIndex
	mint   []int32 // by golden column: the stream's number for it, or -1
	added  []int   // stream columns the golden lacks
	line   []byte
	valid  bool // the golden is, so far, a file Parse accepts
	prev   int64
	seen   bool // prev holds a golden tick
	first  map[string]Change
	extra  *int64
	absent *int64
}

func newGoldenRows(golden io.Reader) *goldenRows {
	g := &goldenRows{f: newFollower(golden), first: map[string]Change{}}
	if !g.f.hasHeader {
		return g
	}
	h, ok := parseHeader(g.f.header)
	if !ok || h.name(0) != "tick" {
		return g
	}
	g.cols, g.valid = h, !h.repeats()
	g.mint = make([]int32, g.cols.width())
	for i := range g.mint {
		g.mint[i] = -1
	}
	return g
}

// column returns the golden column, after tick, named name: where a
// stream column of that name goes in the golden's layout. None for a
// golden whose header does not parse, or without a golden (g nil).
func (g *goldenRows) column(name string) (int, bool) {
	if g == nil {
		return 0, false
	}
	j, ok := g.cols.find(name)
	return j, ok && j > 0
}

// row compares the stream's current row, whose tick is tick.
func (g *goldenRows) row(s *Stream, tick int64) {
	g.line = append(g.line[:0], s.row[:s.bounds[0]]...)
	for j := 1; j < g.cols.width(); j++ {
		g.line = append(g.line, ',')
		if n := g.mint[j]; n >= 0 {
			g.line = append(g.line, s.field(int(n))...)
		}
	}
	g.line = append(g.line, '\n')
	if s.through != nil {
		s.through.Write(g.line) // a failure to write is kept by the writer for Finish
	}
	same := g.f.look != nil && bytes.Equal(g.f.look, g.line)
	g.f.check(g.line)
	if !g.valid {
		if same {
			g.f.advance() // keep the pairing Compare needs
		}
		return
	}
	if same {
		g.order(tick)
		g.addedCells(s, tick)
		g.f.advance()
		return
	}
	// Rows that differ are matched by tick, as Diff matches them.
	for g.f.look != nil {
		r, t, ok := g.parse(g.f.look, g.f.taken)
		if !ok {
			return
		}
		if t <= tick && !g.order(t) {
			return
		}
		switch {
		case t < tick:
			g.missing(t)
			g.f.advance()
			continue
		case t == tick:
			for j := 1; j < g.cols.width(); j++ {
				var actual string
				if n := g.mint[j]; n >= 0 {
					actual = unquote(s.field(int(n)))
				}
				if r.fields[j] != actual {
					g.change(g.cols.name(j), tick, r.fields[j], actual)
				}
			}
			g.addedCells(s, tick)
			g.f.advance()
			return
		}
		break
	}
	g.extraTick(tick)
}

// parse reads golden data record number i (0-based) as Parse would,
// marking the golden invalid when Parse would refuse it. Whether its tick
// follows the last is checked when it is consumed (order).
func (g *goldenRows) parse(rec []byte, i int) (record, int64, bool) {
	r, err := goldenRecord(rec, 0, i+2, g.cols.width())
	if err != nil || (len(rec) > 0 && rec[len(rec)-1] != '\n') {
		g.valid = false
		return r, 0, false
	}
	t, err := strconv.ParseInt(r.fields[0], 10, 64)
	if err != nil {
		g.valid = false
		return r, 0, false
	}
	return r, t, true
}

// order checks that golden ticks keep increasing.
func (g *goldenRows) order(t int64) bool {
	if g.seen && t <= g.prev {
		g.valid = false
		return false
	}
	g.prev, g.seen = t, true
	return true
}

func (g *goldenRows) addedCells(s *Stream, tick int64) {
	for _, n := range g.added {
		if v := unquote(s.field(n)); v != "" {
			g.change(s.names[n], tick, "", v)
		}
	}
}

func (g *goldenRows) change(col string, tick int64, golden, actual string) {
	if _, ok := g.first[col]; !ok {
		g.first[col] = Change{Tick: tick, Column: col, Golden: golden, Actual: actual}
	}
}

func (g *goldenRows) missing(t int64) {
	if g.absent == nil {
		g.absent = &t
	}
}

func (g *goldenRows) extraTick(t int64) {
	if g.extra == nil {
		g.extra = &t
	}
}

// finish compares the whole file, whose header is header (with its
// newline) and whose columns after tick are columns.
func (g *goldenRows) finish(header []byte, columns []string) *Comparison {
	d, err := g.f.finish(header, func(rec []byte) {
		if g.valid {
			if _, t, ok := g.parse(rec, g.f.taken); ok && g.order(t) {
				g.missing(t)
			}
		}
	})
	c := &Comparison{Divergence: d, Err: err}
	if g.valid && g.f.err == nil && g.f.lookFormat == nil && !g.f.g.open && g.f.header != string(header) {
		c.Columns = g.columnSet(columns)
	}
	return c
}

// columnSet is the Diff view of the run: columns added and removed, the
// first changed cell in Diff's order (tick, then golden's columns, then
// the added ones in header order) and the first in a shared column.
func (g *goldenRows) columnSet(columns []string) *ColumnSet {
	cs := &ColumnSet{FirstMissing: g.absent, FirstExtra: g.extra}
	final := make(map[string]bool, len(columns))
	for _, c := range columns {
		final[c] = true
	}
	order := map[string]int{}
	for j := range g.cols.width() {
		c := g.cols.name(j)
		order[c] = j
		if j > 0 && !final[c] {
			cs.Removed = append(cs.Removed, c)
		}
	}
	for _, c := range columns {
		if _, ok := g.cols.find(c); !ok {
			order[c] = g.cols.width() + len(cs.Added)
			cs.Added = append(cs.Added, c)
		}
	}
	before := func(a, b Change) bool {
		return a.Tick < b.Tick || a.Tick == b.Tick && order[a.Column] < order[b.Column]
	}
	//determinism:order-free before is a strict total order here: every changed column is in the golden's header or the run's, so it has a position of its own in order, and the least change is the same whichever is visited first
	for col, ch := range g.first {
		if cs.First == nil || before(ch, *cs.First) {
			cs.First = &ch
		}
		_, inGolden := g.cols.find(col)
		if inGolden && final[col] && (cs.FirstShared == nil || before(ch, *cs.FirstShared)) {
			cs.FirstShared = &ch
		}
	}
	return cs
}

// unquote returns a field's value as written in a row.
func unquote(field []byte) string {
	if len(field) == 0 || field[0] != '"' {
		return string(field)
	}
	v, _, _ := parseField(field, 0)
	return v
}
