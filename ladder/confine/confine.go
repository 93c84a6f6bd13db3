package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// LinkError is a path the harness would write or copy through that is a
// symlink (or, for Tree, anything that is neither a directory nor a
// regular file).
type LinkError struct {
	Path   string // the link, as the caller named it (base joined with the components up to it)
	Target string // where it leads, as the link says; "" when it is no symlink (Kind says what it is)
	// Odd is set when Tree found something that is neither a symlink nor
	// a directory nor a regular file (a pipe, a socket, a device).
	Odd bool
}

func (e *LinkError) Error() string {
	what := "a symlink"
	if e.Target != "" {
		what = fmt.Sprintf("a symlink (to %s)", e.Target)
	}
	if e.Odd {
		what = "neither a directory nor a regular file"
	}
	return fmt.Sprintf("%s is %s: refused, nothing written: the ladder writes and copies only real directories and files of its own, "+
		"never through a link that can lead anywhere; replace it with a directory or a file", e.Path, what)
}

// Check returns a *LinkError when any existing component of rel below
// base is a symlink; components that do not exist yet are fine (the
// writer creates them as real directories). rel is a relative path in
// either separator; base is not checked.
func Check(base, rel string) error {
	if filepath.IsAbs(rel) {
		return fmt.Errorf("confine: %s is not a relative path", rel)
	}
	at := base
	for _, part := range strings.Split(filepath.ToSlash(filepath.Clean(filepath.FromSlash(rel))), "/") {
		if part == "." || part == "" {
			continue
		}
		if part == ".." {
			return fmt.Errorf("confine: %s leaves %s", rel, base)
		}
		at = filepath.Join(at, part)
		info, err := os.Lstat(at)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil
		case err != nil:
			return fmt.Errorf("confine: %w", err)
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(at)
			return &LinkError{Path: at, Target: target}
		}
	}
	return nil
}

// Dir checks the directory dir itself, as Check(filepath.Dir(dir),
// filepath.Base(dir)) would: the last component only, for a directory
// named by a person or the environment (LADDER_REPORTS, -out).
func Dir(dir string) error {
	dir = filepath.Clean(dir)
	return Check(filepath.Dir(dir), filepath.Base(dir))
}

// Tree returns a *LinkError for the first entry under dir, in lexical
// order, that is neither a directory nor a regular file — a symlink
// above all. dir itself may be a link: the person named it.
func Tree(dir string) error {
	return fs.WalkDir(os.DirFS(dir), ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || d.Type().IsRegular() {
			return nil
		}
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if d.Type()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			return &LinkError{Path: p, Target: target}
		}
		return &LinkError{Path: p, Odd: true}
	})
}
