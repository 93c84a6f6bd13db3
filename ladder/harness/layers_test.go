package harness_test

import (
	"bytes"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/rules"
)

// The layer property of decision 0015, held on the ladder's own fixtures:
// a rung that cannot exercise the social layer is not touched by it — not
// its trace, not its dense file, not its checkpoints (whose defines_hash
// and recorded defines would otherwise move) — whatever the social
// defines are.

// ladderFixtures loads every rung and case under fixtures/.
func ladderFixtures() []*fixture.Fixture {
	GinkgoHelper()
	files, err := fixture.Discover(filepath.Join("..", "..", "fixtures"), "fixtures")
	Expect(err).NotTo(HaveOccurred())
	var out []*fixture.Fixture
	for _, f := range files {
		Expect(f.Err).NotTo(HaveOccurred())
		out = append(out, f.Fixtures...)
	}
	return out
}

// layersOf builds a fixture's world and returns the layers it uses.
func layersOf(f *fixture.Fixture) rules.Layers {
	GinkgoHelper()
	w, err := ladder.Build(f, nil)
	Expect(err).NotTo(HaveOccurred())
	return w.Layers()
}

// runArtifacts runs a fixture and returns its three golden files.
func runArtifacts(f *fixture.Fixture) map[string][]byte {
	GinkgoHelper()
	res, err := ladder.Run(f, ladder.Options{Dir: GinkgoT().TempDir()})
	Expect(err).NotTo(HaveOccurred(), f.Name())
	return artifacts(res)
}

// socialDefinesMoved returns d with every social define moved off its
// value, the result still valid.
func socialDefinesMoved(d rules.Defines) rules.Defines {
	for _, fl := range rules.Fields() {
		if fl.Layer != rules.Social {
			continue
		}
		v, _ := d.Value(fl.Name)
		if fl.Kind == rules.IntDefine {
			Expect(d.SetInt(fl.Name, int64(v)+1)).To(Succeed())
		} else {
			Expect(d.SetFloat(fl.Name, v/2)).To(Succeed())
		}
	}
	Expect(d.Validate()).To(Succeed())
	return d
}

var _ = Describe("Layers on the ladder's fixtures (decision 0015)", Label("unit"), func() {
	It("finds the Tier 0–2 rungs core-only and the Tier 3 rungs social, cases included", func() {
		core, social := 0, 0
		for _, f := range ladderFixtures() {
			l := layersOf(f)
			if f.Tier == "3" {
				// A case may take a rung's world out of the layer (T3.1/no-peers).
				if f.Case == "" {
					Expect(l.Has(rules.Social)).To(BeTrue(), f.Name())
				}
			} else {
				Expect(l).To(Equal(rules.CoreOnly), f.Name())
			}
			if l.Has(rules.Social) {
				social++
			} else {
				core++
			}
		}
		Expect(core).To(BeNumerically(">=", 23))
		Expect(social).To(BeNumerically(">=", 5))
	})

	It("changes nothing in a core-only rung's artifacts when every social define changes", func() {
		examined := 0
		for _, f := range ladderFixtures() {
			if layersOf(f).Has(rules.Social) {
				continue
			}
			moved := *f
			moved.Defines = socialDefinesMoved(f.Defines)
			want, got := runArtifacts(f), runArtifacts(&moved)
			for _, name := range ladder.ArtifactNames {
				Expect(bytes.Equal(got[name], want[name])).To(BeTrue(), "%s %s moved with the social defines", f.Name(), name)
			}
			examined++
		}
		Expect(examined).To(BeNumerically(">=", 23), "core-only rungs and cases examined")
	})

	It("changes nothing in a core-only rung when any one social define changes, and moves a social rung's fingerprint", func() {
		var core, social *fixture.Fixture
		for _, f := range ladderFixtures() {
			switch {
			case f.Name() == "T0.1":
				core = f
			case f.Name() == "T3.3":
				social = f
			}
		}
		Expect(core).NotTo(BeNil())
		Expect(social).NotTo(BeNil())
		coreWant, socialWant := runArtifacts(core), runArtifacts(social)
		examined := 0
		for _, fl := range rules.Fields() {
			if fl.Layer != rules.Social {
				continue
			}
			for _, f := range []*fixture.Fixture{core, social} {
				moved := *f
				v, _ := moved.Defines.Value(fl.Name)
				if fl.Kind == rules.IntDefine {
					Expect(moved.Defines.SetInt(fl.Name, int64(v)+1)).To(Succeed())
				} else {
					Expect(moved.Defines.SetFloat(fl.Name, v/2)).To(Succeed())
				}
				got := runArtifacts(&moved)
				if f == core {
					for _, name := range ladder.ArtifactNames {
						Expect(bytes.Equal(got[name], coreWant[name])).To(BeTrue(), "T0.1 %s moved with %s", name, fl.Name)
					}
				} else {
					Expect(bytes.Equal(got[ladder.CheckpointsFile], socialWant[ladder.CheckpointsFile])).To(BeFalse(),
						"T3.3's checkpoints (defines_hash, recorded defines) must move with %s", fl.Name)
				}
			}
			examined++
		}
		Expect(examined).To(Equal(14))
	})
})
