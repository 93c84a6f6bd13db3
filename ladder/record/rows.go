package record

import "github.com/chronicle/ladder/dense"

// rows hands a run's dense rows to its table (dense.Stream), one a tick.
// An untimed run hands them to a goroutine of its own, so that a row is
// encoded, compared with the golden's and written through on the second
// core while the engine steps the next tick: in a city a row has some
// eighty thousand cells, and writing it cost the engine's goroutine a
// fifth of the run. A timed run (Stages) writes each on the caller's
// goroutine, so that its stages partition one goroutine's time.
//
// The recorder fills one row of cells while the table reads the other,
// so the engine is at most one row ahead of the table, and a row the
// table refuses is reported when the next is handed over (put) or when
// the rows end (close), one tick late at most: the run returns no Result
// with it, so only how soon the run stops differs, and the error is the
// table's, the same either way.
type rows struct {
	table *dense.Stream
	in    chan tableRow // nil: the caller's goroutine writes each row
	spare chan spareRow // a row's cells once the table is done with them
	done  chan struct{} // closed when the goroutine has written its last row
	err   error         // the table's first refusal
}

// tableRow is one tick's row for the table.
type tableRow struct {
	tick  int64
	names []string
	cells []dense.Cell
}

// spareRow is the cells of a row the table is done with, and its first
// refusal so far.
type spareRow struct {
	cells []dense.Cell
	err   error
}

// newRows starts handing rows to table, on a goroutine of its own when
// behind is set.
func newRows(table *dense.Stream, behind bool) *rows {
	r := &rows{table: table}
	if !behind {
		return r
	}
	r.in, r.spare, r.done = make(chan tableRow), make(chan spareRow, 1), make(chan struct{})
	r.spare <- spareRow{} // the recorder's second row, made when first filled
	go r.write()
	return r
}

// write writes each row handed over, until the rows end; after a refusal
// it only hands the cells back.
func (r *rows) write() {
	defer close(r.done)
	var err error
	for row := range r.in {
		if err == nil {
			err = r.table.Row(row.tick, row.names, row.cells)
		}
		r.spare <- spareRow{row.cells, err}
	}
	r.err = err
}

// put hands over the row of tick t — names and cells as the table's Row
// takes them — and returns the cells the recorder is to fill next: cells
// themselves when the row was written on the caller's goroutine, or the
// last row's, which the table is done with. The error is the table's
// first refusal, of this row or, behind, of the last.
func (r *rows) put(t int64, names []string, cells []dense.Cell) ([]dense.Cell, error) {
	if r.in == nil {
		if r.err == nil {
			r.err = r.table.Row(t, names, cells)
		}
		return cells, r.err
	}
	r.in <- tableRow{t, names, cells}
	s := <-r.spare
	return s.cells, s.err
}

// close waits until the table has every row handed over and returns its
// first refusal; after it the table is the caller's goroutine's alone. It
// may be called more than once.
func (r *rows) close() error {
	if r.in != nil {
		close(r.in)
		<-r.done
		r.in = nil
	}
	return r.err
}
