package ladder_test

import (
	"fmt"
	"os"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/chronicle/ladder/ladder/report"
	"github.com/chronicle/ladder/ladder/verdict"
)

// The seal summary: after the rungs, one line says how many golden sets
// and sealed files the run checked before comparing anything, so a run
// that checked no seal at all shows it. A set is counted once however many
// rungs check it (a same_run rung checks its base's set too). A step of
// the closing report, it returns its problem for it to fail with.
func sealSummary(r Report) []string {
	files := map[string]int{} // set directory → sealed files hashed
	checks, broken, rungs := 0, 0, 0
	for _, s := range r.SpecReports {
		// A new rung (no golden directory yet) has no seal to check: its
		// one line is "no goldens yet", and it does not count towards the
		// rungs that should have examined a seal.
		isNew := slices.ContainsFunc(s.ReportEntries, func(e types.ReportEntry) bool {
			var p verdict.Problem
			return e.Name == report.FailureEntry && report.Decode(e, &p) == nil && p.NoGoldens
		})
		for _, e := range s.ReportEntries {
			if e.Name != "seal" {
				continue
			}
			if !isNew {
				rungs++
			}
			var one verdict.Seals
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
			var p verdict.Problem
			if e.Name == report.FailureEntry && report.Decode(e, &p) == nil && p.Check == verdict.SealCheck {
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
	// Rungs with goldens ran but no seal was checked: the check looked in
	// the wrong place, and every hand edit would pass. (A run of only new
	// rungs, which have no goldens, fails on that alone.)
	if rungs > 0 && total == 0 {
		return []string{fmt.Sprintf("seals: %d rungs with goldens ran and no sealed golden file was examined: the seal check examined nothing", rungs)}
	}
	return nil
}
