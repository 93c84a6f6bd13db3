package page_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/artifact"
	cmp "github.com/chronicle/ladder/ladder/compare"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/page"
)

// Each case that is a counterfactual of its rung is its own timeline: its
// trace differs from the rung's on every line by the branch key. The
// page's comparison aligns the records with the branch keys left out, so
// its first divergent record is one the runs disagree on, never the
// header; and it is no later than the first roll ladder compare names.
// The goldens are the runs, so no rung's output is pinned here.
var _ = Describe("A counterfactual pair's comparison", func() {
	var fs, pairs []*fixture.Fixture
	files, err := fixture.Discover(filepath.Join(root, "fixtures"), "fixtures")
	for _, x := range files {
		fs = append(fs, x.Fixtures...)
	}
	for _, f := range fs {
		if f.CounterfactualOf != "" {
			pairs = append(pairs, f)
		}
	}

	It("has pairs to compare", func() {
		Expect(err).NotTo(HaveOccurred())
		Expect(pairs).NotTo(BeEmpty(), "fixtures/ has cases with counterfactual_of")
	})

	for _, f := range pairs {
		It("names the first record "+f.Name()+" and "+f.CounterfactualOf+" differ in, after the header", func() {
			base := findFixture(fs, f.CounterfactualOf)
			own := page.Path(filepath.Join(root, filepath.FromSlash(f.GoldenDir()), artifact.TraceFile))
			other := page.Path(filepath.Join(root, filepath.FromSlash(base.GoldenDir()), artifact.TraceFile))
			s, err := page.Build(page.Input{Name: f.Name(), Trace: own, Dense: page.Path(filepath.Join(root, filepath.FromSlash(f.GoldenDir()), artifact.DenseFile)),
				Partners: []page.Partner{{Name: base.Name(), Trace: other, Dense: page.Path(filepath.Join(root, filepath.FromSlash(base.GoldenDir()), artifact.DenseFile))}}}, page.Options{})
			Expect(err).NotTo(HaveOccurred())
			var c *page.Comparison
			for _, o := range s.Others {
				if o.Name == base.Name() {
					c = o.Cmp
				}
			}
			Expect(c).NotTo(BeNil(), "the section compares with %s", base.Name())
			Expect(c.FirstRecord).NotTo(BeNil())
			Expect(c.FirstRecord.Kind).NotTo(Equal("header"), c.FirstRecord.Text)
			Expect(c.FirstRecord.Text).To(ContainSubstring("branch keys aside"))
			Expect(c.FirstRecord.Seq).To(BeNumerically(">=", 0), "a record of the section's own run: %s", c.FirstRecord.Text)

			a, err := os.Open(string(other))
			Expect(err).NotTo(HaveOccurred())
			defer a.Close()
			b, err := os.Open(string(own))
			Expect(err).NotTo(HaveOccurred())
			defer b.Close()
			rep, err := cmp.Runs(cmp.Side{Name: base.Name(), Trace: a}, cmp.Side{Name: f.Name(), Trace: b}, cmp.Options{List: 1})
			Expect(err).NotTo(HaveOccurred())
			if rep.FirstRoll != nil {
				Expect(c.FirstRecord.Tick).To(BeNumerically("<=", rep.FirstRoll.Tick()), "no roll differs before a record does")
				Expect(c.FirstRoll.Key).To(Equal(rep.FirstRoll.Key()), "the page's first divergent roll is ladder compare's")
			}
		})
	}
})

func findFixture(fs []*fixture.Fixture, name string) *fixture.Fixture {
	GinkgoHelper()
	for _, f := range fs {
		if f.Name() == name {
			return f
		}
	}
	Fail("no fixture " + name)
	return nil
}

var _ = Describe("A partner without files", func() {
	It("is a note on the section, never a panic", func() {
		own := page.Path(filepath.Join(root, "goldens", "T4a.2-counterfactual", "frozen", artifact.TraceFile))
		s, err := page.Build(page.Input{Name: "T4a.2/frozen", Trace: own, Dense: page.Path(filepath.Join(root, "goldens", "T4a.2-counterfactual", "frozen", artifact.DenseFile)),
			Partners: []page.Partner{{Name: "T4a.2"}}}, page.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Notes).To(ContainElement("T4a.2/frozen is not compared with T4a.2: T4a.2 has no trace.jsonl and dense.csv to read."))
	})
})
