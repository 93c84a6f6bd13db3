package harness_test

import (
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/record"
	"github.com/chronicle/ladder/ladder/verdict"
)

// record.Stages is a benchmark's view into a run (BenchmarkCityRun): it
// must not change what the run writes, and its stages must account for
// the run's time, each stage's work reaching the stage it is charged to.
var _ = Describe("a run timed by stage", Label("unit"), func() {
	It("writes what an untimed run writes, and its stages partition its time", func() {
		f := longFixture(2_000)
		root := GinkgoT().TempDir()
		_, err := ladder.Run(f, ladder.Options{Dir: filepath.Join(root, filepath.FromSlash(f.GoldenDir()))})
		Expect(err).NotTo(HaveOccurred())

		plain, timed := GinkgoT().TempDir(), GinkgoT().TempDir()
		res, err := ladder.Run(f, ladder.Options{Dir: plain, Goldens: root})
		Expect(err).NotTo(HaveOccurred())
		Expect(verdict.Verify(res)).To(Equal(verdict.Verdict{}))
		st := &record.Stages{}
		start := time.Now()
		res, err = ladder.Run(f, ladder.Options{Dir: timed, Goldens: root, Stages: st})
		wall := time.Since(start)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Failures).To(BeEmpty())
		Expect(verdict.Verify(res)).To(Equal(verdict.Verdict{}), "compared with its goldens as it went")

		entries, err := os.ReadDir(plain)
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).NotTo(BeEmpty())
		for _, e := range entries {
			want, err := os.ReadFile(filepath.Join(plain, e.Name()))
			Expect(err).NotTo(HaveOccurred())
			got, err := os.ReadFile(filepath.Join(timed, e.Name()))
			Expect(err).NotTo(HaveOccurred(), "the timed run did not write %s", e.Name())
			Expect(got).To(Equal(want), "the timed run's %s differs from the untimed run's", e.Name())
		}
		timedEntries, err := os.ReadDir(timed)
		Expect(err).NotTo(HaveOccurred())
		Expect(timedEntries).To(HaveLen(len(entries)), "the timed run wrote other files")

		var total time.Duration
		for _, s := range record.AllStages() {
			Expect(st.Of(s)).To(BeNumerically(">", 0), "nothing was charged to stage %s", s)
			total += st.Of(s)
		}
		// The stages cover Run from its start to its return: all but the
		// call itself.
		Expect(total).To(BeNumerically("<=", wall))
		Expect(total).To(BeNumerically(">=", wall*9/10))
	})
})
