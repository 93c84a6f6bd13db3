package page_test

import (
	"path/filepath"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/page"
	"github.com/chronicle/ladder/ladder/pageinput"
)

var _ = Describe("a section built from what the run wrote", func() {
	It("is the section of the run itself, read from the files it left in reports/", func() {
		f := loadRung(GinkgoT(), "T2.3-conflicting-variants.yaml")[0]
		reports := GinkgoT().TempDir()
		res, err := ladder.Run(f, ladder.Options{Dir: filepath.Join(reports, filepath.FromSlash(f.Name()))})
		Expect(err).NotTo(HaveOccurred())
		live, err := page.Build(pageinput.PageInput(root, f, res, nil), page.Options{})
		Expect(err).NotTo(HaveOccurred())
		saved, err := page.Build(pageinput.ReportedPageInputs(root, reports, f, nil)[0], page.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(saved.Lineage.Claims).NotTo(BeEmpty(), "the comparison examined no lineage")
		Expect(saved.Evidence).NotTo(BeEmpty(), "the comparison examined no evidence")
		Expect(cmp.Diff(live, saved)).To(BeEmpty())
	})

	It("says so when the run left no artifacts: it did not complete", func() {
		f := loadRung(GinkgoT(), "T0.1-witness.yaml")[0]
		in := pageinput.ReportedPageInputs(root, GinkgoT().TempDir(), f, []string{"T0.1 run: aborted"})[0]
		Expect(in.Dense).To(BeNil())
		Expect(in.Notes).To(ContainElement(ContainSubstring("did not complete")))
	})
})
