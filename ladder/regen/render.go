package regen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/fixture"
)

// FailuresFile is written beside a rendering's artifacts when the rung's
// expectations failed; it holds one failure per line.
const FailuresFile = "failures.txt"

// Render runs each fixture, in the order given, writing its artifacts
// under out/<golden dir> as the run produces them, plus FailuresFile when
// expectations failed. It is what each process of the determinism proof
// runs.
func Render(fixtures []*fixture.Fixture, out string) error {
	for _, f := range fixtures {
		dir := filepath.Join(out, filepath.FromSlash(f.GoldenDir()))
		res, err := ladder.Run(f, ladder.Options{Dir: dir})
		if err != nil {
			return fmt.Errorf("render %s: %w", f.Name(), err)
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
