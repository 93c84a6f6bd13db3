package explore_test

import (
	"bytes"
	"os"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/explore"
	"github.com/chronicle/ladder/sim/trace"
)

// blockAt stands in for a loop that does not end: the first record of
// tick at blocks its run's goroutine until release is closed, so the
// spec leaks nothing once it is done.
type blockAt struct {
	at      int64
	release chan struct{}
}

func (b *blockAt) Emit(r trace.Record) {
	if r.Tick == b.at {
		<-b.release
	}
}

var _ = Describe("a world that hangs the engine", func() {
	It("is a finding of the run that hung, and nothing more is run", func() {
		w := explore.World{Seed: 3, Index: 2}
		cs, err := explore.Load(w, explore.Generate(w, explore.DefaultSizes))
		Expect(err).NotTo(HaveOccurred())
		b := &blockAt{at: 1, release: make(chan struct{})}
		defer close(b.release)
		c := explore.WithHook(&explore.Checker{Scratch: GinkgoT().TempDir(), Stall: 200 * time.Millisecond}, b)
		out := c.Check(cs)
		Expect(out.Hung).To(BeTrue())
		Expect(out.Runs).To(Equal(1), "the base run hung: no second run, no variant")
		Expect(out.Findings).To(HaveLen(1))
		Expect(out.Findings[0].Property).To(Equal(explore.PropRuns))
		Expect(out.Findings[0].Tick).To(Equal(int64(1)))
		Expect(out.Findings[0].Message).To(ContainSubstring("a run hung: "))
		Expect(out.Findings[0].Message).To(ContainSubstring("made no progress for 200ms in tick 1"))
	})

	It("ends the exploration at that world, written as found, not shrunk", func() {
		b := &blockAt{at: 1, release: make(chan struct{})}
		defer close(b.release)
		var progress bytes.Buffer
		out := GinkgoT().TempDir()
		sum, err := explore.Explore(explore.OptionsWithHook(explore.Options{
			Seed: 3, Budget: time.Minute, ShrinkBudget: time.Minute, Sizes: explore.DefaultSizes,
			Out: out, Scratch: GinkgoT().TempDir(), Progress: &progress, Now: time.Now, Command: "explore",
			Stall: 200 * time.Millisecond,
		}, b))
		Expect(err).NotTo(HaveOccurred())
		Expect(sum.Worlds).To(Equal(1), "the exploration stops at the world that hung")
		Expect(sum.Failures).To(HaveLen(1))
		x := sum.Failures[0]
		Expect(x.Finding.Property).To(Equal(explore.PropRuns))
		Expect(x.Tries).To(BeZero(), "a hung world is not shrunk: every candidate would hang too")
		Expect(sum.Record(explore.Options{}).Hung).To(Equal([]explore.Hang{{Shard: "1/1", World: x.World.Index}}), "summary.json says the shard ended there")
		Expect(progress.String()).To(ContainSubstring("not shrunk: every candidate would hang too, and a hung run cannot be stopped; the exploration ends here"))
		Expect(x.File).To(BeAnExistingFile())
		data, err := os.ReadFile(x.File)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(ContainSubstring("# property: runs\n"))
	})
})
