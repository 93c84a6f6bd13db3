package explore_test

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/explore"
)

// explorePart explores seed 2 with the planted bug (failOnKilling): the
// first worlds of shard k of n, into dir/out and dir/findings, with its
// corpus split in lanes (unsharded) and rounds of two worlds, so that
// each lane's later worlds are mutants; and writes its summary as the
// explore command does.
func explorePart(dir string, worlds int64, k, n, lanes int) explore.Record {
	GinkgoHelper()
	var progress bytes.Buffer
	o := explore.OptionsWithHook(explore.Options{
		Seed: 2, Worlds: worlds, Shard: k, Shards: n, Lanes: lanes, Round: 2, Workers: 2, ShrinkTries: 40, ShrinkBudget: time.Minute, Sizes: explore.DefaultSizes,
		Out: filepath.Join(dir, "out"), Findings: filepath.Join(dir, "findings"), Scratch: GinkgoT().TempDir(),
		Progress: &progress, Now: time.Now, Command: "explore",
	}, failOnKilling{})
	sum, err := explore.Explore(o)
	Expect(err).NotTo(HaveOccurred(), progress.String())
	r := sum.Record(o)
	Expect(explore.WriteSummary(o.Out, r)).To(Succeed())
	return r
}

var _ = Describe("a campaign: shards of one seed, merged", Ordered, func() {
	var (
		one    explore.Record
		want   map[string]string // what one exploration of the 24 worlds wrote
		dir    string            // where it wrote it, and the merge writes
		shards []string          // the -out of shards 1/4 … 4/4, 6 worlds each
		parts  []explore.Record
	)
	BeforeAll(func() {
		// Shard k's j-th world is world (k−1)+4j: the four shards' 6
		// worlds each are the single exploration's 24, and each shard is
		// the lane of the single one's four that its worlds are in. The
		// merge writes
		// where the single one wrote, emptied first: the written files
		// name their own paths.
		dir = GinkgoT().TempDir()
		one = explorePart(dir, 24, 1, 1, 4)
		want = files(dir)
		Expect(os.RemoveAll(dir)).To(Succeed())
		for k := 1; k <= 4; k++ {
			d := GinkgoT().TempDir()
			parts = append(parts, explorePart(d, 6, k, 4, 0))
			shards = append(shards, filepath.Join(d, "out"))
		}
	})

	It("writes what one exploration of the same worlds writes, byte for byte", func() {
		// The planted bug fails the runs property in more than one shard,
		// and not first in shard 1: the merge has to pick the
		// lowest-indexed across them.
		var failing []string
		for _, p := range parts {
			for _, f := range p.Failures {
				failing = append(failing, fmt.Sprintf("%s %d", p.Shard, f.World))
			}
		}
		Expect(len(failing)).To(BeNumerically(">=", 2), "the planted bug fails worlds of more than one shard: %v", failing)
		Expect(one.Failures).To(HaveLen(1))
		Expect(one.Mutants).To(BeNumerically(">", 0), "the lanes' later rounds draw mutants")
		Expect(parts[0].Failures).To(BeEmpty(), "shard 1/4 holds none of the failures: %v", failing)

		merged, err := explore.Merge(shards, filepath.Join(dir, "out"), filepath.Join(dir, "findings"))
		Expect(err).NotTo(HaveOccurred())
		Expect(merged.Failures).To(Equal(one.Failures))
		got := files(dir)
		Expect(slices.Sorted(maps.Keys(got))).To(Equal([]string{
			"findings/" + one.Failures[0].Kept, "out/" + one.Failures[0].File,
			"out/" + explore.CoverageFile, "out/" + explore.SummaryFile, "out/" + explore.SummaryText,
		}))
		Expect(slices.Sorted(maps.Keys(got))).To(Equal(slices.Sorted(maps.Keys(want))))
		for name, data := range want {
			Expect(got[name]).To(Equal(data), name)
		}
		kept := filepath.Join(dir, "findings", one.Failures[0].Kept)
		Expect(got["findings/"+one.Failures[0].Kept]).To(ContainSubstring("\n# replay: explore -replay "+kept+"\n# promote: explore -promote "+kept+" T3.9\n"),
			"a kept finding names its own path")
	})

	// edited is shard k's output with its record changed by edit, in a
	// directory of its own.
	edited := func(k int, edit func(*explore.Record)) string {
		GinkgoHelper()
		d := GinkgoT().TempDir()
		r := parts[k-1]
		edit(&r)
		Expect(explore.WriteSummary(d, r)).To(Succeed())
		for _, f := range r.Failures {
			data, err := os.ReadFile(filepath.Join(shards[k-1], f.File))
			Expect(err).NotTo(HaveOccurred())
			Expect(os.WriteFile(filepath.Join(d, f.File), data, 0o644)).To(Succeed())
		}
		return d
	}

	It("says which world hung and so ended its shard", func() {
		// A hang ends only its own shard (hung_test.go makes one); here
		// shard 2/4's record says its world 5 hung.
		hang := []explore.Hang{{Shard: "2/4", World: 5}}
		hung := edited(2, func(r *explore.Record) { r.Hung = hang })
		out := GinkgoT().TempDir()
		merged, err := explore.Merge([]string{shards[0], hung, shards[2], shards[3]}, out, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(merged.Hung).To(Equal(hang))
		text, err := os.ReadFile(filepath.Join(out, explore.SummaryText))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(text)).To(ContainSubstring("\nhung at seed 2 world 5 (shard 2/4): no later world of that shard was checked\n"))
		Expect(merged.Failures[0].Kept).To(BeEmpty(), "-findings \"\" keeps nothing")
	})

	It("replays the kept findings as the union of the shards', in file order", func() {
		a := explore.KnownState{File: "findings/a.yaml", Property: "audit", Failing: "audit at tick 3: broken"}
		b := explore.KnownState{File: "findings/b.yaml", Property: "runs"}
		first := edited(1, func(r *explore.Record) { r.Known = []explore.KnownState{b} })
		second := edited(2, func(r *explore.Record) { r.Known = []explore.KnownState{a, b} })
		merged, err := explore.Merge([]string{first, second, shards[2], shards[3]}, GinkgoT().TempDir(), "")
		Expect(err).NotTo(HaveOccurred())
		Expect(merged.Known).To(Equal([]explore.KnownState{a, b}))
		Expect(merged.StillFailing()).To(Equal(1))
	})

	refused := func(want string, dirs ...string) {
		GinkgoHelper()
		out := GinkgoT().TempDir()
		_, err := explore.Merge(dirs, out, "")
		Expect(err).To(MatchError(ContainSubstring(want)))
		Expect(filepath.Join(out, explore.SummaryFile)).NotTo(BeAnExistingFile(), "a refused merge writes nothing")
	}

	It("refuses what one exploration could not have written", func() {
		refused("are both shard 2/4", shards[0], shards[1], shards[1], shards[2], shards[3])
		refused("shard 4/4 is missing (3 of 4 given)", shards[0], shards[1], shards[2])
		seed3 := edited(1, func(r *explore.Record) { r.Seed = 3 })
		refused(shards[1]+" explored seed 2, "+seed3+" seed 3", shards[1], seed3, shards[2], shards[3])
		seven := edited(1, func(r *explore.Record) { r.Asked = 7 })
		refused(seven+" checked -worlds 7, "+shards[1]+" -worlds 6", seven, shards[1], shards[2], shards[3])
		ofThree := edited(2, func(r *explore.Record) { r.Shard = "2/3" })
		refused(shards[0]+" is a shard of 4, "+ofThree+" of 3", shards[0], ofThree, shards[2], shards[3])
		refused("stopped at its first failure (-until-failure)", edited(1, func(r *explore.Record) { r.UntilFailure = true }), shards[1], shards[2], shards[3])
		refused("bounded by the clock (-time)", edited(1, func(r *explore.Record) { r.Asked = 0 }), shards[1], shards[2], shards[3])
		fixed := edited(1, func(r *explore.Record) { r.Known = []explore.KnownState{{File: "findings/a.yaml", Property: "runs"}} })
		fails := edited(2, func(r *explore.Record) {
			r.Known = []explore.KnownState{{File: "findings/a.yaml", Property: "runs", Failing: "runs at tick 1: a panic"}}
		})
		refused("replayed kept finding findings/a.yaml differently", fixed, fails, shards[2], shards[3])
		oneLane := edited(1, func(r *explore.Record) { r.Lanes = 1 })
		refused(oneLane+" drew its worlds from 1 lanes, not the 4 of a shard of 4", oneLane, shards[1], shards[2], shards[3])
		refused("no such file", GinkgoT().TempDir())
	})
})
