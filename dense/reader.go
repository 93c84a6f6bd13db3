package dense

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxRecord caps the bytes of one record a streaming reader holds. A dense
// row of a 10,000-NPC city is a few megabytes; a record longer than this
// is a malformed file (an unclosed quote swallowing the rest of it), and
// holding it would undo the point of streaming.
const MaxRecord = 64 << 20

// ErrRecordTooLong means a record ran past MaxRecord bytes.
var ErrRecordTooLong = fmt.Errorf("record longer than %d bytes", MaxRecord)

// recordReader reads a dense file one record at a time, as written: a
// record ends at a newline outside quotes (quotes toggle the quoted state,
// which a doubled quote toggles twice), exactly the boundaries
// scanRecords finds in memory.
type recordReader struct {
	r    *bufio.Reader
	buf  []byte
	line int  // records returned so far
	open bool // the file does not end with a newline (known once its last record is read)
}

func newRecordReader(r io.Reader) *recordReader {
	return &recordReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next record with its newline (none on a last record
// cut short), valid until the following call, or io.EOF after the last.
func (rr *recordReader) next() ([]byte, error) {
	rr.buf = rr.buf[:0]
	quotes := 0
	for {
		chunk, err := rr.r.ReadSlice('\n')
		if len(rr.buf)+len(chunk) > MaxRecord {
			return nil, &FormatError{Line: rr.line + 1, Err: ErrRecordTooLong}
		}
		rr.buf = append(rr.buf, chunk...)
		quotes += bytes.Count(chunk, []byte{'"'})
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(rr.buf) == 0 {
				return nil, io.EOF
			}
			rr.line++
			rr.open = rr.buf[len(rr.buf)-1] != '\n'
			return rr.buf, nil
		case err != nil:
			return nil, err
		case quotes%2 == 0:
			rr.line++
			return rr.buf, nil
		}
		// A newline inside a quoted field: the record goes on.
	}
}
