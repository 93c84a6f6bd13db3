package artifact

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// File is an artifact being written: a temporary file in the directory of
// its final path, renamed over that path by Commit.
type File struct {
	f    *os.File
	path string
	done bool
	twin *twin // nil: written as it comes (see CreateTwin)
	// linked is the golden as Commit found it when it put a link to it in
	// place; nil for a file written.
	linked fs.FileInfo
}

// Create starts the file that Commit will put at path, creating its
// directory.
func Create(path string) (*File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &File{f: f, path: path}, nil
}

// Write appends to the file. A twin's Write writes only what is not its
// golden's (CreateTwin).
func (f *File) Write(p []byte) (int, error) {
	if f.twin != nil {
		if f.twin.matches(p) {
			f.twin.n += int64(len(p))
			return len(p), nil
		}
		if err := f.untwin(); err != nil {
			return 0, err
		}
	}
	return f.f.Write(p)
}

// Commit closes the file and renames it into place: for a twin whose
// output was its golden whole, a link to the golden (CreateTwin).
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("commit %s: already finished", f.path)
	}
	if f.twin != nil {
		linked, err := f.linkTwin()
		if err == nil && linked == nil {
			err = f.untwin()
		}
		if linked != nil || err != nil {
			f.Abort()
			f.linked = linked
			return err
		}
	}
	f.done = true
	if err := f.f.Close(); err != nil {
		os.Remove(f.f.Name())
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	if err := os.Chmod(f.f.Name(), 0o644); err != nil {
		os.Remove(f.f.Name())
		return err
	}
	if err := os.Rename(f.f.Name(), f.path); err != nil {
		os.Remove(f.f.Name())
		return fmt.Errorf("replace %s: %w", f.path, err)
	}
	return nil
}

// Linked returns, after a Commit that put a link to the twin's golden in
// place (CreateTwin), the golden as Commit found it: the file the
// artifact now is, whose bytes the run wrote every one of. It is nil
// before Commit and for a file written.
func (f *File) Linked() fs.FileInfo { return f.linked }

// Abort drops the file; after Commit it does nothing.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.f.Close()
	os.Remove(f.f.Name())
	if f.twin != nil {
		f.twin.g.Close()
		f.twin = nil
	}
}

// Write writes data to path as a File: whole or not at all.
func Write(path string, data []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

// chunk is how much of a file Same and Copy hold at once.
const chunk = 1 << 20

// Same reports whether two files hold the same bytes, reading both in
// chunks. A file that does not exist is an error (fs.ErrNotExist).
func Same(a, b string) (bool, error) {
	var same bool
	err := OpenBoth(a, b, func(fa, fb *os.File) (err error) {
		same, err = sameOpen(fa, fb)
		return err
	})
	return same, err
}

// OpenBoth opens two files, hands them to fn and closes them: the shape
// of every comparison of a golden with a run's file.
func OpenBoth(a, b string, fn func(a, b *os.File) error) error {
	fa, err := os.Open(a)
	if err != nil {
		return err
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return err
	}
	defer fb.Close()
	return fn(fa, fb)
}

// CompareFiles runs compare over two files only when their bytes differ:
// nil when they are identical. Its common case, equal files, is one
// chunked pass of bytes.Equal; only a difference rewinds both and hands
// them to compare, which reads them as streams to name the first
// divergence, so neither file is ever held whole.
func CompareFiles[D any](golden, actual string, compare func(golden, actual io.Reader) (*D, error)) (*D, error) {
	var d *D
	err := OpenBoth(golden, actual, func(g, a *os.File) error {
		same, err := sameOpen(g, a)
		if err != nil || same {
			return err
		}
		for _, f := range []*os.File{g, a} {
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				return err
			}
		}
		d, err = compare(g, a)
		return err
	})
	return d, err
}

// sameOpen compares two open files from where they stand, sizes first.
func sameOpen(fa, fb *os.File) (bool, error) {
	if sa, sb, err := sizes(fa, fb); err != nil || sa != sb {
		return false, err
	}
	ba, bb := make([]byte, chunk), make([]byte, chunk)
	for {
		na, errA := io.ReadFull(fa, ba)
		nb, errB := io.ReadFull(fb, bb)
		if err := readErr(errA, errB); err != nil {
			return false, err
		}
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false, nil
		}
		if na < chunk {
			return true, nil
		}
	}
}

func sizes(a, b *os.File) (int64, int64, error) {
	sa, err := a.Stat()
	if err != nil {
		return 0, 0, err
	}
	sb, err := b.Stat()
	if err != nil {
		return 0, 0, err
	}
	return sa.Size(), sb.Size(), nil
}

// readErr keeps the errors of a chunked read that are failures: a short
// or empty last chunk is the end of a file.
func readErr(errs ...error) error {
	var out []error
	for _, err := range errs {
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
			out = append(out, err)
		}
	}
	return errors.Join(out...)
}
