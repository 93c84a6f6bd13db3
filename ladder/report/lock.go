package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/chronicle/ladder/ladder/confine"
)

// LockFile is the lock a run holds on its reports directory for as long as
// it runs: an flock on <dir>/.lock, whose text is the holder's PID.
const LockFile = ".lock"

// Marker is the file every reports directory the ladder made carries. A
// run clears its reports directory first, and a mistyped LADDER_REPORTS
// (or a reports/ made a symlink) would otherwise lose whatever the
// directory held: so a directory is cleared only when it carries the
// marker, or holds nothing (a new directory, which Lock marks).
const Marker = ".ladder-reports"

// BusyError is a reports directory another run holds.
type BusyError struct {
	Dir string
	PID int // the holder's, as its lock file says; 0 when it says nothing readable
	// Reading is set when a reader (LockShared) was refused: a run is
	// writing the directory.
	Reading bool
}

func (e *BusyError) Error() string {
	who := "another run"
	if e.PID > 0 {
		who = fmt.Sprintf("another run (PID %d)", e.PID)
	}
	if e.Reading {
		return fmt.Sprintf("%s is being written by %s: what it holds is not one run's until that run ends; wait for it to finish", e.Dir, who)
	}
	return fmt.Sprintf("%s is in use by %s: a second run would clear it under the first; "+
		"wait for it to finish, or give this run a directory of its own with LADDER_REPORTS=<dir>", e.Dir, who)
}

// NotReportsError is a directory a run was given for its reports that
// holds files but no Marker: not one the ladder made, so not one it may
// clear.
type NotReportsError struct {
	Dir   string
	Holds []string // a few of its entries, sorted
}

func (e *NotReportsError) Error() string {
	return fmt.Sprintf("not a reports directory: %s holds %s but no %s, the file every reports directory the ladder made carries, "+
		"and a run clears its reports directory first: nothing was written or deleted; give the run a new or empty directory "+
		"(LADDER_REPORTS=<dir>), or, if this is a reports directory an older ladder made, remove it yourself",
		e.Dir, strings.Join(e.Holds, ", "), Marker)
}

// Lock takes dir (created if need be) for one run, waiting for nobody: it
// fails with a *BusyError naming the holder's PID when another process
// holds it. The lock is the kernel's (flock), so a run killed however it
// dies releases it; it is held until the returned file is closed or the
// process exits.
//
// Before it writes anything, Lock refuses a dir that is a symlink, or
// whose lock file or marker is one (a *confine.LinkError), and a dir that
// holds files but no Marker (a *NotReportsError). A dir it may take
// carries the Marker afterwards.
func Lock(dir string) (*os.File, error) {
	if err := owned(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	// O_NOFOLLOW (flock): a link planted after owned looked is refused by
	// the kernel rather than followed.
	f, err := flock(dir, os.O_RDWR, syscall.LOCK_EX)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(0); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if _, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := mark(dir); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// owned refuses a reports directory a run may not take: a symlink, one
// whose lock file or marker is a symlink, or one that holds files but no
// marker. A directory that does not exist yet is fine.
func owned(dir string) error {
	if err := confine.Dir(dir); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("lock %s: %w", dir, err)
	}
	marked := false
	var holds []string
	for _, e := range entries {
		switch e.Name() {
		case LockFile, Marker:
			if err := confine.Check(dir, e.Name()); err != nil {
				return err
			}
			marked = marked || e.Name() == Marker && e.Type().IsRegular()
		default:
			holds = append(holds, e.Name())
		}
	}
	if len(holds) > 0 && !marked {
		slices.Sort(holds)
		if len(holds) > 3 {
			holds = append(holds[:3], fmt.Sprintf("… (%d entries)", len(holds)))
		}
		return &NotReportsError{Dir: dir, Holds: holds}
	}
	return nil
}

// Adopt makes dir a marked reports directory when it does not exist yet,
// for a tool that writes below one before any run has made it (`make
// explore` writes reports/explore/): the next run may then clear it, as
// it clears what any run left there. An existing dir is left as it is;
// one that is a symlink is refused (a *confine.LinkError).
func Adopt(dir string) error {
	if err := confine.Dir(dir); err != nil {
		return err
	}
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("make %s: %w", dir, err)
	}
	return mark(dir)
}

// mark writes the Marker into dir, which the caller holds, when it is not
// there yet.
func mark(dir string) error {
	f, err := os.OpenFile(filepath.Join(dir, Marker), os.O_CREATE|os.O_WRONLY|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return fmt.Errorf("mark %s as a reports directory: %w", dir, err)
	}
	return f.Close()
}

// LockShared takes dir for reading (verify, page, review, accept): a run
// holds it exclusively while it clears and writes it, so a reader waits
// for nobody and fails with a *BusyError while a run is under way. A
// directory without the Marker (a downloaded CI artifact) is read without
// a lock: no run may clear it. The returned file, nil then, releases the
// lock when closed.
func LockShared(dir string) (*os.File, error) {
	if err := confine.Dir(dir); err != nil {
		return nil, err
	}
	if info, err := os.Lstat(filepath.Join(dir, Marker)); err != nil || !info.Mode().IsRegular() {
		return nil, nil
	}
	return flock(dir, os.O_RDONLY, syscall.LOCK_SH)
}

// holder reads the PID a lock file names (0 when it names none).
func holder(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return 0
	}
	return pid
}

// Clear empties dir but for its lock and marker, so what it holds
// afterwards is this run's alone; the caller holds the lock (Lock), which
// has refused a dir that is not a reports directory. A symlink inside is
// removed, never followed.
func Clear(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("clear %s: %w", dir, err)
	}
	for _, e := range entries {
		if e.Name() == LockFile || e.Name() == Marker {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("clear %s: %w", dir, err)
		}
	}
	return nil
}

// flock opens dir's lock file (mode os.O_RDWR or os.O_RDONLY, never
// through a link) and takes it how (syscall.LOCK_EX or LOCK_SH) without
// waiting: a BusyError naming the holder when another run holds it.
func flock(dir string, mode, how int) (*os.File, error) {
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_CREATE|mode|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &BusyError{Dir: dir, PID: holder(path), Reading: how == syscall.LOCK_SH}
		}
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	return f, nil
}
