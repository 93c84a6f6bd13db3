package artifact

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// twinWindow is how much of a golden a twin reads at a time: the size of
// the pieces a Behind writer hands over (behindChunk), so that a piece
// costs at most two reads. A window is held all run, twice (the trace's
// twin and the dense file's); the 256 KiB it was at first went to the
// trace pipe's depth instead (docs/performance.md, "The pipe's depth").
const twinWindow = 64 << 10

// twin is a File's golden while everything written to the File has been
// the golden's own bytes, from its start: the File then writes nothing,
// and only counts. A run that passes writes gigabytes of trace identical
// to its golden, and on a machine whose fresh page-cache pages are dear
// (a VM that hands freed memory back to its host) writing them costs
// about as much as spelling them; reading the golden's pages, hot from
// the comparison, costs a fraction of that (decision 0043).
type twin struct {
	path string   // the golden's name, for the link
	g    *os.File // the golden, open since Create: the bytes compared
	n    int64    // bytes written so far, every one the golden's
	// win holds the golden's bytes [at, at+len(win)), read ahead.
	win []byte
	at  int64
}

// CreateTwin starts the file that Commit will put at path, like Create,
// for output expected to be golden's bytes exactly. While it is, nothing
// is written; at the first write that differs, the matched part is copied
// from golden and writing goes on as in a File from Create. A Commit of
// output that is the whole golden puts a hard link to golden at path
// (its own name for the golden's bytes, which are shared: a change made
// in place to one is made to both, and the goldens' seals say so), and
// falls back to a copy where a link cannot be made or golden is no
// longer the file compared. A golden that cannot be opened, or is not a
// regular file, twins nothing: the File is then one from Create; one
// that cannot be read part way is taken to differ there. Whether the
// golden could be read is the comparison's to report, not the File's.
func CreateTwin(path, golden string) (*File, error) {
	f, err := Create(path)
	if err != nil {
		return nil, err
	}
	g, err := os.Open(golden)
	if err != nil {
		return f, nil
	}
	if fi, err := g.Stat(); err != nil || !fi.Mode().IsRegular() {
		g.Close()
		return f, nil
	}
	f.twin = &twin{path: golden, g: g}
	return f, nil
}

// Twinned reports whether everything written so far is the golden's:
// nothing has been written to the file itself.
func (f *File) Twinned() bool { return f.twin != nil }

// matches reports whether p is the golden's next len(p) bytes.
func (t *twin) matches(p []byte) bool {
	pos := t.n
	for len(p) > 0 {
		if pos < t.at || pos >= t.at+int64(len(t.win)) {
			if !t.fill(pos) {
				return false // the golden ends first, or cannot be read on
			}
		}
		have := t.win[pos-t.at:]
		k := min(len(have), len(p))
		if !bytes.Equal(have[:k], p[:k]) {
			return false
		}
		p, pos = p[k:], pos+int64(k)
	}
	return true
}

// fill reads the golden's window from pos, and reports whether it holds
// any byte: not at the golden's end, nor where it cannot be read.
func (t *twin) fill(pos int64) bool {
	if cap(t.win) == 0 {
		t.win = make([]byte, twinWindow)
	}
	n, _ := t.g.ReadAt(t.win[:cap(t.win)], pos) // an error is also the end of what is known to match
	t.win, t.at = t.win[:n], pos
	return n > 0
}

// untwin ends the twinning: it copies the bytes matched so far from the
// open golden into the file (on Linux a copy_file_range, no pass through
// memory) and closes the golden, so that writing can go on in the file.
func (f *File) untwin() error {
	t := f.twin
	f.twin = nil
	defer t.g.Close()
	if t.n == 0 {
		return nil
	}
	if _, err := t.g.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("copy from golden %s: %w", t.path, err)
	}
	copied, err := io.CopyN(f.f, t.g, t.n)
	if err != nil {
		return fmt.Errorf("copy %d bytes from golden %s: %w", t.n, t.path, err)
	}
	if copied != t.n {
		return fmt.Errorf("copy from golden %s: %d bytes of %d", t.path, copied, t.n)
	}
	return nil
}

// linkTwin puts a link to the golden at the File's path when the output
// was the golden whole and the name still holds the file compared. It
// returns the golden as it found it when it did, nil when it did not, and
// leaves the File for the caller to finish: aborted when linked, copied
// from the twin when not.
func (f *File) linkTwin() (fs.FileInfo, error) {
	t := f.twin
	fi, err := t.g.Stat()
	if err != nil {
		return nil, fmt.Errorf("golden %s: %w", t.path, err)
	}
	if fi.Size() != t.n {
		return nil, nil // the output is a prefix of the golden
	}
	link := f.linkName()
	if err := os.Link(t.path, link); err != nil {
		return nil, nil // another file system, or links refused: copy
	}
	if li, err := os.Lstat(link); err != nil || !os.SameFile(li, fi) {
		os.Remove(link) // the golden was replaced after it was opened
		return nil, nil
	}
	if err := os.Rename(link, f.path); err != nil {
		os.Remove(link)
		return nil, fmt.Errorf("replace %s: %w", f.path, err)
	}
	return fi, nil
}

// linkName is the temporary name a twin's golden is linked to before it is
// renamed into place: beside the File's own temporary, and as unique.
func (f *File) linkName() string { return f.f.Name() + "-link" }
