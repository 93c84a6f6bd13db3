package dense

import (
	"bytes"
	"errors"
	"io"
)

// follower reads a golden alongside another dense file that arrives one
// record at a time, and at the end describes their first divergence
// exactly as Compare describes it for the two whole files — without ever
// holding either file: it keeps the golden's header, the golden record the
// next actual record pairs with, and the first pair of records that
// differ.
//
// Compare's answer depends only on where the first differing byte is.
// When the headers differ it is in the header; otherwise it is in the
// first data record whose bytes differ, or where one file ends. So the
// follower keeps the first differing pair and the two record counts, and
// replays Compare on just the header and that pair at the end.
type follower struct {
	g *recordReader
	// header is the golden's first record as written, kept as a string so
	// that a golden's column names can be read out of it without another
	// copy (goldenRows); hasHeader is false for an empty golden.
	header    string
	hasHeader bool
	look      []byte // the golden record the next actual record pairs with; nil past the golden's end
	taken     int    // golden data records consumed before look
	rows      int    // actual data records seen
	err       error  // a failure to read the golden (not a malformed golden)

	found      bool   // a data record differed (or the golden ended first)
	at         int    // its 0-based index
	gAt, aAt   []byte // the two records; gAt nil when the golden had ended
	lookFormat error  // a golden record longer than MaxRecord
}

// newFollower reads the golden's header and first data record.
func newFollower(golden io.Reader) *follower {
	f := &follower{g: newRecordReader(golden)}
	rec, err := f.g.next()
	switch {
	case errors.Is(err, io.EOF):
		return f
	case err != nil:
		f.fail(err)
		return f
	}
	// The reader starts a new buffer for the rows: reusing this one would
	// hold it at the header's size, megabytes in a city, for the whole
	// run.
	f.header, f.hasHeader, f.g.buf = string(rec), true, nil
	f.load()
	return f
}

// fail keeps a malformed-golden error for finish, or the first read error.
func (f *follower) fail(err error) {
	var fe *FormatError
	if errors.As(err, &fe) {
		if f.lookFormat == nil {
			f.lookFormat = err
		}
		return
	}
	if f.err == nil {
		f.err = err
	}
}

// load reads the next golden data record into look.
func (f *follower) load() {
	rec, err := f.g.next()
	if err != nil {
		if !errors.Is(err, io.EOF) {
			f.fail(err)
		}
		f.look = nil
		return
	}
	// look is the reader's record, not a copy: it is valid until the
	// reader's next record, which only the next load reads, and a golden
	// row is a row's size, megabytes in a city.
	f.look = rec
}

// advance consumes look.
func (f *follower) advance() {
	if f.look == nil {
		return
	}
	f.taken++
	f.load()
}

// check compares the next actual data record (with its newline) with look,
// before anything consumes look, keeping the first pair that differs.
func (f *follower) check(actual []byte) {
	defer func() { f.rows++ }()
	if f.found {
		return
	}
	switch {
	case f.look == nil:
		f.found, f.at, f.aAt = true, f.rows, bytes.Clone(actual)
	case !bytes.Equal(f.look, actual):
		f.found, f.at, f.gAt, f.aAt = true, f.rows, bytes.Clone(f.look), bytes.Clone(actual)
	}
}

// finish reads the rest of the golden and returns the first divergence of
// the actual file — header (its first record, with its newline) and every
// record given to check — as Compare(golden, actual) would: nil when the
// two are byte-identical, a *FormatError for a golden malformed where
// Compare reads it.
//
// Each golden record left unconsumed is shown to rest, if given, in order.
func (f *follower) finish(header []byte, rest func(rec []byte)) (*Divergence, error) {
	missing := bytes.Clone(f.look) // the golden record after the last one the actual matched
	for f.look != nil {
		if rest != nil {
			rest(f.look)
		}
		f.advance()
	}
	golden := f.taken
	if f.err != nil {
		return nil, f.err
	}
	if f.hasHeader && f.header == string(header) && !f.found && golden == f.rows && f.lookFormat == nil {
		return nil, nil
	}
	switch {
	case !f.hasHeader:
		return nil, &FormatError{Line: 1, Err: ErrNoHeader}
	case f.g.open:
		return nil, &FormatError{Line: 1 + golden, Err: ErrNoFinalNewline}
	case f.lookFormat != nil:
		return nil, f.lookFormat
	}
	h, err := goldenRecord([]byte(f.header), 0, 1, 0)
	switch {
	case err != nil:
		return nil, err
	case h.fields[0] != "tick":
		return nil, &FormatError{Line: 1, Column: 1, Err: ErrFirstColumn}
	case f.header != string(header):
		return Compare([]byte(f.header), header)
	case f.found && f.gAt != nil:
		return f.replay()
	case f.found:
		extra := parseRecord(f.aAt, 0)
		tick := extra.value(0)
		return &Divergence{Kind: KindExtraRows, Line: f.at + 2, Tick: tick, Column: "tick",
			Golden: Missing, Actual: tick, Rows: f.rows - f.at}, nil
	}
	// The actual file is a prefix of the golden, ending at a record.
	row, err := goldenRecord(missing, 0, f.rows+2, len(h.fields))
	if err != nil {
		return nil, err
	}
	tick := row.fields[0]
	return &Divergence{Kind: KindMissingRows, Line: f.rows + 2, Tick: tick, Column: "tick",
		Golden: tick, Actual: Missing, Rows: golden - f.rows}, nil
}

// replay runs Compare on the header and the first differing pair and puts
// the answer back on the pair's line.
func (f *follower) replay() (*Divergence, error) {
	g := append([]byte(f.header), f.gAt...)
	a := append([]byte(f.header), f.aAt...)
	d, err := Compare(g, a)
	line := f.at + 2
	var fe *FormatError
	switch {
	case errors.As(err, &fe):
		fe.Line = line
		return nil, fe
	case err != nil:
		return nil, err
	case d != nil:
		d.Line = line
	}
	return d, nil
}
