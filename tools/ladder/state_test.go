package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/checkpoint"
)

var _ = Describe("state", Serial, func() {
	// A reports directory holding T4a.1's run as its goldens have it; a
	// spec edits the checkpoints to make it another run.
	var reports string
	BeforeEach(func() {
		socialRoot("T4a.1-mourning.yaml")
		reports = GinkgoT().TempDir()
		for _, name := range []string{artifact.CheckpointsFile, artifact.DenseFile} {
			copyFile(filepath.Join(repo, "goldens", "T4a.1-mourning", name), filepath.Join(reports, "T4a.1", name))
		}
	})
	state := func(args ...string) (string, string, error) {
		var stdout, stderr bytes.Buffer
		err := run(append([]string{"state", "-rung", "T4a.1"}, args...), &stdout, &stderr)
		return stdout.String(), stderr.String(), err
	}
	// edit rewrites the run's checkpoints.json.
	edit := func(change func(*checkpoint.File)) {
		GinkgoHelper()
		p := filepath.Join(reports, "T4a.1", artifact.CheckpointsFile)
		data, err := os.ReadFile(p)
		Expect(err).NotTo(HaveOccurred())
		cp, err := checkpoint.Parse(p, data)
		Expect(err).NotTo(HaveOccurred())
		change(&cp)
		data, err = cp.Marshal()
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(p, data, 0o644)).To(Succeed())
	}
	// between is a tick after the first sample and before the second.
	between := func() (tick, next int64) {
		GinkgoHelper()
		var samples []checkpoint.Sample
		edit(func(cp *checkpoint.File) { samples = cp.Samples })
		Expect(len(samples)).To(BeNumerically(">", 2))
		Expect(samples[1].Tick - samples[0].Tick).To(BeNumerically(">", 1))
		return samples[0].Tick + 1, samples[1].Tick
	}

	It("prints the run's state when a re-run reaches every digest the run recorded up to the tick", func() {
		at, next := between()
		files, note, err := state("-reports", reports, "-at", fmt.Sprint(at))
		Expect(err).NotTo(HaveOccurred())
		again, _, err := state("-rerun", "-at", fmt.Sprint(at))
		Expect(err).NotTo(HaveOccurred())
		Expect(files).To(Equal(again))
		Expect(files).To(HavePrefix(`{"accumulators":`))
		Expect(note).To(ContainSubstring(fmt.Sprintf("the run's own state: a re-run reached every digest the run in %s/T4a.1 recorded up to tick %d", filepath.ToSlash(reports), next)))
	})

	It("refuses a run the re-run does not reach, naming the tick and both digests", func() {
		at, next := between()
		var was string
		edit(func(cp *checkpoint.File) {
			was, cp.Samples[1].StateDigest = cp.Samples[1].StateDigest, "0000000000000000000000000000000000000000000000000000000000000000"
		})
		out, _, err := state("-reports", reports, "-at", fmt.Sprint(at))
		Expect(err).To(MatchError(ContainSubstring(fmt.Sprintf("at tick %d the run recorded state digest 0000000000000000000000000000000000000000000000000000000000000000, the checkout's engine reaches %s", next, was))))
		Expect(out).To(BeEmpty())
	})

	It("refuses a run made from another fixture", func() {
		edit(func(cp *checkpoint.File) { cp.FixtureHash = "0123456789abcdef" })
		out, _, err := state("-reports", reports)
		Expect(err).To(MatchError(ContainSubstring("was made from another fixtures/T4a.1-mourning.yaml (fixture hash 0123456789abcdef; the checkout's is")))
		Expect(out).To(BeEmpty())
	})

	It("refuses a run whose recorded digests do not reach the tick, or that recorded none", func() {
		at, _ := between()
		edit(func(cp *checkpoint.File) { cp.Samples, cp.Outcome.Ticks = cp.Samples[:1], cp.Samples[0].Tick+1 })
		out, _, err := state("-reports", reports, "-at", fmt.Sprint(at))
		Expect(err).To(MatchError(ContainSubstring(fmt.Sprintf("records no state digest at or after tick %d", at))))
		Expect(out).To(BeEmpty())
		edit(func(cp *checkpoint.File) { cp.Samples[0].StateDigest = "" })
		out, _, err = state("-reports", reports, "-at", fmt.Sprint(at))
		Expect(err).To(MatchError(ContainSubstring("records no state digest at tick 0 (written before runs recorded them)")))
		Expect(out).To(BeEmpty())
	})
})
