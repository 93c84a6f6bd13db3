package ladder_test

import (
	"fmt"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/coverage"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/rules"
)

// Two checks of a full run beside the rungs, with no rung label (so they
// run on full runs and shards, not under RUNG=): the catalogue the
// coverage verdict is judged against, and the worlds the engine must
// refuse. Both are behaviour no rung's golden holds — a rule numbered
// outside the seed's budget, a regime whose sign can never match, a
// define or pin the engine starts accepting out of its range — and both
// would otherwise be guarded only by unit specs, outside the gate.

var _ = It("the rule catalogue keeps the seed's budget, and every regime's sign can match a record", Label("catalogue"), func() {
	cat := rules.Catalogue()
	n := 0
	for _, r := range cat {
		n += len(r.Regimes)
	}
	Expect(n).To(BeNumerically(">", 0), "checked nothing: the catalogue declares no regime")
	AddReportEntry("examined", fmt.Sprintf("%d rules, %d regimes", len(cat), n), ReportEntryVisibilityFailureOrVerbose)
	if problems := coverage.CatalogueProblems(cat); len(problems) > 0 {
		Fail(fmt.Sprintf("sim/rules' catalogue (examined %d rules and %d regimes):\n%s", len(cat), n, strings.Join(problems, "\n")))
	}
})

var _ = It("the refused corpus: every world the loader and the engine must refuse is refused, at a file:line:column", Label("refusals"), func() {
	dir := filepath.Join(root, fixture.RefusedCorpus)
	examined, problems, err := fixture.CheckRefused(dir)
	Expect(err).NotTo(HaveOccurred())
	AddReportEntry("examined", fmt.Sprintf("%d fixtures in %s", examined, fixture.RefusedCorpus), ReportEntryVisibilityFailureOrVerbose)
	if len(problems) > 0 {
		Fail(fmt.Sprintf("%s (examined %d fixtures; `go test ./ladder/fixture` runs the same check with the schema's):\n%s",
			fixture.RefusedCorpus, examined, strings.Join(problems, "\n")))
	}
})
