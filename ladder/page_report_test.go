package ladder_test

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"

	"github.com/chronicle/ladder/ladder/page"
	"github.com/chronicle/ladder/ladder/report"
)

// The triage page: after the last spec, every rung and case that ran gets
// a section of reports/index.html, in fixture order, with the failure
// lines its spec printed. It is built from what each spec wrote under
// reports/<rung>/ — the artifacts, whose trace holds the variant tree,
// contests and evidence — and nothing is run again (report.PageInputs; `go
// run ./tools/ladder page` rebuilds the same page later).
//
// LADDER_PAGE=off skips it: the determinism matrix (tools/matrix.sh) runs
// the ladder as other binaries to compare goldens, and under an emulator
// a page nobody opens is time wasted; the native run writes it. It is a
// step of the closing report (ladder_suite_test.go) and returns its
// problems for it to fail with.
func triagePage(r Report) []string {
	if os.Getenv("LADDER_PAGE") == "off" {
		fmt.Fprintln(os.Stdout, "triage page: not written (LADDER_PAGE=off)")
		return nil
	}
	start := time.Now()
	inputs, problems, err := report.PageInputs(root, reports, r, nil)
	if err != nil {
		return []string{fmt.Sprintf("triage page: %v", err)}
	}
	html, err := page.Page(inputs, page.Options{})
	if err != nil {
		problems = append(problems, fmt.Sprintf("triage page: %v", err))
	}
	if html != nil {
		// Beside the run's other evidence: reports/ unless LADDER_REPORTS
		// names another directory (a shard's).
		if err := page.Write(filepath.Join(reports, filepath.Base(page.File)), html); err != nil {
			problems = append(problems, fmt.Sprintf("triage page: %v", err))
		} else {
			fmt.Fprintf(os.Stdout, "triage page: %s (%d sections, %d KB, built in %.1f s)\n", page.File, len(inputs), (len(html)+1023)/1024, time.Since(start).Seconds())
		}
	}
	return problems
}
