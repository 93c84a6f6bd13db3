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

// RenderAfter is Render preceded, in the same process, by a run of each
// fixture of prelude into a directory that is then removed: the
// selection then renders after other worlds were built, so state that
// leaks from one world into the next (a package-level counter, a cache)
// reaches it even when it is a single rung, which a fresh process
// renders first too.
func RenderAfter(prelude, fixtures []*fixture.Fixture, out string) error {
	if len(prelude) > 0 {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
		tmp, err := os.MkdirTemp(out, ".prelude-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		if err := Render(prelude, tmp); err != nil {
			return fmt.Errorf("prelude: %w", err)
		}
	}
	return Render(fixtures, out)
}

// Prelude picks what run 1 of the proof renders before the selection:
// the cheapest fixture (by the loader's estimate, then file order) of a
// rung not selected, or the cheapest of all when every rung is.
func Prelude(all, selected []*fixture.Fixture) *fixture.Fixture {
	chosen := map[string]bool{}
	for _, f := range selected {
		chosen[f.Rung] = true
	}
	var best *fixture.Fixture
	for _, pass := range []bool{false, true} {
		for _, f := range all {
			if (chosen[f.Rung] && !pass) || f.Sweep != nil {
				continue
			}
			if best == nil || cost(f) < cost(best) {
				best = f
			}
		}
		if best != nil {
			return best
		}
	}
	return nil
}

func cost(f *fixture.Fixture) int64 { return f.Cost.NPCTicks + f.Cost.PairTicks }

// Render runs each fixture, in the order given, writing its artifacts
// under out/<golden dir> as the run produces them, plus FailuresFile when
// expectations failed. It is what each process of the determinism proof
// runs. A run that finishes no tick for ladder.StallLimit is given up
// with its error, rather than holding `make goldens` for ever.
func Render(fixtures []*fixture.Fixture, out string) error {
	stall, err := ladder.StallLimit()
	if err != nil {
		return err
	}
	for _, f := range fixtures {
		dir := filepath.Join(out, filepath.FromSlash(f.GoldenDir()))
		res, err := ladder.Run(f, ladder.Options{Dir: dir, Stall: stall})
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
