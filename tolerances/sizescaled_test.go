package tolerances_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/tolerances"
)

// naive sums in the order given.
func naive(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}

// pairwise sums by halves: another algorithm, another order.
func pairwise(xs []float64) float64 {
	switch len(xs) {
	case 0:
		return 0
	case 1:
		return xs[0]
	}
	return pairwise(xs[:len(xs)/2]) + pairwise(xs[len(xs)/2:])
}

func magnitude(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += math.Abs(x)
	}
	return s
}

var _ = Describe("SizeScaled (regime 3)", func() {
	r := tolerances.SizeScaled

	It("is 2·γ(n − 1 + r)·Σ|x|, exactly as derived", func() {
		b, err := r.Bound(tolerances.Sum{Terms: 34, Magnitude: 10, TermRoundings: 2})
		Expect(err).NotTo(HaveOccurred())
		ku := 35 * 0x1p-53
		Expect(b).To(Equal(2 * (ku / (1 - ku)) * 10))
		b, err = r.Bound(tolerances.Sum{Terms: 1, Magnitude: 0.7})
		Expect(err).NotTo(HaveOccurred())
		Expect(b).To(BeZero(), "one term taken the same way twice: no rounding to allow")
		b, err = r.Bound(tolerances.Sum{})
		Expect(err).NotTo(HaveOccurred())
		Expect(b).To(BeZero())
	})

	It("grows linearly with the number of terms and with their magnitude", func() {
		b1, _ := r.Bound(tolerances.Sum{Terms: 1001, Magnitude: 1})
		b2, _ := r.Bound(tolerances.Sum{Terms: 2001, Magnitude: 1})
		b3, _ := r.Bound(tolerances.Sum{Terms: 1001, Magnitude: 3})
		Expect(b2 / b1).To(BeNumerically("~", 2, 1e-9))
		Expect(b3 / b1).To(BeNumerically("~", 3, 1e-12))
	})

	// Sums of the kind T6's fear view takes — weights in [0, 1], tens to
	// thousands of terms — and sums with cancellation, each summed in three
	// orders by two algorithms: every pair stays inside the bound, a
	// planted error of ten times the bound does not, and some orders do
	// differ (the bound is not guarding a difference that never happens).
	It("holds a sum in two orders inside, and a planted error of 10× the bound outside", func() {
		rng := rand.New(rand.NewPCG(3, 6))
		differed, pairs := 0, 0
		for trial := range 400 {
			n := 2 + rng.IntN(2000)
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = rng.Float64()
				if trial%2 == 1 {
					xs[i] = (rng.Float64() - 0.5) * math.Ldexp(1, rng.IntN(40)-20)
				}
			}
			sum := tolerances.Sum{Terms: n, Magnitude: magnitude(xs)}
			bound, err := r.Bound(sum)
			Expect(err).NotTo(HaveOccurred())
			rev := slices.Clone(xs)
			slices.Reverse(rev)
			sorted := slices.Clone(xs)
			slices.Sort(sorted)
			results := []float64{naive(xs), naive(rev), naive(sorted), pairwise(xs), pairwise(sorted)}
			for i, a := range results {
				for _, b := range results[i+1:] {
					pairs++
					if a != b {
						differed++
					}
					ok, got, err := r.Within(a, b, sum)
					Expect(err).NotTo(HaveOccurred())
					Expect(got).To(Equal(bound))
					Expect(ok).To(BeTrue(), "trial %d: %d terms, |%v − %v| = %v > bound %v", trial, n, a, b, math.Abs(a-b), bound)
				}
				planted := a + 10*bound
				ok, _, err := r.Within(planted, results[0], sum)
				Expect(err).NotTo(HaveOccurred())
				Expect(ok).To(BeFalse(), "trial %d: a planted error of 10× the bound (%v) passed", trial, 10*bound)
			}
		}
		Expect(differed).To(BeNumerically(">", pairs/4), "the orders must actually round differently in many pairs: %d of %d differed", differed, pairs)
	})

	DescribeTable("refuses what has no bound",
		func(a, b float64, s tolerances.Sum, msg string) {
			_, _, err := r.Within(a, b, s)
			Expect(err).To(MatchError(ContainSubstring(msg)))
		},
		Entry("negative terms", 1.0, 1.0, tolerances.Sum{Terms: -1}, "must not be negative"),
		Entry("negative term roundings", 1.0, 1.0, tolerances.Sum{Terms: 2, TermRoundings: -1}, "must not be negative"),
		Entry("negative magnitude", 1.0, 1.0, tolerances.Sum{Terms: 2, Magnitude: -1}, "finite and non-negative"),
		Entry("NaN magnitude", 1.0, 1.0, tolerances.Sum{Terms: 2, Magnitude: nan}, "finite and non-negative"),
		Entry("infinite magnitude", 1.0, 1.0, tolerances.Sum{Terms: 2, Magnitude: inf}, "finite and non-negative"),
		Entry("a NaN sum", nan, 1.0, tolerances.Sum{Terms: 2, Magnitude: 1}, "NaN cannot be compared"),
	)

	It("refuses too many terms for any bound", func() {
		if strconv.IntSize < 64 {
			Skip("a 32-bit int cannot count the 2⁵³ terms at which n·u reaches 1")
		}
		terms := uint64(1) << 62 // converted at run time: the file must build on 386 too
		_, _, err := r.Within(1, 1, tolerances.Sum{Terms: int(terms), Magnitude: 1})
		Expect(err).To(MatchError(ContainSubstring("no bound")))
	})

	It("holds infinities to equality", func() {
		s := tolerances.Sum{Terms: 2, Magnitude: 1}
		ok, _, err := r.Within(inf, inf, s)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		ok, _, err = r.Within(inf, math.MaxFloat64, s)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeFalse())
	})
})
