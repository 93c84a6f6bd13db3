package history

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"

	"github.com/chronicle/ladder/ladder/seal"
)

// SameSeal reports whether the golden manifest at golden seals what the
// run's manifest at fresh seals — the same set, the same files with the
// same digests — the set's history aside: no run renders a history, so a
// run's manifest never names one, and the writers of goldens add it
// (Seal). A manifest that does not verify seals nothing the same.
func SameSeal(golden, fresh string) (bool, error) {
	gb, err := os.ReadFile(golden) // a manifest: a few hundred bytes
	if err != nil {
		return false, err
	}
	fb, err := os.ReadFile(fresh)
	if err != nil {
		return false, err
	}
	g, errG := seal.Parse(gb)
	f, errF := seal.Parse(fb)
	if errG != nil || errF != nil {
		return false, nil
	}
	delete(g.Files, File)
	return g.Set == f.Set && maps.Equal(g.Files, f.Files), nil
}

// Seal returns the manifest the writers of goldens put beside a set with
// a history: the run's manifest (its bytes, fresh), which seals the files
// the run wrote, sealing the history's bytes too. So the history is part
// of its set's seal — an edit to it breaks the seal as an edit to a golden
// does — without being an artifact any run renders or compares.
func Seal(fresh, history []byte) ([]byte, error) {
	m, err := seal.Parse(fresh)
	if err != nil {
		return nil, fmt.Errorf("seal the history: the run's manifest: %w", err)
	}
	m.Files[File] = digest(history)
	return m.Encode()
}

// Prior returns the history of the set in dir (repository-relative, under
// root; named set), as its seal
// vouches for it, for a writer to append to: nil when the set has none. A
// history its seal does not match, or does not name, is an error —
// appending to it and sealing the result would pass a hand edit off as
// the writers' — whose advice is to restore it. A set whose manifest is
// missing or does not verify has no seal to hold the history to, and the
// history is taken as it stands, as such a set's goldens are resealed
// when the engine reproduces them: after a merge that joined two
// histories, removing the set's manifest.json and regenerating reseals it.
func Prior(root, dir, set string) ([]byte, error) {
	abs := filepath.Join(root, filepath.FromSlash(dir))
	path := filepath.Join(abs, File)
	b, err := os.ReadFile(path) // a line per change: small
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("read the history of %s: %w", set, err)
	}
	mb, err := os.ReadFile(filepath.Join(abs, seal.File))
	if err != nil {
		return b, nil
	}
	m, err := seal.Parse(mb)
	if err != nil || m.Set != set {
		return b, nil
	}
	rel := dir + "/" + File
	restore := fmt.Sprintf("restore it and its seal (`git checkout HEAD -- %s %s/%s`): a history is appended to only as its seal vouches for it",
		rel, dir, seal.File)
	switch sealed, ok := m.Files[File]; {
	case !ok:
		return nil, fmt.Errorf("%s is in the set but not in its seal: %s", rel, restore)
	case sealed != digest(b):
		return nil, fmt.Errorf("%s does not match its seal (sealed sha256 %s, now %s): %s",
			rel, seal.Short(sealed), seal.Short(digest(b)), restore)
	}
	return b, nil
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
