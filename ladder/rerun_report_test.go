package ladder_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/report"
)

// rerunBudget bounds the determinism rerun: a run of more NPC-ticks (cast
// × ticks) than this is not rerun, so a city-sized rung costs its spec
// once. Every committed rung is far below it (the largest, T2.5, is
// 14,520); a 1,000-NPC town of 720 ticks is 720,000.
const rerunBudget = 100_000

// The determinism rerun: after the last spec, every rung and case that
// ran (within rerunBudget) is run once more in this process, into a
// temporary directory, and must write the same dense.csv and trace.jsonl
// as its spec did, compared in chunks: a difference is state leaking
// from one world into the next, a determinism bug. The triage page does
// not need it (it reads what the specs wrote); it is its own check.
// LADDER_PAGE=off skips it with the page: the matrix's legs compare
// goldens, and under an emulator a second run doubles each leg's time.
var _ = ReportAfterSuite("determinism rerun", func(r Report) {
	if os.Getenv("LADDER_PAGE") == "off" {
		return
	}
	files, err := fixture.Discover(filepath.Join(root, "fixtures"), "fixtures")
	if err != nil {
		Fail(fmt.Sprintf("determinism rerun: %v", err))
	}
	tmp, err := os.MkdirTemp("", "ladder-rerun-")
	if err != nil {
		Fail(fmt.Sprintf("determinism rerun: %v", err))
	}
	defer os.RemoveAll(tmp)
	specs := report.RungSpecs(r)
	var problems, skipped []string
	rerun := 0
	for _, file := range files {
		for _, f := range file.Fixtures {
			if _, ok := specs[f.Name()+" "+f.Title]; !ok || f.Sweep != nil {
				continue // a sweep keeps no artifact per seed to compare
			}
			if cost := int64(len(f.Cast)) * f.Ticks; cost > rerunBudget {
				skipped = append(skipped, fmt.Sprintf("%s (%d NPC-ticks)", f.Name(), cost))
				continue
			}
			res, err := ladder.Run(f, ladder.Options{Dir: filepath.Join(tmp, filepath.FromSlash(f.Name()))})
			if err != nil && res == nil {
				problems = append(problems, fmt.Sprintf("%s: the determinism rerun could not run: %v", f.Name(), err))
				continue
			}
			rerun++
			if p := sameAsJudged(f.Name(), res); p != "" {
				problems = append(problems, p)
			}
		}
	}
	line := fmt.Sprintf("determinism rerun: %d runs made again in this process, %d differ", rerun, len(problems))
	if len(skipped) > 0 {
		line += fmt.Sprintf("; not rerun, over the budget of %d NPC-ticks: %s", rerunBudget, strings.Join(skipped, ", "))
	}
	fmt.Fprintln(os.Stdout, line)
	if len(problems) > 0 {
		Fail(strings.Join(problems, "\n"))
	}
})

// sameAsJudged compares a rerun's artifacts with the ones the rung's spec
// wrote under the run's reports directory (reports/, or LADDER_REPORTS),
// in chunks; it returns "" when they are equal.
func sameAsJudged(name string, res *ladder.Result) string {
	dir := filepath.Join(reports, filepath.FromSlash(name))
	for _, file := range []string{ladder.DenseFile, ladder.TraceFile} {
		same, err := artifact.Same(filepath.Join(dir, file), res.Path(file))
		if err != nil {
			return fmt.Sprintf("%s: the determinism rerun could not compare with reports/%s/%s: %v", name, name, file, err)
		}
		if !same {
			return fmt.Sprintf("%s: a second run in the same process wrote a different %s than the spec did: the engine is not deterministic (compare reports/%s/%s with a rerun)", name, file, name, file)
		}
	}
	return ""
}
