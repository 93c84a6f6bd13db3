package compare_test

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/compare"
)

var _ = Describe("Runs", func() {
	It("pairs rolls by key within their tick, whatever their order, and classifies what differs", func() {
		a := newTrace(0).
			roll(1, "encounter", "encounter@1/m/[a,b]", 0.1, 0.5).
			roll(1, "encounter", "encounter@1/m/[a,c]", 0.2, 0.5).
			roll(2, "encounter", "encounter@2/m/[a,b]", 0.7, 0.5).
			roll(2, "encounter", "encounter@2/m/[b,c]", 0.4, 0.5).
			roll(3, "rule", "mutation@3/m/[a,b]", 0.3, 0.25)
		b := newTrace(9).
			roll(1, "encounter", "encounter@1/m/[a,c]", 0.2, 0.5).
			roll(1, "encounter", "encounter@1/m/[a,b]", 0.1, 0.5).
			roll(2, "encounter", "encounter@2/m/[a,b]", 0.3, 0.5).
			roll(2, "encounter", "encounter@2/m/[b,c]", 0.4, 0.3).
			roll(3, "rule", "mutation@3/m/[b,a]", 0.6, 0.25)
		rep, err := runs(a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Shared).To(Equal(4))
		Expect(rep.Same).To(Equal(2))
		Expect(rep.Flipped).To(Equal(2), "0.7 → 0.3 passes now; 0.4 against 0.3 no longer does")
		keysOf := func(d compare.Drift) []string {
			var out []string
			for _, x := range rep.Classes[d].Listed {
				out = append(out, x.Key())
			}
			return out
		}
		Expect(keysOf(compare.ValueDrift)).To(Equal([]string{"encounter@2/m/[a,b]"}))
		Expect(keysOf(compare.ThresholdDrift)).To(Equal([]string{"encounter@2/m/[b,c]"}))
		Expect(keysOf(compare.OnlyA)).To(Equal([]string{"mutation@3/m/[a,b]"}))
		Expect(keysOf(compare.OnlyB)).To(Equal([]string{"mutation@3/m/[b,a]"}))
		drift := rep.Classes[compare.ValueDrift].Listed[0]
		Expect([]float64{drift.A.Value, drift.B.Value}).To(Equal([]float64{0.7, 0.3}))
		Expect([]int{drift.A.Line, drift.B.Line}).To(Equal([]int{4, 4}))
		Expect(rep.FirstRoll.Drift).To(Equal(compare.ValueDrift))
		Expect(rep.FirstRoll.Tick()).To(Equal(int64(2)))
		Expect(rep.A.Header.Branch.Generation).To(Equal(int64(0)))
		Expect(rep.B.Header.Branch.Generation).To(Equal(int64(9)))
		Expect([]int{rep.A.Rolls, rep.B.Rolls, rep.A.Records}).To(Equal([]int{5, 5, 5}))
		Expect(rep.Verdict()).To(Equal("value drift (1 key rolled by both with different values: only a pin or a bug does that); " +
			"threshold drift (1 key rolled the same value against different thresholds); control-flow drift (2 keys rolled by one run only)"))
	})

	It("names as first divergent roll the earliest tick's first in place, the first run's on a tie", func() {
		a := newTrace(0).roll(1, "encounter", "encounter@1/m/[a,b]", 0.1, 0.5).
			roll(5, "encounter", "encounter@5/m/[x,y]", 0.1, 0.5).roll(5, "encounter", "encounter@5/m/[a,b]", 0.1, 0.5)
		b := newTrace(1).roll(1, "encounter", "encounter@1/m/[a,b]", 0.1, 0.5).
			roll(5, "encounter", "encounter@5/m/[c,d]", 0.1, 0.5).roll(5, "encounter", "encounter@5/m/[a,b]", 0.9, 0.5)
		rep, err := runs(a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.FirstRoll.Drift).To(Equal(compare.OnlyA))
		Expect(rep.FirstRoll.Key()).To(Equal("encounter@5/m/[x,y]"))

		b = newTrace(1).roll(1, "encounter", "encounter@1/m/[a,b]", 0.1, 0.5).
			roll(5, "encounter", "encounter@5/m/[c,d]", 0.1, 0.5).roll(5, "encounter", "encounter@5/m/[x,y]", 0.1, 0.5)
		a = newTrace(0).roll(1, "encounter", "encounter@1/m/[a,b]", 0.1, 0.5).
			roll(5, "encounter", "encounter@5/m/[x,y]", 0.1, 0.5).roll(5, "encounter", "encounter@5/m/[a,b]", 0.1, 0.5)
		rep, err = runs(a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.FirstRoll.Drift).To(Equal(compare.OnlyB), "b's [c,d] is its first roll of the tick, a's [a,b] its second")
		Expect(rep.FirstRoll.Key()).To(Equal("encounter@5/m/[c,d]"))
	})

	It("pairs the n-th roll of a repeated key with the n-th of the other run", func() {
		a := newTrace(0).roll(2, "rule", "mutation@2/m/[a,b]", 0.3, 0.25).roll(2, "rule", "mutation@2/m/[a,b]", 0.3, 0.25)
		b := newTrace(1).roll(2, "rule", "mutation@2/m/[a,b]", 0.3, 0.25)
		rep, err := runs(a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Shared).To(Equal(1))
		Expect(rep.Classes[compare.OnlyA].Count).To(Equal(1))
		Expect(rep.Classes[compare.OnlyA].Listed[0].A.Line).To(Equal(3))
	})

	It("finds the first tick at which some holder's set of variants differs, from belief records", func() {
		a := newTrace(0).belief(1, "ann", "t@1#v0").belief(3, "bob", "t@1#v0").belief(4, "cat", "t@1#v1")
		b := newTrace(1).belief(1, "ann", "t@1#v0").belief(3, "bob", "t@1#v0").belief(4, "cat", "t@1#v0").belief(4, "ann", "u@4#v0")
		rep, err := runs(a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.FirstBelief).To(Equal(&compare.BeliefDivergence{Tick: 4, Holder: "ann", A: []string{"t@1#v0"}, B: []string{"t@1#v0", "u@4#v0"}}))
	})

	It("takes a keyframe's beliefs as the whole state, so a divergence only a keyframe shows is found there", func() {
		a := newTrace(0).keyframe(0).belief(1, "ann", "t@1#v0").keyframe(24, [2]string{"ann", "t@1#v0"})
		b := newTrace(1).keyframe(0).belief(1, "ann", "t@1#v0").keyframe(24, [2]string{"ann", "t@1#v1"})
		rep, err := runs(a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.FirstBelief).To(Equal(&compare.BeliefDivergence{Tick: 24, Holder: "ann", A: []string{"t@1#v0"}, B: []string{"t@1#v1"}}))
	})

	It("reads runs of different lengths to the end of the longer", func() {
		a := newTrace(0).roll(1, "encounter", "encounter@1/m/[a,b]", 0.1, 0.5)
		b := newTrace(1).roll(1, "encounter", "encounter@1/m/[a,b]", 0.1, 0.5).roll(9, "encounter", "encounter@9/m/[a,b]", 0.1, 0.5).belief(9, "ann", "t@9#v0")
		rep, err := runs(a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect([]int64{rep.A.LastTick, rep.B.LastTick}).To(Equal([]int64{1, 9}))
		Expect(rep.Classes[compare.OnlyB].Count).To(Equal(1))
		Expect(rep.FirstBelief.Tick).To(Equal(int64(9)))
	})

	It("keeps at most List differences of each class, counting them all", func() {
		a, b := newTrace(0), newTrace(1)
		for t := range int64(7) {
			a.roll(t, "encounter", fmt.Sprintf("encounter@%d/m/[a,b]", t), 0.1, 0.5)
		}
		rep, err := compare.Runs(side("a", a), side("b", b), compare.Options{List: 2})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Classes[compare.OnlyA].Count).To(Equal(7))
		Expect(rep.Classes[compare.OnlyA].Listed).To(HaveLen(2))
		Expect(rep.Classes[compare.OnlyA].Listed[1].Tick()).To(Equal(int64(1)))
	})

	It("refuses runs of different seeds, and names the run whose trace it cannot read", func() {
		a, b := newTrace(0), newTrace(1)
		b.seed = "other"
		_, err := runs(a, b)
		Expect(err).To(MatchError(`a has seed "s" and b seed "other": rolls of different seeds share no value, so the runs cannot be aligned`))
		_, err = compare.Runs(side("a", a), compare.Side{Name: "b", Trace: strings.NewReader(newTrace(1).String() + `{"kind":"x","tick":1}`)}, compare.Options{})
		Expect(err).To(MatchError("b: trace line 2: no final newline: the file is cut short"))
		bad := newTrace(1).add(`"kind":"encounter","roll":{"key":"e@2/m/[a]","threshold":0.5,"value":0.1},"tick":1`)
		_, err = runs(a, bad)
		Expect(err).To(MatchError("b: trace line 2: roll e@2/m/[a] names tick 2 but its record is at tick 1"))
		bad = newTrace(1).add(`"claim":"t","kind":"belief","tick":1`)
		_, err = runs(a, bad)
		Expect(err).To(MatchError("b: trace line 2: belief record: want holder, claim and variant"))
	})

	Describe("dense files", func() {
		dense := func(a, b string) compare.DenseReport {
			GinkgoHelper()
			sa, sb := side("a", newTrace(0)), side("b", newTrace(1))
			if a != "" {
				sa.Dense = []byte(a)
			}
			if b != "" {
				sb.Dense = []byte(b)
			}
			rep, err := compare.Runs(sa, sb, compare.Options{})
			Expect(err).NotTo(HaveOccurred())
			return rep.Dense
		}

		It("finds the first differing cell of the columns both have, beside the columns only one has", func() {
			d := dense("tick,ann/t/confidence,bob/t/confidence\n0,,0.9\n1,0.5,0.9\n2,0.5,0.8\n",
				"tick,bob/t/confidence,cat/t/confidence\n0,0.9,0.1\n1,0.9,0.2\n2,0.7,0.2\n3,0.7,0.2\n")
			Expect(d.First.Tick).To(Equal(int64(2)))
			Expect(d.First.Column).To(Equal("bob/t/confidence"))
			Expect([]string{d.First.Golden, d.First.Actual}).To(Equal([]string{"0.8", "0.7"}))
			Expect(d.Removed).To(Equal([]string{"ann/t/confidence"}))
			Expect(d.Added).To(Equal([]string{"cat/t/confidence"}))
			Expect([]int{d.OnlyA, d.OnlyB}).To(Equal([]int{0, 1}))
		})

		DescribeTable("says why it did not compare",
			func(a, b, want string) { Expect(dense(a, b).Skipped).To(Equal(want)) },
			Entry("the first has none", "", "tick\n0\n", "a has no dense file"),
			Entry("the second has none", "tick\n0\n", "", "b has no dense file"),
			Entry("nothing shared but tick", "tick,x\n0,1\n", "tick,y\n0,1\n", "the runs' dense files share no column but tick"),
			Entry("a file that does not parse", "tick,x\n0,1\n", "tock,x\n0,1\n", "cannot read the dense files: actual: dense: malformed golden at line 1, column 1: first column must be named \"tick\""),
		)

		It("says when they are identical", func() {
			Expect(dense("tick,x\n0,1\n", "tick,x\n0,1\n").Identical).To(BeTrue())
		})
	})

	// The property: whatever two runs roll, the report's counts are those
	// of a multiset comparison of (tick, key) → value, threshold, and
	// swapping the runs swaps the one-sided classes.
	It("agrees with a brute-force comparison on random runs, and is symmetric", func() {
		rng := rand.New(rand.NewPCG(7, 11))
		for range 300 {
			a, b := randomRun(rng, 0), randomRun(rng, 1)
			rep, err := runs(a.trace, b.trace)
			Expect(err).NotTo(HaveOccurred())
			want := oracle(a.rolls, b.rolls)
			got := counts{rep.Shared, rep.Same, rep.Classes[compare.ValueDrift].Count, rep.Classes[compare.ThresholdDrift].Count,
				rep.Classes[compare.OnlyA].Count, rep.Classes[compare.OnlyB].Count}
			Expect(cmp.Diff(want, got, cmp.AllowUnexported(counts{}))).To(BeEmpty())
			back, err := runs(b.trace, a.trace)
			Expect(err).NotTo(HaveOccurred())
			Expect(back.Classes[compare.OnlyA].Count).To(Equal(rep.Classes[compare.OnlyB].Count))
			Expect(back.Classes[compare.OnlyB].Count).To(Equal(rep.Classes[compare.OnlyA].Count))
			Expect(back.Shared).To(Equal(rep.Shared))
			Expect(rep.SameRolls()).To(Equal(got.value+got.threshold+got.onlyA+got.onlyB == 0))
		}
	})

	It("reads a trace as a stream: the reader is never asked for more than it needs at once", func() {
		a := newTrace(0)
		for t := range int64(2000) {
			a.roll(t, "encounter", fmt.Sprintf("encounter@%d/m/[a,b]", t), 0.1, 0.5)
		}
		r := &countingReader{r: strings.NewReader(a.String())}
		_, err := compare.Runs(compare.Side{Name: "a", Trace: r}, side("b", newTrace(1)), compare.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.largest).To(BeNumerically("<=", 1<<16))
		Expect(r.total).To(Equal(len(a.String())))
	})
})

type countingReader struct {
	r              *strings.Reader
	total, largest int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.total += n
	c.largest = max(c.largest, len(p))
	return n, err
}

type counts struct{ shared, same, value, threshold, onlyA, onlyB int }

type oracleRoll struct {
	tick             int64
	key              string
	value, threshold float64
}

type randomTrace struct {
	trace *trace
	rolls []oracleRoll
}

// randomRun rolls a few keys per tick from a small pool, so the two runs
// share some keys, repeat some, and differ in values and thresholds.
func randomRun(rng *rand.Rand, gen int64) randomTrace {
	t := newTrace(gen)
	var rolls []oracleRoll
	values := []float64{0.1, 0.2, 0.3}
	for tick := range int64(4) {
		for range rng.IntN(4) {
			key := fmt.Sprintf("encounter@%d/m/[a,%c]", tick, 'b'+rng.IntN(3))
			r := oracleRoll{tick, key, values[rng.IntN(3)], values[rng.IntN(2)]}
			rolls = append(rolls, r)
			t.roll(tick, "encounter", key, r.value, r.threshold)
		}
	}
	return randomTrace{t, rolls}
}

// oracle pairs rolls by key, n-th with n-th, without any cleverness.
func oracle(a, b []oracleRoll) counts {
	var c counts
	used := make([]bool, len(b))
	for _, x := range a {
		j := -1
		for i, y := range b {
			if !used[i] && y.key == x.key {
				j = i
				break
			}
		}
		if j < 0 {
			c.onlyA++
			continue
		}
		used[j] = true
		c.shared++
		switch y := b[j]; {
		case x.value != y.value:
			c.value++
		case x.threshold != y.threshold:
			c.threshold++
		default:
			c.same++
		}
	}
	for _, u := range used {
		if !u {
			c.onlyB++
		}
	}
	return c
}
