package explore_test

import (
	"bytes"
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/explore"
	"github.com/chronicle/ladder/sim/trace"
)

// failOnKilling stands in for an engine bug that only some worlds reach:
// a run whose trace records a killing event panics, so the world fails
// the runs property, and so does every shrunk candidate that keeps it.
type failOnKilling struct{}

func (failOnKilling) Emit(r trace.Record) {
	if e, ok := r.Body.(*trace.Event); ok && e.EventKind == "killing" {
		panic("planted: a killing")
	}
}

// exploreInto runs an exploration of seed 2's first worlds with the
// planted bug, into dirs of its own, and returns its summary and progress.
func exploreInto(dir string, workers int, hook trace.Sink) (explore.Summary, string) {
	var progress bytes.Buffer
	o := explore.Options{
		Seed: 2, Worlds: 24, Round: 8, Workers: workers, ShrinkTries: 40, ShrinkBudget: time.Minute, Sizes: explore.DefaultSizes,
		Out: filepath.Join(dir, "out"), Findings: filepath.Join(dir, "findings"), Scratch: GinkgoT().TempDir(),
		Progress: &progress, Now: time.Now, Command: "explore",
	}
	if hook != nil {
		o = explore.OptionsWithHook(o, hook)
	}
	sum, err := explore.Explore(o)
	Expect(err).NotTo(HaveOccurred(), progress.String())
	return sum, progress.String()
}

// files reads every file under dir, by path relative to it.
func files(dir string) map[string]string {
	out := map[string]string{}
	Expect(filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(b)
		return err
	})).To(Succeed())
	return out
}

var _ = Describe("an exploration bounded by a world count", func() {
	It("draws, finds, shrinks, keeps and covers the same whatever the number of workers", func() {
		// One directory for both, emptied between them: the written
		// files name their own paths.
		dir := GinkgoT().TempDir()
		one, _ := exploreInto(dir, 1, failOnKilling{})
		first := files(dir)
		Expect(os.RemoveAll(dir)).To(Succeed())
		three, _ := exploreInto(dir, 3, failOnKilling{})

		Expect(one.Worlds).To(Equal(24))
		Expect(one.Mutants).To(BeNumerically(">", 0), "rounds of 8: the second and third draw some worlds from the corpus")
		Expect(three.Mutants).To(Equal(one.Mutants))
		Expect(three.Corpus).To(Equal(one.Corpus))
		Expect(one.Failing()).To(Equal([]string{explore.PropRuns}), "the planted bug is reached by some of the 24 worlds")
		Expect(three.Worlds).To(Equal(one.Worlds))
		Expect(three.Runs).To(Equal(one.Runs))
		Expect(three.Checked).To(Equal(one.Checked))
		Expect(three.Failures[0].World).To(Equal(one.Failures[0].World), "the first failing world by index, not the first to finish")
		Expect(three.Coverage).To(Equal(one.Coverage))
		Expect(files(dir)).To(Equal(first), "the shrunk failure and the kept finding are the same bytes")
		Expect(first).To(HaveKey(MatchRegexp(`^findings/T\d[ab]?\.900-runs-[0-9a-f]{16}\.yaml$`)))
	})

	It("replays the kept findings first: a fixed one is said to be fixed, one that still fails fails again and is not kept twice", func() {
		dir := GinkgoT().TempDir()
		exploreInto(dir, 2, failOnKilling{})
		kept := files(filepath.Join(dir, "findings"))
		Expect(kept).To(HaveLen(1))

		again, _ := exploreInto(dir, 2, failOnKilling{})
		Expect(again.StillFailing()).To(HaveLen(1))
		Expect(again.Failures).To(BeEmpty(), "the property is kept failing already: no second file for it")
		Expect(files(filepath.Join(dir, "findings"))).To(Equal(kept))

		fixed, progress := exploreInto(dir, 2, nil)
		Expect(fixed.StillFailing()).To(BeEmpty())
		Expect(fixed.Known).To(HaveLen(1))
		Expect(fixed.Known[0].Failing).To(BeNil())
		Expect(progress).To(ContainSubstring("is fixed (runs holds): promote it"))
	})
})
