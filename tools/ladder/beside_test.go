package main

import (
	"bytes"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/coverage"
	"github.com/chronicle/ladder/ladder/explore"
)

// The exploration's coverage is set beside the last make ladder's only
// when that ladder ran every run: beside a partial one (RUNG=…), nearly
// every regime would read as one "no rung reaches".
var _ = Describe("explore's coverage beside the ladder's", func() {
	// One rung reaches witness-creates-belief's "witnessed"; exploration
	// reaches it and corroboration's "counted".
	explored := &explore.Coverage{Regimes: []explore.RegimeReached{
		{Number: 1, Rule: "witness-creates-belief", Regime: "witnessed", Worlds: 3},
		{Number: 3, Rule: "corroboration", Regime: "counted", Worlds: 2},
	}}
	report := func(expected []string) string {
		GinkgoHelper()
		dir := GinkgoT().TempDir()
		hit := coverage.Reached{Number: 1, Rule: "witness-creates-belief", Regime: "witnessed"}
		Expect(coverage.Build([]coverage.Run{{Run: "T0.1", Reached: []coverage.Reached{hit}}}, expected).Write(dir)).To(Succeed())
		return filepath.Join(dir, coverage.ReportFile)
	}

	It("names the regimes exploration alone reaches, beside a complete ladder", func() {
		var out bytes.Buffer
		beside(explored, report([]string{"T0.1"}), &out)
		Expect(out.String()).To(ContainSubstring("1 regimes reached by exploration alone (no rung reaches them): rule 3 corroboration: counted;"))
	})

	It("says it compares nothing beside a partial ladder", func() {
		var out bytes.Buffer
		beside(explored, report([]string{"T0.1", "T0.2"}), &out)
		Expect(out.String()).To(HavePrefix("explore: not set beside "))
		Expect(out.String()).To(ContainSubstring("the last make ladder ran 1 of 2 runs"))
		Expect(out.String()).NotTo(ContainSubstring("exploration alone (no rung reaches them)"))
	})
})
