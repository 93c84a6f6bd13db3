package record

import "github.com/chronicle/ladder/dense"

// Rows is how a run hands its dense rows to its table, for the specs of
// what it reports when the table refuses one.
type Rows = rows

// NewRows is newRows.
func NewRows(table *dense.Stream, behind bool) *Rows { return newRows(table, behind) }

// Put is put.
func (r *rows) Put(t int64, names []string, cells []dense.Cell) ([]dense.Cell, error) {
	return r.put(t, names, cells)
}

// Close is close.
func (r *rows) Close() error { return r.close() }
