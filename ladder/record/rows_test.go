package record_test

import (
	"bytes"
	"errors"
	"math"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/dense"
	"github.com/chronicle/ladder/ladder/record"
)

// A run hands its dense rows to its table on a goroutine of its own
// (untimed) or its own goroutine (timed); either way a row the table
// refuses must stop the run with the table's error, and the rows before
// it must be the file. No rung's row is refused, so no golden holds
// this; it runs beside the rungs, with no rung label, like the
// instruments.
var _ = DescribeTable("a run's dense rows, handed to the table",
	func(behind bool) {
		spill, err := os.CreateTemp(GinkgoT().TempDir(), "spill")
		Expect(err).NotTo(HaveOccurred())
		defer spill.Close()
		table := dense.NewStream(spill, nil)
		r := record.NewRows(table, behind)
		names := []string{"a/x", "b/x"}
		fill := func(cells []dense.Cell, a float64) []dense.Cell {
			return append(cells[:0], dense.Float(a), dense.Str("market"))
		}
		var cells []dense.Cell
		var handed [][]dense.Cell // every row of cells handed over
		put := func(t int64, a float64) error {
			cells = fill(cells, a)
			handed = append(handed, cells)
			next, err := r.Put(t, names, cells)
			cells = next
			return err
		}
		Expect(put(0, 1)).To(Succeed())
		Expect(put(1, 2)).To(Succeed())
		refused := put(2, math.NaN())
		var enc *dense.EncodeError
		if behind {
			// The table reads a row while the next is filled: never the
			// cells just handed over.
			Expect(&cells[0]).NotTo(BeIdenticalTo(&handed[len(handed)-1][0]), "handed back the cells it was handed")
			Expect(refused).To(Succeed(), "a refusal behind is reported with the next row")
			refused = put(3, 4)
		}
		Expect(errors.As(refused, &enc)).To(BeTrue(), "%v", refused)
		Expect(enc.Row).To(Equal(2))
		Expect(enc.Column).To(Equal("a/x"))
		Expect(put(4, 5)).To(MatchError(refused), "a refusal is reported until the rows end")
		Expect(r.Close()).To(MatchError(refused))
		Expect(r.Close()).To(MatchError(refused), "twice")
		Expect(table.Rows()).To(Equal(2), "rows after the refused one reached the table")
		var out bytes.Buffer
		_, err = table.Finish(names, &out)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.String()).To(Equal("tick,a/x,b/x\n0,1.0,market\n1,2.0,market\n"))
	},
	Entry("behind, on a goroutine of their own (an untimed run)", true),
	Entry("on the run's goroutine (a timed run)", false),
)
