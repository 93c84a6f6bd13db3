package regen

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/fixture"
)

// FailuresFile is written beside a rendering's artifacts when the rung's
// expectations failed; it holds one failure per line.
const FailuresFile = "failures.txt"

// Select loads every fixture under root/fixtures and keeps those whose rung
// is in rungs (all when rungs is empty). A rung named but not found is an
// error, as is a fixture that does not load.
func Select(root string, rungs []string) ([]*fixture.Fixture, error) {
	files, err := fixture.Discover(filepath.Join(root, "fixtures"), "fixtures")
	if err != nil {
		return nil, err
	}
	var out []*fixture.Fixture
	found := map[string]bool{}
	for _, file := range files {
		if file.Err != nil {
			return nil, file.Err
		}
		for _, f := range file.Fixtures {
			if len(rungs) == 0 || slices.Contains(rungs, f.Rung) {
				found[f.Rung] = true
				out = append(out, f)
			}
		}
	}
	for _, r := range rungs {
		if !found[r] {
			return nil, fmt.Errorf("no fixture for rung %q", r)
		}
	}
	return out, nil
}

// Render runs each fixture and writes its artifacts under out/<golden dir>,
// plus FailuresFile when expectations failed. It is what each of the two
// determinism-proof processes runs.
func Render(fixtures []*fixture.Fixture, out string) error {
	for _, f := range fixtures {
		res, err := ladder.Run(f)
		if err != nil {
			return fmt.Errorf("render %s: %w", f.Name(), err)
		}
		arts, err := res.Artifacts()
		if err != nil {
			return fmt.Errorf("render %s: %w", f.Name(), err)
		}
		dir := filepath.Join(out, filepath.FromSlash(f.GoldenDir()))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for _, name := range ladder.ArtifactNames {
			if err := os.WriteFile(filepath.Join(dir, name), arts[name], 0o644); err != nil {
				return err
			}
		}
		if len(res.Failures) > 0 {
			msg := strings.Join(res.Failures, "\n") + "\n"
			if err := os.WriteFile(filepath.Join(dir, FailuresFile), []byte(msg), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
