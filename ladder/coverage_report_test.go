package ladder_test

import (
	"fmt"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"

	"github.com/chronicle/ladder/ladder/coverage"
	"github.com/chronicle/ladder/ladder/fixture"
)

// expectedRuns is every run the ladder has, from the fixtures TestLadder
// found: a file that does not load stands for its runs by its name, so a
// report missing it is never complete.
var expectedRuns []string

func noteRuns(files []fixture.File) {
	for _, file := range files {
		if file.Err != nil {
			expectedRuns = append(expectedRuns, file.Name+" (does not load)")
			continue
		}
		for _, f := range file.Fixtures {
			if f.Sweep == nil { // a sweep writes no trace
				expectedRuns = append(expectedRuns, f.Name())
			}
		}
	}
}

// Rule-regime coverage: after every run has written the regimes its trace
// reached (reports/<run>/regimes.json), one report says which runs reached
// each regime the catalogue declares (reports/coverage.json, `go run
// ./tools/ladder coverage`). On a full run a regime reached by no run fails
// the ladder, naming rule and regime: the code behind it would be guarded
// by no golden. A subset or a shard is reported, not judged (merge-reports
// judges the shards together). It runs on the first process once all have
// finished, so it sees every run of `ginkgo -p` too.
var _ = SynchronizedAfterSuite(func() {}, func() {
	runs, err := coverage.ReadRuns(reports)
	if err != nil {
		Fail(fmt.Sprintf("coverage: %v", err))
	}
	rep := coverage.Build(runs, expectedRuns)
	if err := rep.Write(reports); err != nil {
		Fail(fmt.Sprintf("coverage: %v", err))
	}
	fmt.Fprintln(os.Stdout, "\n"+rep.Summary())
	if problems := rep.Problems(); len(problems) > 0 {
		Fail("coverage: " + strings.Join(problems, "\ncoverage: ") + "\n(" + coverage.Remedy + ")")
	}
})
