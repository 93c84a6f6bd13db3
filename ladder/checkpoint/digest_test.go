package checkpoint_test

import (
	"strings"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/tolerances"
)

// withDigests is goldenFile with a state digest at every sample and at
// the end.
func withDigests() checkpoint.File {
	f := goldenFile()
	for i := range f.Samples {
		f.Samples[i].StateDigest = strings.Repeat(string(rune('a'+i)), 64)
	}
	f.Outcome.StateDigest = strings.Repeat("f", 64)
	return f
}

var _ = Describe("state digests", func() {
	It("are written in each sample and in the outcome, keys sorted, and read back", func() {
		b, err := withDigests().Marshal()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(ContainSubstring("    {\n      \"state_digest\": \"" + strings.Repeat("a", 64) + "\",\n      \"tick\": 0,"))
		Expect(string(b)).To(ContainSubstring("\"log_head\": \"ab12\",\n    \"state_digest\": \"" + strings.Repeat("f", 64) + "\",\n    \"ticks\": 24,"))
		f, err := checkpoint.Parse("x.json", b)
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Diff(withDigests(), f, exactFloats)).To(BeEmpty())
	})

	It("are left out of a file that has none, which still reads", func() {
		b, err := goldenFile().Marshal()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).NotTo(ContainSubstring("state_digest"))
	})

	It("fail a comparison at the first tick whose state differs, and at the end, exactly", func() {
		golden, actual := withDigests(), withDigests()
		actual.Samples[1].StateDigest = strings.Repeat("0", 64)
		actual.Outcome.StateDigest = strings.Repeat("1", 64)
		rep := checkpoint.Compare(golden, actual, tolerances.Checkpoint)
		Expect(rep.Failures).To(Equal([]string{
			"outcome.state_digest: golden " + strings.Repeat("f", 64) + ", actual " + strings.Repeat("1", 64),
			"state digest at tick 6: golden " + strings.Repeat("b", 64) + ", actual " + strings.Repeat("0", 64) + " (the engine's state differs; the digest is exact, regime 0)",
		}))
		Expect(rep.Diffs[1].Name).To(Equal("state_digest"))
		Expect(rep.Diffs[1].Tick).To(Equal(int64(6)))
	})

	It("say so when the golden was written before digests were", func() {
		rep := checkpoint.Compare(goldenFile(), withDigests(), tolerances.Checkpoint)
		Expect(rep.Failures).To(HaveLen(4))
		Expect(rep.Failures[1]).To(HavePrefix("state digest at tick 0: golden absent, actual aaaa"))
	})
})
