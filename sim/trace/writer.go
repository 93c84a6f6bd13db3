package trace

import (
	"fmt"
	"io"
)

// flushAt is how much encoded trace a Writer gathers before it writes:
// large enough that a write costs little per record, small enough that
// memory stays flat however long the run.
const flushAt = 64 << 10

// Writer is a Sink that streams the trace to an io.Writer as JSON Lines,
// header first, each record encoded as it is emitted. Its memory does not
// grow with the run. Emit cannot return an error, so the first one (a
// record with no canonical spelling, a failed write) is kept, every later
// record is dropped, and Err and Flush report it: a caller that checks Err
// after each tick stops at once, and one that checks Flush at the end
// knows whether the output is whole. Output cut short by an error is not a
// trace file; write to a temporary file and rename it only on success.
type Writer struct {
	w       io.Writer
	enc     *Encoder
	buf     []byte
	records int64
	err     error
}

var _ Sink = (*Writer)(nil)

// NewWriter returns a Writer for the trace h heads, with the header line
// already buffered.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	enc, err := NewEncoder(h)
	if err != nil {
		return nil, err
	}
	return &Writer{w: w, enc: enc, buf: enc.AppendHeader(make([]byte, 0, 2*flushAt))}, nil
}

// Emit encodes r, writing out what has gathered as soon as it reaches
// flushAt bytes.
func (w *Writer) Emit(r Record) {
	if w.err != nil {
		return
	}
	if w.buf, w.err = w.enc.AppendRecord(w.buf, r); w.err != nil {
		return
	}
	w.records++
	if len(w.buf) >= flushAt {
		w.write()
	}
}

func (w *Writer) write() {
	if _, err := w.w.Write(w.buf); err != nil {
		w.err = fmt.Errorf("write trace: %w", err)
	}
	w.buf = w.buf[:0]
}

// Flush writes what is buffered and returns the first error of the run.
func (w *Writer) Flush() error {
	if w.err == nil && len(w.buf) > 0 {
		w.write()
	}
	return w.err
}

// Err returns the first error of the run, nil while all is well.
func (w *Writer) Err() error { return w.err }

// Records returns how many records have been encoded.
func (w *Writer) Records() int64 { return w.records }
