package explore_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/explore"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/rules"
)

var _ = Describe("the generator", func() {
	const worlds = 300
	It("draws fixtures the loader accepts and loads back unchanged, within the sizes, the same twice", func() {
		sz := explore.DefaultSizes
		kinds := map[string]int{}
		var kin, roles, disabled, defines, carriers, says, crowds int
		for i := range int64(worlds) {
			w := explore.World{Seed: 3, Index: i}
			f := explore.Generate(w, sz)
			cs, err := explore.Load(w, f)
			Expect(err).NotTo(HaveOccurred())
			again, err := explore.Load(w, explore.Generate(w, sz))
			Expect(err).NotTo(HaveOccurred())
			Expect(again.YAML).To(Equal(cs.YAML), "world %d drawn twice", i)
			Expect(len(f.Cast)).To(BeNumerically(">=", sz.MinNPCs))
			Expect(len(f.Cast)).To(BeNumerically("<=", sz.MaxNPCs))
			Expect(f.Ticks).To(BeNumerically(">=", sz.MinTicks))
			Expect(f.Ticks).To(BeNumerically("<=", sz.MaxTicks))
			Expect(len(f.Locations)).To(BeNumerically(">=", 1))
			Expect(len(f.Locations)).To(BeNumerically("<=", sz.MaxLocations))
			for _, in := range f.Injections {
				kinds[in.Kind]++
				for _, wt := range in.Witnesses {
					if len(wt.Says) > 0 {
						says++
					}
				}
			}
			if len(f.Kin) > 0 {
				kin++
			}
			if len(f.Roles) > 0 {
				roles++
			}
			if len(f.Disabled) > 0 {
				disabled++
			}
			if f.Defines != rules.Default() {
				defines++
			}
			if len(f.Cast) > 24 {
				crowds++
			}
			if strings.Contains(string(cs.YAML), "every:") && len(f.Locations) > 1 {
				carriers++
			}
		}
		for _, k := range append(sim.EventKinds(), sim.Report) {
			Expect(kinds).To(HaveKey(k), "no world of %d has a %s", worlds, k)
		}
		for what, n := range map[string]int{"kin": kin, "roles": roles, "rule toggles": disabled, "defines": defines, "recurring blocks": carriers, "misremembering witnesses": says, "crowds": crowds} {
			Expect(n).To(BeNumerically(">", 0), "no world of %d has %s", worlds, what)
		}
	})

	It("writes ids that look like numbers quoted, so they load as the same ids", func() {
		w := explore.World{Seed: 3, Index: 1}
		f := explore.Generate(w, explore.DefaultSizes)
		f.Items = []string{"42", "true"}
		cs, err := explore.Load(w, f)
		Expect(err).NotTo(HaveOccurred())
		Expect(cs.Loaded.Items).To(Equal([]string{"42", "true"}))
	})

	It("names the fixture by its rung and slug, the tier its highest layer", func() {
		w := explore.World{Seed: 3, Index: 5}
		f := explore.Generate(w, explore.DefaultSizes)
		Expect(explore.FileName(f)).To(Equal(f.Rung + "-explore-3-5.yaml"))
		Expect(f.Rung).To(Equal("T" + f.Tier + ".900"))
	})
})

var _ = Describe("the property list", func() {
	It("is the table docs/explore.md shows", func() {
		doc, err := os.ReadFile("../../docs/explore.md")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(doc)).To(ContainSubstring(explore.Table()))
	})
})

// refusedWorld is a world the engine refuses at its tick-5 report (the
// teller holds no belief), padded with what a shrinker should remove.
func refusedWorld() *fixture.Fixture {
	f := explore.Generate(explore.World{Seed: 9, Index: 0}, explore.Sizes{MinNPCs: 2, MaxNPCs: 2, MinTicks: 24, MaxTicks: 24, MaxLocations: 1})
	f.Defines = rules.Default()
	f.Disabled, f.Kin, f.Roles, f.Relationships, f.Items = nil, nil, nil, nil, nil
	f.Locations = []sim.Location{{ID: "l0"}, {ID: "l1"}, {ID: "l2"}}
	f.Cast = nil
	for _, id := range []string{"a", "b", "c", "d", "e", "f"} {
		f.Cast = append(f.Cast, sim.NPC{ID: id})
	}
	f.Cast[0].Schedule.Home = "l0"
	f.Ticks = 200
	f.Injections = []sim.Injection{
		{Tick: 1, Kind: sim.Theft, ID: "theft@1", Actor: sim.Player, Victim: "c", Item: "ring", At: "l1", Witnesses: []sim.Witness{{NPC: "a"}, {NPC: "d"}}},
		{Tick: 2, Kind: sim.Brawl, ID: "brawl@2", Actor: "d", Victim: "e", At: "l2"},
		{Tick: 3, Kind: sim.Theft, ID: "theft@3", Actor: sim.Player, Victim: "f", Item: "ring", At: "l0", Witnesses: []sim.Witness{{NPC: "a"}}},
		{Tick: 50, Kind: sim.Report, From: "b", To: "c", Claim: "theft@1"},
	}
	return f
}

var _ = Describe("shrinking", func() {
	It("keeps only what the failure needs, and writes a rung that promotes and loads", func() {
		w := explore.World{Seed: 9}
		cs, err := explore.Load(w, refusedWorld())
		Expect(err).NotTo(HaveOccurred())
		c := &explore.Checker{Scratch: GinkgoT().TempDir()}
		out := c.Check(cs)
		Expect(out.Findings).To(HaveLen(1))
		x := out.Findings[0]
		Expect(x.Property).To(Equal(explore.PropRuns))
		Expect(x.Message).To(ContainSubstring("holds no belief"))

		s := explore.Shrink(c, cs, x, 0, time60, timeNow)
		f := s.Case.Loaded
		// It stops when a round of cuts ends on the world it began with,
		// not at the deadline: resetting an integer define and halving it
		// again once went round until the minute was up.
		Expect(s.Tries).To(BeNumerically("<", 200), "the shrinker went round in circles: %d tries, %d kept", s.Tries, s.Kept)
		again := explore.Shrink(c, cs, x, 0, time60, timeNow)
		Expect(string(again.Case.YAML)).To(Equal(string(s.Case.YAML)), "shrinking the same failure twice")
		Expect(s.Finding.Property).To(Equal(explore.PropRuns))
		Expect(len(f.Cast)).To(BeNumerically("<=", 3), "b tells c: at most the theft's victim besides")
		Expect(f.Injections).To(HaveLen(2), "the theft told of, and the report")
		Expect(f.Locations).To(HaveLen(1))
		Expect(f.Ticks).To(BeNumerically("<", 50))

		dir := GinkgoT().TempDir()
		r := explore.Written{File: dir + "/" + f.Rung + "-runs-9-0.yaml", Original: "6 NPCs"}
		data, err := explore.Write(s.Case, s.Finding, r, "go run ./tools/ladder explore")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(ContainSubstring("# property: runs\n"))
		Expect(os.WriteFile(r.File, data, 0o644)).To(Succeed())
		read, prop, err := explore.Read(r.File)
		Expect(err).NotTo(HaveOccurred())
		Expect(prop).To(Equal(explore.PropRuns))
		Expect(c.Check(read).Findings).To(HaveLen(1), "the written world fails the same way")

		fixtures := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(fixtures, "T2.8-spread-at-scale.yaml"), []byte("rung: T2.8\n"), 0o644)).To(Succeed())
		name, promoted, err := explore.Promote(r.File, "T2.9-runs", fixtures)
		Expect(err).NotTo(HaveOccurred())
		Expect(name).To(Equal(filepath.ToSlash(filepath.Join(fixtures, "T2.9-runs.yaml"))))
		fs, err := fixture.Parse(name, promoted)
		Expect(err).NotTo(HaveOccurred())
		Expect(fs[0].Rung).To(Equal("T2.9"))
		Expect(fs[0].Tier).To(Equal("2"))
		Expect(fs[0].Title).To(HavePrefix("Explored — runs (promoted from "))
		_, _, err = explore.Promote(r.File, "T9", fixtures)
		Expect(err).To(MatchError(ContainSubstring("is not a rung id")))
		_, _, err = explore.Promote(r.File, "T2.8", fixtures)
		Expect(err).To(MatchError(`promote: rung T2.8 is ` + filepath.ToSlash(filepath.Join(fixtures, "T2.8-spread-at-scale.yaml")) + ` already: one rung, one file (choose another rung id)`))

		// The file's name is the arguments' alone: a crafted property
		// line names no path.
		crafted := filepath.Join(GinkgoT().TempDir(), filepath.Base(r.File))
		Expect(os.WriteFile(crafted, bytes.Replace(data, []byte("# property: runs\n"), []byte("# property: ../../../tmp/evil\n"), 1), 0o644)).To(Succeed())
		name, _, err = explore.Promote(crafted, "T2.9", fixtures)
		Expect(err).NotTo(HaveOccurred())
		Expect(name).To(Equal(filepath.ToSlash(filepath.Join(fixtures, "T2.9-explored.yaml"))))
		_, _, err = explore.Promote(crafted, "T2.9-../../x", fixtures)
		Expect(err).To(MatchError(ContainSubstring("is not a rung id, or one with a slug")))
	})

	It("finds nothing wrong with a sound world", func() {
		w := explore.World{Seed: 3, Index: 2}
		cs, err := explore.Load(w, explore.Generate(w, explore.DefaultSizes))
		Expect(err).NotTo(HaveOccurred())
		out := (&explore.Checker{Scratch: GinkgoT().TempDir()}).Check(cs)
		Expect(out.Findings).To(BeEmpty())
		Expect(out.Runs).To(BeNumerically(">=", 5))
		Expect(out.Hash).NotTo(BeEmpty())
	})
})

const time60 = 60 * time.Second

func timeNow() time.Time { return time.Now() }
