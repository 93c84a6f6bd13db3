package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/verdict"
	"github.com/onsi/ginkgo/v2/types"
)

// FailureEntry is the name of the report entry a rung spec adds for each of
// its problems (a verdict.Problem, as JSON).
const FailureEntry = "failure"

// Failures is reports/failures.json.
type Failures struct {
	Failures []verdict.Problem `json:"failures"`
}

// NewFailures collects every failure of a run as data: each rung's
// problems from its FailureEntry entries, and, for a failed spec without
// them (a harness spec), one problem of check "spec", no rung, carrying the
// spec's name and message and its location; then late, the problems found
// after the specs ran: the determinism rerun's under their runs, and the
// closing report's failed steps (the triage page…) under none. They are
// ordered by rung and case (harness specs first), each spec's problems in
// its own order.
func NewFailures(r types.Report, root string, late ...verdict.Problem) (Failures, error) {
	abs, _ := filepath.Abs(root)
	out := Failures{Failures: []verdict.Problem{}}
	for _, s := range r.SpecReports {
		if !Ran(s) || !s.State.Is(types.SpecStateFailureStates) {
			continue
		}
		var found bool
		for _, e := range s.ReportEntries {
			if e.Name != FailureEntry {
				continue
			}
			var p verdict.Problem
			if err := Decode(e, &p); err != nil {
				return Failures{}, fmt.Errorf("failure entry of %q: %w", s.LeafNodeText, err)
			}
			out.Failures = append(out.Failures, p)
			found = true
		}
		if !found {
			out.Failures = append(out.Failures, verdict.Problem{Check: "spec", Tick: -1, File: relative(abs, s.LeafNodeLocation.FileName),
				Line: s.LeafNodeLocation.LineNumber, Message: s.FullText() + ": " + s.Failure.Message})
		}
	}
	out.Failures = append(out.Failures, late...)
	out.sort()
	return out, nil
}

func (f *Failures) sort() {
	// Stable: a rung's problems keep their order, earliest first. Harness
	// specs (no rung) ran in random order, so their messages order them.
	slices.SortStableFunc(f.Failures, func(a, b verdict.Problem) int {
		c := cmp.Or(cmp.Compare(a.Rung, b.Rung), cmp.Compare(a.Case, b.Case))
		if c == 0 && a.Rung == "" {
			c = cmp.Compare(a.Message, b.Message)
		}
		return c
	})
}

// Decode reads a report entry's value into v: from its JSON when the
// report was read back from a file or another process, from the value
// itself in the process that added it.
func Decode(e types.ReportEntry, v any) error {
	data := []byte(e.Value.AsJSON)
	if len(data) == 0 {
		var err error
		if data, err = json.Marshal(e.Value.GetRawValue()); err != nil {
			return err
		}
	}
	return json.Unmarshal(data, v)
}

// Marshal writes the document, indented.
func (f Failures) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("write failures: %w", err)
	}
	return append(b, '\n'), nil
}

// File names of the reports.
const (
	JUnitFile    = "junit.xml"
	FailuresFile = "failures.json"
	GinkgoFile   = "ladder.json"
)

// Write writes junit.xml, failures.json and ladder.json (Ginkgo's JSON
// report, as `ginkgo --json-report` would) of a run into dir, with late,
// the problems found after the specs ran, filed under their runs. The
// suite writes Ginkgo's report itself, not the ginkgo command, so that it
// lands in the run's own reports directory (LADDER_REPORTS), which the
// run holds, and nowhere else.
func Write(dir, root string, r types.Report, late ...verdict.Problem) error {
	j, err := NewJUnit(r, root, late...).Marshal()
	if err != nil {
		return err
	}
	fs, err := NewFailures(r, root, late...)
	if err != nil {
		return err
	}
	f, err := fs.Marshal()
	if err != nil {
		return err
	}
	g, err := json.MarshalIndent([]types.Report{r}, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", GinkgoFile, err)
	}
	for _, out := range []struct {
		name string
		data []byte
	}{{JUnitFile, j}, {FailuresFile, f}, {GinkgoFile, append(g, '\n')}} {
		if err := artifact.Write(filepath.Join(dir, out.name), out.data); err != nil {
			return err
		}
	}
	return nil
}
