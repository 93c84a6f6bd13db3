package dense

import "io"

// Found is what Lookup found of one cell.
type Found struct {
	// Columns are the file's columns, tick first, for a caller given a
	// column the file does not have (to suggest one).
	Columns []string
	// HasColumn says the header names the column; HasTick, that a row
	// has the tick. Value is the cell there, unquoted ("" when empty: not
	// held), when both do.
	HasColumn, HasTick bool
	Value              string
	// Rows counts the file's rows and First and Last are their ticks,
	// when the tick was not found (the whole file was read): a tick
	// beyond the run is named with the run's extent.
	Rows        int
	First, Last int64
}

// Lookup reads a dense file a row at a time to the row of tick and
// returns the cell of column there, checking the file as Parse does as
// far as it reads: a column the header does not name is known from the
// header alone, a tick no row has only once the file is read to its end.
// Reading stops at the row, so finding a cell early in a long run costs
// its first rows, not the run. Errors are *FormatError.
func Lookup(r io.Reader, tick int64, column string) (Found, error) {
	t, err := newTableReader(r)
	if err != nil {
		return Found{}, err
	}
	f := Found{Columns: t.header}
	col, ok := t.index[column]
	if f.HasColumn = ok; !ok {
		return f, nil
	}
	for {
		ok, err := t.next()
		switch {
		case err != nil:
			return Found{}, err
		case !ok:
			return f, nil
		case t.tick == tick:
			f.HasTick, f.Value = true, t.row[col]
			return f, nil
		}
		if f.Rows == 0 {
			f.First = t.tick
		}
		f.Rows++
		f.Last = t.tick
	}
}
