package dense

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/chronicle/ladder/sim/canon"
)

// Encode returns the dense golden for a table: a header row of columns, then
// one line per row. The first column must be "tick" and every row must start
// with an Int. Errors are of type *EncodeError.
func Encode(columns []string, rows [][]Cell) ([]byte, error) {
	dst, err := appendHeader(nil, columns)
	if err != nil {
		return nil, err
	}
	for i, row := range rows {
		if len(row) != len(columns) {
			return nil, &EncodeError{Row: i, Err: fmt.Errorf("%w: got %d, want %d", ErrRowLength, len(row), len(columns))}
		}
		before := len(dst)
		var bad int
		if dst, bad, err = appendRow(dst, row); err != nil {
			return nil, &EncodeError{Row: i, Column: columns[bad], Err: err}
		}
		if i == 0 {
			// Reserve room for the rest, assuming rows about as wide as
			// the first, plus an eighth for rows that run longer.
			rest := (len(dst) - before) * (len(rows) - 1)
			dst = slices.Grow(dst, rest+rest/8)
		}
	}
	return dst, nil
}

// appendHeader appends the header line of columns, which must begin with
// "tick", refusing a repeated name or one that is not valid UTF-8.
func appendHeader(dst []byte, columns []string) ([]byte, error) {
	if len(columns) == 0 || columns[0] != "tick" {
		column := ""
		if len(columns) > 0 {
			column = columns[0]
		}
		return nil, &EncodeError{Row: -1, Column: column, Err: ErrFirstColumn}
	}
	seen := make(map[string]bool, len(columns))
	seen["tick"] = true
	return appendNames(append(dst, "tick"...), columns[1:], func(_ int, name string) bool {
		repeat := seen[name]
		seen[name] = true
		return repeat
	})
}

// appendNames appends a header's names after its tick, each after a
// comma, and its newline; repeats says whether the name at place j of
// names repeats one before it (it sees each name once, in order). The
// first name that repeats or is not valid UTF-8 is the error.
func appendNames(dst []byte, names []string, repeats func(j int, name string) bool) ([]byte, error) {
	for j, name := range names {
		if repeats(j, name) {
			return nil, &EncodeError{Row: -1, Column: name, Err: ErrDuplicateColumn}
		}
		var ok bool
		if dst, ok = appendField(append(dst, ','), name); !ok {
			return nil, &EncodeError{Row: -1, Column: name, Err: ErrInvalidUTF8}
		}
	}
	return append(dst, '\n'), nil
}

// AppendRow appends one row, with its trailing newline, to dst and returns
// the extended buffer. The first cell must be an Int (the tick); AppendRow
// does not know the header, so checking the row length is the caller's job.
// Errors are of type *CellError; on error the returned buffer holds a partial
// row and should be discarded.
func AppendRow(dst []byte, row []Cell) ([]byte, error) {
	dst, bad, err := appendRow(dst, row)
	if err != nil {
		return dst, &CellError{Index: bad, Err: err}
	}
	return dst, nil
}

// appendRow implements AppendRow, returning the index of a cell it cannot
// write and a sentinel error saying why.
func appendRow(dst []byte, row []Cell) ([]byte, int, error) {
	if len(row) == 0 || row[0].kind() != kindInt {
		return dst, 0, ErrTickNotInt
	}
	for i := range row {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendCell(dst, &row[i], nil); err != nil {
			return dst, i, err
		}
	}
	return append(dst, '\n'), 0, nil
}

// appendCell appends one cell as its field, or says why it cannot be
// written. floats, when not nil, spells its floats from memory where it
// can (a Stream's, kept all run); nil spells each one afresh.
func appendCell(dst []byte, c *Cell, floats *canon.FloatCache) ([]byte, error) {
	switch c.kind() {
	case kindInt:
		dst = strconv.AppendInt(dst, int64(c.bits), 10)
	case kindFloat:
		f := math.Float64frombits(c.bits)
		if math.IsNaN(f) {
			return dst, ErrNaN
		}
		dst = floats.Append(dst, f)
	case kindBool:
		if c.bits != 0 {
			dst = append(dst, "True"...)
		} else {
			dst = append(dst, "False"...)
		}
	case kindStr:
		var ok bool
		if dst, ok = appendField(dst, c.str()); !ok {
			return dst, ErrInvalidUTF8
		}
	}
	return dst, nil
}

// appendField appends s as a field, quoting it only if it contains a comma, a
// quote, \r or \n. It reports false if s is not valid UTF-8.
func appendField(dst []byte, s string) ([]byte, bool) {
	quote := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			quote = quote || c == ',' || c == '"' || c == '\r' || c == '\n'
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return dst, false
		}
		i += size
	}
	if !quote {
		return append(dst, s...), true
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, s[i])
	}
	return append(dst, '"'), true
}
