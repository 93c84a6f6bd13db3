package dense

import (
	"bytes"
	"fmt"
)

// Compare reports the first divergence of actual from golden, or (nil, nil)
// when they are byte-identical. It reads only what it needs: after a
// memory-speed search for the first differing byte and a scan of the common
// prefix for record boundaries, it parses just the header and the record
// holding that byte. A golden that is malformed where Compare reads it
// yields a *FormatError; a malformed actual is simply a divergence.
func Compare(golden, actual []byte) (*Divergence, error) {
	if bytes.Equal(golden, actual) {
		return nil, nil
	}
	if len(golden) == 0 {
		return nil, &FormatError{Line: 1, Err: ErrNoHeader}
	}
	if golden[len(golden)-1] != '\n' {
		return nil, &FormatError{Line: countRows(golden), Err: ErrNoFinalNewline}
	}
	off := firstDiff(golden, actual)
	records, start := scanRecords(golden[:off])
	line := records + 1

	header, err := goldenRecord(golden, 0, 1, 0)
	if err != nil {
		return nil, err
	}
	if header.fields[0] != "tick" {
		return nil, &FormatError{Line: 1, Column: 1, Err: ErrFirstColumn}
	}
	if line == 1 {
		actualHeader := parseRecord(actual, 0)
		d := walk(golden, actual, &header, &actualHeader, header.fieldAt(off), KindHeader)
		d.Line = 1
		d.Column = columnName(&header, d.Index)
		return d, nil
	}

	if start == len(golden) {
		extra := parseRecord(actual, start)
		tick := extra.value(0)
		return &Divergence{Kind: KindExtraRows, Line: line, Tick: tick, Column: "tick",
			Golden: Missing, Actual: tick, Rows: countRows(actual[start:])}, nil
	}
	row, err := goldenRecord(golden, start, line, len(header.fields))
	if err != nil {
		return nil, err
	}
	tick := row.fields[0]
	if start == len(actual) {
		return &Divergence{Kind: KindMissingRows, Line: line, Tick: tick, Column: "tick",
			Golden: tick, Actual: Missing, Rows: countRows(golden[start:])}, nil
	}
	actualRow := parseRecord(actual, start)
	d := walk(golden, actual, &row, &actualRow, row.fieldAt(off), KindCell)
	d.Line = line
	d.Tick = tick
	d.Column = columnName(&header, d.Index)
	return d, nil
}

// columnName returns the header name of column i, or "" beyond the header.
func columnName(header *record, i int) string {
	if i < len(header.fields) {
		return header.fields[i]
	}
	return ""
}

// goldenRecord parses the golden record at start, turning any flaw into a
// *FormatError. Compare has already checked that the golden ends with a
// newline, so a well-formed record always ends with one. A positive width is
// the field count the record must have.
func goldenRecord(golden []byte, start, line, width int) (record, error) {
	r := parseRecord(golden, start)
	switch {
	case r.err != nil:
		return r, &FormatError{Line: line, Column: r.bad + 1, Err: r.err}
	case width > 0 && len(r.fields) != width:
		return r, &FormatError{Line: line, Column: min(len(r.fields), width) + 1,
			Err: fmt.Errorf("%w: got %d, want %d", ErrFieldCount, len(r.fields), width)}
	}
	return r, nil
}

// walk compares the golden and actual records field by field from index
// first, the field holding the first differing byte, and describes the
// first field whose values differ as a divergence of kind valueKind. If all
// values agree, the records differ only in how they are written and walk
// reports a KindSyntax divergence with raw text from field first. The
// caller fills in Line, Tick and Column.
func walk(golden, actual []byte, g, a *record, first int, valueKind DivergenceKind) *Divergence {
	for i := first; i < max(len(g.fields), len(a.fields)); i++ {
		if gv, av := g.value(i), a.value(i); gv != av {
			return &Divergence{Kind: valueKind, Index: i, Golden: gv, Actual: av}
		}
	}
	return &Divergence{Kind: KindSyntax, Index: first, Golden: g.raw(golden, first), Actual: a.raw(actual, first)}
}
