package dense

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/chronicle/ladder/ladder/artifact"
)

// CompareFiles is Compare for two files on disk, read in chunks rather
// than whole: it returns exactly what Compare returns for their contents.
// Equal files cost one chunked pass of bytes.Equal (artifact.CompareFiles);
// only when they differ are both read again, a record at a time, to name
// the first divergence.
func CompareFiles(golden, actual string) (*Divergence, error) {
	return artifact.CompareFiles(golden, actual, CompareReaders)
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
