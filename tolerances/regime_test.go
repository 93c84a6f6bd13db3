package tolerances_test

import (
	"math"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/tolerances"
)

var (
	inf    = math.Inf(1)
	negInf = math.Inf(-1)
	nan    = math.NaN()
)

var _ = Describe("Regime.Within", func() {
	abs := tolerances.Regime{ID: 7, Name: "abs", Margin: 1e-5}
	rel := tolerances.Regime{ID: 8, Name: "rel", Fraction: 0.01}
	both := tolerances.Regime{ID: 9, Name: "both", Fraction: 0.01, Margin: 0.5}
	exact := tolerances.Regime{ID: 10, Name: "exact"}

	DescribeTable("applies |x − y| ≤ max(Fraction·min(|x|, |y|), Margin)",
		func(r tolerances.Regime, golden, actual float64, want bool) {
			got, err := r.Within(golden, actual)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
			sym, err := r.Within(actual, golden)
			Expect(err).NotTo(HaveOccurred())
			Expect(sym).To(Equal(want), "symmetric")
		},
		Entry("exact: equal", exact, 0.9, 0.9, true),
		Entry("exact: one ulp apart", exact, 0.9, math.Nextafter(0.9, 1), false),
		Entry("exact: signed zeros are equal", exact, 0.0, math.Copysign(0, -1), true),
		Entry("abs: equal", abs, 0.5, 0.5, true),
		Entry("abs: inside the margin", abs, 0.5, 0.500001, true),
		Entry("abs: exactly the margin", abs, 0.0, 1e-5, true),
		Entry("abs: just outside the margin", abs, 0.0, math.Nextafter(1e-5, 1), false),
		Entry("abs: well outside", abs, 0.9, 0.901, false),
		Entry("abs: margin does not scale with size", abs, 1e9, 1e9+1, false),
		Entry("rel: 1% of the smaller magnitude", rel, 100.0, 101.0, true),
		Entry("rel: just over 1% of the smaller", rel, 100.0, 101.01, false),
		Entry("rel: scales with size", rel, 1e9, 1.005e9, true),
		Entry("rel: uses the smaller magnitude", rel, -100.0, -101.5, false),
		Entry("rel: nothing is within a fraction of zero", rel, 0.0, 1e-300, false),
		Entry("rel: opposite signs", rel, 1.0, -1.0, false),
		Entry("both: margin wins near zero", both, 0.0, 0.5, true),
		Entry("both: margin exceeded near zero", both, 0.0, 0.5000001, false),
		Entry("both: fraction wins when large", both, 1000.0, 1010.0, true),
		Entry("both: fraction exceeded when large", both, 1000.0, 1010.5, false),
		Entry("infinity equals itself", abs, inf, inf, true),
		Entry("negative infinity equals itself", abs, negInf, negInf, true),
		Entry("infinities of opposite sign", abs, inf, negInf, false),
		Entry("infinity against the largest finite", both, inf, math.MaxFloat64, false),
		Entry("infinity against a finite value, even with a fraction", tolerances.Regime{Fraction: 1e300, Margin: 1e300}, inf, 1.0, false),
		Entry("extremes do not overflow to a pass", rel, math.MaxFloat64, -math.MaxFloat64, false),
	)

	DescribeTable("refuses NaN with ErrNaN",
		func(golden, actual float64) {
			for _, r := range []tolerances.Regime{tolerances.ByteIdentity, tolerances.Checkpoint, both} {
				ok, err := r.Within(golden, actual)
				Expect(err).To(MatchError(tolerances.ErrNaN))
				Expect(ok).To(BeFalse())
			}
		},
		Entry("NaN golden", nan, 0.5),
		Entry("NaN actual", 0.5, nan),
		Entry("NaN both", nan, nan),
		Entry("NaN against infinity", inf, nan),
	)

	It("names the regime and both values in the NaN error", func() {
		_, err := tolerances.Checkpoint.Within(nan, 0.25)
		Expect(err).To(MatchError("regime 1: golden NaN, actual 0.25: NaN cannot be compared"))
	})
})

var _ = Describe("New", func() {
	It("accepts finite non-negative parameters and returns the regime unchanged", func() {
		in := tolerances.Regime{ID: 3, Name: "r", Fraction: 0.5, Margin: 0, Invariant: "i", Formula: "f", GrowsWith: "g", FailureMode: "m", Reason: "why"}
		out, err := tolerances.New(in)
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Diff(in, out)).To(BeEmpty())
	})

	DescribeTable("rejects negative, NaN and infinite parameters",
		func(fraction, margin float64, message string) {
			out, err := tolerances.New(tolerances.Regime{ID: 4, Name: "bad", Fraction: fraction, Margin: margin})
			Expect(err).To(MatchError(message))
			Expect(out).To(BeZero())
		},
		Entry("negative fraction", -0.1, 0.0, "regime 4 (bad): fraction -0.1 must be finite and non-negative"),
		Entry("negative margin", 0.0, -1e-5, "regime 4 (bad): margin -1e-05 must be finite and non-negative"),
		Entry("NaN fraction", nan, 0.0, "regime 4 (bad): fraction NaN must be finite and non-negative"),
		Entry("NaN margin", 0.0, nan, "regime 4 (bad): margin NaN must be finite and non-negative"),
		Entry("infinite fraction", inf, 0.0, "regime 4 (bad): fraction +Inf must be finite and non-negative"),
		Entry("infinite margin", 0.0, inf, "regime 4 (bad): margin +Inf must be finite and non-negative"),
		Entry("negative infinite margin", 0.0, negInf, "regime 4 (bad): margin -Inf must be finite and non-negative"),
		Entry("fraction is checked first", -1.0, -1.0, "regime 4 (bad): fraction -1 must be finite and non-negative"),
	)
})

var _ = Describe("the package regimes", func() {
	DescribeTable("carry their parameters and a complete written derivation",
		func(r tolerances.Regime, id int, fraction, margin float64) {
			Expect(r.ID).To(Equal(id))
			Expect(math.Float64bits(r.Fraction)).To(Equal(math.Float64bits(fraction)))
			Expect(math.Float64bits(r.Margin)).To(Equal(math.Float64bits(margin)))
			for name, field := range map[string]string{
				"Name": r.Name, "Invariant": r.Invariant, "Formula": r.Formula,
				"GrowsWith": r.GrowsWith, "FailureMode": r.FailureMode, "Reason": r.Reason,
			} {
				Expect(field).NotTo(BeEmpty(), "%s of regime %d", name, r.ID)
			}
			_, err := tolerances.New(r)
			Expect(err).NotTo(HaveOccurred())
		},
		Entry("0: byte identity", tolerances.ByteIdentity, 0, 0.0, 0.0),
		Entry("1: checkpoint", tolerances.Checkpoint, 1, 0.0, 1e-5),
		Entry("2: invariant audit", tolerances.Audit, 2, 0.0, 1e-6),
	)

	It("byte identity passes only identical values", func() {
		ok, err := tolerances.ByteIdentity.Within(0.1, 0.1)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		ok, err = tolerances.ByteIdentity.Within(0.1, math.Nextafter(0.1, 0))
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeFalse())
	})

	It("checkpoint passes 1e-6 and fails 1e-3 on a confidence", func() {
		ok, err := tolerances.Checkpoint.Within(0.9, 0.900001)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		ok, err = tolerances.Checkpoint.Within(0.9, 0.901)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeFalse())
	})
})
