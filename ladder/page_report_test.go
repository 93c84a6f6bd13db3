package ladder_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/page"
)

// The triage page: after the last spec, every rung and case that ran gets
// a section of reports/index.html, in fixture order, with the failure
// lines its spec printed. It is built from what each spec wrote under
// reports/<rung>/ — the artifacts and the engine data the page needs
// (page.EngineFile) — and nothing is run again.
//
// LADDER_PAGE=off skips it: the determinism matrix (tools/matrix.sh) runs
// the ladder as other binaries to compare goldens, and under an emulator
// a page nobody opens is time wasted; the native run writes it.
var _ = ReportAfterSuite("triage page", func(r Report) {
	if os.Getenv("LADDER_PAGE") == "off" {
		fmt.Fprintln(os.Stdout, "triage page: not written (LADDER_PAGE=off)")
		return
	}
	files, err := fixture.Discover(filepath.Join(root, "fixtures"), "fixtures")
	if err != nil {
		Fail(fmt.Sprintf("triage page: %v", err))
	}
	specs := rungSpecs(r)
	used := 0
	var inputs []page.Input
	var problems []string
	for _, file := range files {
		if file.Err != nil {
			if s, ok := specs[file.Name+" does not load"]; ok {
				used++
				inputs = append(inputs, page.Input{Name: file.Name, Title: "does not load", Source: file.Name, Failures: failureLines(s)})
			}
			continue
		}
		for _, f := range file.Fixtures {
			s, ok := specs[f.Name()+" "+f.Title]
			if !ok {
				continue
			}
			used++
			in := ladder.ReportedPageInput(root, filepath.Join(reports, filepath.FromSlash(f.Name())), f, failureLines(s))
			for _, e := range s.ReportEntries {
				if e.Name == "input drift" {
					in.Notes = append(in.Notes, "Input drift (not a failure): "+e.StringRepresentation())
				}
			}
			inputs = append(inputs, in)
		}
	}
	if used != len(specs) {
		problems = append(problems, fmt.Sprintf("triage page: %d specs ran but only %d match a fixture by name: the page has no section for the others", len(specs), used))
	}
	start := time.Now()
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
	if len(problems) > 0 {
		Fail(strings.Join(problems, "\n"))
	}
})

// rungSpecs returns the rung specs that ran, by their text: they carry a
// tier label (or invalid-fixture); the package's unit specs carry
// neither.
func rungSpecs(r Report) map[string]SpecReport {
	specs := map[string]SpecReport{}
	for _, s := range r.SpecReports {
		rung := slices.ContainsFunc(s.Labels(), func(l string) bool { return strings.HasPrefix(l, "tier") || l == "invalid-fixture" })
		if rung && s.LeafNodeType == types.NodeTypeIt && !s.State.Is(types.SpecStateSkipped|types.SpecStatePending) {
			specs[s.LeafNodeText] = s
		}
	}
	return specs
}

// failureLines returns the lines of a failed spec's failure message.
func failureLines(s SpecReport) []string {
	if !s.State.Is(types.SpecStateFailureStates) {
		return nil
	}
	msg := strings.TrimSpace(s.Failure.Message)
	if msg == "" {
		return []string{s.State.String()}
	}
	return strings.Split(msg, "\n")
}
