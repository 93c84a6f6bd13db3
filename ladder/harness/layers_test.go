package harness_test

import (
	"bytes"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/rules"
)

// The layer property of decision 0015, held on the ladder's own fixtures:
// a rung that cannot exercise a layer is not touched by it — not its
// trace, not its dense file, not its checkpoints (whose defines_hash and
// recorded defines would otherwise move) — whatever that layer's defines
// are. So the Tier 0–3 goldens stay byte for byte what they were when
// Tiers 4 and 5 came.

// ladderFixtures loads every rung and case under fixtures/.
func ladderFixtures() []*fixture.Fixture {
	GinkgoHelper()
	files, err := fixture.Discover(filepath.Join("..", "..", "fixtures"), "fixtures")
	Expect(err).NotTo(HaveOccurred())
	var out []*fixture.Fixture
	for _, f := range files {
		Expect(f.Err).NotTo(HaveOccurred())
		for _, x := range f.Fixtures {
			// A sweep rung's world is another rung's copied into towns
			// (T2.8 is T2.1's), which these specs cover; its artifacts are
			// aggregates over many seeds, each run as long as the rung.
			if x.Sweep == nil {
				out = append(out, x)
			}
		}
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

// definesMoved returns d with every define of the layers in moved
// changed, the result still valid.
func definesMoved(d rules.Defines, moved func(rules.Layer) bool) rules.Defines {
	for _, fl := range rules.Fields() {
		if !moved(fl.Layer) {
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

// tierLayers is what each tier's rungs use: every layer up to the tier's
// own (Tier 5's roles are used with or without the social layer; Tier 6
// uses several at once).
var tierLayers = map[string]func(rules.Layers) bool{
	"0":  func(l rules.Layers) bool { return l == rules.CoreOnly },
	"1":  func(l rules.Layers) bool { return l == rules.CoreOnly },
	"2":  func(l rules.Layers) bool { return l == rules.CoreOnly },
	"3":  func(l rules.Layers) bool { return l == rules.CoreOnly.With(rules.Social) },
	"4a": func(l rules.Layers) bool { return l == rules.CoreOnly.With(rules.Social).With(rules.Schedule) },
	"4b": func(l rules.Layers) bool { return l == rules.CoreOnly.With(rules.Social).With(rules.Weighting) },
	"5": func(l rules.Layers) bool {
		return l.Has(rules.Roles) && !l.Has(rules.Schedule) && !l.Has(rules.Weighting)
	},
	// Tier 6 composes: the north star's world exercises the social layer,
	// schedule write-back and roles at once.
	"6": func(l rules.Layers) bool { return l.Has(rules.Social) && l.Has(rules.Schedule) && l.Has(rules.Roles) },
}

var _ = Describe("Layers on the ladder's fixtures (decision 0015)", Label("unit"), func() {
	It("finds each tier's rungs using the layers up to the tier's own and no later one, cases included", func() {
		count := map[string]int{}
		for _, f := range ladderFixtures() {
			l := layersOf(f)
			want, ok := tierLayers[f.Tier]
			Expect(ok).To(BeTrue(), "%s: tier %s has no expected layers", f.Name(), f.Tier)
			// A case may take a rung's world out of its layer
			// (T3.1/no-peers has no faction to escalate to).
			if f.Case == "" {
				Expect(want(l)).To(BeTrue(), "%s uses %s", f.Name(), l)
			}
			count[l.String()]++
		}
		Expect(count["core"]).To(BeNumerically(">=", 23))
		Expect(count["core+social"]).To(BeNumerically(">=", 5))
		Expect(count["core+social+schedule"]).To(BeNumerically(">=", 2))
		Expect(count["core+social+weighting"]).To(BeNumerically(">=", 2))
		Expect(count["core+roles"] + count["core+social+roles"]).To(BeNumerically(">=", 5))
	})

	It("changes nothing in a rung's artifacts when every define of every layer it does not use changes", func() {
		examined := 0
		for _, f := range ladderFixtures() {
			l := layersOf(f)
			moved := *f
			moved.Defines = definesMoved(f.Defines, func(x rules.Layer) bool { return !l.Has(x) })
			want, got := runArtifacts(f), runArtifacts(&moved)
			for _, name := range artifact.RungNames {
				Expect(bytes.Equal(got[name], want[name])).To(BeTrue(), "%s %s moved with the defines of a layer it does not use", f.Name(), name)
			}
			examined++
		}
		Expect(examined).To(BeNumerically(">=", 30), "rungs and cases examined")
	})

	It("changes nothing in a core-only rung when any one later define changes, and moves the fingerprint of a rung of its layer", func() {
		byName := map[string]*fixture.Fixture{}
		for _, f := range ladderFixtures() {
			byName[f.Name()] = f
		}
		core := byName["T0.1"]
		Expect(core).NotTo(BeNil())
		// A rung that uses each layer.
		users := map[rules.Layer]*fixture.Fixture{rules.Social: byName["T3.3"], rules.Schedule: byName["T4a.1"], rules.Weighting: byName["T4b.1"], rules.Roles: byName["T5.1"]}
		coreWant := runArtifacts(core)
		examined := 0
		for _, fl := range rules.Fields() {
			user, ok := users[fl.Layer]
			if fl.Layer == rules.Core || !ok {
				continue
			}
			Expect(layersOf(user).Has(fl.Layer)).To(BeTrue(), "%s uses %s", user.Name(), fl.Layer)
			userWant := runArtifacts(user)
			for _, f := range []*fixture.Fixture{core, user} {
				moved := *f
				v, _ := moved.Defines.Value(fl.Name)
				if fl.Kind == rules.IntDefine {
					Expect(moved.Defines.SetInt(fl.Name, int64(v)+1)).To(Succeed())
				} else {
					Expect(moved.Defines.SetFloat(fl.Name, v/2)).To(Succeed())
				}
				got := runArtifacts(&moved)
				if f == core {
					for _, name := range artifact.RungNames {
						Expect(bytes.Equal(got[name], coreWant[name])).To(BeTrue(), "T0.1 %s moved with %s", name, fl.Name)
					}
				} else {
					Expect(bytes.Equal(got[artifact.CheckpointsFile], userWant[artifact.CheckpointsFile])).To(BeFalse(),
						"%s's checkpoints (defines_hash, recorded defines) must move with %s", user.Name(), fl.Name)
				}
			}
			examined++
		}
		Expect(examined).To(Equal(18), "every define of a later layer")
	})
})
