package sim_test

import (
	"math"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/roles"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/trace"
)

// Worlds of Tiers 4 and 5: base() with a temple (4a), grudges between
// NPCs (4b), roles (5).

func schedules(recs []trace.Record) []trace.Schedule { return bodies[trace.Schedule](recs, nil) }

func roleRecords(recs []trace.Record) []trace.Role { return bodies[trace.Role](recs, nil) }

// daily is a block at loc every day from hour from to hour to.
func daily(loc string, from, to int64) schedule.Block {
	return schedule.Block{At: loc, From: from, To: to, Every: 24, Until: schedule.Forever}
}

var _ = Describe("Config.Layers, Tiers 4 and 5", func() {
	DescribeTable("adds a layer for an input that can exercise it, and only then",
		func(change func(*sim.Config), want rules.Layers) {
			cfg := base()
			cfg.Cast = []sim.NPC{stays("a", "market"), stays("b", "market")}
			change(&cfg)
			Expect(cfg.Layers()).To(Equal(want))
			Expect(sim.TraceSocial(cfg.Layers())).To(Equal(want != rules.CoreOnly))
		},
		Entry("a temple in a social world: schedule", func(c *sim.Config) {
			c.Locations[0].Tags = []string{"temple"}
			c.Kin = [][]string{{"a", "b"}}
		}, rules.CoreOnly.With(rules.Social).With(rules.Schedule)),
		Entry("a temple in a world without the social layer: nothing", func(c *sim.Config) {
			c.Locations[0].Tags = []string{"temple"}
		}, rules.CoreOnly),
		Entry("a brawl between two NPCs: weighting", func(c *sim.Config) {
			c.Injections = []sim.Injection{deed(1, sim.Brawl, "brawl@1", "a", "b")}
		}, rules.CoreOnly.With(rules.Social).With(rules.Weighting)),
		Entry("a brawl with the player: no weighting", func(c *sim.Config) {
			c.Injections = []sim.Injection{deed(1, sim.Brawl, "brawl@1", sim.Player, "b")}
		}, rules.CoreOnly.With(rules.Social)),
		Entry("an invocation between two NPCs: weighting", func(c *sim.Config) {
			c.Injections = []sim.Injection{invoke(1, "invoke@1", "a", "b", "favour@0", sim.Refused)}
		}, rules.CoreOnly.With(rules.Social).With(rules.Weighting)),
		Entry("a killing by an NPC in a world with kin: weighting", func(c *sim.Config) {
			c.Kin = [][]string{{"a", "b"}}
			c.Injections = []sim.Injection{{Tick: 1, Kind: sim.Killing, ID: "killing@1", Actor: "a", Victim: "b", At: "market"}}
		}, rules.CoreOnly.With(rules.Social).With(rules.Weighting)),
		Entry("a role: roles, even without the social layer", func(c *sim.Config) {
			c.Roles = []sim.Role{{ID: "steward", Faction: "court", Holder: "a"}}
		}, rules.CoreOnly.With(rules.Roles)),
	)
})

var _ = Describe("rule 17, schedule-write-back", func() {
	// mourningWorld: frida keeps the market 8–18; hroki, her brother, is
	// killed at tick 10 before her and ulf; the temple of her hold is
	// "shrine"; mourning lasts 5 ticks.
	mourningConfig := func() sim.Config {
		cfg := base()
		cfg.Defines.MourningTicks = 5
		cfg.Locations = append(cfg.Locations, sim.Location{ID: "shrine", Hold: "whiterun", Tags: []string{"temple"}})
		cfg.Cast = []sim.NPC{
			{ID: "frida", Schedule: schedule.Schedule{Home: "home", Blocks: []schedule.Block{daily("market", 8, 18)}}},
			stays("hroki", "market"), stays("ulf", "tavern"),
		}
		cfg.Kin = [][]string{{"hroki", "frida"}}
		cfg.Injections = []sim.Injection{killing(10, "killing@10", "hroki", "frida", "ulf")}
		return cfg
	}
	// mourningWorld is mourningConfig, changed, run through tick 20.
	mourningWorld := func(change func(*sim.Config)) run {
		cfg := mourningConfig()
		if change != nil {
			change(&cfg)
		}
		r := build(cfg)
		r.through(20)
		return r
	}

	It("lays a mourning override over the kin's schedule from the next tick, caused by the killing, and lifts it when it ends", func() {
		r := mourningWorld(nil)
		recs := r.records(10)
		evals := ruleEvals(recs, rules.ScheduleWriteBack)
		Expect(evals).To(HaveLen(2))
		Expect(evals[0]).To(Equal(trace.RuleEval{Rule: rules.ScheduleWriteBack, Subject: "frida/killing@10", Fired: true, Reason: "kin killed: hroki: mourns at shrine",
			Values: []trace.Value{{Name: "from", Value: 11}, {Name: "to", Value: 16}}}))
		Expect(evals[1]).To(Equal(trace.RuleEval{Rule: rules.ScheduleWriteBack, Subject: "ulf/killing@10", Reason: "not kin of the deceased"}))
		Expect(schedules(recs)).To(Equal([]trace.Schedule{{NPC: "frida", Change: "overridden", Override: "rewrite@10:frida:killing@10", At: "shrine",
			From: 11, To: 16, Rule: rules.ScheduleWriteBack, Cause: "killing@10"}}))
		ev, ok := r.Log().Lookup("rewrite@10:frida:killing@10")
		Expect(ok).To(BeTrue())
		Expect(ev.Event.Attrs).To(Equal(map[string]string{"npc": "frida", "at": "shrine", "from": "11", "to": "16", "rule": rules.ScheduleWriteBack, "cause": "killing@10"}))

		restored := schedules(r.records(16))
		Expect(restored).To(Equal([]trace.Schedule{{NPC: "frida", Change: "restored", Override: "rewrite@10:frida:killing@10", At: "shrine",
			From: 16, Rule: rules.ScheduleWriteBack, Cause: "rewrite@10:frida:killing@10"}}))
		ev, ok = r.Log().Lookup("restore@16:frida:killing@10")
		Expect(ok).To(BeTrue())
		Expect(ev.Event.Attrs).To(HaveKeyWithValue("cause", "rewrite@10:frida:killing@10"))
		base, eff, _ := r.Schedules("frida")
		Expect(eff.Overrides).To(BeEmpty(), "lifted")
		Expect(base.Blocks).To(Equal([]schedule.Block{daily("market", 8, 18)}), "the base never edited")
	})

	It("shows by number what Alive, At and Schedules show by id, tick by tick", func() {
		r := build(mourningConfig())
		rescheduled := 0
		for {
			for i, id := range r.NPCs() {
				alive, at := r.Presence(i)
				Expect(alive).To(Equal(r.Alive(id)), "%s at tick %d", id, r.Now())
				Expect(at).To(Equal(r.At(id)), "%s at tick %d", id, r.Now())
				base, eff, _ := r.Schedules(id)
				changed := len(eff.Overrides) > 0 || len(eff.Blocks) != len(base.Blocks)
				Expect(r.Rescheduled(i)).To(Equal(changed), "%s at tick %d", id, r.Now())
				if changed {
					rescheduled++
				}
			}
			if r.Now() == 20 {
				break
			}
			Expect(r.Step()).To(Succeed())
		}
		Expect(rescheduled).To(Equal(6), "frida's override, laid on at tick 10 and lifted at 16")
		Expect(r.Alive("hroki")).To(BeFalse())
	})

	It("places the mourner at the temple while the base says otherwise, and back on its base after", func() {
		cfg := base()
		cfg.Defines.MourningTicks = 5
		cfg.Locations = append(cfg.Locations, sim.Location{ID: "shrine", Hold: "whiterun", Tags: []string{"temple"}})
		cfg.Cast = []sim.NPC{{ID: "frida", Schedule: schedule.Schedule{Home: "home", Blocks: []schedule.Block{daily("market", 8, 18)}}}, stays("hroki", "market")}
		cfg.Kin = [][]string{{"hroki", "frida"}}
		cfg.Injections = []sim.Injection{killing(10, "killing@10", "hroki", "frida")}
		r := build(cfg)
		var got []sim.Placement
		for t := int64(0); t < 18; t++ {
			r.through(t)
			got = append(got, r.Placement("frida"))
		}
		m := sim.Placement{Base: "market", At: "market"}
		over := sim.Placement{Base: "market", At: "shrine", Override: "rewrite@10:frida:killing@10"}
		h := sim.Placement{Base: "home", At: "home"}
		Expect(got).To(Equal([]sim.Placement{h, h, h, h, h, h, h, h, m, m, m, over, over, over, over, over, m, m}))
	})

	It("declines for want of a temple in the mourner's hold, or of a home hold, and says so", func() {
		r := mourningWorld(func(c *sim.Config) { c.Locations[3].Hold = "riverwood" })
		Expect(ruleEvals(r.records(10), rules.ScheduleWriteBack)[0]).To(HaveField("Reason", "no temple in whiterun"))
		Expect(schedules(r.records(-1))).To(BeEmpty())
		r = mourningWorld(func(c *sim.Config) { c.Cast[0].Schedule.Home = "" })
		Expect(ruleEvals(r.records(10), rules.ScheduleWriteBack)[0]).To(HaveField("Reason", "no home hold: nowhere to mourn"))
	})

	It("when disabled, rewrites nothing and says so where it would have", func() {
		r := mourningWorld(func(c *sim.Config) { c.Rules = ruleSet(rules.ScheduleWriteBack) })
		evals := ruleEvals(r.records(-1), rules.ScheduleWriteBack)
		Expect(evals).To(HaveLen(2))
		for _, e := range evals {
			Expect(e.Reason).To(Equal("disabled"))
		}
		Expect(r.Placement("frida")).To(Equal(sim.Placement{Base: "home", At: "home"}))
		Expect(schedules(r.records(-1))).To(BeEmpty())
	})

	It("leaves a killing whose victim has no kin out of scope: no record at all", func() {
		r := mourningWorld(func(c *sim.Config) { c.Kin = [][]string{{"ulf", "frida"}} })
		Expect(ruleEvals(r.records(-1), rules.ScheduleWriteBack)).To(BeEmpty())
	})

	It("mourns a second death from its own tick: the newer override wins while both cover", func() {
		r := mourningWorld(func(c *sim.Config) {
			c.Cast = append(c.Cast, stays("sigrid", "market"))
			c.Kin = [][]string{{"hroki", "frida", "sigrid"}}
			c.Injections = append(c.Injections, killing(13, "killing@13", "sigrid", "frida"))
		})
		_, eff, _ := r.Schedules("frida")
		Expect(eff.Overrides).To(BeEmpty())
		var changes []string
		for _, s := range schedules(r.records(-1)) {
			if s.NPC == "frida" {
				changes = append(changes, s.Change+" "+s.Override)
			}
		}
		Expect(changes).To(Equal([]string{
			"overridden rewrite@10:frida:killing@10", "overridden rewrite@13:frida:killing@13",
			"restored rewrite@10:frida:killing@10", "restored rewrite@13:frida:killing@13",
		}))
	})
})

var _ = Describe("rule 18, pairwise-encounter-weighting", func() {
	// tavernWorld: a and b meet at the tavern every tick; at tick 2 a beats
	// b before o1 and o2 (b's grudge: 0.6 + 0.45 = 1.05).
	tavernWorld := func(change func(*sim.Config)) run {
		cfg := base()
		cfg.Cast = []sim.NPC{stays("a", "tavern"), stays("b", "tavern"), nowhere("o1"), nowhere("o2")}
		cfg.Injections = []sim.Injection{deed(2, sim.Brawl, "brawl@2", "a", "b", "o1", "o2")}
		if change != nil {
			change(&cfg)
		}
		r := build(cfg)
		r.through(8)
		return r
	}

	It("records the weight a grudge sets, then weighs the pair's encounters: the threshold moves, the roll does not", func() {
		r := tavernWorld(nil)
		evals := ruleEvals(r.records(2), rules.PairWeighting)
		Expect(evals).To(Equal([]trace.RuleEval{{Rule: rules.PairWeighting, Subject: "b->a/brawl@2", Fired: true, Reason: "grudge formed",
			Values: []trace.Value{{Name: "after", Value: 0}, {Name: "before", Value: 1}, {Name: "grudge", Value: 1.05}}}}))
		off := tavernWorld(func(c *sim.Config) { c.Rules = ruleSet(rules.PairWeighting) })
		examined := 0
		for t := int64(0); t <= 8; t++ {
			on, plain := encounters(r.records(t)), encounters(off.records(t))
			Expect(on).To(HaveLen(len(plain)))
			for i, e := range on {
				Expect(e.Roll.Roll).To(Equal(plain[i].Roll.Roll), "the same key, the same value")
				if t <= 2 {
					Expect(e.Weighted).To(BeFalse())
					Expect(e.Roll.Threshold).To(Equal(0.5))
					continue
				}
				Expect(e.Weighted).To(BeTrue())
				Expect(e.Weight).To(Equal(0.0))
				Expect(e.Roll.Threshold).To(Equal(0.0))
				Expect(e.Fired).To(BeFalse())
				Expect(plain[i].Weighted).To(BeFalse())
				examined++
			}
		}
		Expect(examined).To(Equal(6))
		Expect(r.PairWeights()).To(Equal([]sim.PairWeight{{A: "a", B: "b", Weight: 0}}))
		Expect(ruleEvals(off.records(2), rules.PairWeighting)).To(Equal([]trace.RuleEval{{Rule: rules.PairWeighting, Subject: "b->a/brawl@2", Reason: "disabled"}}))
		Expect(off.PairWeights()).To(BeEmpty())
	})

	It("moves the threshold part way for a gentler avoidance, p × w rounded once", func() {
		r := tavernWorld(func(c *sim.Config) { c.Defines.AvoidanceStrength = 0.5 })
		e := encounters(r.records(3))[0]
		g, _ := r.Grudges().Between("a", "b", 3)
		w := 1 - float64(0.5*g)
		Expect(e.Weight).To(Equal(w))
		Expect(e.Roll.Threshold).To(Equal(float64(0.5 * w)))
		Expect(e.Fired).To(Equal(e.Roll.Roll.Value < float64(0.5*w)))
	})

	It("reweighs when a grudge is reinforced, the weight before being the one the pair had", func() {
		r := tavernWorld(func(c *sim.Config) {
			c.Defines.AvoidanceStrength = 0.5
			c.Injections = append(c.Injections, deed(5, sim.Brawl, "brawl@5", "a", "b"))
		})
		evals := ruleEvals(r.records(5), rules.PairWeighting)
		Expect(evals).To(HaveLen(1))
		Expect(evals[0].Reason).To(Equal("grudge reinforced"))
		before, _ := value(evals[0].Values, "before")
		g, _ := r.Grudges().Get("b", "a")
		c := r.Grudges().Curves()
		Expect(before).To(Equal(1-float64(0.5*float64(0.6*math.Exp2(-3.0/2880)+0.45*math.Exp2(-3.0/1920)))), "the pair's weight just before brawl@5")
		Expect(g.Causes).To(Equal([]string{"brawl@2", "brawl@5"}))
		Expect(g.EmotionalAt(5, c)).To(BeNumerically(">", 0.6))
	})

	It("weighs no pair whose grudge is against the player, nor one whose grudge has settled", func() {
		r := tavernWorld(func(c *sim.Config) {
			c.Injections = []sim.Injection{deed(2, sim.Brawl, "brawl@2", sim.Player, "b", "a")}
		})
		Expect(ruleEvals(r.records(-1), rules.PairWeighting)).To(BeEmpty())
		// No onlookers: 0.5 + 0.45 = 0.95, settled from the tick after
		// (grudge_settled 0.95): the weight no longer applies.
		r = tavernWorld(func(c *sim.Config) {
			c.Defines.GrudgeSettled = 0.95
			c.Injections = []sim.Injection{deed(2, sim.Brawl, "brawl@2", "a", "b")}
		})
		Expect(ruleEvals(r.records(2), rules.PairWeighting)[0].Values).To(ContainElement(trace.Value{Name: "after", Value: 1 - float64(0.5+0.45)}))
		examined := 0
		for t := int64(3); t <= 8; t++ {
			for _, e := range encounters(r.records(t)) {
				Expect(e.Weighted).To(BeFalse())
				examined++
			}
		}
		Expect(examined).To(Equal(6))
		Expect(r.PairWeights()).To(Equal([]sim.PairWeight{{A: "a", B: "b", Weight: 1}}))
	})
})

var _ = Describe("rule 19, role-succession", func() {
	// court: the steward (prov; duty at the market 8–12 every day),
	// appointed by the jarl (balg, at home); iri and avo are the court's
	// other members; olf has an audience with the steward at the market
	// 8–10 every day. prov is killed at tick 9 before olf; the successor is
	// due 10 ticks later.
	court := func(change func(*sim.Config)) run {
		cfg := base()
		cfg.Defines.SuccessionDelayTicks = 10
		cfg.Cast = []sim.NPC{
			{ID: "prov", Faction: "court", Schedule: schedule.Schedule{Home: "home"}},
			{ID: "balg", Faction: "court", Schedule: schedule.Schedule{Home: "home"}},
			{ID: "iri", Faction: "court", Schedule: schedule.Schedule{Home: "tavern"}},
			{ID: "avo", Faction: "court", Schedule: schedule.Schedule{Home: "tavern"}},
			{ID: "olf", Schedule: schedule.Schedule{Home: "home", Blocks: []schedule.Block{{At: "market", From: 8, To: 10, Every: 24, Until: schedule.Forever, Meets: "role:steward"}}}},
		}
		cfg.Roles = []sim.Role{
			{ID: "steward", Faction: "court", Holder: "prov", Appointer: "jarl", Duties: []schedule.Block{daily("market", 8, 12)}},
			{ID: "jarl", Faction: "court", Holder: "balg"},
		}
		cfg.Relationships = []sim.Relationship{{From: "balg", To: "iri", Trust: 0.9}}
		cfg.Injections = []sim.Injection{killing(9, "killing@9", "prov", "olf")}
		if change != nil {
			change(&cfg)
		}
		r := build(cfg)
		r.through(8)
		return r
	}

	It("lays a holder's duties over its schedule from the start, as overrides the role owns", func() {
		r := court(nil)
		Expect(r.Placement("prov")).To(Equal(sim.Placement{Base: "home", At: "market", Override: "duties:steward:0"}))
		Expect(r.Placement("olf")).To(Equal(sim.Placement{Base: "market", At: "market"}), "his audience is kept while the steward is held")
	})

	It("makes the role vacant when its holder dies: a vacancy event caused by the death, news for the witnesses, the audience suspended at once", func() {
		r := court(nil)
		r.through(9)
		recs := r.records(9)
		Expect(roleRecords(recs)).To(Equal([]trace.Role{{Role: "steward", Change: "vacant", Previous: "prov", Rule: rules.RoleSuccession, Cause: "death@killing@9"}}))
		ev, ok := r.Log().Lookup("vacancy@9:steward")
		Expect(ok).To(BeTrue())
		Expect(ev.Event.Attrs).To(HaveKeyWithValue("cause", "death@killing@9"))
		Expect(r.Store().Holders("vacancy@9:steward")).To(Equal([]string{"olf"}))
		st, _ := r.Roles().Get("steward")
		Expect(st.Vacant()).To(BeTrue())
		Expect(st.Since).To(Equal(int64(9)))
		Expect(r.Placement("olf")).To(Equal(sim.Placement{Base: "market", At: "home"}), "nobody to meet: he goes home in the tick of the death")
		var changes []string
		for _, s := range schedules(recs) {
			changes = append(changes, s.NPC+" "+s.Change+" "+s.Override+" "+s.Cause)
		}
		Expect(changes).To(Equal([]string{"prov duties lifted duties:steward:0 vacancy@9:steward", "olf suspended block:0 vacancy@9:steward"}))
		Expect(r.References("steward")).To(Equal([]roles.Reference{
			{Role: "steward", Where: "duties:steward:0", Names: "role:steward"},
			{Role: "steward", Where: "olf's block 0", Names: "role:steward"},
		}))
	})

	It("lapses each duty that would have started while the role is vacant, witnessed by whoever is there", func() {
		r := court(func(c *sim.Config) {
			c.Cast = append(c.Cast, stays("belethor", "market"))
			c.Defines.SuccessionDelayTicks = 30
		})
		r.through(33)
		_, ok := r.Log().Lookup("lapse@32:steward:0")
		Expect(ok).To(BeTrue())
		Expect(r.Store().Holders("lapse@32:steward:0")).To(Equal([]string{"belethor"}))
		st, _ := r.Roles().Get("steward")
		Expect(st.Lapses).To(Equal(1))
		evals := ruleEvals(r.records(32), rules.RoleSuccession)
		Expect(evals[0]).To(Equal(trace.RuleEval{Rule: rules.RoleSuccession, Subject: "steward/duties:steward:0", Fired: true, Reason: "duty lapsed: the role is vacant",
			Values: []trace.Value{{Name: "lapses", Value: 1}, {Name: "witnesses", Value: 1}}}))
	})

	It("appoints the candidate with the highest score after the delay, gives it the duties and resumes the audience", func() {
		r := court(nil)
		r.through(19)
		evals := ruleEvals(r.records(19), rules.RoleSuccession)
		Expect(evals).To(Equal([]trace.RuleEval{
			{Rule: rules.RoleSuccession, Subject: "steward<-avo", Reason: "outscored", Values: []trace.Value{{Name: "kin", Value: 0}, {Name: "score", Value: 0.5}, {Name: "trust", Value: 0.5}}},
			{Rule: rules.RoleSuccession, Subject: "steward<-iri", Fired: true, Reason: "appointed: the highest score", Values: []trace.Value{{Name: "kin", Value: 0}, {Name: "score", Value: 0.9}, {Name: "trust", Value: 0.9}}},
		}))
		Expect(roleRecords(r.records(19))).To(Equal([]trace.Role{{Role: "steward", Change: "appointed", Holder: "iri", Previous: "prov", Rule: rules.RoleSuccession, Cause: "vacancy@9:steward"}}))
		ev, ok := r.Log().Lookup("appointment@19:steward")
		Expect(ok).To(BeTrue())
		Expect(ev.Event.Witnesses).To(Equal([]string{"balg", "olf", "iri"}), "those where the appointer is, then the appointee")
		Expect(ev.Event.Attrs).To(HaveKeyWithValue("cause", "vacancy@9:steward"))
		r.through(33)
		Expect(r.Placement("iri")).To(Equal(sim.Placement{Base: "tavern", At: "market", Override: "duties:steward:0"}))
		Expect(r.Placement("olf")).To(Equal(sim.Placement{Base: "market", At: "market"}))
		Expect(r.References("steward")).To(Equal([]roles.Reference{
			{Role: "steward", Where: "duties:steward:0", Names: "role:steward", Resolved: "iri"},
			{Role: "steward", Where: "olf's block 0", Names: "role:steward", Resolved: "iri"},
		}))
	})

	It("adds the kin bonus for kin of the previous holder", func() {
		r := court(func(c *sim.Config) {
			c.Kin = [][]string{{"prov", "avo"}}
			c.Defines.SuccessionKinBonus = 0.5
		})
		r.through(19)
		st, _ := r.Roles().Get("steward")
		Expect(st.Holder).To(Equal("avo"), "0.5 + 0.5 beats 0.9")
	})

	It("breaks a tie with a keyed roll among the tied, at the role, picking option ⌊value × n⌋", func() {
		r := court(func(c *sim.Config) { c.Relationships = nil })
		r.through(19)
		evals := ruleEvals(r.records(19), rules.RoleSuccession)
		chosen := slices.IndexFunc(evals, func(e trace.RuleEval) bool { return e.Fired })
		Expect(chosen).To(BeNumerically(">=", 0))
		roll := evals[chosen].Roll
		Expect(roll).NotTo(BeNil())
		key := keyed.Key{SeedID: seed, Purpose: sim.PurposeSuccession, Tick: 19, Site: "role:steward", Participants: []string{"avo", "iri"}}
		Expect(roll.Roll.Key).To(Equal(key))
		Expect(roll.Roll.Value).To(Equal(keyed.Value(key)))
		Expect(roll.Threshold).To(Equal(2.0))
		want := []string{"avo", "iri"}[int(math.Floor(roll.Roll.Value*2))]
		Expect(evals[chosen].Subject).To(Equal("steward<-" + want))
		Expect(evals[chosen].Reason).To(Equal("appointed: won the tie-break"))
		Expect(evals[1-chosen].Reason).To(Equal("lost the tie-break"))
		Expect(evals[1-chosen].Roll).To(BeNil(), "the roll appears once, with the decision it decided")

		pinned := court(func(c *sim.Config) {
			c.Relationships = nil
			other := 1 - slices.Index([]string{"avo", "iri"}, want)
			c.Pins = []keyed.Pin{{Purpose: sim.PurposeSuccession, Tick: 19, Site: "role:steward", Participants: []string{"avo", "iri"}, Value: float64(other)*0.5 + 0.25}}
		})
		pinned.through(19)
		st, _ := pinned.Roles().Get("steward")
		Expect(st.Holder).NotTo(Equal(want), "a pin moves the tie-break")
	})

	DescribeTable("leaves the role vacant, saying why, when nobody can appoint or be appointed",
		func(change func(*sim.Config), reason string) {
			r := court(change)
			r.through(19)
			evals := ruleEvals(r.records(19), rules.RoleSuccession)
			Expect(evals).To(Equal([]trace.RuleEval{{Rule: rules.RoleSuccession, Subject: "steward", Reason: reason}}))
			st, _ := r.Roles().Get("steward")
			Expect(st.Vacant()).To(BeTrue())
		},
		Entry("no appointer", func(c *sim.Config) { c.Roles[0].Appointer = "" }, "no appointer: the role stays vacant"),
		Entry("the appointer's role vacant", func(c *sim.Config) {
			c.Roles[1].Holder = ""
		}, "the appointer's role jarl is vacant: the role stays vacant"),
		Entry("no candidate", func(c *sim.Config) { c.Cast[2].Faction, c.Cast[3].Faction = "", "" }, "no living member of court holds no role: the role stays vacant"),
	)

	It("when disabled, leaves the dead holder in the role and says so", func() {
		r := court(func(c *sim.Config) { c.Rules = ruleSet(rules.RoleSuccession) })
		r.through(9)
		Expect(ruleEvals(r.records(9), rules.RoleSuccession)).To(Equal([]trace.RuleEval{{Rule: rules.RoleSuccession, Subject: "steward", Reason: "disabled"}}))
		st, _ := r.Roles().Get("steward")
		Expect(st.Holder).To(Equal("prov"))
	})

	It("lets an office be a party: its holder acts and witnesses; a vacant office cannot act", func() {
		r := court(func(c *sim.Config) {
			c.Injections = []sim.Injection{deed(2, sim.Favour, "favour@2", "role:steward", sim.Player), killing(9, "killing@9", "prov", "olf")}
		})
		ev, ok := r.Log().Lookup("favour@2")
		Expect(ok).To(BeTrue())
		Expect(ev.Event.Witnesses).To(Equal([]string{"prov"}), "the office's holder was there")
		Expect(ev.Event.Attrs).To(HaveKeyWithValue("actor", "role:steward"))
		o, ok := r.Ledger().Get("obligation:favour@2")
		Expect(ok).To(BeTrue())
		Expect(o.Creditor).To(Equal("role:steward"))

		cfg := base()
		cfg.Cast = []sim.NPC{nowhere("a")}
		cfg.Roles = []sim.Role{{ID: "steward", Faction: "court"}}
		cfg.Injections = []sim.Injection{deed(1, sim.Favour, "favour@1", "role:steward", sim.Player)}
		w := build(cfg)
		err := w.Step()
		Expect(err).NotTo(HaveOccurred())
		err = w.Step()
		Expect(err).To(MatchError("injection 0 at tick 1: favour favour@1: role:steward is vacant: nobody acts for it"))
	})

	DescribeTable("refuses roles that cannot be run",
		func(change func(*sim.Config), want string) {
			cfg := base()
			cfg.Cast = []sim.NPC{nowhere("a"), {ID: "b", Schedule: schedule.Schedule{Blocks: []schedule.Block{{At: "market", From: 0, To: 1, Until: schedule.Forever, Meets: "role:steward"}}}}}
			cfg.Roles = []sim.Role{{ID: "steward", Faction: "court", Holder: "a"}}
			change(&cfg)
			_, err := sim.New(cfg)
			Expect(err).To(MatchError(want))
		},
		Entry("a holder not in the cast", func(c *sim.Config) { c.Roles[0].Holder = "z" }, `new world: role steward: holder "z" is not in the cast`),
		Entry("a duty at an unknown place", func(c *sim.Config) {
			c.Roles[0].Duties = []schedule.Block{{At: "moon", From: 0, To: 1, Until: schedule.Forever}}
		}, `new world: role steward: duty 0: unknown location "moon"`),
		Entry("a block meeting an undeclared role", func(c *sim.Config) { c.Cast[1].Schedule.Blocks[0].Meets = "role:mage" },
			`new world: NPC b: block 0 meets "role:mage", which is not a declared role`),
		Entry("a role declared twice", func(c *sim.Config) { c.Roles = append(c.Roles, sim.Role{ID: "steward"}) }, `new world: role "steward" is declared twice`),
	)
})
