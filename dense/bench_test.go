package dense_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/chronicle/ladder/dense"
)

// splitmix64 is a tiny deterministic generator, so that benchmark inputs are
// identical on every run and every machine.
type splitmix64 uint64

func (s *splitmix64) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// benchColumns returns a header of n columns named like engine outputs.
func benchColumns(n int) []string {
	columns := []string{"tick"}
	for i := 1; i < n; i++ {
		columns = append(columns, fmt.Sprintf("w%d/theft-%d/verbatim", i%7, i))
	}
	return columns
}

// fillRow fills row with a realistic mix for the given tick: mostly floats
// (six-decimal and full precision), some bools, small ints and empties.
func fillRow(row []dense.Cell, tick int64, rng *splitmix64) {
	row[0] = dense.Int(tick)
	for i := 1; i < len(row); i++ {
		r := rng.next()
		switch r % 20 {
		case 0, 1, 2, 3, 4, 5, 6, 7:
			row[i] = dense.Float(float64(r>>40%1000000) / 1e6)
		case 8, 9, 10, 11:
			row[i] = dense.Float(float64(r>>11) / (1 << 53))
		case 12, 13, 14:
			row[i] = dense.Bool(r>>32&1 == 1)
		case 15:
			row[i] = dense.Int(int64(r >> 54))
		default:
			row[i] = dense.Empty()
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	columns := benchColumns(250)
	rng := splitmix64(1)
	rows := make([][]dense.Cell, 2400)
	for t := range rows {
		rows[t] = make([]dense.Cell, len(columns))
		fillRow(rows[t], int64(t), &rng)
	}
	out, err := dense.Encode(columns, rows)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := dense.Encode(columns, rows); err != nil {
			b.Fatal(err)
		}
	}
}

// compareFiles holds three ~100 MB dense files: a golden, an equal copy in
// separate memory (so bytes.Equal cannot take its same-pointer shortcut), and
// a copy whose last value differs.
type compareFiles struct{ golden, equal, divergent []byte }

// compareInputs builds the compareFiles once per process.
var compareInputs = sync.OnceValue(func() compareFiles {
	const size = 100 << 20
	columns := benchColumns(250)
	golden, err := dense.Encode(columns, nil)
	if err != nil {
		panic(err)
	}
	golden = slices.Grow(golden, size+64<<10)
	rng := splitmix64(2)
	row := make([]dense.Cell, len(columns))
	for tick := int64(0); len(golden) < size; tick++ {
		fillRow(row, tick, &rng)
		row[len(row)-1] = dense.Float(0.25) // a known last value to change
		if golden, err = dense.AppendRow(golden, row); err != nil {
			panic(err)
		}
	}
	divergent := bytes.Clone(golden)
	divergent[len(divergent)-2] = '6' // 0.25 → 0.26
	return compareFiles{golden, bytes.Clone(golden), divergent}
})

func BenchmarkCompare(b *testing.B) {
	in := compareInputs()
	golden, equal, divergent := in.golden, in.equal, in.divergent
	b.Run("equal-100MB", func(b *testing.B) {
		b.SetBytes(int64(len(golden)))
		for b.Loop() {
			if d, err := dense.Compare(golden, equal); d != nil || err != nil {
				b.Fatal(d, err)
			}
		}
	})
	b.Run("bytes.Equal-100MB", func(b *testing.B) {
		b.SetBytes(int64(len(golden)))
		for b.Loop() {
			if !bytes.Equal(golden, equal) {
				b.Fatal("inputs differ")
			}
		}
	})
	b.Run("diverge-at-end-100MB", func(b *testing.B) {
		b.SetBytes(int64(len(golden)))
		b.ReportAllocs()
		for b.Loop() {
			if d, err := dense.Compare(golden, divergent); d == nil || err != nil || d.Actual != "0.26" {
				b.Fatal(d, err)
			}
		}
	})
}

// BenchmarkCompareFiles is BenchmarkCompare on files: the same 100 MB
// golden and copies, written to disk (the page cache, after the first
// read), compared in 1 MiB chunks rather than held.
func BenchmarkCompareFiles(b *testing.B) {
	in := compareInputs()
	dir := b.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
		return p
	}
	golden, equal, divergent := write("golden.csv", in.golden), write("equal.csv", in.equal), write("divergent.csv", in.divergent)
	b.Run("equal-100MB", func(b *testing.B) {
		b.SetBytes(int64(len(in.golden)))
		b.ReportAllocs()
		for b.Loop() {
			if d, err := dense.CompareFiles(golden, equal); d != nil || err != nil {
				b.Fatal(d, err)
			}
		}
	})
	b.Run("ReadFile+Compare-100MB", func(b *testing.B) {
		// The way before: both files read whole, then compared in memory.
		b.SetBytes(int64(len(in.golden)))
		b.ReportAllocs()
		for b.Loop() {
			g, errG := os.ReadFile(golden)
			a, errA := os.ReadFile(equal)
			if errG != nil || errA != nil {
				b.Fatal(errG, errA)
			}
			if d, err := dense.Compare(g, a); d != nil || err != nil {
				b.Fatal(d, err)
			}
		}
	})
	b.Run("diverge-at-end-100MB", func(b *testing.B) {
		b.SetBytes(int64(len(in.golden)))
		b.ReportAllocs()
		for b.Loop() {
			if d, err := dense.CompareFiles(golden, divergent); d == nil || err != nil || d.Actual != "0.26" {
				b.Fatal(d, err)
			}
		}
	})
}

// BenchmarkStream is a run's dense file through Stream, compared with an
// equal golden as it goes: 720 rows (a city's thirty days) of 8,000
// columns (a 1,000-NPC city's), every column from the first row, then
// Finish. Per op: the whole file; allocations show whether a row costs
// any beyond the stream's reused buffers. "assembled" writes the file
// from the spill at the end, as a run without goldens does; "through"
// writes each row as the golden lays it out (WriteThrough), as a run
// with goldens does, and assembles nothing.
func BenchmarkStream(b *testing.B) {
	columns := benchColumns(8001)
	rng := splitmix64(3)
	rows := make([][]dense.Cell, 720)
	for t := range rows {
		rows[t] = make([]dense.Cell, len(columns))
		fillRow(rows[t], int64(t), &rng)
	}
	golden, err := dense.Encode(columns, rows)
	if err != nil {
		b.Fatal(err)
	}
	spill, err := os.CreateTemp(b.TempDir(), "spill")
	if err != nil {
		b.Fatal(err)
	}
	defer spill.Close()
	for _, through := range []bool{false, true} {
		name := "assembled"
		if through {
			name = "through"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(golden)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := spill.Seek(0, io.SeekStart); err != nil {
					b.Fatal(err)
				}
				s := dense.NewStream(spill, bytes.NewReader(golden))
				if through {
					if ok, err := s.WriteThrough(io.Discard); !ok || err != nil {
						b.Fatal(ok, err)
					}
				}
				for t, row := range rows {
					if err := s.Row(int64(t), columns[1:], row[1:]); err != nil {
						b.Fatal(err)
					}
				}
				c, err := s.Finish(columns[1:], io.Discard)
				if err != nil || c.Divergence != nil || c.Err != nil || s.Through() != through {
					b.Fatal(err, c)
				}
			}
		})
	}
}

// BenchmarkStreamCity streams rows shaped like a city's through a Stream
// with its golden, written through: 80,000 columns numbered in an order
// of their own (a run numbers columns as they first appear, the golden
// sorts them by name), a quarter of the cells changing from one row to
// the next, the rest as they were. The rows are made as they are
// streamed, one row of cells changed in place; making them costs the
// same whatever the Stream does.
func BenchmarkStreamCity(b *testing.B) {
	const width, ticks = 80_000, 240
	sorted := benchColumns(width + 1)[1:]
	slices.Sort(sorted)
	rng := splitmix64(5)
	names := slices.Clone(sorted)
	for i := len(names) - 1; i > 0; i-- { // numbered as they first appear
		j := int(rng.next() % uint64(i+1))
		names[i], names[j] = names[j], names[i]
	}
	// rows calls row with each tick's cells, the same every time it is
	// called.
	rows := func(row func(t int64, cells []dense.Cell)) {
		rng := splitmix64(11)
		cells := make([]dense.Cell, width)
		for t := range int64(ticks) {
			for i := range cells {
				if t == 0 || rng.next()%4 == 0 {
					cells[i] = dense.Float(float64(rng.next()>>11) / (1 << 53))
				}
			}
			row(t, cells)
		}
	}
	spill, err := os.CreateTemp(b.TempDir(), "spill")
	if err != nil {
		b.Fatal(err)
	}
	defer spill.Close()
	stream := func(golden []byte, through io.Writer) ([]byte, *dense.Comparison) {
		b.Helper()
		var g io.Reader
		if golden != nil {
			g = bytes.NewReader(golden)
		}
		if _, err := spill.Seek(0, io.SeekStart); err != nil {
			b.Fatal(err)
		}
		s := dense.NewStream(spill, g)
		if through != nil {
			if ok, err := s.WriteThrough(through); !ok || err != nil {
				b.Fatal(ok, err)
			}
		}
		rows(func(t int64, cells []dense.Cell) {
			if err := s.Row(t, names, cells); err != nil {
				b.Fatal(err)
			}
		})
		var out bytes.Buffer
		c, err := s.Finish(sorted, &out)
		if err != nil {
			b.Fatal(err)
		}
		return out.Bytes(), c
	}
	golden, _ := stream(nil, nil)
	b.SetBytes(int64(len(golden)))
	b.ReportAllocs()
	for b.Loop() {
		if _, c := stream(golden, io.Discard); c.Divergence != nil || c.Err != nil {
			b.Fatal(c)
		}
	}
}
