package harness_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/verdict"
)

// longFixture is T1.1's hop with the pair kept at the market for the whole
// run, so every tick adds an encounter and usually a declined telling to
// the trace and a row to the dense CSV (every define pinned).
func longFixture(ticks int) *fixture.Fixture {
	GinkgoHelper()
	src := fmt.Sprintf(`rung: T1.8
title: Long — a run whose trace and dense CSV grow every tick
tier: 1
seed_id: ladder-T1.1
ticks: %[1]d
defines: {ticks_per_day: 24, witness_confidence: 0.9, verbatim_half_life_ticks: 72, gist_half_life_ticks: 960, dormant_gist: 0.5, forgotten_gist: 0.125, corroboration_window_ticks: 720, encounter_probability: 0.5, retell_decay: 0.8, trust_floor: 0.5, default_trust: 0.5, mutation_max: 0.25, contested_dent: 0.1}
rules: {disable: [trust-discounted-retelling]}
locations:
  market: {hold: whiterun}
cast:
  merchant: {}
  witness: {schedule: [{at: market, from: 0, to: %[1]d}]}
  neighbor: {schedule: [{at: market, from: 10, to: %[1]d}]}
events:
  - {tick: 2, kind: theft, actor: player, victim: merchant, item: sweetroll, at: market, witnesses: [witness]}
expect:
  - trace: {match: {kind: transmission, teller: witness, listener: neighbor, fired: true}}
  - {at: end, belief: {holder: neighbor, claim: theft@2, source_chain: [witness]}}
checkpoints: {every: 1000, values: {believers: believers(theft@2)}}
`, ticks)
	fs, err := fixture.Parse("fixtures/T1.8-long.yaml", []byte(src))
	Expect(err).NotTo(HaveOccurred())
	return fs[0]
}

// peakHeap runs f and returns the most heap in use while it ran (live and
// not yet swept objects, sampled every millisecond), above what was in use
// when it started.
func peakHeap(run func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	done, peak := make(chan struct{}), make(chan uint64)
	go func() {
		most := base
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				peak <- max(most, read())
				return
			case <-tick.C:
				most = max(most, read())
			}
		}
	}()
	run()
	close(done)
	return <-peak - base
}

// longRun runs the long fixture at a length, first to make its goldens,
// then against them as the suite does, and returns the second run's heap
// peak and its artifacts' total size.
func longRun(ticks int) (peak uint64, written int64) {
	GinkgoHelper()
	f := longFixture(ticks)
	root := GinkgoT().TempDir()
	_, err := ladder.Run(f, ladder.Options{Dir: filepath.Join(root, filepath.FromSlash(f.GoldenDir()))})
	Expect(err).NotTo(HaveOccurred())
	var res *ladder.Result
	peak = peakHeap(func() {
		res, err = ladder.Run(f, ladder.Options{Dir: GinkgoT().TempDir(), Goldens: root})
	})
	Expect(err).NotTo(HaveOccurred())
	Expect(res.Failures).To(BeEmpty())
	Expect(verdict.Verify(res)).To(Equal(verdict.Verdict{}), "compared with its own goldens as it went")
	for _, name := range []string{artifact.DenseFile, artifact.TraceFile} {
		info, err := os.Stat(res.Path(name))
		Expect(err).NotTo(HaveOccurred())
		written += info.Size()
	}
	return peak, written
}

var _ = Describe("a long run", Label("unit"), func() {
	It("streams its artifacts: ten times the ticks, the same heap", func() {
		shortPeak, shortSize := longRun(10_000)
		longPeak, longSize := longRun(100_000)
		GinkgoWriter.Printf("10,000 ticks: %d MB written, heap peak %.1f MiB; 100,000 ticks: %d MB written, heap peak %.1f MiB\n",
			shortSize>>20, float64(shortPeak)/(1<<20), longSize>>20, float64(longPeak)/(1<<20))
		Expect(longSize).To(BeNumerically(">", 9*shortSize), "the long run must write ten times as much for the check to mean anything")
		Expect(longSize).To(BeNumerically(">", 40<<20))
		// Holding the long run's trace or dense rows would add more than
		// its 49 MB of files (trace version 3), well past the slack below;
		// streaming adds nothing that grows.
		Expect(longPeak).To(BeNumerically("<", shortPeak+16<<20),
			"the heap grew with the run: %.1f MiB at 100,000 ticks against %.1f MiB at 10,000", float64(longPeak)/(1<<20), float64(shortPeak)/(1<<20))
	})
})
