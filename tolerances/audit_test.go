package tolerances_test

import (
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/tolerances"
)

var _ = Describe("regime 2, the invariant audit", func() {
	DescribeTable("grades a residual against the bound rounding explains, then the 1e-6 ceiling",
		func(residual, bound float64, want tolerances.Grade) {
			Expect(tolerances.Audit.Grade(residual, bound)).To(Equal(want))
			Expect(tolerances.Audit.Grade(-residual, bound)).To(Equal(want), "the sign of a residual does not matter")
		},
		Entry("zero against an exact bound", 0.0, 0.0, tolerances.OK),
		Entry("one ulp of 1 against an exact bound", 0x1p-52, 0.0, tolerances.Warn),
		Entry("within a derived bound", 1e-15, 2e-15, tolerances.OK),
		Entry("just past a derived bound", math.Nextafter(2e-15, 1), 2e-15, tolerances.Warn),
		Entry("exactly the warn ceiling", 1e-6, 0.0, tolerances.Warn),
		Entry("just past the warn ceiling", math.Nextafter(1e-6, 1), 0.0, tolerances.Alarm),
		Entry("a bound above the ceiling still makes ok", 1e-5, 1e-4, tolerances.OK),
		Entry("a confidence of 1.2", 0.2, 0.0, tolerances.Alarm),
		Entry("infinity", math.Inf(1), 0.0, tolerances.Alarm),
	)

	It("alarms on a NaN residual or bound", func() {
		Expect(tolerances.Audit.Grade(math.NaN(), 1)).To(Equal(tolerances.Alarm))
		Expect(tolerances.Audit.Grade(0, math.NaN())).To(Equal(tolerances.Alarm))
	})

	It("fails a run on an alarm always, on a warn only when strict", func() {
		Expect(tolerances.OK.Failing(true)).To(BeFalse())
		Expect(tolerances.Warn.Failing(false)).To(BeFalse())
		Expect(tolerances.Warn.Failing(true)).To(BeTrue())
		Expect(tolerances.Alarm.Failing(false)).To(BeTrue())
		Expect([]string{tolerances.OK.String(), tolerances.Warn.String(), tolerances.Alarm.String(), tolerances.Grade(7).String()}).
			To(Equal([]string{"ok", "warn", "alarm", "grade(7)"}))
	})

	It("writes down every invariant's derivation, each name once", func() {
		seen := map[string]bool{}
		Expect(tolerances.Invariants).NotTo(BeEmpty())
		for _, inv := range tolerances.Invariants {
			Expect(seen[inv.Name]).To(BeFalse(), "%s twice", inv.Name)
			seen[inv.Name] = true
			for what, text := range map[string]string{"Statement": inv.Statement, "Tolerance": inv.Tolerance, "GrowsWith": inv.GrowsWith, "Exact": inv.Exact, "FailureMode": inv.FailureMode} {
				Expect(text).NotTo(BeEmpty(), "%s of %s", what, inv.Name)
			}
			got, ok := tolerances.InvariantByName(inv.Name)
			Expect(ok).To(BeTrue())
			Expect(got.Name).To(Equal(inv.Name))
		}
		_, ok := tolerances.InvariantByName("no-such-invariant")
		Expect(ok).To(BeFalse())
	})
})

var _ = Describe("SumBound", func() {
	It("is n units of roundoff of the value, whatever its sign", func() {
		Expect(tolerances.SumBound(0, 5)).To(Equal(0.0))
		Expect(tolerances.SumBound(3, 2)).To(Equal(6 * 0x1p-53))
		Expect(tolerances.SumBound(3, -2)).To(Equal(6 * 0x1p-53))
	})

	It("covers the rounding of repeated additions of 0.1, measured exactly", func() {
		for _, n := range []int64{1, 10, 100, 1000, 100_000} {
			sum := 0.3
			exact := new(big.Float).SetPrec(2000).SetFloat64(0.3)
			step := new(big.Float).SetPrec(2000).SetFloat64(0.1)
			for range n {
				sum += 0.1
				exact.Add(exact, step)
			}
			diff, _ := new(big.Float).Sub(exact, new(big.Float).SetFloat64(sum)).Float64()
			Expect(math.Abs(diff)).To(BeNumerically("<=", tolerances.SumBound(n, sum)), "n=%d", n)
		}
	})
})

var _ = Describe("ExactSteps", func() {
	// exactUpTo checks by brute force that start + k·step is exact for
	// every k ≤ n, with big arithmetic.
	exactUpTo := func(start, step float64, n int64) bool {
		x := start
		want := new(big.Float).SetPrec(2000).SetFloat64(start)
		s := new(big.Float).SetPrec(2000).SetFloat64(step)
		for range n {
			x += step
			want.Add(want, s)
			if new(big.Float).SetFloat64(x).Cmp(want) != 0 {
				return false
			}
		}
		return true
	}

	It("says integer priors and weights stay exact for 2^53 minus the prior steps", func() {
		n, ok := tolerances.ExactSteps(1, 1)
		Expect(ok).To(BeTrue())
		Expect(n).To(Equal(int64(1<<53 - 1)))
		n, _ = tolerances.ExactSteps(0, 2) // counted in units of 2: every even integer up to 2^54
		Expect(n).To(Equal(int64(1 << 53)))
	})

	It("counts dyadic fractions in their own unit", func() {
		n, ok := tolerances.ExactSteps(0.5, 0.25) // 2 + 1·k quarters
		Expect(ok).To(BeTrue())
		Expect(n).To(Equal(int64(1<<53 - 2)))
	})

	It("says 0.1 is exact for a handful of steps only, and agrees with brute force there", func() {
		n, ok := tolerances.ExactSteps(0, 0.1)
		Expect(ok).To(BeTrue())
		Expect(n).To(BeNumerically("<", 16))
		Expect(exactUpTo(0, 0.1, n)).To(BeTrue())
		Expect(exactUpTo(0, 0.1, n+1)).To(BeFalse(), "one step more must round")
	})

	It("agrees with brute force at the edge for a large start", func() {
		start := float64(1<<53 - 4)
		n, _ := tolerances.ExactSteps(start, 1)
		Expect(n).To(Equal(int64(4)))
		Expect(exactUpTo(start, 1, n)).To(BeTrue())
		Expect(exactUpTo(start, 1, n+1)).To(BeFalse())
	})

	It("says a start already past 2^53 in the step's unit is never exact, and a zero step always is", func() {
		n, ok := tolerances.ExactSteps(0x1p60, 1)
		Expect(ok).To(BeTrue())
		Expect(n).To(Equal(int64(-1)))
		_, ok = tolerances.ExactSteps(0.1, 0)
		Expect(ok).To(BeFalse())
	})
})

var _ = Describe("docs/tolerances.md", func() {
	It("has a section for every regime-2 invariant, in the audit's order", func() {
		doc, err := os.ReadFile(filepath.Join("..", "docs", "tolerances.md"))
		Expect(err).NotTo(HaveOccurred())
		at := -1
		for _, inv := range tolerances.Invariants {
			i := strings.Index(string(doc), "### `"+inv.Name+"`")
			Expect(i).To(BeNumerically(">", at), "%s: missing or out of order", inv.Name)
			at = i
		}
	})
})
