package explore_test

import (
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/explore"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/rules"
)

var _ = Describe("the swarm vector", func() {
	const worlds = 2000

	It("leaves out each motif about half the time, each switchable rule an eighth, and sits on the edges a fifth", func() {
		var motifs, off, groups, edges, switchable int
		for _, r := range rules.Catalogue() {
			if !r.Invariant {
				switchable++
			}
		}
		for i := range int64(worlds) {
			s := explore.DrawSwarm(explore.World{Seed: 7, Index: i})
			Expect(explore.DrawSwarm(explore.World{Seed: 7, Index: i})).To(Equal(s), "a function of the world alone")
			Expect(slices.Contains(s.Motifs[:], true)).To(BeTrue(), "world %d keeps a motif", i)
			for _, m := range s.Motifs {
				if !m {
					motifs++
				}
			}
			for _, g := range s.Defines {
				if g {
					groups++
				}
			}
			for _, r := range s.Off {
				rule, ok := rules.Find(r)
				Expect(ok && !rule.Invariant).To(BeTrue(), "only a switchable rule is switched off: %s", r)
			}
			off += len(s.Off)
			if s.Edges {
				edges++
			}
		}
		// Binomial counts, each well within five standard deviations.
		Expect(float64(motifs) / float64(worlds*len(explore.Swarm{}.Motifs))).To(BeNumerically("~", 0.5, 0.03))
		Expect(float64(off) / float64(worlds*switchable)).To(BeNumerically("~", 0.125, 0.015))
		Expect(float64(groups) / float64(worlds*len(explore.Swarm{}.Defines))).To(BeNumerically("~", 0.5, 0.02))
		Expect(float64(edges) / worlds).To(BeNumerically("~", 0.2, 0.05))
	})

	It("is what the world is drawn by: its rules off, no event of a motif it leaves out", func() {
		sawSeries, sawNoSeries := false, false
		for i := range int64(300) {
			w := explore.World{Seed: 7, Index: i}
			s, f := explore.DrawSwarm(w), explore.Generate(w, explore.DefaultSizes)
			Expect(f.Disabled).To(Equal(s.Off), "world %d", i)
			kinds := map[string]bool{}
			for _, in := range f.Injections {
				kinds[in.Kind] = true
			}
			// Only the killing motif kills; only the brawl motif and a
			// single event brawl.
			if !s.Motifs[4] {
				Expect(kinds).NotTo(HaveKey(sim.Killing), "world %d left out killings", i)
			}
			if !s.Motifs[1] && !s.Motifs[5] {
				Expect(kinds).NotTo(HaveKey(sim.Brawl), "world %d left out brawls", i)
			}
			if s.Motifs[0] && kinds[sim.Theft] {
				sawSeries = true
			}
			if !s.Motifs[0] {
				sawNoSeries = true
			}
		}
		Expect(sawSeries && sawNoSeries).To(BeTrue(), "some worlds draw theft series and some do not")
	})
})
