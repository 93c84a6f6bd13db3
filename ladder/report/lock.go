package report

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// LockFile is the lock a run holds on its reports directory for as long as
// it runs: an flock on <dir>/.lock, whose text is the holder's PID.
const LockFile = ".lock"

// BusyError is a reports directory another run holds.
type BusyError struct {
	Dir string
	PID int // the holder's, as its lock file says; 0 when it says nothing readable
}

func (e *BusyError) Error() string {
	who := "another run"
	if e.PID > 0 {
		who = fmt.Sprintf("another run (PID %d)", e.PID)
	}
	return fmt.Sprintf("%s is in use by %s: a second run would clear it under the first; "+
		"wait for it to finish, or give this run a directory of its own with LADDER_REPORTS=<dir>", e.Dir, who)
}

// Lock takes dir (created if need be) for one run, waiting for nobody: it
// fails with a *BusyError naming the holder's PID when another process
// holds it. The lock is the kernel's (flock), so a run killed however it
// dies releases it; it is held until the returned file is closed or the
// process exits.
func Lock(dir string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &BusyError{Dir: dir, PID: holder(path)}
		}
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := f.Truncate(0); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if _, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	return f, nil
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

// Clear empties dir but for its lock, so what it holds afterwards is this
// run's alone; the caller holds the lock (Lock).
func Clear(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("clear %s: %w", dir, err)
	}
	for _, e := range entries {
		if e.Name() == LockFile {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("clear %s: %w", dir, err)
		}
	}
	return nil
}
