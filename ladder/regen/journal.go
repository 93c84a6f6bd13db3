package regen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/chronicle/ladder/ladder/seal"
)

// journal is the commit record of a switch: every golden file it moves
// into place, with the SHA-256 of the bytes the target held before (""
// when there was no file) and of the bytes it is switched to. Recorded
// hashes are what make an interrupted switch safe to act on later: a
// target that holds neither what the journal says it held nor what it
// was switching to has been changed since (a `git checkout`, a hand
// edit), and replaying the journal over it would undo that change
// silently, so such a journal is refused, never replayed.
type journal struct {
	Version int           `json:"version"`
	Files   []journalFile `json:"files"`
}

type journalFile struct {
	Path string `json:"path"`
	Old  string `json:"old"` // "" when the file did not exist before the switch
	New  string `json:"new"`
}

const (
	journalVersion = 1
	// oldName holds, for each journal file that existed before the switch,
	// a copy of its old bytes, so the switch can be abandoned and the
	// goldens put back as they were.
	oldName = "old"
	// abandonName records, while Abandon runs, that it has started: a
	// switch partly put back must be abandoned to the end, never finished.
	abandonName = "abandoning"
)

// Stale is a file of an interrupted switch whose bytes are neither what
// the switch found there nor what it was moving in: changed since.
type Stale struct {
	Path string
	// Moved says whether the switch had already moved this file into
	// place when it was killed.
	Moved bool
}

// Pending describes a switch that committed but did not finish: the
// goldens are part old, part new until it is finished or abandoned.
type Pending struct {
	Files int // files the switch moves
	Moved int // of which were in place when it was killed
	// Sets are the golden directories it touches, in journal order.
	Sets []string
	// Stale lists the files changed since the switch; a pending switch
	// with any cannot be finished, only abandoned.
	Stale []Stale
	// Unreadable is why the journal could not be read ("" when it could).
	Unreadable string
	// Abandoning says that `make goldens ABANDON=1` was killed part way
	// through putting the files back: only running it again ends it.
	Abandoning bool
}

// Advice is the one line that says what the pending switch is and what
// to do about it, for every command that meets it (make ladder, review,
// accept, make goldens).
func (p *Pending) Advice() string {
	const abandon = "`make goldens ABANDON=1`"
	if p.Unreadable != "" {
		return fmt.Sprintf("%s/%s, the journal of a killed regeneration or accept, cannot be read (%s): nothing will replay it; "+
			"remove %s and restore the goldens from git (`git checkout HEAD -- goldens/`)", WorkDir, journalName, p.Unreadable, WorkDir)
	}
	sets := strings.Join(p.Sets, ", ")
	if len(p.Sets) > 3 {
		sets = fmt.Sprintf("%s … (%d sets)", strings.Join(p.Sets[:3], ", "), len(p.Sets))
	}
	if p.Abandoning {
		return fmt.Sprintf("goldens are half switched back: abandoning a killed switch of %d golden file(s) in %s was itself interrupted: "+
			"run %s again, which puts back what is left and leaves the goldens sealed as they were before the switch", p.Files, sets, abandon)
	}
	head := fmt.Sprintf("goldens are half switched: a regeneration or accept was killed after committing a switch of %d golden file(s) in %s (%d moved into place)",
		p.Files, sets, p.Moved)
	if len(p.Stale) > 0 {
		s := p.Stale[0]
		state := "it had not moved yet"
		if s.Moved {
			state = "it had already moved"
		}
		more := ""
		if len(p.Stale) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(p.Stale)-1)
		}
		return fmt.Sprintf("%s, and %s%s has changed since (%s; a `git checkout`?), so the switch will not be replayed over it: "+
			"abandon it with %s, which puts back every file the switch touched as it was before and leaves the goldens sealed", head, s.Path, more, state, abandon)
	}
	return fmt.Sprintf("%s: finish it with `make goldens FINISH=1`, or abandon it with %s, which puts back every file as it was before the switch", head, abandon)
}

// Switched reports whether the pending switch touches the golden set in
// dir (relative to the root, slash-separated).
func (p *Pending) Switched(dir string) bool {
	for _, s := range p.Sets {
		if s == dir {
			return true
		}
	}
	return false
}

// Interrupted returns the switch under root that committed but did not
// finish, or nil when there is none — or when one is being made right now
// (a live regeneration or accept holds the workspace). It reads and hashes
// what the journal names and changes nothing.
func Interrupted(root string) *Pending {
	dir := filepath.Join(root, filepath.FromSlash(WorkDir))
	if _, err := os.Stat(filepath.Join(dir, journalName)); err != nil {
		return nil
	}
	if lock, err := os.Open(filepath.Join(dir, lockName)); err == nil {
		defer lock.Close()
		if errors.Is(syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB), syscall.EWOULDBLOCK) {
			return nil // a switch in progress, not an interrupted one
		}
	}
	j, err := readJournal(dir)
	if err != nil {
		return &Pending{Unreadable: err.Error()}
	}
	return inspect(root, dir, j)
}

// inspect compares each journal file's target with what the journal
// recorded.
func inspect(root, dir string, j *journal) *Pending {
	_, err := os.Lstat(filepath.Join(dir, abandonName))
	p := &Pending{Files: len(j.Files), Abandoning: err == nil}
	for _, f := range j.Files {
		set := setOf(f.Path)
		if len(p.Sets) == 0 || p.Sets[len(p.Sets)-1] != set {
			if !p.Switched(set) {
				p.Sets = append(p.Sets, set)
			}
		}
		_, err := os.Lstat(filepath.Join(dir, stageName, filepath.FromSlash(f.Path)))
		moved := errors.Is(err, fs.ErrNotExist)
		if moved {
			p.Moved++
		}
		want := f.Old
		if moved {
			want = f.New
		}
		if got := hashOf(filepath.Join(root, filepath.FromSlash(f.Path))); got != want {
			p.Stale = append(p.Stale, Stale{Path: f.Path, Moved: moved})
		}
	}
	return p
}

// setOf is the golden set directory of a golden file: goldens/<rung>[/<case>]
// is the file's directory.
func setOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[:i]
	}
	return path
}

// hashOf is the SHA-256 of a file's bytes in hex, "" when it does not
// exist (or cannot be read, which the journal's hashes never match).
func hashOf(path string) string {
	sum, err := seal.Digest(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ""
	case err != nil:
		return "unreadable"
	}
	return sum
}

func readJournal(dir string) (*journal, error) {
	data, err := os.ReadFile(filepath.Join(dir, journalName))
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var j journal
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("not a journal this version writes: %w", err)
	}
	if j.Version != journalVersion {
		return nil, fmt.Errorf("journal version %d, this tool writes %d", j.Version, journalVersion)
	}
	for _, f := range j.Files {
		if err := checkPath(f.Path); err != nil {
			return nil, err
		}
	}
	return &j, nil
}

// StaleError refuses to replay a journal whose targets changed since it
// was written.
type StaleError struct{ Pending *Pending }

func (e *StaleError) Error() string { return "interrupted switch not replayed: " + e.Pending.Advice() }

// Abandoned is what abandoning a pending switch put back.
type Abandoned struct {
	Restored []string // golden files given their bytes from before the switch
	Removed  []string // golden files the switch had added, removed
	// Overwrote lists the files among those that held neither the old nor
	// the new bytes: a change made after the kill, now undone.
	Overwrote []string
}

func (a Abandoned) String() string {
	if len(a.Restored)+len(a.Removed) == 0 {
		return "no interrupted switch to abandon"
	}
	s := fmt.Sprintf("abandoned the interrupted switch: %d golden file(s) put back as they were before it", len(a.Restored))
	if len(a.Removed) > 0 {
		s += fmt.Sprintf(", %d it had added removed", len(a.Removed))
	}
	if len(a.Overwrote) > 0 {
		s += fmt.Sprintf("; these had been changed since and that change is undone: %s", strings.Join(a.Overwrote, ", "))
	}
	return s
}

// Abandon discards a switch that committed but did not finish: under the
// workspace lock, every file the journal names gets back the bytes it had
// before the switch (or is removed, when the switch added it), then the
// journal is dropped and the workspace cleared. With no journal it does
// nothing. Afterwards the goldens are what they were before the killed
// run — sealed, as every switch moves a set's files and its seal together.
//
// Abandoning can be killed too, and is made so that running it again
// finishes it: before it changes a golden it records that it is under
// way (abandonName, which makes Interrupted, Open and so FINISH=1 and
// `make goldens` say to run ABANDON=1 again, never roll the switch
// forward); each step is skipped when already done (a file that holds its
// old bytes is not put back again, and so needs no saved copy); and the
// journal is dropped first of all that is left, once every file is back.
// Every saved copy a step needs is checked before the first step, so it
// refuses before it changes anything, not half way.
func Abandon(root string) (Abandoned, error) {
	w, err := lock(root)
	if err != nil {
		return Abandoned{}, err
	}
	defer w.lock.Close()
	var out Abandoned
	j, err := readJournal(w.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		_, err = w.clear()
		return out, err
	case err != nil:
		return out, fmt.Errorf("abandon: %s/%s: %w (remove %s and restore the goldens from git)", WorkDir, journalName, err, WorkDir)
	}
	for _, f := range j.Files {
		if err := w.confined(f.Path); err != nil {
			return out, fmt.Errorf("abandon: %w", err)
		}
		target := filepath.Join(root, filepath.FromSlash(f.Path))
		if f.Old == "" || hashOf(target) == f.Old {
			continue
		}
		if hashOf(filepath.Join(w.dir, oldName, filepath.FromSlash(f.Path))) != f.Old {
			return out, fmt.Errorf("abandon: the saved copy of %s is missing or damaged and the file does not hold its bytes from before the switch: "+
				"restore it from git (`git checkout HEAD -- %s`) and run `make goldens ABANDON=1` again; nothing was changed", f.Path, f.Path)
		}
	}
	p := inspect(root, w.dir, j)
	stale := map[string]bool{}
	for _, s := range p.Stale {
		stale[s.Path] = true
	}
	if err := WriteAtomic(filepath.Join(w.dir, abandonName), []byte("an abandon of the switch in "+journalName+" is under way\n")); err != nil {
		return out, fmt.Errorf("abandon: %w", err)
	}
	for _, f := range j.Files {
		w.at("abandon " + f.Path)
		target := filepath.Join(root, filepath.FromSlash(f.Path))
		if stale[f.Path] && hashOf(target) != f.Old {
			out.Overwrote = append(out.Overwrote, f.Path)
		}
		if f.Old == "" {
			if err := os.Remove(target); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return out, fmt.Errorf("abandon: %w", err)
			}
			removeEmptyDirs(root, filepath.Dir(target))
			out.Removed = append(out.Removed, f.Path)
			continue
		}
		if hashOf(target) != f.Old {
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return out, fmt.Errorf("abandon: %w", err)
			}
			if err := os.Rename(filepath.Join(w.dir, oldName, filepath.FromSlash(f.Path)), target); err != nil {
				return out, fmt.Errorf("abandon: put back %s: %w", f.Path, err)
			}
		}
		out.Restored = append(out.Restored, f.Path)
	}
	w.at("abandon " + journalName)
	if err := os.Remove(filepath.Join(w.dir, journalName)); err != nil {
		return out, fmt.Errorf("abandon: drop the journal: %w", err)
	}
	_, err = w.clear()
	return out, err
}

// removeEmptyDirs removes dir and its parents while they are empty, up
// to goldens/ (kept): what a switch that added a new set leaves behind
// when it is abandoned.
func removeEmptyDirs(root, dir string) {
	stop := filepath.Join(root, "goldens")
	for dir != stop && strings.HasPrefix(dir, stop+string(filepath.Separator)) {
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}
