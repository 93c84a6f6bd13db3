package rules_test

import (
	"math"
	"strings"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/rules"
)

// defaultDefinesHash is the defines_hash of rules.Default() for a core-only
// world (Tiers 0–2). It changes on
// purpose whenever any default define changes value, or a define is added,
// renamed, removed or moved (the hash digests the fields in declaration
// order): that is input drift every committed checkpoints.json will report.
// Update this golden only together with such a deliberate change. (It was
// d8e4f9b6e758845a before the Tier-2 defines mutation_max and
// contested_dent were appended; the Tier-3 social defines left it as it was,
// decision 0015.)
const defaultDefinesHash = "601ae21a005b2554"

// socialDefinesHash is the defines_hash of rules.Default() for a world that
// uses the social layer: the core defines, then the social ones. The
// Tier 4 and 5 defines left it as it was (each is in a layer of its own).
const socialDefinesHash = "b404ebb157744942"

// allDefinesHash is the defines_hash of rules.Default() for a world that
// uses every layer.
const allDefinesHash = "dbb6aea042111080"

// defaultCanonical is the exact JSON that defaultDefinesHash digests.
const defaultCanonical = `{"ticks_per_day":24,"witness_confidence":0.9,"verbatim_half_life_ticks":72.0,` +
	`"gist_half_life_ticks":960.0,"dormant_gist":0.5,"forgotten_gist":0.125,"corroboration_window_ticks":720,` +
	`"encounter_probability":0.5,"retell_decay":0.8,"trust_floor":0.5,"default_trust":0.5,` +
	`"mutation_max":0.25,"contested_dent":0.1}`

var _ = Describe("HashJSON", func() {
	It("matches the published defines_hash vector", func() {
		h, err := rules.HashJSON(canon.Ordered{{Key: "gravity", Value: 9.8}, {Key: "friction", Value: 0.5}})
		Expect(err).NotTo(HaveOccurred())
		Expect(h).To(Equal("1c365e6efa6e2c4a"))
	})

	It("depends on field order", func() {
		h, err := rules.HashJSON(canon.Ordered{{Key: "friction", Value: 0.5}, {Key: "gravity", Value: 9.8}})
		Expect(err).NotTo(HaveOccurred())
		Expect(h).NotTo(Equal("1c365e6efa6e2c4a"))
		Expect(h).To(MatchRegexp(`^[0-9a-f]{16}$`))
	})

	It("fails on a value with no canonical form", func() {
		_, err := rules.HashJSON(canon.Ordered{{Key: "bad", Value: math.NaN()}})
		Expect(err).To(MatchError(canon.ErrNaN))
		Expect(err.Error()).To(HavePrefix("hash defines: "))
	})
})

// changed returns the defaults with one define moved to another value.
func changed(name string) rules.Defines {
	GinkgoHelper()
	alt := map[string]float64{"ticks_per_day": 25, "corroboration_window_ticks": 721, "escalation_threshold": 5, "escalation_rearm": 1, "escalation_window_ticks": 721,
		"mourning_ticks": 48, "succession_delay_ticks": 12}
	d := rules.Default()
	f, ok := rules.Lookup(name)
	Expect(ok).To(BeTrue())
	v, ok := alt[name]
	if !ok {
		v = 0.3
	}
	if f.Kind == rules.IntDefine {
		Expect(d.SetInt(name, int64(v))).To(Succeed())
	} else {
		Expect(d.SetFloat(name, v)).To(Succeed())
	}
	return d
}

func everyDefine() []TableEntry {
	var out []TableEntry
	for _, f := range rules.Fields() {
		out = append(out, Entry(f.Name, f.Name, f.Layer))
	}
	return out
}

var _ = Describe("Defines", func() {
	It("defaults to the recorded baseline, which validates", func() {
		d := rules.Default()
		Expect(d.Validate()).To(Succeed())
		Expect(cmp.Diff(rules.Defines{
			TicksPerDay: 24, WitnessConfidence: 0.9, VerbatimHalfLifeTicks: 72, GistHalfLifeTicks: 960,
			DormantGist: 0.5, ForgottenGist: 0.125, CorroborationWindow: 720,
			EncounterProbability: 0.5, RetellDecay: 0.8, TrustFloor: 0.5, DefaultTrust: 0.5,
			MutationMax: 0.25, ContestedDent: 0.1,
			GrudgeEmotionalHalfLifeTicks: 2880, GrudgeEvidentiaryHalfLifeTicks: 1920,
			GrudgeHumiliation: 0.5, GrudgeAudienceWeight: 0.05, GrudgeRefusal: 0.4, GrudgeBereavement: 1,
			GrudgeEvidenceWeight: 0.5, GrudgeSettled: 0.05,
			ReputationPriorAlpha: 1, ReputationPriorBeta: 1, ReputationWeight: 1,
			EscalationThreshold: 4, EscalationRearm: 2, EscalationWindowTicks: 720,
			MourningTicks: 72, AvoidanceStrength: 1, SuccessionDelayTicks: 24, SuccessionKinBonus: 0.25,
		}, d)).To(BeEmpty())
	})

	It("hashes the defaults of a core-only world to the pinned golden, stably: the one it had before the social layer existed", func() {
		b, err := canon.Marshal(rules.Default().Canonical(rules.CoreOnly))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(Equal(defaultCanonical))
		for range 3 {
			h, err := rules.Default().Hash(rules.CoreOnly)
			Expect(err).NotTo(HaveOccurred())
			Expect(h).To(Equal(defaultDefinesHash))
		}
		direct, err := rules.HashJSON(rules.Default().Canonical(rules.CoreOnly))
		Expect(err).NotTo(HaveOccurred())
		Expect(direct).To(Equal(defaultDefinesHash))
	})

	It("hashes the core then the social defines for a world that uses the social layer", func() {
		c := rules.Default().Canonical(rules.CoreOnly.With(rules.Social))
		Expect(c[:len(rules.Default().Canonical(rules.CoreOnly))]).To(Equal(rules.Default().Canonical(rules.CoreOnly)))
		Expect(c[len(c)-1].Key).To(Equal("escalation_window_ticks"))
		h, err := rules.Default().Hash(rules.CoreOnly.With(rules.Social))
		Expect(err).NotTo(HaveOccurred())
		Expect(h).To(Equal(socialDefinesHash))
		all, err := rules.Default().Hash(rules.AllLayers)
		Expect(err).NotTo(HaveOccurred())
		Expect(all).To(Equal(allDefinesHash))
	})

	DescribeTable("changes the hash of every world that uses its layer when it changes, and of no other",
		func(name string, layer rules.Layer) {
			d := changed(name)
			examined := 0
			for _, other := range []rules.Layer{rules.Core, rules.Social, rules.Schedule, rules.Weighting, rules.Roles} {
				set := rules.CoreOnly.With(other)
				before, err := rules.Default().Hash(set)
				Expect(err).NotTo(HaveOccurred())
				after, err := d.Hash(set)
				Expect(err).NotTo(HaveOccurred())
				if set.Has(layer) {
					Expect(after).NotTo(Equal(before), "a %s world exercises %s", set, name)
				} else {
					Expect(after).To(Equal(before), "a %s world cannot exercise %s", set, name)
				}
				examined++
			}
			Expect(examined).To(Equal(5))
		},
		everyDefine(),
	)

	It("tags every define with a layer: the Tier 0–2 ones core, the Tier 3 ones social, Tier 4a's schedule, 4b's weighting, 5's roles", func() {
		byLayer := map[rules.Layer][]string{}
		for _, f := range rules.Fields() {
			byLayer[f.Layer] = append(byLayer[f.Layer], f.Name)
		}
		Expect(byLayer[rules.Social]).To(Equal([]string{
			"grudge_emotional_half_life_ticks", "grudge_evidentiary_half_life_ticks", "grudge_humiliation", "grudge_audience_weight",
			"grudge_refusal", "grudge_bereavement", "grudge_evidence_weight", "grudge_settled",
			"reputation_prior_alpha", "reputation_prior_beta", "reputation_weight",
			"escalation_threshold", "escalation_rearm", "escalation_window_ticks",
		}))
		Expect(byLayer[rules.Schedule]).To(Equal([]string{"mourning_ticks"}))
		Expect(byLayer[rules.Weighting]).To(Equal([]string{"avoidance_strength"}))
		Expect(byLayer[rules.Roles]).To(Equal([]string{"succession_delay_ticks", "succession_kin_bonus"}))
		Expect(byLayer).To(HaveLen(5))
	})

	It("lists its fields in declaration order with their kinds and docs", func() {
		want := []struct {
			name string
			kind rules.DefineKind
		}{
			{"ticks_per_day", rules.IntDefine},
			{"witness_confidence", rules.FloatDefine},
			{"verbatim_half_life_ticks", rules.FloatDefine},
			{"gist_half_life_ticks", rules.FloatDefine},
			{"dormant_gist", rules.FloatDefine},
			{"forgotten_gist", rules.FloatDefine},
			{"corroboration_window_ticks", rules.IntDefine},
			{"encounter_probability", rules.FloatDefine},
			{"retell_decay", rules.FloatDefine},
			{"trust_floor", rules.FloatDefine},
			{"default_trust", rules.FloatDefine},
			{"mutation_max", rules.FloatDefine},
			{"contested_dent", rules.FloatDefine},
			{"grudge_emotional_half_life_ticks", rules.FloatDefine},
			{"grudge_evidentiary_half_life_ticks", rules.FloatDefine},
			{"grudge_humiliation", rules.FloatDefine},
			{"grudge_audience_weight", rules.FloatDefine},
			{"grudge_refusal", rules.FloatDefine},
			{"grudge_bereavement", rules.FloatDefine},
			{"grudge_evidence_weight", rules.FloatDefine},
			{"grudge_settled", rules.FloatDefine},
			{"reputation_prior_alpha", rules.FloatDefine},
			{"reputation_prior_beta", rules.FloatDefine},
			{"reputation_weight", rules.FloatDefine},
			{"escalation_threshold", rules.IntDefine},
			{"escalation_rearm", rules.IntDefine},
			{"escalation_window_ticks", rules.IntDefine},
			{"mourning_ticks", rules.IntDefine},
			{"avoidance_strength", rules.FloatDefine},
			{"succession_delay_ticks", rules.IntDefine},
			{"succession_kin_bonus", rules.FloatDefine},
		}
		fields := rules.Fields()
		Expect(fields).To(HaveLen(len(want)))
		canonical := rules.Default().Canonical(rules.AllLayers)
		for i, f := range fields {
			Expect(f.Name).To(Equal(want[i].name), "field %d", i)
			Expect(f.Kind).To(Equal(want[i].kind), "field %s", f.Name)
			Expect(f.Doc).NotTo(BeEmpty(), "field %s has no doc", f.Name)
			Expect(canonical[i].Key).To(Equal(f.Name), "Canonical and Fields disagree on order")
		}
		Expect(canonical[0].Value).To(BeAssignableToTypeOf(int64(0)))
		Expect(canonical[1].Value).To(BeAssignableToTypeOf(float64(0)))
	})

	It("looks defines up by name", func() {
		f, ok := rules.Lookup("retell_decay")
		Expect(ok).To(BeTrue())
		Expect(f.Kind).To(Equal(rules.FloatDefine))
		Expect(f.Doc).To(ContainSubstring("teller's confidence"))
		_, ok = rules.Lookup("gravity")
		Expect(ok).To(BeFalse())
		_, ok = rules.Lookup("RetellDecay")
		Expect(ok).To(BeFalse(), "lookup is by define tag, not by Go field name")
	})

	Describe("SetInt and SetFloat", func() {
		It("override a define by name", func() {
			d := rules.Default()
			Expect(d.SetInt("ticks_per_day", 12)).To(Succeed())
			Expect(d.SetFloat("retell_decay", 0.25)).To(Succeed())
			Expect(d.SetInt("corroboration_window_ticks", -3)).To(Succeed(), "ranges are Validate's job")
			Expect(d.TicksPerDay).To(Equal(int64(12)))
			Expect(d.RetellDecay).To(Equal(0.25))
			Expect(d.CorroborationWindow).To(Equal(int64(-3)))
		})

		DescribeTable("refuse bad overrides and leave the defines untouched",
			func(set func(*rules.Defines) error, message string) {
				d := rules.Default()
				Expect(set(&d)).To(MatchError(message))
				Expect(cmp.Diff(rules.Default(), d)).To(BeEmpty())
			},
			Entry("SetInt unknown name", func(d *rules.Defines) error { return d.SetInt("gravity", 1) }, `unknown define "gravity"`),
			Entry("SetFloat unknown name", func(d *rules.Defines) error { return d.SetFloat("gravity", 9.8) }, `unknown define "gravity"`),
			Entry("SetInt on a float define", func(d *rules.Defines) error { return d.SetInt("retell_decay", 1) }, `define "retell_decay" is a float; give it a float value`),
			Entry("SetFloat on an int define", func(d *rules.Defines) error { return d.SetFloat("ticks_per_day", 24) }, `define "ticks_per_day" is an integer; give it an integer value`),
			Entry("SetFloat NaN", func(d *rules.Defines) error { return d.SetFloat("retell_decay", math.NaN()) }, `define "retell_decay": NaN is not a finite number`),
			Entry("SetFloat +Inf", func(d *rules.Defines) error { return d.SetFloat("gist_half_life_ticks", math.Inf(1)) }, `define "gist_half_life_ticks": +Inf is not a finite number`),
			Entry("SetFloat -Inf", func(d *rules.Defines) error { return d.SetFloat("trust_floor", math.Inf(-1)) }, `define "trust_floor": -Inf is not a finite number`),
		)
	})

	Describe("Value", func() {
		It("reads every define as a float64 by name", func() {
			d := rules.Default()
			for _, c := range []struct {
				name string
				want float64
			}{{"ticks_per_day", 24}, {"witness_confidence", 0.9}, {"corroboration_window_ticks", 720}, {"forgotten_gist", 0.125}, {"default_trust", 0.5}} {
				v, ok := d.Value(c.name)
				Expect(ok).To(BeTrue(), c.name)
				Expect(math.Float64bits(v)).To(Equal(math.Float64bits(c.want)), c.name)
			}
		})

		It("converts integers exactly up to 2^53", func() {
			d := rules.Default()
			Expect(d.SetInt("corroboration_window_ticks", 1<<53)).To(Succeed())
			v, ok := d.Value("corroboration_window_ticks")
			Expect(ok).To(BeTrue())
			Expect(v).To(Equal(float64(1 << 53)))
		})

		It("reports unknown names", func() {
			v, ok := rules.Default().Value("gravity")
			Expect(ok).To(BeFalse())
			Expect(v).To(BeZero())
		})
	})

	Describe("Validate", func() {
		// Each define's declared range (its range tag, which the fixture
		// schema states) is exactly what Validate accepts for it alone:
		// a value just outside fails naming it, the bound itself (or the
		// nearest value inside an open bound) is not refused for its range.
		It("accepts and refuses each define by its declared range", func() {
			set := func(f rules.Field, v float64) error {
				d := rules.Default()
				if f.Kind == rules.IntDefine {
					Expect(d.SetInt(f.Name, int64(v))).To(Succeed())
				} else {
					Expect(d.SetFloat(f.Name, v)).To(Succeed())
				}
				return d.Validate()
			}
			own := func(f rules.Field) string { return f.Name + " = " }
			examined := 0
			for _, f := range rules.Fields() {
				r := f.Range
				step := func(from, to float64) float64 {
					if f.Kind == rules.IntDefine {
						if to > from {
							return from + 1
						}
						return from - 1
					}
					return math.Nextafter(from, to)
				}
				below, lowest := step(r.Min, math.Inf(-1)), r.Min
				if r.MinOpen {
					below, lowest = r.Min, step(r.Min, math.Inf(1))
				}
				Expect(set(f, below)).To(MatchError(ContainSubstring(own(f))), "%s = %v is below its range %+v", f.Name, below, r)
				if err := set(f, lowest); err != nil {
					Expect(err.Error()).NotTo(ContainSubstring(own(f)), "%s = %v is inside its range %+v", f.Name, lowest, r)
				}
				if !math.IsInf(r.Max, 1) {
					Expect(set(f, step(r.Max, math.Inf(1)))).To(MatchError(ContainSubstring(own(f))), "%s above its range %+v", f.Name, r)
					if err := set(f, r.Max); err != nil {
						Expect(err.Error()).NotTo(ContainSubstring(own(f)), "%s = %v is inside its range %+v", f.Name, r.Max, r)
					}
				}
				examined++
			}
			Expect(examined).To(Equal(len(rules.Fields())))
			Expect(examined).To(BeNumerically(">", 20))
		})

		DescribeTable("names each broken define",
			func(mutate func(*rules.Defines), problem string) {
				d := rules.Default()
				mutate(&d)
				err := d.Validate()
				Expect(err).To(HaveOccurred())
				Expect(err.Error()).To(HavePrefix("invalid defines: "))
				Expect(strings.Split(strings.TrimPrefix(err.Error(), "invalid defines: "), "; ")).To(ContainElement(problem))
			},
			Entry("ticks_per_day zero", func(d *rules.Defines) { d.TicksPerDay = 0 }, "ticks_per_day = 0 must be at least 1"),
			Entry("ticks_per_day negative", func(d *rules.Defines) { d.TicksPerDay = -24 }, "ticks_per_day = -24 must be at least 1"),
			Entry("negative window", func(d *rules.Defines) { d.CorroborationWindow = -1 }, "corroboration_window_ticks = -1 must be at least 0"),
			Entry("witness_confidence above 1", func(d *rules.Defines) { d.WitnessConfidence = 1.5 }, "witness_confidence = 1.5 must be within [0, 1]"),
			Entry("witness_confidence below 0", func(d *rules.Defines) { d.WitnessConfidence = -0.1 }, "witness_confidence = -0.1 must be within [0, 1]"),
			Entry("dormant_gist above 1", func(d *rules.Defines) { d.DormantGist = 2 }, "dormant_gist = 2.0 must be within [0, 1]"),
			Entry("forgotten_gist below 0", func(d *rules.Defines) { d.ForgottenGist = -0.5 }, "forgotten_gist = -0.5 must be within [0, 1]"),
			Entry("encounter_probability above 1", func(d *rules.Defines) { d.EncounterProbability = 1.0000000000000002 }, "encounter_probability = 1.0000000000000002 must be within [0, 1]"),
			Entry("retell_decay negative", func(d *rules.Defines) { d.RetellDecay = -1 }, "retell_decay = -1.0 must be within [0, 1]"),
			Entry("trust_floor above 1", func(d *rules.Defines) { d.TrustFloor = 3 }, "trust_floor = 3.0 must be within [0, 1]"),
			Entry("default_trust above 1", func(d *rules.Defines) { d.DefaultTrust = 1.25 }, "default_trust = 1.25 must be within [0, 1]"),
			Entry("mutation_max above 1", func(d *rules.Defines) { d.MutationMax = 1.5 }, "mutation_max = 1.5 must be within [0, 1]"),
			Entry("contested_dent negative", func(d *rules.Defines) { d.ContestedDent = -0.1 }, "contested_dent = -0.1 must be within [0, 1]"),
			Entry("verbatim half-life zero", func(d *rules.Defines) { d.VerbatimHalfLifeTicks = 0 }, "verbatim_half_life_ticks = 0.0 must be above 0 and finite"),
			Entry("verbatim half-life negative", func(d *rules.Defines) { d.VerbatimHalfLifeTicks = -72 }, "verbatim_half_life_ticks = -72.0 must be above 0 and finite"),
			Entry("gist half-life zero", func(d *rules.Defines) { d.GistHalfLifeTicks = 0 }, "gist_half_life_ticks = 0.0 must be above 0 and finite"),
			Entry("gist half-life NaN", func(d *rules.Defines) { d.GistHalfLifeTicks = math.NaN() }, "gist_half_life_ticks = nan must be above 0 and finite"),
			Entry("forgotten above dormant", func(d *rules.Defines) { d.ForgottenGist, d.DormantGist = 0.6, 0.5 },
				"forgotten_gist must not exceed dormant_gist (a rumour goes dormant before it is forgotten)"),
			Entry("grudge emotional half-life zero", func(d *rules.Defines) { d.GrudgeEmotionalHalfLifeTicks = 0 }, "grudge_emotional_half_life_ticks = 0.0 must be above 0 and finite"),
			Entry("grudge evidentiary half-life infinite", func(d *rules.Defines) { d.GrudgeEvidentiaryHalfLifeTicks = math.Inf(1) }, "grudge_evidentiary_half_life_ticks = inf must be above 0 and finite"),
			Entry("grudge_humiliation above 1", func(d *rules.Defines) { d.GrudgeHumiliation = 1.5 }, "grudge_humiliation = 1.5 must be within [0, 1]"),
			Entry("grudge_audience_weight negative", func(d *rules.Defines) { d.GrudgeAudienceWeight = -0.05 }, "grudge_audience_weight = -0.05 must be within [0, 1]"),
			Entry("grudge_refusal above 1", func(d *rules.Defines) { d.GrudgeRefusal = 2 }, "grudge_refusal = 2.0 must be within [0, 1]"),
			Entry("grudge_bereavement NaN", func(d *rules.Defines) { d.GrudgeBereavement = math.NaN() }, "grudge_bereavement = nan must be within [0, 1]"),
			Entry("grudge_evidence_weight above 1", func(d *rules.Defines) { d.GrudgeEvidenceWeight = 1.25 }, "grudge_evidence_weight = 1.25 must be within [0, 1]"),
			Entry("grudge_settled negative", func(d *rules.Defines) { d.GrudgeSettled = -1 }, "grudge_settled = -1.0 must be within [0, 1]"),
			Entry("reputation prior α zero", func(d *rules.Defines) { d.ReputationPriorAlpha = 0 }, "reputation_prior_alpha = 0.0 must be above 0 and finite"),
			Entry("reputation prior β negative", func(d *rules.Defines) { d.ReputationPriorBeta = -1 }, "reputation_prior_beta = -1.0 must be above 0 and finite"),
			Entry("reputation weight zero", func(d *rules.Defines) { d.ReputationWeight = 0 }, "reputation_weight = 0.0 must be above 0 and finite"),
			Entry("escalation threshold zero", func(d *rules.Defines) { d.EscalationThreshold = 0 }, "escalation_threshold = 0 must be at least 1"),
			Entry("escalation re-arm at the threshold", func(d *rules.Defines) { d.EscalationRearm = 4 },
				"escalation_rearm = 4 must be within [0, escalation_threshold) (an accumulator re-arms below the count that fires it)"),
			Entry("escalation re-arm negative", func(d *rules.Defines) { d.EscalationRearm = -1 }, "escalation_rearm = -1 must be at least 0"),
			Entry("escalation window negative", func(d *rules.Defines) { d.EscalationWindowTicks = -1 }, "escalation_window_ticks = -1 must be at least 0"),
			Entry("mourning_ticks zero", func(d *rules.Defines) { d.MourningTicks = 0 }, "mourning_ticks = 0 must be at least 1"),
			Entry("avoidance_strength negative", func(d *rules.Defines) { d.AvoidanceStrength = -0.5 }, "avoidance_strength = -0.5 must be at least 0 and finite"),
			Entry("avoidance_strength NaN", func(d *rules.Defines) { d.AvoidanceStrength = math.NaN() }, "avoidance_strength = nan must be at least 0 and finite"),
			Entry("avoidance_strength infinite", func(d *rules.Defines) { d.AvoidanceStrength = math.Inf(1) }, "avoidance_strength = inf must be at least 0 and finite"),
			Entry("succession delay negative", func(d *rules.Defines) { d.SuccessionDelayTicks = -1 }, "succession_delay_ticks = -1 must be at least 0"),
			Entry("succession kin bonus above 1", func(d *rules.Defines) { d.SuccessionKinBonus = 1.5 }, "succession_kin_bonus = 1.5 must be within [0, 1]"),
		)

		It("accepts the edges of every range", func() {
			d := rules.Default()
			d.TicksPerDay, d.CorroborationWindow = 1, 0
			d.WitnessConfidence, d.EncounterProbability, d.RetellDecay, d.TrustFloor, d.DefaultTrust = 0, 1, 0, 1, 0
			d.MutationMax, d.ContestedDent = 1, 0
			d.DormantGist, d.ForgottenGist = 1, 1
			d.VerbatimHalfLifeTicks, d.GistHalfLifeTicks = math.SmallestNonzeroFloat64, 0.5
			d.GrudgeHumiliation, d.GrudgeAudienceWeight, d.GrudgeRefusal, d.GrudgeBereavement, d.GrudgeEvidenceWeight, d.GrudgeSettled = 0, 1, 0, 1, 0, 1
			d.EscalationThreshold, d.EscalationRearm, d.EscalationWindowTicks = 1, 0, 0
			d.MourningTicks, d.AvoidanceStrength, d.SuccessionDelayTicks, d.SuccessionKinBonus = 1, 0, 0, 1
			Expect(d.Validate()).To(Succeed())
		})

		It("names every broken define in one error, in declaration order", func() {
			d := rules.Default()
			d.TicksPerDay, d.RetellDecay, d.GistHalfLifeTicks = 0, 2, -1
			err := d.Validate()
			Expect(err).To(MatchError("invalid defines: ticks_per_day = 0 must be at least 1; gist_half_life_ticks = -1.0 must be above 0 and finite; retell_decay = 2.0 must be within [0, 1]"))
		})

		DescribeTable("rejects non-finite coefficients",
			func(mutate func(*rules.Defines)) {
				d := rules.Default()
				mutate(&d)
				Expect(d.Validate()).To(HaveOccurred())
			},
			Entry("NaN witness_confidence", func(d *rules.Defines) { d.WitnessConfidence = math.NaN() }),
			Entry("NaN dormant_gist", func(d *rules.Defines) { d.DormantGist = math.NaN() }),
			Entry("NaN retell_decay", func(d *rules.Defines) { d.RetellDecay = math.NaN() }),
			Entry("+Inf gist half-life", func(d *rules.Defines) { d.GistHalfLifeTicks = math.Inf(1) }),
			Entry("-Inf verbatim half-life", func(d *rules.Defines) { d.VerbatimHalfLifeTicks = math.Inf(-1) }),
			Entry("NaN verbatim half-life", func(d *rules.Defines) { d.VerbatimHalfLifeTicks = math.NaN() }),
		)
	})
})
