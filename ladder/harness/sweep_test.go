package harness_test

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/seal"
	"github.com/chronicle/ladder/ladder/verdict"
)

// Specs of a sweep rung: a tiny world (a market, three people, one theft
// seen by one of them) copied into three towns and run over four seeds.

const sweepFixture = `rung: T2.9
title: Tiny sweep
tier: 2
seed_id: ladder-T2.9
ticks: 24
defines:
  encounter_probability: 0.3
locations:
  market: {hold: whiterun}
cast:
  merchant: {schedule: [{at: market, from: 8, to: 18, daily: true}]}
  witness: {schedule: [{at: market, from: 8, to: 18, daily: true}]}
  baker: {schedule: [{at: market, from: 8, to: 18, daily: true}]}
events:
  - {tick: 9, kind: theft, actor: player, victim: merchant, item: apple, at: market, witnesses: [witness]}
sweep:
  seeds: 4
  towns: 3
  at: [12, 23]
  bounds:
    informed@23: {mean: MEAN, sd: 1.5, pilot: 50, z: 3.89}
`

func sweepRung(mean string) *fixture.Fixture {
	GinkgoHelper()
	fs, err := fixture.Parse("fixtures/T2.9-tiny-sweep.yaml", []byte(strings.Replace(sweepFixture, "MEAN", mean, 1)))
	Expect(err).NotTo(HaveOccurred())
	return fs[0]
}

var _ = Describe("a sweep rung", Label("unit"), func() {
	var root, golden string

	// accept runs f and keeps its artifacts as the goldens under root.
	accept := func(f *fixture.Fixture) {
		GinkgoHelper()
		res, err := ladder.Run(f, ladder.Options{Dir: GinkgoT().TempDir()})
		Expect(err).NotTo(HaveOccurred())
		Expect(os.MkdirAll(golden, 0o755)).To(Succeed())
		for _, name := range ladder.Artifacts(f) {
			b, err := os.ReadFile(res.Path(name))
			Expect(err).NotTo(HaveOccurred())
			Expect(os.WriteFile(filepath.Join(golden, name), b, 0o644)).To(Succeed())
		}
	}
	run := func(f *fixture.Fixture) (*ladder.Result, verdict.Verdict) {
		GinkgoHelper()
		res, err := ladder.Run(f, ladder.Options{Dir: GinkgoT().TempDir(), Goldens: root})
		Expect(err).NotTo(HaveOccurred())
		return res, verdict.Verify(res)
	}

	BeforeEach(func() {
		root = GinkgoT().TempDir()
		golden = filepath.Join(root, "goldens", "T2.9-tiny-sweep")
	})

	It("writes one line per seed with its exact counts, a summary, and the seal of both — and no dense file or trace", func() {
		f := sweepRung("6")
		Expect(ladder.Sealed(f)).To(Equal([]string{artifact.AggregatesFile, artifact.SummaryFile}))
		res, err := ladder.Run(f, ladder.Options{Dir: GinkgoT().TempDir()})
		Expect(err).NotTo(HaveOccurred())
		agg, err := os.ReadFile(res.Path(artifact.AggregatesFile))
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(strings.TrimSuffix(string(agg), "\n"), "\n")
		Expect(lines[0]).To(Equal("seed_id,informed@12,variants@12,informed@23,variants@23"))
		Expect(lines).To(HaveLen(5))
		for i, l := range lines[1:] {
			Expect(l).To(MatchRegexp(`^ladder-T2\.9/%d,[0-9]+,[0-9]+,[0-9]+,[0-9]+$`, i))
		}
		Expect(res.Path(artifact.DenseFile)).NotTo(BeAnExistingFile())
		Expect(res.Path(artifact.TraceFile)).NotTo(BeAnExistingFile())
		r := seal.Check(res.Dir, "T2.9")
		Expect(r.Breaches).To(BeEmpty())
		Expect(r.Examined).To(Equal(2))
		Expect(res.Expectations).To(HaveLen(1))
		Expect(res.Expectations[0].Examined).To(Equal(int64(4)), "a bound examines every seed")
	})

	It("is deterministic: a second run writes the same bytes", func() {
		f := sweepRung("6")
		a, err := ladder.Run(f, ladder.Options{Dir: GinkgoT().TempDir()})
		Expect(err).NotTo(HaveOccurred())
		b, err := ladder.Run(f, ladder.Options{Dir: GinkgoT().TempDir()})
		Expect(err).NotTo(HaveOccurred())
		for _, name := range ladder.Artifacts(f) {
			x, _ := os.ReadFile(a.Path(name))
			y, _ := os.ReadFile(b.Path(name))
			Expect(x).To(Equal(y), name)
		}
	})

	It("passes against its own goldens", func() {
		f := sweepRung("6")
		accept(f)
		_, v := run(f)
		Expect(v.Problems).To(BeEmpty())
	})

	It("names the seed and the aggregate where a count differs from its golden", func() {
		f := sweepRung("6")
		accept(f)
		path := filepath.Join(golden, artifact.AggregatesFile)
		b, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(string(b), "\n")
		cells := strings.Split(lines[3], ",")
		cells[3] += "0"
		lines[3] = strings.Join(cells, ",")
		Expect(os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)).To(Succeed())
		_, v := run(f)
		Expect(v.Problems).To(HaveLen(1))
		p := v.Problems[0]
		Expect(p.Check).To(Equal(artifact.AggregatesFile))
		Expect(p.Column).To(Equal("informed@23"))
		Expect(p.Message).To(HavePrefix(`T2.9 aggregates.csv: first divergence at line 4, seed ladder-T2.9/2, aggregate "informed@23": golden ` + cells[3] + `, actual ` + strings.TrimSuffix(cells[3], "0") + ` (each seed is deterministic`))
	})

	It("fails a bound the sweep's mean lies outside, with the numbers that decide it", func() {
		res, _ := run(sweepRung("0.5"))
		Expect(res.Expectations).To(HaveLen(1))
		Expect(res.Expectations[0].Passed).To(BeFalse())
		Expect(res.Failures).To(Equal([]string{"sweep.bounds[0] (fixtures/T2.9-tiny-sweep.yaml:21:5): sweep bound informed@23: " +
			"the mean over 4 seeds is 8.75, 8.25 from the pilot's 0.5; the bound is 3.03195493864932 (z 3.89 × sd 1.5 × √(1/4 + 1/50)): " +
			"the distribution moved, or the bound was narrowed below what the sweep produces"}))
	})

	It("reports missing goldens as a new rung", func() {
		_, v := run(sweepRung("6"))
		Expect(v.Problems).To(HaveLen(1))
		Expect(v.Problems[0].Message).To(ContainSubstring("T2.9: no goldens yet (goldens/T2.9-tiny-sweep/ does not exist)"))
	})
})
