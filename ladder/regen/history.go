package regen

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/history"
)

// Note is what a writer of goldens knows of a change that the files do
// not say, for the entry it appends to the set's history: who writes
// ("accept", "goldens"), why, and the hash of the code that produced the
// files (pending.CodeHash).
type Note struct {
	By, Reason, CodeHash string
}

// ErrNoReason is Chronicle's refusal of a changed set with no reason: the
// goldens of record move only with the reason their history keeps.
var ErrNoReason = errors.New("its goldens change, and a change is kept only with its reason")

// ReasonError means that selected sets change and no reason was given,
// so nothing was written.
type ReasonError struct {
	Sets []string // in file order
}

func (e *ReasonError) Error() string {
	return fmt.Sprintf("goldens refused, nothing was written: %d set(s) change (%s), and each set's history records why its "+
		"goldens changed: say why with `make goldens REASON=\"…\"` (`go run ./tools/ladder goldens -reason \"…\"`); a new set needs none",
		len(e.Sets), strings.Join(e.Sets, ", "))
}

// composedName is the workspace directory holding the files a writer makes
// rather than copies, until Commit stages them.
const composedName = "composed"

// Chronicle completes the switch of f's set — files maps each golden
// path to the file of its new bytes, as Commit takes them, and fresh maps
// f's artifacts to the files that become them — with the set's history
// (package history): when the set is new or changed it appends an entry,
// the change measured from the goldens under the workspace's root to the
// fresh files and what note says, and whenever the set's manifest is
// written it seals the history too. The new history and manifest are
// made in the workspace and added to files, so they switch with the
// goldens, all or nothing. A changed set needs note.Reason: without one
// Chronicle returns ErrNoReason and adds nothing. It returns the entry,
// nil when it made none.
func (w *Workspace) Chronicle(f *fixture.Fixture, fresh, files map[string]string, note Note) (*history.Entry, error) {
	dir := f.GoldenDir()
	var changes []Change
	var changed []string
	for _, name := range ladder.Artifacts(f) {
		if _, ok := files[dir+"/"+name]; !ok {
			continue
		}
		_, err := os.Stat(filepath.Join(w.root, filepath.FromSlash(dir), name))
		changes = append(changes, Change{Name: name, Path: dir + "/" + name, New: errors.Is(err, os.ErrNotExist)})
		if name != artifact.ManifestFile {
			changed = append(changed, name)
		}
	}
	state := classify(f, changes)
	if state == "unchanged" {
		return nil, nil
	}
	if state == "changed" && note.Reason == "" {
		return nil, ErrNoReason
	}
	prior, err := history.Prior(w.root, dir, f.Name())
	if err != nil {
		return nil, err
	}
	var entry *history.Entry
	if state != "sealed" {
		e := history.Entry{State: history.New}
		if state == "changed" {
			if e, err = history.Measure(filepath.Join(w.root, filepath.FromSlash(dir)), fresh, changed); err != nil {
				return nil, err
			}
		}
		e.By, e.Fixture, e.FixtureHash, e.CodeHash, e.Reason = note.By, w.relative(f.File), f.Hash, note.CodeHash, note.Reason
		line, err := e.Encode()
		if err != nil {
			return nil, err
		}
		prior = append(prior, line...)
		if files[dir+"/"+history.File], err = w.compose(dir+"/"+history.File, prior); err != nil {
			return nil, err
		}
		entry = &e
	}
	if prior == nil {
		return nil, nil // no history: the run's manifest is the set's
	}
	run, err := os.ReadFile(fresh[artifact.ManifestFile])
	if err != nil {
		return nil, fmt.Errorf("seal the history of %s: %w", f.Name(), err)
	}
	manifest, err := history.Seal(run, prior)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	if files[dir+"/"+artifact.ManifestFile], err = w.compose(dir+"/"+artifact.ManifestFile, manifest); err != nil {
		return nil, err
	}
	return entry, nil
}

// compose writes data, the new bytes of the golden p (a repository-relative
// slash path), into the workspace and returns the file, for Commit to
// stage like any other. Close removes it with the rest of the workspace.
func (w *Workspace) compose(p string, data []byte) (string, error) {
	if err := checkPath(p); err != nil {
		return "", err
	}
	path := filepath.Join(w.dir, composedName, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", fmt.Errorf("compose %s: %w", p, err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", fmt.Errorf("compose %s: %w", p, err)
	}
	return path, nil
}

// relative is a path as the repository names it (fixtures/T2.1-spread.yaml),
// whatever the root was given as: the entry must not depend on where the
// checkout is.
func (w *Workspace) relative(p string) string {
	if rel, err := filepath.Rel(w.root, p); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}
