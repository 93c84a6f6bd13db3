package regen

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/fixture"
)

// Select loads every fixture under root/fixtures and keeps those named:
// a rung id ("T2.3") selects the rung and all its cases, a rung and case
// ("T2.3/swapped") exactly that case. No names selects everything. A name
// that matches nothing is an error, as is a fixture that does not load.
// The result keeps file order, the rung before its cases.
func Select(root string, names []string) ([]*fixture.Fixture, error) {
	files, err := fixture.Discover(filepath.Join(root, "fixtures"), "fixtures")
	if err != nil {
		return nil, err
	}
	var all []*fixture.Fixture
	for _, file := range files {
		if file.Err != nil {
			return nil, file.Err
		}
		all = append(all, file.Fixtures...)
	}
	if len(names) == 0 {
		return all, nil
	}
	for _, n := range names {
		if !slices.ContainsFunc(all, func(f *fixture.Fixture) bool { return Matches(f, n) }) {
			return nil, unknown(all, n)
		}
	}
	var out []*fixture.Fixture
	for _, f := range all {
		if slices.ContainsFunc(names, func(n string) bool { return Matches(f, n) }) {
			out = append(out, f)
		}
	}
	return out, nil
}

// Matches reports whether name ("T2.3" or "T2.3/swapped") addresses f: a
// rung id addresses the rung and every case of it.
func Matches(f *fixture.Fixture, name string) bool {
	return name == f.Rung || name == f.Name()
}

func unknown(all []*fixture.Fixture, name string) error {
	rung, c, hasCase := strings.Cut(name, "/")
	if hasCase && slices.ContainsFunc(all, func(f *fixture.Fixture) bool { return f.Rung == rung }) {
		return fmt.Errorf("rung %s has no case %q", rung, c)
	}
	return fmt.Errorf("no fixture for rung %q", rung)
}

// Extenders returns the fixtures, not already in selected, of every rung
// whose file extends a selected rung (T2.2 extends T2.1: it is T2.1's run
// with its own assertions, so what moves T2.1's goldens moves T2.2's).
// Only a selected rung itself, not one of its cases, is extended.
func Extenders(root string, selected []*fixture.Fixture) ([]*fixture.Fixture, error) {
	all, err := Select(root, nil)
	if err != nil {
		return nil, err
	}
	base := map[string]bool{}
	for _, f := range selected {
		if f.Case == "" {
			base[f.Rung] = true
		}
	}
	var out []*fixture.Fixture
	parents := map[string]string{} // file → the rung it extends
	for _, f := range all {
		if slices.ContainsFunc(selected, func(s *fixture.Fixture) bool { return s.Name() == f.Name() }) {
			continue
		}
		parent, ok := parents[f.File]
		if !ok {
			if parent, err = extends(filepath.Join(root, filepath.FromSlash(f.File))); err != nil {
				return nil, err
			}
			parents[f.File] = parent
		}
		if base[parent] {
			out = append(out, f)
		}
	}
	return out, nil
}

// extends reads the top-level extends key of a fixture file (which has
// already loaded, so it is valid YAML).
func extends(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	var top struct {
		Extends string `yaml:"extends"`
	}
	if err := yaml.Unmarshal(data, &top); err != nil {
		return "", fmt.Errorf("read extends of %s: %w", path, err)
	}
	return top.Extends, nil
}
