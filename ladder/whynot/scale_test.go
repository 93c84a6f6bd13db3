package whynot_test

import (
	"fmt"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/pageinput"
	"github.com/chronicle/ladder/ladder/regen"
	"github.com/chronicle/ladder/ladder/whynot"
)

// A sweep keeps no trace per seed, so the thousand-NPC run is made here:
// T2.8's world, one seed, as its spec makes the seed world it keeps for
// the page (pageinput.SeedWorld), into a temporary directory.
var _ = Describe("a 1,000-NPC run", func() {
	It("answers every unheard pair at its last tick in well under 200 ms a pair, indexed once", func() {
		sweeps, err := regen.Select(root, []string{"T2.8"})
		Expect(err).NotTo(HaveOccurred())
		i := slices.IndexFunc(sweeps, func(f *fixture.Fixture) bool { return f.Sweep != nil })
		Expect(i).To(BeNumerically(">=", 0), "T2.8 is no longer a sweep: make the thousand-NPC run another way")
		world, err := pageinput.SeedWorld(sweeps[i], 0)
		Expect(err).NotTo(HaveOccurred())
		res, err := ladder.Run(world, ladder.Options{Dir: GinkgoT().TempDir()})
		Expect(err).NotTo(HaveOccurred())

		start := time.Now()
		run, err := whynot.Open(world.Name(), res.Dir, whynot.WorldOf(world))
		Expect(err).NotTo(HaveOccurred())
		index := time.Since(start)
		Expect(len(run.NPCs())).To(BeNumerically(">=", 1000))

		_, last := run.Ticks()
		var worst, total time.Duration
		pairs := 0
		for _, npc := range run.NPCs() {
			for _, claim := range run.Claims() {
				if run.Holds(npc, claim, last) {
					continue
				}
				t := time.Now()
				a, err := run.Explain(npc, claim, last)
				took := time.Since(t)
				Expect(err).NotTo(HaveOccurred())
				specific(run, a)
				worst, total = max(worst, took), total+took
				pairs++
			}
		}
		Expect(pairs).To(BeNumerically(">", 1000))
		AddReportEntry("why-not at 1,000 NPCs", fmt.Sprintf("%d NPCs, %d unheard pairs: index %v once, then %v a pair on average, %v at worst, %v in all",
			len(run.NPCs()), pairs, index.Round(time.Millisecond), (total/time.Duration(pairs)).Round(time.Microsecond), worst.Round(time.Microsecond), total.Round(time.Millisecond)))
		Expect(worst).To(BeNumerically("<", 200*time.Millisecond))
	})
})
