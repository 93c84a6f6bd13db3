package dense_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"runtime"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/dense"
)

var _ = Describe("Encode", func() {
	It("writes the documented example", func() {
		out, err := dense.Encode([]string{"tick", "w1/pos", "w1/held", "w1/name"}, [][]dense.Cell{
			{dense.Int(0), dense.Float(0.5), dense.Bool(true), dense.Str("Smith, J.")},
			{dense.Int(1), dense.Float(1e-5), dense.Bool(false), dense.Empty()},
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal("tick,w1/pos,w1/held,w1/name\n0,0.5,True,\"Smith, J.\"\n1,1e-05,False,\n"))
	})

	It("writes a header-only table", func() {
		out, err := dense.Encode([]string{"tick", "a"}, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal("tick,a\n"))
	})

	DescribeTable("spells each cell",
		func(c dense.Cell, want string) {
			out, err := dense.AppendRow([]byte("x\n"), []dense.Cell{dense.Int(7), c})
			Expect(err).NotTo(HaveOccurred())
			Expect(string(out)).To(Equal("x\n7," + want + "\n"))
		},
		Entry("int", dense.Int(-12), "-12"),
		Entry("int64 min", dense.Int(math.MinInt64), "-9223372036854775808"),
		Entry("float", dense.Float(0.557396), "0.557396"),
		Entry("integral float", dense.Float(999), "999.0"),
		Entry("tiny float", dense.Float(1e-5), "1e-05"),
		Entry("huge float", dense.Float(1e16), "1e+16"),
		Entry("negative zero", dense.Float(math.Copysign(0, -1)), "-0.0"),
		Entry("infinity", dense.Float(math.Inf(-1)), "-inf"),
		Entry("true", dense.Bool(true), "True"),
		Entry("false", dense.Bool(false), "False"),
		Entry("empty", dense.Empty(), ""),
		Entry("zero Cell", dense.Cell{}, ""),
		Entry("plain string", dense.Str("theft-1"), "theft-1"),
		Entry("spaces need no quotes", dense.Str(" a b "), " a b "),
		Entry("non-ASCII needs no quotes", dense.Str("é→"), "é→"),
		Entry("comma", dense.Str("a,b"), `"a,b"`),
		Entry("quote", dense.Str(`say "hi"`), `"say ""hi"""`),
		Entry("newline", dense.Str("a\nb"), "\"a\nb\""),
		Entry("carriage return", dense.Str("a\rb"), "\"a\rb\""),
		Entry("empty string", dense.Str(""), ""),
		Entry("string sliced from a longer one", dense.Str("theft-1,theft-2"[:7]), "theft-1"),
	)

	It("keeps a cell's string alive after its maker lets go of it", func() {
		// A Cell holds its string's bytes by pointer (cell.go); were that
		// pointer hidden from the collector, the bytes would be reused.
		cells := make([]dense.Cell, 1000)
		for i := range cells {
			cells[i] = dense.Str(fmt.Sprintf("npc-%04d/at", i))
		}
		for range 3 {
			runtime.GC()
			_ = make([]byte, 1<<20)
		}
		for i, c := range cells {
			out, err := dense.AppendRow(nil, []dense.Cell{dense.Int(0), c})
			Expect(err).NotTo(HaveOccurred())
			Expect(string(out)).To(Equal(fmt.Sprintf("0,npc-%04d/at\n", i)))
		}
	})

	It("quotes header names like fields", func() {
		out, err := dense.Encode([]string{"tick", "a,b", `q"`}, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal("tick,\"a,b\",\"q\"\"\"\n"))
	})

	It("writes what encoding/csv reads back", func() {
		columns := []string{"tick", "s", "f", "b"}
		rows := [][]dense.Cell{
			{dense.Int(1), dense.Str("a,\"b\"\nc"), dense.Float(0.1), dense.Bool(true)},
			{dense.Int(2), dense.Str(" lead"), dense.Empty(), dense.Bool(false)},
		}
		out, err := dense.Encode(columns, rows)
		Expect(err).NotTo(HaveOccurred())
		records, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
		Expect(err).NotTo(HaveOccurred())
		Expect(records).To(Equal([][]string{columns, {"1", "a,\"b\"\nc", "0.1", "True"}, {"2", " lead", "", "False"}}))
	})

	It("does not allocate per cell", func() {
		row := []dense.Cell{dense.Int(3), dense.Float(0.25), dense.Bool(true), dense.Str("x,y"), dense.Empty()}
		buf := make([]byte, 0, 256)
		allocs := testing.AllocsPerRun(100, func() {
			var err error
			if buf, err = dense.AppendRow(buf[:0], row); err != nil {
				panic(err)
			}
		})
		Expect(allocs).To(BeZero())
	})

	DescribeTable("rejects tables that are not dense goldens",
		func(columns []string, rows [][]dense.Cell, sentinel error, row int, column, want string) {
			out, err := dense.Encode(columns, rows)
			Expect(out).To(BeNil())
			Expect(err).To(MatchError(want))
			Expect(errors.Is(err, sentinel)).To(BeTrue())
			var eerr *dense.EncodeError
			Expect(errors.As(err, &eerr)).To(BeTrue())
			Expect(eerr.Row).To(Equal(row))
			Expect(eerr.Column).To(Equal(column))
		},
		Entry("first column not tick", []string{"time", "a"}, nil, dense.ErrFirstColumn, -1, "time",
			`dense: header column "time": first column must be named "tick"`),
		Entry("no columns", nil, nil, dense.ErrFirstColumn, -1, "",
			`dense: header: first column must be named "tick"`),
		Entry("duplicate column", []string{"tick", "a", "b", "a"}, nil, dense.ErrDuplicateColumn, -1, "a",
			`dense: header column "a": duplicate column name`),
		Entry("invalid UTF-8 column name", []string{"tick", "\xff"}, nil, dense.ErrInvalidUTF8, -1, "\xff",
			`dense: header column "\xff": invalid UTF-8`),
		Entry("short row", []string{"tick", "a", "b"},
			[][]dense.Cell{{dense.Int(0), dense.Empty(), dense.Empty()}, {dense.Int(1), dense.Empty()}},
			dense.ErrRowLength, 1, "", "dense: row 1: wrong number of cells: got 2, want 3"),
		Entry("NaN", []string{"tick", "x"}, [][]dense.Cell{{dense.Int(0), dense.Float(math.NaN())}},
			dense.ErrNaN, 0, "x", `dense: row 0 column "x": NaN is not allowed`),
		Entry("tick not an Int", []string{"tick", "x"},
			[][]dense.Cell{{dense.Int(0), dense.Empty()}, {dense.Int(1), dense.Empty()}, {dense.Float(2), dense.Empty()}},
			dense.ErrTickNotInt, 2, "tick", `dense: row 2 column "tick": tick must be an Int cell`),
		Entry("invalid UTF-8 string", []string{"tick", "name"}, [][]dense.Cell{{dense.Int(0), dense.Str("a\xc3")}},
			dense.ErrInvalidUTF8, 0, "name", `dense: row 0 column "name": invalid UTF-8`),
	)

	DescribeTable("AppendRow rejects bad cells by index",
		func(row []dense.Cell, sentinel error, index int, want string) {
			_, err := dense.AppendRow(nil, row)
			Expect(err).To(MatchError(want))
			Expect(errors.Is(err, sentinel)).To(BeTrue())
			var cerr *dense.CellError
			Expect(errors.As(err, &cerr)).To(BeTrue())
			Expect(cerr.Index).To(Equal(index))
		},
		Entry("NaN", []dense.Cell{dense.Int(0), dense.Empty(), dense.Float(math.NaN())}, dense.ErrNaN, 2,
			"dense: cell 2: NaN is not allowed"),
		Entry("empty row", []dense.Cell{}, dense.ErrTickNotInt, 0, "dense: cell 0: tick must be an Int cell"),
		Entry("string tick", []dense.Cell{dense.Str("0")}, dense.ErrTickNotInt, 0, "dense: cell 0: tick must be an Int cell"),
		Entry("invalid UTF-8", []dense.Cell{dense.Int(0), dense.Str("\xed\xa0\x80")}, dense.ErrInvalidUTF8, 1,
			"dense: cell 1: invalid UTF-8"),
	)
})
