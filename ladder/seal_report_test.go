package ladder_test

import (
	"fmt"
	"os"

	. "github.com/onsi/ginkgo/v2"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/report"
)

// The seal summary: after the rungs, one line says how many golden sets
// and sealed files the run checked before comparing anything, so a run
// that checked no seal at all shows it.
var _ = ReportAfterSuite("seal summary", func(r Report) {
	var total ladder.Seals
	broken, rungs := 0, 0
	for _, s := range r.SpecReports {
		for _, e := range s.ReportEntries {
			if e.Name != "seal" {
				continue
			}
			rungs++
			var one ladder.Seals
			if err := report.Decode(e, &one); err != nil {
				fmt.Fprintf(os.Stdout, "warning: unreadable seal entry %s: %v\n", e.Value, err)
				continue
			}
			total.Sets += one.Sets
			total.Files += one.Files
		}
		for _, e := range s.ReportEntries {
			var p ladder.Problem
			if e.Name == report.FailureEntry && report.Decode(e, &p) == nil && p.Check == ladder.SealCheck {
				broken++
			}
		}
	}
	fmt.Fprintf(os.Stdout, "seals: %d golden files in %d sets checked against their manifests before comparing, %d broken\n", total.Files, total.Sets, broken)
	// Rungs ran but no seal was checked: the check looked in the wrong
	// place, and every hand edit would pass. (A run of only new rungs,
	// which have no goldens, fails on that anyway.)
	if rungs > 0 && total.Files == 0 {
		Fail(fmt.Sprintf("seals: %d rungs ran and no sealed golden file was examined: the seal check examined nothing", rungs))
	}
})
