package dense_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/dense"
)

// memFile is an in-memory spill for Stream.
type memFile struct {
	data []byte
	off  int
	// tamper, when set, changes the data once, before it is first read
	// back.
	tamper func([]byte) []byte
}

func (m *memFile) Write(p []byte) (int, error) {
	m.data = append(m.data[:m.off], p...)
	m.off = len(m.data)
	return len(p), nil
}

func (m *memFile) Read(p []byte) (int, error) {
	if m.tamper != nil && len(m.data) > 0 {
		m.data, m.tamper = m.tamper(m.data), nil
	}
	if m.off >= len(m.data) {
		return 0, io.EOF
	}
	n := copy(p, m.data[m.off:])
	m.off += n
	return n, nil
}

func (m *memFile) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekEnd:
		off += int64(len(m.data))
	default:
		return 0, errors.New("memFile seeks from the start or the end only")
	}
	m.off = int(off)
	return off, nil
}

// table is a run's rows as a run hands them to a Stream: by tick, each
// column with a cell by name.
type table struct {
	ticks []int64
	rows  []map[string]dense.Cell
}

// columns is the sorted union of the table's columns.
func (t table) columns() []string {
	var out []string
	for _, r := range t.rows {
		for c := range r {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// encode writes the table in memory with Encode, the reference writer.
func (t table) encode(columns []string) []byte {
	GinkgoHelper()
	rows := make([][]dense.Cell, len(t.rows))
	for i, r := range t.rows {
		rows[i] = []dense.Cell{dense.Int(t.ticks[i])}
		for _, c := range columns {
			rows[i] = append(rows[i], r[c])
		}
	}
	out, err := dense.Encode(append([]string{"tick"}, columns...), rows)
	Expect(err).NotTo(HaveOccurred())
	return out
}

// stream writes the table through a Stream compared with golden (nil for
// none) and returns the file and the comparison.
func (t table) stream(columns []string, golden []byte) ([]byte, *dense.Comparison) {
	GinkgoHelper()
	file, _, c := t.streamed(columns, golden, false)
	return file, c
}

// streamed is stream, writing the rows through (WriteThrough) when
// through is set, and says whether the file is the one written through.
func (t table) streamed(columns []string, golden []byte, through bool) ([]byte, bool, *dense.Comparison) {
	GinkgoHelper()
	var g io.Reader
	if golden != nil {
		g = bytes.NewReader(golden)
	}
	s := dense.NewStream(&memFile{}, g)
	var written bytes.Buffer
	if through {
		_, err := s.WriteThrough(&written)
		Expect(err).NotTo(HaveOccurred())
	}
	var n numbering
	for i, r := range t.rows {
		cells := n.row(r)
		Expect(s.Row(t.ticks[i], n.names, cells)).To(Succeed())
	}
	var out bytes.Buffer
	c, err := s.Finish(columns, &out)
	Expect(err).NotTo(HaveOccurred())
	if s.Through() {
		Expect(out.Len()).To(BeZero(), "Finish wrote a file it had written through")
		return written.Bytes(), true, c
	}
	return out.Bytes(), false, c
}

// numbering numbers a table's columns as a run's recorder does, in the
// order they first appear (a row's new ones in name order), and lays each
// row out by number for Stream.Row.
type numbering struct {
	names []string
	at    map[string]int
}

// row returns the cells of r by number, numbering its new columns.
func (n *numbering) row(r map[string]dense.Cell) []dense.Cell {
	if n.at == nil {
		n.at = map[string]int{}
	}
	var fresh []string
	for c := range r {
		if _, ok := n.at[c]; !ok {
			fresh = append(fresh, c)
		}
	}
	slices.Sort(fresh)
	for _, c := range fresh {
		n.at[c] = len(n.names)
		n.names = append(n.names, c)
	}
	cells := make([]dense.Cell, len(n.names))
	for c, v := range r {
		cells[n.at[c]] = v
	}
	return cells
}

var names = []string{"a/alive", "a/at", "b/alive", "b,c/x", `q"d/y`, "theft@2/believers", "w/theft@2/gist", "z/z"}

// randomTable makes a table whose columns appear over time, with every
// kind of cell, quoted fields included.
func randomTable(rng *splitmix64) table {
	var t table
	n := int(rng.next() % 9)
	born := map[string]int64{}
	for _, c := range names {
		if rng.next()%4 != 0 {
			born[c] = int64(rng.next() % 10)
		}
	}
	tick := int64(rng.next() % 3)
	for range n {
		row := map[string]dense.Cell{}
		for c, b := range born {
			if b > tick || rng.next()%7 == 0 {
				continue
			}
			switch rng.next() % 6 {
			case 0:
				row[c] = dense.Float(float64(rng.next()%1000) / 8)
			case 1:
				row[c] = dense.Int(int64(rng.next() % 5))
			case 2:
				row[c] = dense.Bool(rng.next()%2 == 0)
			case 3:
				row[c] = dense.Str([]string{"", "market", "two\nlines", `say "hi"`, "a,b"}[rng.next()%5])
			case 4:
				row[c] = dense.Float(0.5)
			default:
				row[c] = dense.Str("market")
			}
		}
		t.ticks = append(t.ticks, tick)
		t.rows = append(t.rows, row)
		tick += 1 + int64(rng.next()%2)
	}
	return t
}

// perturb returns a golden near file: the same, a changed table, or bytes
// flipped, cut or inserted.
func perturb(rng *splitmix64, t table, file []byte) []byte {
	switch rng.next() % 8 {
	case 0:
		return bytes.Clone(file)
	case 1, 2, 3:
		u := table{ticks: slices.Clone(t.ticks)}
		for _, r := range t.rows {
			u.rows = append(u.rows, maps(r))
		}
		for range 1 + rng.next()%3 {
			switch k := rng.next() % 6; {
			case k == 0 && len(u.rows) > 0:
				i := int(rng.next() % uint64(len(u.rows)))
				u.rows[i][names[rng.next()%uint64(len(names))]] = dense.Float(999)
			case k == 1 && len(u.rows) > 0:
				u.rows, u.ticks = u.rows[:len(u.rows)-1], u.ticks[:len(u.ticks)-1]
			case k == 2:
				last := int64(0)
				if len(u.ticks) > 0 {
					last = u.ticks[len(u.ticks)-1] + 1
				}
				u.ticks = append(u.ticks, last)
				u.rows = append(u.rows, map[string]dense.Cell{"a/alive": dense.Bool(true)})
			case k == 3:
				drop := names[rng.next()%uint64(len(names))]
				for _, r := range u.rows {
					delete(r, drop)
				}
			case k == 4 && len(u.rows) > 1:
				i := int(rng.next() % uint64(len(u.rows)))
				u.rows = slices.Delete(u.rows, i, i+1)
				u.ticks = slices.Delete(u.ticks, i, i+1)
			default:
				for _, r := range u.rows {
					r["ghost/at"] = dense.Str("nowhere")
				}
			}
		}
		return u.encode(u.columns())
	}
	if len(file) == 0 {
		return []byte("tick\n")
	}
	g := bytes.Clone(file)
	i := int(rng.next() % uint64(len(g)))
	switch rng.next() % 3 {
	case 0:
		g[i] = ",\"\nx0"[rng.next()%5]
	case 1:
		g = append(g[:i], g[i+1:]...)
	default:
		g = slices.Insert(g, i, ",\"\n"[rng.next()%3])
	}
	return g
}

func maps(r map[string]dense.Cell) map[string]dense.Cell {
	out := make(map[string]dense.Cell, len(r))
	for k, v := range r {
		out[k] = v
	}
	return out
}

// expectSameAsWhole checks a streamed comparison against the in-memory
// functions on the two whole files.
func expectSameAsWhole(golden, file []byte, c *dense.Comparison) {
	GinkgoHelper()
	d, err := dense.Compare(golden, file)
	Expect(fmt.Sprint(c.Err)).To(Equal(fmt.Sprint(err)), "golden %q\nfile %q", golden, file)
	Expect(c.Divergence).To(Equal(d), "golden %q\nfile %q", golden, file)
	var want *dense.ColumnSet
	if g, a, ok := headers(golden, file); ok && g != a {
		if delta, err := dense.Diff(golden, file); err == nil {
			cs := delta.ColumnSet()
			want = &cs
		}
	}
	Expect(cmp.Diff(want, c.Columns)).To(BeEmpty(), "golden %q\nfile %q", golden, file)
}

// headers returns the first lines of two files when both have one.
func headers(golden, file []byte) (string, string, bool) {
	g, _, okG := strings.Cut(string(golden), "\n")
	a, _, okA := strings.Cut(string(file), "\n")
	return g, a, okG && okA
}

var _ = Describe("Stream", func() {
	It("writes what Encode writes, and compares as Compare and Diff do, over random tables and goldens", func() {
		rng := splitmix64(7)
		for range 3000 {
			t := randomTable(&rng)
			columns := t.columns()
			want := t.encode(columns)
			golden := perturb(&rng, t, want)
			file, c := t.stream(columns, golden)
			Expect(file).To(Equal(want))
			expectSameAsWhole(golden, file, c)
		}
	})

	// Written through, a run that ends with the golden's header has its
	// file already: the same bytes, and the same comparison.
	It("writes the same file through as it assembles, and compares the same, over random tables and goldens", func() {
		rng := splitmix64(13)
		wholeThrough := 0
		for range 3000 {
			t := randomTable(&rng)
			columns := t.columns()
			want := t.encode(columns)
			golden := perturb(&rng, t, want)
			file, through, c := t.streamed(columns, golden, true)
			Expect(file).To(Equal(want), "golden %q", golden)
			expectSameAsWhole(golden, file, c)
			head, _, _ := bytes.Cut(want, []byte("\n"))
			sameHeader := bytes.HasPrefix(golden, append(head, '\n'))
			Expect(through).To(Equal(sameHeader), "golden %q", golden)
			if through {
				wholeThrough++
			}
		}
		Expect(wholeThrough).To(BeNumerically(">", 1000))
	})

	It("writes nothing through without a golden header to lay rows out in, and refuses to start late", func() {
		for _, golden := range []io.Reader{nil, strings.NewReader(""), strings.NewReader("tick,a\"x\n"), strings.NewReader("tick,a/x,a/x\n")} {
			s := dense.NewStream(&memFile{}, golden)
			var written bytes.Buffer
			Expect(s.WriteThrough(&written)).To(BeFalse())
			Expect(s.Row(0, []string{"a/x"}, []dense.Cell{dense.Int(1)})).To(Succeed())
			var out bytes.Buffer
			_, err := s.Finish([]string{"a/x"}, &out)
			Expect(err).NotTo(HaveOccurred())
			Expect(s.Through()).To(BeFalse())
			Expect(written.Len()).To(BeZero())
			Expect(out.String()).To(Equal("tick,a/x\n0,1\n"))
		}
		s := dense.NewStream(&memFile{}, strings.NewReader("tick,a/x\n0,1\n"))
		Expect(s.Row(0, []string{"a/x"}, []dense.Cell{dense.Int(1)})).To(Succeed())
		_, err := s.WriteThrough(io.Discard)
		Expect(err).To(MatchError(dense.ErrLateWriteThrough))
	})

	It("says a file written through could not be written", func() {
		s := dense.NewStream(&memFile{}, strings.NewReader("tick,a/x\n0,1\n"))
		Expect(s.WriteThrough(failingWriter{})).To(BeTrue())
		Expect(s.Row(0, []string{"a/x"}, []dense.Cell{dense.Int(1)})).To(Succeed())
		_, err := s.Finish([]string{"a/x"}, io.Discard)
		Expect(err).To(MatchError(ContainSubstring("dense: write through: disk full")))
	})

	It("lays out the header as Finish is told, empty columns included", func() {
		t := table{ticks: []int64{0, 1}, rows: []map[string]dense.Cell{
			{"b/x": dense.Int(1)},
			{"b/x": dense.Int(2), "a/x": dense.Str("a,b")},
		}}
		file, c := t.stream([]string{"b/x", "never", "a/x"}, nil)
		Expect(c).To(BeNil())
		Expect(string(file)).To(Equal("tick,b/x,never,a/x\n0,1,,\n1,2,,\"a,b\"\n"))
	})

	It("refuses a header that leaves out a column that held a cell", func() {
		s := dense.NewStream(&memFile{}, nil)
		Expect(s.Row(0, []string{"a/x", "b/x"}, []dense.Cell{dense.Int(1), dense.Int(2)})).To(Succeed())
		_, err := s.Finish([]string{"a/x"}, io.Discard)
		Expect(err).To(MatchError(`dense: header column "b/x": column has values but no place in the header`))
		Expect(errors.Is(err, dense.ErrUnplacedColumn)).To(BeTrue())
	})

	DescribeTable("refuses a header as Encode refuses it",
		func(columns []string) {
			_, want := dense.Encode(append([]string{"tick"}, columns...), nil)
			Expect(want).To(HaveOccurred())
			for _, golden := range []io.Reader{nil, strings.NewReader("tick,a/x,b/x\n0,1,2\n")} {
				s := dense.NewStream(&memFile{}, golden)
				Expect(s.Row(0, []string{"a/x", "b/x"}, []dense.Cell{dense.Int(1), dense.Int(2)})).To(Succeed())
				_, err := s.Finish(columns, io.Discard)
				Expect(err).To(MatchError(want.Error()), "golden %v", golden != nil)
				Expect(errors.Is(err, errors.Unwrap(want))).To(BeTrue())
			}
		},
		Entry("a numbered column twice", []string{"a/x", "b/x", "a/x"}),
		Entry("a numbered column twice, after one never numbered", []string{"b/x", "never", "b/x", "a/x"}),
		Entry("a column never numbered twice", []string{"a/x", "never", "b/x", "never"}),
		Entry("tick", []string{"a/x", "b/x", "tick"}),
		Entry("invalid UTF-8 in a column never numbered", []string{"a/x", "n\xffver", "b/x"}),
		Entry("invalid UTF-8 before a repeat", []string{"a/x", "\xff", "a/x", "b/x"}),
		Entry("a repeat before invalid UTF-8", []string{"a/x", "a/x", "\xff", "b/x"}),
	)

	It("names the first bad cell by name, whatever the numbering", func() {
		s := dense.NewStream(&memFile{}, nil)
		Expect(s.Row(0, []string{"z/x"}, []dense.Cell{dense.Int(1)})).To(Succeed())
		names := []string{"z/x", "c/x", "a/x"}
		err := s.Row(1, names, []dense.Cell{dense.Float(math.NaN()), dense.Float(math.NaN()), dense.Str("\xff")})
		Expect(err).To(MatchError(`dense: row 1 column "a/x": invalid UTF-8`))
		err = s.Row(1, append(names, "tick", "b/x", "b/x"), make([]dense.Cell, 6))
		Expect(err).To(MatchError(`dense: row 1 column "b/x": duplicate column name`))
		err = s.Row(1, append(names, "tick"), make([]dense.Cell, 4))
		Expect(err).To(MatchError(`dense: row 1 column "tick": duplicate column name`))
		err = s.Row(1, names, make([]dense.Cell, 2))
		Expect(err).To(MatchError(`dense: row 1: wrong number of cells: 2 cells for 3 names, 3 columns so far`))
		Expect(errors.Is(err, dense.ErrRowLength)).To(BeTrue())
	})

	It("adds none of a row's new columns when one of them is refused", func() {
		s := dense.NewStream(&memFile{}, nil)
		Expect(s.Row(0, []string{"a/x", "tick"}, make([]dense.Cell, 2))).NotTo(Succeed())
		Expect(s.Row(0, []string{"a/x"}, []dense.Cell{dense.Int(1)})).To(Succeed())
		var out bytes.Buffer
		_, err := s.Finish([]string{"a/x"}, &out)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.String()).To(Equal("tick,a/x\n0,1\n"))
	})

	It("says a spill that changed under it is not its spill, and never reads past one", func() {
		rng := splitmix64(11)
		refused := 0
		for range 20000 {
			t := randomTable(&rng)
			if len(t.rows) == 0 {
				continue
			}
			spill := &memFile{}
			s := dense.NewStream(spill, nil)
			var n numbering
			for i, r := range t.rows {
				Expect(s.Row(t.ticks[i], n.names, n.row(r))).To(Succeed())
			}
			spill.tamper = func(data []byte) []byte {
				i := int(rng.next() % uint64(len(data)))
				if rng.next()%2 == 0 {
					return data[:i]
				}
				data[i] ^= byte(1 + rng.next()%255)
				return data
			}
			if _, err := s.Finish(t.columns(), io.Discard); err != nil {
				Expect(err).To(MatchError(ContainSubstring("dense: spill: ")))
				refused++
			}
		}
		Expect(refused).To(BeNumerically(">", 5000))

		// Sizes no spill of this stream could hold are refused before
		// anything is read or allocated for them.
		for _, sizes := range [][3]uint64{{1, 1 << 62, 0}, {1, 0, 1 << 62}, {1 << 40, 1, 0}} {
			spill := &memFile{}
			s := dense.NewStream(spill, nil)
			Expect(s.Row(0, []string{"a/x"}, []dense.Cell{dense.Int(1)})).To(Succeed())
			spill.tamper = func([]byte) []byte {
				b := binary.AppendVarint(nil, 0)
				for _, n := range sizes {
					b = binary.AppendUvarint(b, n)
				}
				return append(b, 2, '1')
			}
			_, err := s.Finish([]string{"a/x"}, io.Discard)
			Expect(err).To(MatchError("dense: spill: a row larger than the spill or wider than the stream"))
		}
	})

	It("spells a cell afresh after a row that could not be encoded", func() {
		s := dense.NewStream(&memFile{}, nil)
		names := []string{"a/x", "b/x"}
		Expect(s.Row(0, names, []dense.Cell{dense.Float(1), dense.Str("market")})).To(Succeed())
		Expect(s.Row(1, names, []dense.Cell{dense.Float(math.NaN()), dense.Str("market")})).NotTo(Succeed())
		Expect(s.Row(1, names, []dense.Cell{dense.Float(1), dense.Str("market")})).To(Succeed())
		Expect(s.Row(2, names, []dense.Cell{dense.Float(1), dense.Str("a,b")})).To(Succeed())
		var out bytes.Buffer
		_, err := s.Finish(names, &out)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.String()).To(Equal("tick,a/x,b/x\n0,1.0,market\n1,1.0,market\n2,1.0,\"a,b\"\n"))
	})

	// A column the golden's header names is numbered in the golden's index,
	// any other in the stream's own: a repeated name is refused, and a
	// refused row adds none of its columns, whichever index holds them.
	It("refuses a repeated column the golden names, and adds none of that row's columns", func() {
		golden := []byte("tick,a/x,b/x\n0,1,2\n")
		s := dense.NewStream(&memFile{}, bytes.NewReader(golden))
		err := s.Row(0, []string{"a/x", "c/x", "b/x", "a/x"}, make([]dense.Cell, 4))
		Expect(err).To(MatchError(`dense: row 0 column "a/x": duplicate column name`))
		Expect(s.Row(0, []string{"b/x", "a/x"}, []dense.Cell{dense.Int(2), dense.Int(1)})).To(Succeed())
		err = s.Row(1, []string{"b/x", "a/x", "c/x", "b/x"}, make([]dense.Cell, 4))
		Expect(err).To(MatchError(`dense: row 1 column "b/x": duplicate column name`))
		var out bytes.Buffer
		c, err := s.Finish([]string{"a/x", "b/x"}, &out)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.String()).To(Equal(string(golden)))
		Expect(c.Divergence).To(BeNil())
		Expect(c.Columns).To(BeNil())
	})

	// A caller may go on appending to the names it handed over while the
	// stream reads them on another goroutine: the stream writes none.
	It("leaves the names it was handed as they were, the golden's and the others", func() {
		s := dense.NewStream(&memFile{}, strings.NewReader("tick,\"a,x\",b/x\n0,1,2\n"))
		names := []string{"b/x", "a,x", "c/x"}
		built := slices.Clone(names)
		Expect(s.Row(0, names, make([]dense.Cell, 3))).To(Succeed())
		for i := range names {
			Expect(unsafe.StringData(names[i])).To(BeIdenticalTo(unsafe.StringData(built[i])), names[i])
		}
	})

	DescribeTable("counts the columns the golden's header names after the tick",
		func(golden io.Reader, want int) {
			Expect(dense.NewStream(&memFile{}, golden).GoldenColumns()).To(Equal(want))
		},
		Entry("two", strings.NewReader("tick,a/x,\"b,x\"\n0,1,2\n"), 2),
		Entry("only the tick", strings.NewReader("tick\n"), 0),
		Entry("no golden", nil, 0),
		Entry("an empty golden", strings.NewReader(""), 0),
		Entry("a header that does not parse", strings.NewReader("tick,a\"x\n"), 0),
	)

	// A caller holds a column name the golden's header holds once by
	// asking the stream for the header's own string.
	It("gives the golden header's own string for a column it names, and any other name as it is", func() {
		header := "tick,\"a,x\",b/x\n"
		s := dense.NewStream(&memFile{}, strings.NewReader(header+"0,1,2\n"))
		for _, name := range []string{"a,x", "b/x"} {
			built := strings.Clone(name)
			got := s.Name(built)
			Expect(got).To(Equal(name))
			Expect(unsafe.StringData(got)).NotTo(BeIdenticalTo(unsafe.StringData(built)), "%s is the caller's string, not the header's", name)
			Expect(unsafe.StringData(s.Name(strings.Clone(name)))).To(BeIdenticalTo(unsafe.StringData(got)), "%s is not one string", name)
		}
		for _, name := range []string{"c/x", "tick", ""} {
			built := strings.Clone(name)
			Expect(unsafe.StringData(s.Name(built))).To(BeIdenticalTo(unsafe.StringData(built)), name)
		}
		plain := strings.Clone("b/x")
		Expect(unsafe.StringData(dense.NewStream(&memFile{}, nil).Name(plain))).To(BeIdenticalTo(unsafe.StringData(plain)), "without a golden")
	})

	DescribeTable("compares as Compare and Diff do with a golden whose header",
		func(golden string, rows []map[string]dense.Cell, columns []string) {
			t := table{rows: rows}
			for i := range rows {
				t.ticks = append(t.ticks, int64(i))
			}
			file, c := t.stream(columns, []byte(golden))
			expectSameAsWhole([]byte(golden), file, c)
		},
		Entry("quotes a column's name", "tick,\"a,x\",b/x\n0,1,2\n",
			[]map[string]dense.Cell{{"a,x": dense.Int(1), "b/x": dense.Int(3)}}, []string{"a,x", "b/x"}),
		Entry("names a column twice", "tick,a/x,a/x\n0,1,1\n",
			[]map[string]dense.Cell{{"a/x": dense.Int(1)}}, []string{"a/x"}),
		Entry("names a column tick again", "tick,tick,a/x\n0,0,1\n",
			[]map[string]dense.Cell{{"a/x": dense.Int(1)}}, []string{"a/x"}),
		Entry("lacks a column and has one the run lacks", "tick,a/x,z/x\n0,1,9\n",
			[]map[string]dense.Cell{{"a/x": dense.Int(2), "b/x": dense.Int(1)}}, []string{"a/x", "b/x"}),
		Entry("does not parse", "tick,a\"x\n0,1\n",
			[]map[string]dense.Cell{{"a/x": dense.Int(1)}}, []string{"a/x"}),
	)

	It("reports the first divergence of a long run without the golden in memory", func() {
		t := table{}
		for tick := range int64(2000) {
			row := map[string]dense.Cell{"a/alive": dense.Bool(true), "a/at": dense.Str("market")}
			if tick >= 700 {
				row["w/theft@2/gist"] = dense.Float(1 / float64(tick))
			}
			t.ticks, t.rows = append(t.ticks, tick), append(t.rows, row)
		}
		columns := t.columns()
		golden := t.encode(columns)
		t.rows[1500]["w/theft@2/gist"] = dense.Float(999)
		_, c := t.stream(columns, golden)
		Expect(c.Divergence.String()).To(Equal(`first divergence at tick 1500, column "w/theft@2/gist": golden 0.0006666666666666666, actual 999.0`))
		Expect(c.Divergence.Line).To(Equal(1502))
	})
})

var _ = Describe("DiffReaders and Count", func() {
	It("say what Diff and Parse say, keeping only the first cells, over random files", func() {
		rng := splitmix64(13)
		everything := func(string) string { return "all" }
		for range 2000 {
			t := randomTable(&rng)
			file := t.encode(t.columns())
			golden := perturb(&rng, t, file)
			if rng.next()%5 == 0 {
				file = perturb(&rng, t, file)
			}
			want, wantErr := dense.Diff(golden, file)
			got, err := dense.DiffReaders(bytes.NewReader(golden), bytes.NewReader(file), 2)
			Expect(fmt.Sprint(err)).To(Equal(fmt.Sprint(wantErr)), "golden %q\nfile %q", golden, file)
			table, parseErr := dense.Parse(file)
			rows, cols, countErr := dense.Count(bytes.NewReader(file))
			Expect(fmt.Sprint(countErr)).To(Equal(fmt.Sprint(parseErr)))
			if parseErr == nil {
				Expect([]int{rows, cols}).To(Equal([]int{len(table.Rows), len(table.Header)}))
			}
			if wantErr != nil {
				continue
			}
			Expect(got.Summary()).To(Equal(want.Summary()))
			Expect(got.Groups(byHolder)).To(Equal(want.Groups(byHolder)))
			Expect(got.Groups(everything)).To(Equal(want.Groups(everything)))
			Expect(got.Empty()).To(Equal(want.Empty()))
			Expect(got.Cells).To(Equal(want.Cells[:min(2, len(want.Cells))]))
			Expect(got.Dropped).To(Equal(len(want.Cells) - len(got.Cells)))
		}
	})
})

var _ = Describe("CompareReaders and CompareFiles", func() {
	It("answer as Compare does, over random goldens", func() {
		rng := splitmix64(11)
		dir := GinkgoT().TempDir()
		for i := range 2000 {
			t := randomTable(&rng)
			file := t.encode(t.columns())
			golden := perturb(&rng, t, file)
			if rng.next()%5 == 0 {
				file = perturb(&rng, t, file) // a malformed actual is only a divergence
			}
			want, wantErr := dense.Compare(golden, file)
			d, err := dense.CompareReaders(bytes.NewReader(golden), bytes.NewReader(file))
			Expect(fmt.Sprint(err)).To(Equal(fmt.Sprint(wantErr)), "golden %q\nfile %q", golden, file)
			Expect(d).To(Equal(want), "golden %q\nfile %q", golden, file)
			if i%10 == 0 {
				g, a := filepath.Join(dir, "golden.csv"), filepath.Join(dir, "actual.csv")
				Expect(os.WriteFile(g, golden, 0o644)).To(Succeed())
				Expect(os.WriteFile(a, file, 0o644)).To(Succeed())
				d, err := dense.CompareFiles(g, a)
				Expect(fmt.Sprint(err)).To(Equal(fmt.Sprint(wantErr)))
				Expect(d).To(Equal(want))
			}
		}
	})

	It("compares files larger than one chunk", func() {
		var b strings.Builder
		b.WriteString("tick,w/theft@2/gist\n")
		for tick := range 120000 {
			fmt.Fprintf(&b, "%d,%s\n", tick, strconv.FormatFloat(1/float64(tick+1), 'g', -1, 64))
		}
		golden := []byte(b.String())
		Expect(len(golden)).To(BeNumerically(">", 2<<20))
		actual := bytes.Replace(golden, []byte("\n119990,"), []byte("\n119990,7"), 1)
		dir := GinkgoT().TempDir()
		g, a := filepath.Join(dir, "golden.csv"), filepath.Join(dir, "actual.csv")
		Expect(os.WriteFile(g, golden, 0o644)).To(Succeed())
		Expect(os.WriteFile(a, golden, 0o644)).To(Succeed())
		Expect(dense.CompareFiles(g, a)).To(BeNil())
		Expect(os.WriteFile(a, actual, 0o644)).To(Succeed())
		d, err := dense.CompareFiles(g, a)
		Expect(err).NotTo(HaveOccurred())
		Expect(d.String()).To(Equal(`first divergence at tick 119990, column "w/theft@2/gist": golden 8.333958380211848e-06, actual 78.333958380211848e-06`))
	})

	It("names a file it cannot read", func() {
		_, err := dense.CompareFiles(filepath.Join(GinkgoT().TempDir(), "none.csv"), "also-none.csv")
		Expect(err).To(MatchError(ContainSubstring("none.csv: no such file or directory")))
	})
})

func FuzzCompareReaders(f *testing.F) {
	table := fuzzTable(f)
	f.Add(table, table)
	for i := range table {
		replaced := bytes.Clone(table)
		replaced[i] ^= 0x01
		deleted := append(bytes.Clone(table[:i]), table[i+1:]...)
		f.Add(table, replaced)
		f.Add(replaced, table)
		f.Add(deleted, table)
	}
	f.Fuzz(func(t *testing.T, golden, actual []byte) {
		want, wantErr := dense.Compare(golden, actual)
		d, err := dense.CompareReaders(bytes.NewReader(golden), bytes.NewReader(actual))
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("error %v, Compare's %v", err, wantErr)
		}
		if diff := cmp.Diff(want, d); diff != "" {
			t.Fatalf("divergence differs from Compare's (-Compare +CompareReaders):\n%s", diff)
		}
	})
}

// FuzzStream streams a fixed run against any golden: what Stream says
// must be what Compare and Diff say about the two whole files.
func FuzzStream(f *testing.F) {
	run := table{ticks: []int64{0, 2, 4}, rows: []map[string]dense.Cell{
		{"a/x": dense.Float(0.5), "w1,note": dense.Str("two\nlines"), "held": dense.Bool(true)},
		{"w1,note": dense.Str(`say "hi"`), "held": dense.Bool(false)},
		{"a/x": dense.Float(1e-05), "late": dense.Int(3)},
	}}
	columns := []string{"a/x", "held", "late", "w1,note"}
	f.Add(fuzzTable(f))
	f.Add([]byte("tick,a/x,held,w1,note\n0,0.5,True,x\n"))
	f.Fuzz(func(t *testing.T, golden []byte) {
		s := dense.NewStream(&memFile{}, bytes.NewReader(golden))
		var n numbering
		for i, r := range run.rows {
			cells := n.row(r)
			if err := s.Row(run.ticks[i], n.names, cells); err != nil {
				t.Fatal(err)
			}
		}
		var out bytes.Buffer
		c, err := s.Finish(columns, &out)
		if err != nil {
			t.Fatal(err)
		}
		d, err := dense.Compare(golden, out.Bytes())
		if fmt.Sprint(c.Err) != fmt.Sprint(err) {
			t.Fatalf("error %v, Compare's %v", c.Err, err)
		}
		if diff := cmp.Diff(d, c.Divergence); diff != "" {
			t.Fatalf("divergence differs from Compare's (-Compare +Stream):\n%s", diff)
		}
		var want *dense.ColumnSet
		if g, a, ok := headers(golden, out.Bytes()); ok && g != a {
			if delta, err := dense.Diff(golden, out.Bytes()); err == nil {
				cs := delta.ColumnSet()
				want = &cs
			}
		}
		if diff := cmp.Diff(want, c.Columns); diff != "" {
			t.Fatalf("column set differs from Diff's (-Diff +Stream):\n%s", diff)
		}
	})
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
