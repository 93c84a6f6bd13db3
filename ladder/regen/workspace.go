package regen

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"

	"github.com/chronicle/ladder/ladder/confine"
)

// WorkDir is where everything temporary of a regeneration or an accept
// lives, relative to the repository root: the two renderings of the
// determinism proof, the staged files of a switch and its journal, and the
// lock. It is ignored by git, and the next run removes whatever a killed
// run left there.
const WorkDir = "goldens/.regen"

// Workspace is WorkDir, held under an exclusive lock for the length of one
// regeneration or accept. A process killed with SIGKILL releases the lock
// with its file descriptors, so a later Open always gets it back and can
// tell debris (anything in WorkDir) from another run's work in progress.
type Workspace struct {
	root string
	dir  string
	lock *os.File
	// step, when set, is called at each named point of a switch (tests
	// stop a child process there and kill it; see export_test.go).
	step func(point string)
}

// Recovery is what Open found of an interrupted run and what it did.
type Recovery struct {
	// Finished lists golden files (relative to the root) moved into place
	// by rolling forward a switch that had committed: the run was killed
	// after deciding to switch, so the switch is completed, not undone.
	Finished []string
	// Removed lists temporary paths (relative to the root) deleted:
	// renderings, files staged for a switch that never committed, and the
	// .<file>.tmp-N files older versions of this tool left in golden
	// directories.
	Removed []string
}

// Empty reports whether there was nothing to recover.
func (r Recovery) Empty() bool { return len(r.Finished) == 0 && len(r.Removed) == 0 }

func (r Recovery) String() string {
	var parts []string
	if len(r.Finished) > 0 {
		parts = append(parts, fmt.Sprintf("finished an interrupted switch (%d golden file(s) moved into place: %s)",
			len(r.Finished), strings.Join(r.Finished, ", ")))
	}
	if len(r.Removed) > 0 {
		parts = append(parts, fmt.Sprintf("removed what an interrupted run left behind: %s", strings.Join(r.Removed, ", ")))
	}
	return strings.Join(parts, "; ")
}

// ErrBusy means another regeneration or accept holds the workspace — or
// the renderers of a killed one are still finishing.
var ErrBusy = errors.New("another regeneration or accept is running (it holds " + WorkDir +
	"/lock; the renderers of a killed run hold it until they finish: try again in a moment)")

const (
	lockName    = "lock"
	journalName = "journal"
	stageName   = "stage"
)

// Open takes the workspace under root, waiting for nobody: it fails with
// ErrBusy when another process holds it. It then clears what an
// interrupted run left, finishing a committed switch first — unless a file
// it names has changed since the switch (a `git checkout`, a hand edit):
// then it refuses with a *StaleError and changes nothing, and only Abandon
// gets the goldens back to a sealed state.
func Open(root string) (*Workspace, Recovery, error) {
	w, err := lock(root)
	if err != nil {
		return nil, Recovery{}, err
	}
	rec, err := w.recover()
	if err != nil {
		w.lock.Close()
		return nil, rec, err
	}
	return w, rec, nil
}

// lock takes the workspace's lock, creating its directory. A goldens/ or
// workspace that is a symlink is refused before anything is written: the
// workspace is cleared on every Open, and a link would carry the clearing
// wherever it leads.
func lock(root string) (*Workspace, error) {
	if err := confine.Check(root, WorkDir+"/"+lockName); err != nil {
		return nil, fmt.Errorf("open workspace: %w", err)
	}
	dir := filepath.Join(root, filepath.FromSlash(WorkDir))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("open workspace: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, lockName), os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open workspace: %w", err)
	}
	// flock, not a lock file's existence: the kernel drops the lock when
	// its holder dies, however it dies.
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lock.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrBusy
		}
		return nil, fmt.Errorf("lock workspace: %w", err)
	}
	return &Workspace{root: root, dir: dir, lock: lock, step: testStep}, nil
}

// testStep is every new Workspace's step (nil but in tests, which stop a
// child process at a named point of Open, Commit or Abandon to kill it).
var testStep func(point string)

// Inherit returns the locked file for child processes to inherit
// (exec.Cmd.ExtraFiles): an flock belongs to the open file, so while any
// child holding it lives the workspace stays locked, even if this process
// is killed — a later Open cannot clear a directory a renderer is still
// writing.
func (w *Workspace) Inherit() *os.File { return w.lock }

// RunDir is the directory of rendering n (1 or 2) of the determinism proof.
func (w *Workspace) RunDir(n int) string {
	return filepath.Join(w.dir, fmt.Sprintf("run-%d", n))
}

// Close removes the workspace's temporaries and releases it.
func (w *Workspace) Close() error {
	_, err := w.clear()
	return errors.Join(err, w.lock.Close())
}

// Commit writes files (repository-relative slash paths, each to the file
// holding its new bytes: a rendering, a run's artifact) so that, as any
// later Open sees it, either none or all of them are in place. Each is
// copied into the workspace's stage in chunks and synced, and each
// target's current bytes are copied aside; then a
// journal naming every file with the hashes of its old and new bytes is
// written atomically — the commit point; then each staged file is renamed
// over its target. A run killed before the journal exists leaves only
// staged files, which the next Open deletes; one killed after leaves the
// journal, which the next Open replays if every target still holds what
// the journal expects there, and which Abandon undoes. A target whose
// path runs through a symlink (a golden set committed as one) is refused
// before anything is staged.
func (w *Workspace) Commit(files map[string]string) error {
	paths := slices.Sorted(maps.Keys(files))
	for _, p := range paths {
		if err := w.confined(p); err != nil {
			return err
		}
	}
	stage := filepath.Join(w.dir, stageName)
	j := journal{Version: journalVersion}
	for _, p := range paths {
		w.at("stage " + p)
		sum, err := copySynced(filepath.Join(stage, filepath.FromSlash(p)), files[p])
		if err != nil {
			return fmt.Errorf("stage %s: %w", p, err)
		}
		old, err := w.keepOld(p)
		if err != nil {
			return fmt.Errorf("stage %s: keep its old bytes: %w", p, err)
		}
		j.Files = append(j.Files, journalFile{Path: p, Old: old, New: sum})
	}
	w.at("journal")
	if len(paths) == 0 {
		return nil
	}
	data, err := json.Marshal(j)
	if err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	if err := WriteAtomic(filepath.Join(w.dir, journalName), append(data, '\n')); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return w.replay(&j)
}

// keepOld copies the target of p into the workspace's old/ and returns
// the hash of its bytes, "" when it has none. A copy, not a hard link: a
// tool that writes a golden in place after a kill (an editor, a test)
// would change a linked copy too, and abandoning would restore nothing.
func (w *Workspace) keepOld(p string) (string, error) {
	target := filepath.Join(w.root, filepath.FromSlash(p))
	if _, err := os.Lstat(target); errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	return copySynced(filepath.Join(w.dir, oldName, filepath.FromSlash(p)), target)
}

// replay moves every staged file of a committed journal into place (a file
// already moved is skipped), then drops the journal, the stage and the
// old bytes.
func (w *Workspace) replay(j *journal) error {
	stage := filepath.Join(w.dir, stageName)
	for _, f := range j.Files {
		p := f.Path
		w.at("switch " + p)
		from := filepath.Join(stage, filepath.FromSlash(p))
		to := filepath.Join(w.root, filepath.FromSlash(p))
		if _, err := os.Lstat(from); errors.Is(err, fs.ErrNotExist) {
			continue // moved before the interruption
		}
		if err := confine.Check(w.root, p); err != nil {
			return fmt.Errorf("switch %s: %w", p, err)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return fmt.Errorf("switch %s: %w", p, err)
		}
		if err := os.Rename(from, to); err != nil {
			return fmt.Errorf("switch %s: %w", p, err)
		}
	}
	if err := os.Remove(filepath.Join(w.dir, journalName)); err != nil {
		return fmt.Errorf("switch: drop the journal: %w", err)
	}
	return errors.Join(os.RemoveAll(stage), os.RemoveAll(filepath.Join(w.dir, oldName)))
}

func (w *Workspace) at(point string) {
	if w.step != nil {
		w.step(point)
	}
}

// recover finishes a committed switch whose targets are as its journal
// expects, refuses one whose targets changed since or that an interrupted
// Abandon has started to put back (*StaleError), or whose journal cannot
// be read, then removes every other entry of the workspace
// and any temporary file an older version of this tool left beside a
// golden.
func (w *Workspace) recover() (Recovery, error) {
	var rec Recovery
	j, err := readJournal(w.dir)
	switch {
	case err == nil:
		if p := inspect(w.root, w.dir, j); len(p.Stale) > 0 || p.Abandoning {
			return rec, &StaleError{Pending: p}
		}
		for _, f := range j.Files {
			if _, err := os.Lstat(filepath.Join(w.dir, stageName, filepath.FromSlash(f.Path))); err == nil {
				rec.Finished = append(rec.Finished, f.Path)
			}
		}
		if err := w.replay(j); err != nil {
			return rec, fmt.Errorf("finish an interrupted switch: %w", err)
		}
	case errors.Is(err, fs.ErrNotExist):
	default:
		return rec, fmt.Errorf("interrupted switch: %s", (&Pending{Unreadable: err.Error()}).Advice())
	}
	removed, err := w.clear()
	rec.Removed = removed
	if err != nil {
		return rec, err
	}
	legacy, err := removeLegacyTemps(w.root)
	rec.Removed = append(rec.Removed, legacy...)
	return rec, err
}

// clear removes every entry of the workspace but the lock.
func (w *Workspace) clear() ([]string, error) {
	entries, err := os.ReadDir(w.dir)
	if err != nil {
		return nil, fmt.Errorf("clear workspace: %w", err)
	}
	var removed []string
	for _, e := range entries {
		if e.Name() == lockName {
			continue
		}
		if err := os.RemoveAll(filepath.Join(w.dir, e.Name())); err != nil {
			return removed, fmt.Errorf("clear workspace: %w", err)
		}
		removed = append(removed, WorkDir+"/"+e.Name())
	}
	return removed, nil
}

// legacyTemp is the name os.CreateTemp gave the temporary files that
// versions before the workspace wrote beside each golden.
var legacyTemp = regexp.MustCompile(`^\.(dense\.csv|checkpoints\.json|trace\.jsonl)\.tmp-[0-9]+$`)

func removeLegacyTemps(root string) ([]string, error) {
	var removed []string
	goldens := filepath.Join(root, "goldens")
	err := filepath.WalkDir(goldens, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && p != goldens && d.Name() == path.Base(WorkDir):
			return filepath.SkipDir
		case d.Type().IsRegular() && legacyTemp.MatchString(d.Name()):
			if err := os.Remove(p); err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			removed = append(removed, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return removed, fmt.Errorf("remove stale temporary files: %w", err)
	}
	return removed, nil
}

// confined accepts a golden file path (checkPath) none of whose existing
// components below the root is a symlink.
func (w *Workspace) confined(p string) error {
	if err := checkPath(p); err != nil {
		return err
	}
	return confine.Check(w.root, p)
}

// checkPath accepts only clean slash paths inside goldens/, so neither a
// caller nor a tampered journal can move a file anywhere else.
func checkPath(p string) error {
	if !strings.HasPrefix(p, "goldens/") || path.Clean(p) != p || strings.HasPrefix(p, WorkDir+"/") || p == WorkDir {
		return fmt.Errorf("%q is not a golden file path", p)
	}
	return nil
}

// copySynced copies the file src to a new file p and syncs it, creating
// its directory; it returns the SHA-256 of the bytes copied, in hex.
func copySynced(p, src string) (string, error) {
	in, err := os.Open(src)
	if err != nil {
		return "", err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", err
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(f, h), in); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), f.Close()
}
