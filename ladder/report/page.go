package report

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/page"
	"github.com/chronicle/ladder/ladder/pageinput"
)

// Pair is two runs the page is asked to compare, beside what the
// fixtures declare (a case and the run it is a counterfactual of): A's
// section gets a comparison with B.
type Pair struct{ A, B string }

// PageInputs gathers the triage page's sections for a suite run: every
// rung and case whose spec ran, in fixture order, with the failure lines
// its spec printed, built from what each spec wrote under reports
// (pageinput.ReportedPageInputs) and nothing run again. r is the suite's
// report — in the suite, the one Ginkgo hands the ReportAfterSuite; after
// it, the one it wrote as reports/ladder.json — so `ladder page` rebuilds
// exactly the page the run wrote. pairs add comparisons. Problems are
// what the page could not account for.
func PageInputs(root, reports string, r types.Report, pairs []Pair) ([]page.Input, []string, error) {
	files, err := fixture.Discover(filepath.Join(root, "fixtures"), "fixtures")
	if err != nil {
		return nil, nil, err
	}
	specs := RungSpecs(r)
	used := 0
	var inputs []page.Input
	var problems []string
	for _, file := range files {
		if file.Err != nil {
			if s, ok := specs[file.LoadFailureSpec()]; ok {
				used++
				in := loadFailureInput(file, s)
				if slices.ContainsFunc(inputs, func(o page.Input) bool { return o.Name == in.Name }) {
					// A second file of one rung id: named by its file, so
					// that each has a section of its own.
					in.Name = strings.TrimSuffix(path.Base(file.Name), path.Ext(file.Name))
				}
				inputs = append(inputs, in)
			}
			continue
		}
		for _, f := range file.Fixtures {
			s, ok := specs[f.Name()+" "+f.Title]
			if !ok {
				continue
			}
			used++
			ins := pageinput.ReportedPageInputs(root, reports, f, FailureLines(s))
			for _, e := range s.ReportEntries {
				if e.Name == "input drift" {
					ins[0].Notes = append(ins[0].Notes, "Input drift (not a failure): "+e.StringRepresentation())
				}
			}
			inputs = append(inputs, ins...)
		}
	}
	if used != len(specs) {
		problems = append(problems, fmt.Sprintf("triage page: %d specs ran but only %d match a fixture by name: the page has no section for the others", len(specs), used))
	}
	for _, p := range pairs {
		a := slices.IndexFunc(inputs, func(in page.Input) bool { return in.Name == p.A })
		b := slices.IndexFunc(inputs, func(in page.Input) bool { return in.Name == p.B })
		if a < 0 || b < 0 || inputs[b].Trace == nil || inputs[a].Trace == nil {
			return nil, nil, fmt.Errorf("compare %s with %s: both must be runs of the last ladder run with their artifacts under %s", p.A, p.B, reports)
		}
		inputs[a].Partners = append(inputs[a].Partners, page.Partner{Name: p.B, Dense: inputs[b].Dense, Trace: inputs[b].Trace})
	}
	return inputs, problems, nil
}

// loadFailureInput is the page section of a fixture file that does not
// load: named by its rung (so #T9.1 opens it), placed at the loader's first
// error, showing the located error its spec failed with.
func loadFailureInput(file fixture.File, s types.SpecReport) page.Input {
	id := file.Rung
	source := file.Name
	var list fixture.ErrorList
	if errors.As(file.Err, &list) && len(list) > 0 {
		source = fmt.Sprintf("%s:%d", file.Name, list[0].Line)
	}
	return page.Input{Name: id, Title: file.Name + " does not load", Source: source, Failures: FailureLines(s)}
}

// RungSpecs returns the rung specs that ran, by their text: they carry a
// tier label (or invalid-fixture); the package's unit specs carry
// neither.
func RungSpecs(r types.Report) map[string]types.SpecReport {
	specs := map[string]types.SpecReport{}
	for _, s := range r.SpecReports {
		rung := slices.ContainsFunc(s.Labels(), func(l string) bool { return strings.HasPrefix(l, "tier") || l == "invalid-fixture" })
		if rung && s.LeafNodeType == types.NodeTypeIt && !s.State.Is(types.SpecStateSkipped|types.SpecStatePending) {
			specs[s.LeafNodeText] = s
		}
	}
	return specs
}

// FailureLines returns the lines of a failed spec's failure message.
func FailureLines(s types.SpecReport) []string {
	if !s.State.Is(types.SpecStateFailureStates) {
		return nil
	}
	msg := strings.TrimSpace(s.Failure.Message)
	if msg == "" {
		return []string{s.State.String()}
	}
	return strings.Split(msg, "\n")
}
