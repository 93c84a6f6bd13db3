package ladder_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/fixture"
)

// root is the repository root: the suite runs in ladder/.
const root = ".."

// TestLadder builds one spec per rung (and per case) from the fixtures
// before RunSpecs, so the spec tree is fixed when Ginkgo starts; a fixture
// that does not load becomes a failing spec pointing at its first error.
func TestLadder(t *testing.T) {
	RegisterFailHandler(Fail)
	files, err := fixture.Discover(filepath.Join(root, "fixtures"), "fixtures")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		if file.Err != nil {
			invalidFixture(file.Name, file.Err)
			continue
		}
		for _, f := range file.Fixtures {
			rung(f)
		}
	}
	RunSpecs(t, "Chronicle ladder")
}

func invalidFixture(rel string, err error) {
	loc := types.CodeLocation{FileName: rel, LineNumber: 1}
	var list fixture.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		loc.LineNumber = list[0].Line
	}
	It(rel+" does not load", Label("invalid-fixture"), loc, func() {
		Fail(fmt.Sprintf("%v\n(reproduce: go run ./tools/ladder check %s)", err, rel))
	})
}

func rung(f *fixture.Fixture) {
	loc := types.CodeLocation{FileName: f.File, LineNumber: f.Pos.Line}
	It(f.Name()+" "+f.Title, Label("tier"+f.Tier, f.Rung), loc, func() {
		res, err := ladder.Run(f)
		if err != nil {
			Fail(fmt.Sprintf("%s: %v %s", f.Name(), err, ladder.Commands(f)))
		}
		saveEvidence(res)
		AddReportEntry("assertions", len(res.Expectations), ReportEntryVisibilityNever)
		var problems []string
		for _, m := range res.Failures {
			problems = append(problems, fmt.Sprintf("%s %s %s", f.Name(), m, ladder.Commands(f)))
		}
		v := ladder.Verify(root, res)
		problems = append(problems, v.Failures...)
		for _, w := range v.Warnings {
			AddReportEntry("input drift", w, ReportEntryVisibilityAlways)
		}
		if len(problems) > 0 {
			Fail(strings.Join(problems, "\n"))
		}
	})
}

// saveEvidence writes the run's artifacts under reports/<rung>[/<case>]/ on
// every run, so CI keeps the trace of a failing rung, and points the spec's
// report at it.
func saveEvidence(res *ladder.Result) {
	arts, err := res.Artifacts()
	Expect(err).NotTo(HaveOccurred())
	dir := filepath.Join(root, "reports", filepath.FromSlash(res.Fixture.Name()))
	Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
	for _, name := range ladder.ArtifactNames {
		Expect(os.WriteFile(filepath.Join(dir, name), arts[name], 0o644)).To(Succeed())
	}
	AddReportEntry("trace", "reports/"+res.Fixture.Name()+"/"+ladder.TraceFile, ReportEntryVisibilityFailureOrVerbose)
}

var _ = ReportAfterSuite("ladder summary", func(r Report) {
	var passed, failed, warnings, assertions int
	for _, s := range r.SpecReports {
		// Rungs carry their tier label.
		if s.LeafNodeType != types.NodeTypeIt || !slices.ContainsFunc(s.Labels(), func(l string) bool { return strings.HasPrefix(l, "tier") }) {
			continue
		}
		switch {
		case s.State.Is(types.SpecStatePassed):
			passed++
		case s.State.Is(types.SpecStateFailureStates):
			failed++
		}
		for _, e := range s.ReportEntries {
			if e.Name == "assertions" {
				// The raw value is lost when specs run in other processes
				// (ginkgo -p); its text survives.
				n, err := strconv.Atoi(e.Value.String())
				Expect(err).NotTo(HaveOccurred())
				assertions += n
			}
			if e.Name == "input drift" {
				warnings++
				fmt.Fprintf(os.Stdout, "warning: %s\n", e.Value)
			}
		}
	}
	fmt.Fprintf(os.Stdout, "\nladder: %d rungs passed, %d failed, %d input-drift warnings, %d assertions evaluated\n", passed, failed, warnings, assertions)
})
