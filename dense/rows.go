package dense

import "io"

// Rows reads a dense file a row at a time, checking it as Parse does, so a
// tool that needs every cell of a long run (ladder/whynot indexes each
// NPC's whereabouts and stages) holds one row, never the file. Errors are
// *FormatError.
type Rows struct{ t *tableReader }

// NewRows reads and checks the header.
func NewRows(r io.Reader) (*Rows, error) {
	t, err := newTableReader(r)
	if err != nil {
		return nil, err
	}
	return &Rows{t: t}, nil
}

// Header is the file's header, "tick" first.
func (r *Rows) Header() []string { return r.t.header }

// Next reads the next row; false at the end of the file.
func (r *Rows) Next() (bool, error) { return r.t.next() }

// Tick is the current row's tick.
func (r *Rows) Tick() int64 { return r.t.tick }

// Value is field i of the current row (its column in Header), "" for i < 0.
func (r *Rows) Value(i int) string { return r.t.value(i) }
