package dense

import (
	"errors"
	"fmt"
	"strconv"
)

// Sentinel errors for Encode and AppendRow, wrapped by EncodeError and
// CellError. Test for them with errors.Is.
var (
	ErrFirstColumn     = errors.New(`first column must be named "tick"`)
	ErrDuplicateColumn = errors.New("duplicate column name")
	ErrRowLength       = errors.New("wrong number of cells")
	ErrNaN             = errors.New("NaN is not allowed")
	ErrTickNotInt      = errors.New("tick must be an Int cell")
	ErrInvalidUTF8     = errors.New("invalid UTF-8")
)

// Sentinel errors for a malformed golden, wrapped by FormatError.
var (
	ErrNoHeader          = errors.New("missing header")
	ErrNoFinalNewline    = errors.New("missing newline at end of file")
	ErrFieldCount        = errors.New("wrong number of fields")
	ErrBareQuote         = errors.New(`bare " in unquoted field`)
	ErrTextAfterQuote    = errors.New(`text after closing " of quoted field`)
	ErrUnterminatedQuote = errors.New("quoted field not closed")
	ErrCarriageReturn    = errors.New(`\r in unquoted field`)
)

// EncodeError reports a table that Encode cannot write.
type EncodeError struct {
	Row    int    // 0-based index into rows, or -1 for the header
	Column string // name of the offending column, or "" when the whole row is at fault
	Err    error
}

// Error returns a message such as `dense: row 3 column "x": NaN is not allowed`.
func (e *EncodeError) Error() string {
	where := "dense: header"
	if e.Row >= 0 {
		where = "dense: row " + strconv.Itoa(e.Row)
	}
	if e.Column != "" {
		where += " column " + strconv.Quote(e.Column)
	}
	return where + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *EncodeError) Unwrap() error { return e.Err }

// CellError reports a cell that AppendRow cannot write.
type CellError struct {
	Index int // 0-based index of the cell in its row
	Err   error
}

// Error returns a message such as "dense: cell 2: NaN is not allowed".
func (e *CellError) Error() string {
	return "dense: cell " + strconv.Itoa(e.Index) + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *CellError) Unwrap() error { return e.Err }

// FormatError reports a golden that does not follow the dense format where
// Compare needs to read it.
type FormatError struct {
	Line   int // 1-based record number; a quoted newline does not start a new record
	Column int // 1-based field number, or 0 when the whole record or file is at fault
	Err    error
}

// Error returns a message such as
// "dense: malformed golden at line 5, column 3: wrong number of fields: got 2, want 3".
func (e *FormatError) Error() string {
	if e.Column == 0 {
		return fmt.Sprintf("dense: malformed golden at line %d: %v", e.Line, e.Err)
	}
	return fmt.Sprintf("dense: malformed golden at line %d, column %d: %v", e.Line, e.Column, e.Err)
}

// Unwrap returns the underlying error.
func (e *FormatError) Unwrap() error { return e.Err }
