package dense

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// fileChunk is how much of each file CompareFiles compares at once: large
// enough that bytes.Equal runs at memory speed and reads are few, small
// enough that memory stays flat whatever the files' size.
const fileChunk = 1 << 20

// CompareFiles is Compare for two files on disk, read in chunks rather
// than whole: it returns exactly what Compare returns for their contents.
// Its common case, equal files, is one chunked pass of bytes.Equal; only
// when they differ does it read both again, a record at a time, to name
// the first divergence. A file that cannot be read is an error naming it.
func CompareFiles(golden, actual string) (*Divergence, error) {
	g, err := os.Open(golden)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	a, err := os.Open(actual)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	same, err := equalReaders(g, a)
	if err != nil || same {
		return nil, err
	}
	for _, f := range []*os.File{g, a} {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
	}
	return CompareReaders(g, a)
}

// equalReaders reports whether two readers hold the same bytes, reading
// both in chunks.
func equalReaders(x, y io.Reader) (bool, error) {
	bx, by := make([]byte, fileChunk), make([]byte, fileChunk)
	for {
		nx, errX := io.ReadFull(x, bx)
		ny, errY := io.ReadFull(y, by)
		if err := readErr(errX, errY); err != nil {
			return false, err
		}
		if nx != ny || !bytes.Equal(bx[:nx], by[:ny]) {
			return false, nil
		}
		if nx < fileChunk {
			return true, nil
		}
	}
}

// readErr keeps the errors of a chunked read that are failures: a short
// or empty last chunk is the end of the file.
func readErr(errs ...error) error {
	var out []error
	for _, err := range errs {
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
			out = append(out, err)
		}
	}
	return errors.Join(out...)
}

// CompareReaders is Compare for two dense files read one record at a time:
// it holds the golden's header and one record of each side, never a whole
// file, and returns what Compare returns for the two contents.
func CompareReaders(golden, actual io.Reader) (*Divergence, error) {
	f := newFollower(golden)
	ar := newRecordReader(actual)
	header, err := ar.next()
	switch {
	case errors.Is(err, io.EOF):
		return f.finish(nil, nil)
	case err != nil:
		return nil, fmt.Errorf("actual: %w", err)
	}
	header = bytes.Clone(header)
	for {
		rec, err := ar.next()
		if errors.Is(err, io.EOF) {
			return f.finish(header, nil)
		}
		if err != nil {
			return nil, fmt.Errorf("actual: %w", err)
		}
		f.check(rec)
		f.advance()
	}
}
