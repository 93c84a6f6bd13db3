package main

import (
	"encoding/json"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/pending"
	"github.com/chronicle/ladder/ladder/regen"
	"github.com/chronicle/ladder/ladder/report"
)

// pageRoot leaves what a ladder run of T0.1 leaves in reports/: its
// artifacts and a Ginkgo report naming its spec — and
// nothing else to run.
func pageRoot() {
	GinkgoHelper()
	chdir(tempRoot(true))
	fs, err := regen.Select(".", []string{"T0.1"})
	Expect(err).NotTo(HaveOccurred())
	f := fs[0]
	_, err = ladder.Run(f, ladder.Options{Dir: pending.Dir("reports", f)})
	Expect(err).NotTo(HaveOccurred())
	spec := types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: f.Name() + " " + f.Title, LeafNodeLabels: []string{"tier0", "T0.1"},
		State: types.SpecStatePassed}
	b, err := json.Marshal([]types.Report{{SuiteDescription: "Chronicle ladder", SpecReports: types.SpecReports{spec}}})
	Expect(err).NotTo(HaveOccurred())
	Expect(os.WriteFile(filepath.Join("reports", report.GinkgoFile), b, 0o644)).To(Succeed())
}

var _ = Describe("page", Serial, func() {
	It("rebuilds the triage page from the last run's reports, running nothing", func() {
		pageRoot()
		out, err := invoke("page")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(MatchRegexp(`^triage page: reports/index\.html \(1 sections, \d+ KB\)\n$`))
		html, err := os.ReadFile(filepath.Join("reports", "index.html"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(html)).To(ContainSubstring(`data-name="T0.1"`))
		Expect(string(html)).To(ContainSubstring(`class="panel map"`))
	})

	It("adds the comparison it is asked for, and refuses one it cannot make", func() {
		pageRoot()
		_, err := invoke("page", "-compare", "T0.1,T0.1")
		Expect(err).NotTo(HaveOccurred())
		html, err := os.ReadFile(filepath.Join("reports", "index.html"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(html)).To(ContainSubstring(`class="panel compare" data-other="T0.1"`))
		_, err = invoke("page", "-compare", "T0.1,T9.9")
		Expect(err).To(MatchError(ContainSubstring("compare T0.1 with T9.9: both must be runs of the last ladder run")))
		_, err = invoke("page", "-compare", "T0.1")
		Expect(err).To(MatchError(ContainSubstring(`want two runs as A,B, got "T0.1"`)))
	})

	It("says there is nothing to build from before any run", func() {
		chdir(tempRoot(false))
		_, err := invoke("page")
		Expect(err).To(MatchError(ContainSubstring("page: no ladder run to build it from (run make ladder first)")))
	})
})
