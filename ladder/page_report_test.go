package ladder_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/page"
)

// The triage page: after the last spec, every rung and case that ran gets
// a section of reports/index.html, in fixture order, with the failure
// lines its spec printed. The page needs the engine's end-of-run state,
// which the specs do not keep, so each rung is run once more here (the
// whole ladder takes well under a second) and the rerun's artifacts must
// equal the ones its spec wrote under reports/: a difference is a
// determinism bug and fails the suite.
//
// LADDER_PAGE=off skips it: the determinism matrix (tools/matrix.sh) runs
// the ladder as other binaries to compare goldens, and under an emulator
// the page's second run of every rung would double the leg's time for a
// page nobody opens; the native run writes and checks it.
var _ = ReportAfterSuite("triage page", func(r Report) {
	if os.Getenv("LADDER_PAGE") == "off" {
		fmt.Fprintln(os.Stdout, "triage page: not written (LADDER_PAGE=off)")
		return
	}
	files, err := fixture.Discover(filepath.Join(root, "fixtures"), "fixtures")
	if err != nil {
		Fail(fmt.Sprintf("triage page: %v", err))
	}
	// Rung specs carry a tier label (or invalid-fixture); the package's
	// unit specs carry neither.
	specs := map[string]SpecReport{}
	for _, s := range r.SpecReports {
		rung := slices.ContainsFunc(s.Labels(), func(l string) bool { return strings.HasPrefix(l, "tier") || l == "invalid-fixture" })
		if rung && s.LeafNodeType == types.NodeTypeIt && !s.State.Is(types.SpecStateSkipped|types.SpecStatePending) {
			specs[s.LeafNodeText] = s
		}
	}
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
			if f.Sweep != nil {
				// Nothing to scrub through, so nothing to rerun.
				inputs = append(inputs, ladder.PageInput(root, f, nil, failureLines(s)))
				continue
			}
			rerun := filepath.Join(reports, ".rerun", filepath.FromSlash(f.Name()))
			res, err := ladder.Run(f, ladder.Options{Dir: rerun})
			if err != nil {
				res = nil
			}
			in := ladder.PageInput(root, f, res, failureLines(s))
			for _, e := range s.ReportEntries {
				if e.Name == "input drift" {
					in.Notes = append(in.Notes, "Input drift (not a failure): "+e.StringRepresentation())
				}
			}
			if res != nil {
				if p := sameAsJudged(f.Name(), res); p != "" {
					problems = append(problems, p)
					in.Notes = append(in.Notes, p)
				}
				// The page reads the artifacts the spec judged; the
				// rerun's are only its check.
				judged := filepath.Join(reports, filepath.FromSlash(f.Name()))
				in.Dense, in.Trace = page.Path(filepath.Join(judged, ladder.DenseFile)), page.Path(filepath.Join(judged, ladder.TraceFile))
			}
			inputs = append(inputs, in)
		}
	}
	if used != len(specs) {
		problems = append(problems, fmt.Sprintf("triage page: %d specs ran but only %d match a fixture by name: the page has no section for the others", len(specs), used))
	}
	if err := os.RemoveAll(filepath.Join(reports, ".rerun")); err != nil {
		problems = append(problems, fmt.Sprintf("triage page: %v", err))
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
			fmt.Fprintf(os.Stdout, "triage page: %s (%d sections, %d KB)\n", page.File, len(inputs), (len(html)+1023)/1024)
		}
	}
	if len(problems) > 0 {
		Fail(strings.Join(problems, "\n"))
	}
})

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

// sameAsJudged compares a rerun's artifacts with the ones the rung's spec
// wrote under the run's reports directory (reports/, or LADDER_REPORTS),
// in chunks; it returns "" when they are equal.
func sameAsJudged(name string, res *ladder.Result) string {
	dir := filepath.Join(reports, filepath.FromSlash(name))
	for _, file := range []string{ladder.DenseFile, ladder.TraceFile} {
		same, err := artifact.Same(filepath.Join(dir, file), res.Path(file))
		if err != nil {
			return fmt.Sprintf("%s: the triage page could not check its rerun against reports/%s/%s: %v", name, name, file, err)
		}
		if !same {
			return fmt.Sprintf("%s: a second run in the same process wrote a different %s than the spec did: the engine is not deterministic (compare reports/%s/%s with a rerun)", name, file, name, file)
		}
	}
	return ""
}
