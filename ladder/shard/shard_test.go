package shard_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/shard"
)

var _ = Describe("Plan", func() {
	costs := shard.Costs{"T0.1": 1, "T0.2": 9, "T2.1": 180, "T2.2": 40, "T2.5": 60, "T2.6": 30, "T2.7": 50}
	rungs := []string{"T2.7", "T0.1", "T2.1", "T0.2", "T2.2", "T2.5", "T2.6", "T0.1"}

	It("deals the longest first to the lightest part, deterministically", func() {
		plan := shard.Plan(rungs, costs, 2)
		// T2.1 (180) to part 1; 60, 50, 40 and 30 to part 2 (180); the tie
		// sends T0.2 (9) to part 1, then T0.1 (1) to part 2.
		Expect(plan).To(Equal([][]string{{"T0.2", "T2.1"}, {"T0.1", "T2.2", "T2.5", "T2.6", "T2.7"}}))
	})

	It("does not depend on the order the rungs are given in", func() {
		reversed := slices.Clone(rungs)
		slices.Reverse(reversed)
		Expect(shard.Plan(reversed, costs, 3)).To(Equal(shard.Plan(rungs, costs, 3)))
	})

	It("puts every rung in exactly one part, for any number of parts", func() {
		for n := 1; n <= 7; n++ {
			var all []string
			for _, p := range shard.Plan(rungs, costs, n) {
				all = append(all, p...)
			}
			slices.Sort(all)
			Expect(all).To(Equal([]string{"T0.1", "T0.2", "T2.1", "T2.2", "T2.5", "T2.6", "T2.7"}), "n=%d", n)
		}
	})

	It("costs an unknown rung the median of the known ones, and breaks ties by id", func() {
		Expect(shard.Plan([]string{"T9.1", "T9.2", "T9.3", "T9.4"}, shard.Costs{}, 2)).To(Equal([][]string{{"T9.1", "T9.3"}, {"T9.2", "T9.4"}}))
		Expect(shard.Plan([]string{"T2.1", "T0.1", "T3.1"}, shard.Costs{"T2.1": 100, "T0.1": 1}, 2)).To(Equal([][]string{{"T2.1"}, {"T0.1", "T3.1"}}),
			"T3.1 costs the median, 1")
	})
})

var _ = Describe("Filter", func() {
	plan := [][]string{{"T2.1"}, {"T0.1", "T2.2"}, {"T1.1"}}

	It("runs part 1 as everything the other parts do not select", func() {
		f, err := shard.Filter(plan, shard.Spec{K: 1, N: 3})
		Expect(err).NotTo(HaveOccurred())
		Expect(f).To(Equal("!(T0.1 || T1.1 || T2.2)"))
	})

	It("runs the other parts by their rungs' labels", func() {
		f, err := shard.Filter(plan, shard.Spec{K: 2, N: 3})
		Expect(err).NotTo(HaveOccurred())
		Expect(f).To(Equal("T0.1 || T2.2"))
	})

	It("makes the parts select every spec exactly once, whatever its labels", func() {
		specs := [][]string{{"tier2", "T2.1"}, {"tier0", "T0.1"}, {"tier2", "T2.2"}, {"tier1", "T1.1"}, {"unit"}, {"goldens"}, {}, {"tier9", "T9.9", "invalid-fixture"}}
		for _, labels := range specs {
			runs := 0
			for k := 1; k <= 3; k++ {
				f, err := shard.Filter(plan, shard.Spec{K: k, N: 3})
				Expect(err).NotTo(HaveOccurred())
				ok, err := types.SpecReport{LeafNodeLabels: labels}.MatchesLabelFilter(f)
				Expect(err).NotTo(HaveOccurred())
				if ok {
					runs++
				}
			}
			Expect(runs).To(Equal(1), "%v", labels)
		}
	})

	It("refuses a plan with an empty part", func() {
		_, err := shard.Filter([][]string{{"T0.1"}, {}}, shard.Spec{K: 1, N: 2})
		Expect(err).To(MatchError("shard 2/2 would run no rung: 2 parts is more than there are rungs to balance"))
	})

	It("is no filter at all for one part", func() {
		f, err := shard.Filter([][]string{{"T0.1"}}, shard.Spec{K: 1, N: 1})
		Expect(err).NotTo(HaveOccurred())
		Expect(f).To(BeEmpty())
	})
})

var _ = Describe("ParseSpec", func() {
	It("reads k/n", func() {
		Expect(shard.ParseSpec("2/4")).To(Equal(shard.Spec{K: 2, N: 4}))
	})
	DescribeTable("refuses anything else",
		func(s string) {
			_, err := shard.ParseSpec(s)
			Expect(err).To(MatchError(`shard ` + strconv.Quote(s) + `: want k/n with 1 <= k <= n, e.g. 2/4`))
		},
		Entry("no slash", "2"), Entry("zero parts", "1/0"), Entry("k beyond n", "5/4"), Entry("k zero", "0/4"), Entry("words", "a/b"),
	)
})

var _ = Describe("costs", func() {
	It("round-trips through the committed file, naming its refresh command", func() {
		root := GinkgoT().TempDir()
		b, err := shard.Costs{"T0.1": 2, "T2.1": 180}.Marshal()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(Equal("{\n  \"costs_ms\": {\n    \"T0.1\": 2,\n    \"T2.1\": 180\n  },\n  \"refresh\": \"make ladder && go run ./tools/ladder costs\"\n}\n"))
		Expect(os.MkdirAll(filepath.Join(root, "ladder", "shard"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(root, shard.CostsFile), b, 0o644)).To(Succeed())
		Expect(shard.ReadCosts(root)).To(Equal(shard.Costs{"T0.1": 2, "T2.1": 180}))
	})

	It("reads no costs when there is no file, and refuses a negative cost", func() {
		root := GinkgoT().TempDir()
		Expect(shard.ReadCosts(root)).To(BeEmpty())
		Expect(os.MkdirAll(filepath.Join(root, "ladder", "shard"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(root, shard.CostsFile), []byte(`{"costs_ms": {"T0.1": -3}, "refresh": ""}`), 0o644)).To(Succeed())
		_, err := shard.ReadCosts(root)
		Expect(err).To(MatchError("read ladder/shard/costs.json: T0.1 costs -3 ms"))
	})

	It("reads the committed file", func() {
		costs, err := shard.ReadCosts(filepath.Join("..", ".."))
		Expect(err).NotTo(HaveOccurred())
		Expect(costs).To(HaveKey("T2.1"))
	})
})
