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
// that checked no seal at all shows it. A set is counted once however many
// rungs check it (a same_run rung checks its base's set too).
var _ = ReportAfterSuite("seal summary", func(r Report) {
	files := map[string]int{} // set directory → sealed files hashed
	checks, broken, rungs := 0, 0, 0
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
			for _, c := range one.Checked {
				files[c.Dir] = c.Files
				checks++
			}
		}
		for _, e := range s.ReportEntries {
			var p ladder.Problem
			if e.Name == report.FailureEntry && report.Decode(e, &p) == nil && p.Check == ladder.SealCheck {
				broken++
			}
		}
	}
	total := 0
	for _, n := range files {
		total += n
	}
	again := ""
	if checks > len(files) {
		again = fmt.Sprintf(" (%d checks: a same_run rung checks its base's set too)", checks)
	}
	fmt.Fprintf(os.Stdout, "seals: %d golden files in %d sets checked against their manifests before comparing%s, %d broken\n", total, len(files), again, broken)
	// Rungs ran but no seal was checked: the check looked in the wrong
	// place, and every hand edit would pass. (A run of only new rungs,
	// which have no goldens, fails on that anyway.)
	if rungs > 0 && total == 0 {
		Fail(fmt.Sprintf("seals: %d rungs ran and no sealed golden file was examined: the seal check examined nothing", rungs))
	}
})
