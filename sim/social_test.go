package sim_test

import (
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// A social world: base() with the social layer in use.

func deed(tick int64, kind, id, actor, other string, witnesses ...string) sim.Injection {
	in := sim.Injection{Tick: tick, Kind: kind, ID: id, Actor: actor, At: "market"}
	switch kind {
	case sim.Brawl, sim.Theft, sim.Killing:
		in.Victim = other
	case sim.Secret:
		in.Implicates = other
	default:
		in.Recipient = other
	}
	if kind == sim.Theft {
		in.Item = "sweetroll"
	}
	if kind == sim.Title {
		in.TitleName = "thane"
	}
	for _, w := range witnesses {
		in.Witnesses = append(in.Witnesses, sim.Witness{NPC: w})
	}
	return in
}

func invoke(tick int64, id, creditor, debtor, favour, outcome string, witnesses ...string) sim.Injection {
	in := deed(tick, sim.Invoke, id, creditor, debtor, witnesses...)
	in.Favour, in.Outcome = favour, outcome
	return in
}

func grudges(recs []trace.Record) []trace.Grudge { return bodies[trace.Grudge](recs, nil) }

func eventRecords(recs []trace.Record) []trace.Event { return bodies[trace.Event](recs, nil) }

var _ = Describe("Config.Layers", func() {
	It("is the core alone for a Tier 0–2 world, even one whose thieves and witnesses have factions", func() {
		cfg := base()
		cfg.Cast = []sim.NPC{stays("merchant", "market"), {ID: "galmar", Faction: "stormcloak"}}
		cfg.Injections = []sim.Injection{theft(1, "theft@1", "galmar")}
		Expect(cfg.Layers()).To(Equal(rules.CoreOnly))
		Expect(sim.TraceSocial(cfg.Layers())).To(BeFalse())
	})

	DescribeTable("adds the social layer for an input that can exercise it",
		func(change func(*sim.Config)) {
			cfg := base()
			cfg.Cast = []sim.NPC{stays("merchant", "market"), stays("a", "market"), stays("b", "market")}
			change(&cfg)
			Expect(cfg.Layers().Has(rules.Social)).To(BeTrue())
			Expect(sim.TraceSocial(cfg.Layers())).To(BeTrue())
		},
		Entry("a household", func(c *sim.Config) { c.Kin = [][]string{{"a", "b"}} }),
		Entry("a theft from a faction member", func(c *sim.Config) {
			c.Cast[0].Faction = "merchants"
			c.Injections = []sim.Injection{theft(1, "theft@1")}
		}),
		Entry("a brawl", func(c *sim.Config) { c.Injections = []sim.Injection{deed(1, sim.Brawl, "brawl@1", sim.Player, "a")} }),
		Entry("a favour", func(c *sim.Config) { c.Injections = []sim.Injection{deed(1, sim.Favour, "favour@1", "a", sim.Player)} }),
		Entry("an invocation", func(c *sim.Config) {
			c.Injections = []sim.Injection{invoke(1, "invoke@1", "a", sim.Player, "favour@0", sim.Fulfilled)}
		}),
		Entry("a title", func(c *sim.Config) { c.Injections = []sim.Injection{deed(1, sim.Title, "title@1", "a", sim.Player)} }),
		Entry("a secret", func(c *sim.Config) {
			c.Injections = []sim.Injection{deed(1, sim.Secret, "secret@1", sim.Player, "a", "b")}
		}),
	)
})

var _ = Describe("The social phase", func() {
	Describe("rule 11, accumulation-threshold", func() {
		var r run
		BeforeEach(func() {
			cfg := base()
			cfg.Cast = []sim.NPC{{ID: "merchant", Faction: "merchants"}, nowhere("hulda")}
			for _, t := range []int64{1, 2, 4, 5, 6} {
				cfg.Injections = append(cfg.Injections, theft(t, "", "merchant"))
			}
			for i := range cfg.Injections {
				cfg.Injections[i].ID = "theft@" + string(rune('0'+cfg.Injections[i].Tick))
			}
			// hulda alone sees a third theft; the merchant never hears of it.
			cfg.Injections = slices.Insert(cfg.Injections, 2, theft(3, "theft@3", "hulda"))
			r = build(cfg)
			r.through(7)
		})

		It("counts only the thefts the victim believes, and escalates exactly once, at the threshold", func() {
			evals := ruleEvals(r.records(-1), rules.AccumulationThreshold)
			var got []string
			for _, e := range evals {
				n, _ := value(e.Values, "count")
				got = append(got, e.Subject+" "+e.Reason)
				Expect(n).To(BeNumerically(">", 0))
			}
			Expect(got).To(Equal([]string{
				"merchant/theft@1 below threshold", "merchant/theft@2 below threshold", "merchant/theft@4 below threshold",
				"merchant/theft@5 threshold reached",
				"merchant/theft@6 already escalated: re-arms when the count falls to the re-arm level",
			}))
			Expect(ruleEvals(r.records(3), rules.AccumulationThreshold)).To(BeEmpty(), "observer locality: a theft the victim never heard of is never evaluated")
			esc, ok := r.Log().Lookup("escalation@5:merchant:player")
			Expect(ok).To(BeTrue())
			Expect(esc.Event.Attrs).To(HaveKeyWithValue("cause", "theft@5"))
		})

		It("appends the escalation event before any belief in its claim, and the victim is its first holder", func() {
			recs := r.records(5)
			ev := slices.IndexFunc(recs, func(x trace.Record) bool {
				e, ok := x.Body.(*trace.Event)
				return ok && e.ID == "escalation@5:merchant:player"
			})
			Expect(ev).To(BeNumerically(">=", 0))
			e := recs[ev].Body.(*trace.Event)
			Expect(e.Rule).To(Equal(rules.AccumulationThreshold))
			Expect(e.Cause).To(Equal("theft@5"))
			for i, x := range recs {
				if b, ok := x.Body.(*trace.BeliefChange); ok && b.Claim == e.ID {
					Expect(i).To(BeNumerically(">", ev))
				}
			}
			Expect(r.Store().Holders(e.ID)).To(Equal([]string{"merchant"}))
		})

		It("has no accumulator for a victim with no faction", func() {
			cfg := base()
			cfg.Cast = []sim.NPC{stays("merchant", "market"), {ID: "x", Faction: "f"}}
			cfg.Kin = [][]string{{"merchant", "x"}} // social, but the victim has no peers to warn
			cfg.Injections = []sim.Injection{theft(1, "theft@1", "merchant")}
			w := build(cfg)
			w.through(2)
			Expect(ruleEvals(w.records(-1), rules.AccumulationThreshold)).To(BeEmpty())
		})
	})

	Describe("rule 12, grudge-creation, and rule 13, grudge-decay", func() {
		brawl := func(change func(*sim.Config)) run {
			cfg := base()
			cfg.Cast = []sim.NPC{nowhere("loser")}
			var onlookers []string
			for _, id := range []string{"o1", "o2", "o3", "o4", "o5", "o6"} {
				cfg.Cast = append(cfg.Cast, nowhere(id))
				onlookers = append(onlookers, id)
			}
			cfg.Injections = []sim.Injection{deed(2, sim.Brawl, "brawl@2", sim.Player, "loser", onlookers...)}
			if change != nil {
				change(&cfg)
			}
			r := build(cfg)
			r.through(3)
			return r
		}

		It("gives the loser of a public brawl a grudge felt more than proven: min(1, 0.5 + 0.05 × 6 onlookers) and 0.9 × 0.5", func() {
			r := brawl(nil)
			gs := grudges(r.records(2))
			Expect(gs).To(HaveLen(1))
			Expect(gs[0]).To(Equal(trace.Grudge{Holder: "loser", Target: sim.Player, Change: "formed", Emotional: 0.5 + float64(0.05*6), Evidentiary: 0.45,
				Rule: rules.GrudgeCreation, Cause: "brawl@2"}))
			Expect(r.belief("loser", "brawl@2").Confidence).To(Equal(0.9), "the loser witnessed it as a party")
			on, _ := value(ruleEvals(r.records(2), rules.GrudgeCreation)[0].Values, "onlookers")
			Expect(on).To(Equal(6.0))
			g, ok := r.Grudges().Get("loser", sim.Player)
			Expect(ok).To(BeTrue())
			c := r.Grudges().Curves()
			Expect(bits(g.EmotionalAt(2+2880, c))).To(Equal(bits(g.Emotional / 2)))
			ev, ok := r.Log().Lookup("grudge@2:loser:player:brawl@2")
			Expect(ok).To(BeTrue())
			Expect(ev.Event.Attrs).To(HaveKeyWithValue("rule", rules.GrudgeCreation))
		})

		It("gives onlookers no grudge: they are out of scope and leave no record", func() {
			r := brawl(nil)
			Expect(r.Grudges().Len()).To(Equal(1))
			for _, e := range ruleEvals(r.records(-1), rules.GrudgeCreation) {
				Expect(e.Subject).To(Equal("loser/brawl@2"))
			}
		})

		It("when disabled, forms no grudge and says so where it would have", func() {
			r := brawl(func(c *sim.Config) { c.Rules = ruleSet(rules.GrudgeCreation) })
			Expect(r.Grudges().Len()).To(BeZero())
			evals := ruleEvals(r.records(-1), rules.GrudgeCreation)
			Expect(evals).To(HaveLen(1))
			Expect(evals[0]).To(HaveField("Reason", "disabled"))
		})

		It("traces the tick a grudge settles, once, and nothing while it only fades", func() {
			r := brawl(func(c *sim.Config) { c.Defines.GrudgeSettled = 1 })
			g, _ := r.Grudges().Get("loser", sim.Player)
			at, ok := g.SettlesAt(r.Grudges().Curves())
			Expect(ok).To(BeTrue())
			r.through(at)
			evals := ruleEvals(r.records(-1), rules.GrudgeDecay)
			Expect(evals).To(HaveLen(1))
			Expect(r.records(at)).To(ContainElement(HaveField("Body", Equal(&evals[0]))))
			settled := grudges(r.records(at))
			Expect(settled).To(HaveLen(1))
			Expect(settled[0].Change).To(Equal("settled"))
			Expect(settled[0].Rule).To(Equal(rules.GrudgeDecay))
			values := map[string]float64{}
			for _, v := range evals[0].Values {
				values[v.Name] = v.Value
			}
			Expect(values["emotional"]).To(Equal(settled[0].Emotional))
			Expect(values["evidentiary"]).To(Equal(settled[0].Evidentiary))
			Expect(values["evidentiary"]).To(BeNumerically(">", 0), "both parts count in the total")
			Expect(values["total"]).To(Equal(values["emotional"] + values["evidentiary"]))
			Expect(values["total"]).To(BeNumerically("<", 1), "below grudge_settled")
		})

		It("with grudge-decay disabled, holds the strengths still and says so once", func() {
			r := brawl(func(c *sim.Config) { c.Rules = ruleSet(rules.GrudgeDecay) })
			r.through(500)
			g, _ := r.Grudges().Get("loser", sim.Player)
			Expect(g.EmotionalAt(500, r.Grudges().Curves())).To(Equal(g.Emotional))
			evals := ruleEvals(r.records(0), rules.GrudgeDecay)
			Expect(evals).To(HaveLen(1))
			Expect(evals[0].Reason).To(Equal("disabled"))
		})

		It("gives kin of a killing's victim a bereavement grudge, and no one else", func() {
			cfg := base()
			cfg.Cast = []sim.NPC{stays("victim", "market"), nowhere("son"), nowhere("stranger")}
			cfg.Kin = [][]string{{"son", "victim"}}
			cfg.Injections = []sim.Injection{killing(1, "killing@1", "victim", "son", "stranger")}
			r := build(cfg)
			r.through(1)
			Expect(grudges(r.records(1))).To(Equal([]trace.Grudge{{Holder: "son", Target: sim.Player, Change: "formed", Emotional: 1, Evidentiary: 0.45,
				Rule: rules.GrudgeCreation, Cause: "killing@1"}}))
			Expect(ruleEvals(r.records(1), rules.GrudgeCreation)).To(HaveLen(1))
		})
	})

	Describe("rule 14, obligations, with its violation wiring", func() {
		var r run
		BeforeEach(func() {
			cfg := base()
			cfg.Cast = []sim.NPC{nowhere("ria"), nowhere("jon"), nowhere("olfina"), nowhere("bystander")}
			cfg.Injections = []sim.Injection{
				deed(1, sim.Favour, "favour@1", "ria", sim.Player),
				deed(1, sim.Favour, "favour@1b", "jon", sim.Player),
				invoke(3, "invoke@3", "ria", sim.Player, "favour@1", sim.Refused, "olfina"),
				invoke(4, "invoke@4", "ria", sim.Player, "favour@1", sim.Fulfilled),
				invoke(4, "invoke@4b", "olfina", sim.Player, "favour@1b", sim.Fulfilled),
			}
			r = build(cfg)
			r.through(5)
		})

		It("issues an obligation per favour and settles it once, declining what cannot settle it", func() {
			var got []string
			for _, e := range ruleEvals(r.records(-1), rules.Obligations) {
				got = append(got, e.Subject+" "+e.Reason)
			}
			Expect(got).To(Equal([]string{
				"favour@1 issued: player owes ria", "favour@1b issued: player owes jon",
				"invoke@3 violated: refused",
				"invoke@4 already violated",
				"invoke@4b owed by player to jon, not by player to olfina",
			}))
			o, _ := r.Ledger().Get("obligation:favour@1")
			Expect(o.State).To(BeEquivalentTo("violated"))
			Expect(o.Cause).To(Equal("invoke@3"))
		})

		It("makes the refusal a grudge of the creditor against the debtor, and reputation evidence for the observer present only", func() {
			Expect(grudges(r.records(3))).To(Equal([]trace.Grudge{{Holder: "ria", Target: sim.Player, Change: "formed", Emotional: 0.4, Evidentiary: 0.45,
				Rule: rules.GrudgeCreation, Cause: "invoke@3"}}))
			reps := bodies[trace.Reputation](r.records(-1), nil)
			Expect(reps).To(Equal([]trace.Reputation{{Observer: "olfina", Subject: sim.Player, Dimension: "reliability", Alpha: 1, Beta: 2, Mean: 1.0 / 3,
				Rule: rules.ReputationEvidence, Cause: "invoke@3"}}))
			_, ok := r.Reputation().Get("ria", sim.Player, "reliability")
			Expect(ok).To(BeFalse(), "a party does not observe its own dealings")
			_, ok = r.Reputation().Get("bystander", sim.Player, "reliability")
			Expect(ok).To(BeFalse())
		})
	})

	Describe("rule 15, tell-decision", func() {
		secret := func(kin [][]string, disable ...string) run {
			cfg := base()
			cfg.Rules = ruleSet(disable...)
			cfg.Defines.EncounterProbability = 1
			cfg.Cast = []sim.NPC{nowhere("hroki"), stays("keeper", "market"), stays("listener", "market"), stays("gossip", "tavern"), stays("other", "tavern")}
			cfg.Kin = kin
			cfg.Injections = []sim.Injection{deed(1, sim.Secret, "secret@1", sim.Player, "hroki", "keeper", "gossip")}
			r := build(cfg)
			r.through(4)
			return r
		}

		It("lets the keeper, kin of the implicated, decline at every opportunity, and the other holder tell", func() {
			r := secret([][]string{{"hroki", "keeper"}})
			var declined []trace.Transmission
			for _, t := range transmissions(r.records(-1)) {
				if t.Rule == rules.TellDecision {
					declined = append(declined, t)
				}
			}
			Expect(declined).To(HaveLen(4), "ticks 1–4, one fired encounter each")
			Expect(declined[0]).To(HaveField("Reason", "keeps the secret: kin of hroki"))
			Expect(r.holds("listener", "secret@1")).To(BeFalse())
			Expect(r.holds("other", "secret@1")).To(BeTrue())
			told := ruleEvals(r.records(1), rules.TellDecision)
			Expect(told).To(ContainElement(HaveField("Reason", "no motive to keep it")))
		})

		It("without the kin edge, lets the keeper tell like anyone", func() {
			r := secret([][]string{{"gossip", "other"}})
			Expect(r.holds("listener", "secret@1")).To(BeTrue())
		})

		It("disabled, gates nothing and says so at each telling", func() {
			r := secret([][]string{{"hroki", "keeper"}}, rules.TellDecision)
			Expect(r.holds("listener", "secret@1")).To(BeTrue())
			Expect(ruleEvals(r.records(1), rules.TellDecision)).To(HaveEach(HaveField("Reason", "disabled")))
		})
	})

	Describe("rule 16, reputation-evidence", func() {
		It("moves the rows of the NPCs who believe a title and are not its parties, once each", func() {
			cfg := base()
			cfg.Defines.EncounterProbability = 1
			cfg.Cast = []sim.NPC{stays("jarl", "market"), stays("steward", "market"), stays("guard", "market"), stays("far", "tavern")}
			cfg.Injections = []sim.Injection{deed(1, sim.Title, "title@1", "jarl", sim.Player, "steward")}
			r := build(cfg)
			r.through(3)
			var observers []string
			for _, o := range r.Reputation().All() {
				observers = append(observers, o.Observer)
				Expect(o.Alpha).To(Equal(2.0))
				Expect(o.Beta).To(Equal(1.0))
			}
			Expect(observers).To(Equal([]string{"guard", "steward"}))
			Expect(r.Store().Holders("title@1")).To(Equal([]string{"guard", "jarl", "steward"}))
			Expect(bodies[trace.Reputation](r.records(-1), nil)).To(HaveLen(2), "one record per holder who is not a party")
		})

		It("counts a claim once when its observer switches to a variant naming another subject, and declines with the row it moved", func() {
			// The guard first hears that hulda was made thane (the liar's
			// variant), then the steward's eyewitness account, which wins:
			// the same claim, seen again by the social rules.
			cfg := base()
			cfg.Cast = []sim.NPC{nowhere("jarl"), nowhere("steward"), nowhere("liar"), nowhere("guard"), nowhere("hulda")}
			title := deed(1, sim.Title, "title@1", "jarl", sim.Player, "steward")
			title.Witnesses = append(title.Witnesses, sim.Witness{NPC: "liar", Says: []sim.Recollection{{Slot: "recipient", Value: "hulda"}}})
			cfg.Injections = []sim.Injection{
				title,
				{Tick: 2, Kind: sim.Report, From: "liar", To: "guard", Claim: "title@1"},
				{Tick: 3, Kind: sim.Report, From: "steward", To: "guard", Claim: "title@1"},
			}
			r := build(cfg)
			r.through(3)
			Expect(r.belief("guard", "title@1").Variant).To(Equal("title@1#v0"), "the eyewitness's variant won")
			evals := ruleEvals(r.records(3), rules.ReputationEvidence)
			Expect(evals).To(Equal([]trace.RuleEval{{Rule: rules.ReputationEvidence, Subject: "guard/title@1", Reason: "already counted this claim",
				Values: []trace.Value{{Name: "alpha", Value: 2}, {Name: "beta", Value: 1}}}}))
			o, ok := r.Reputation().Get("guard", "hulda", "standing")
			Expect(ok).To(BeTrue())
			Expect([]float64{o.Alpha, o.Beta}).To(Equal([]float64{2, 1}))
			_, ok = r.Reputation().Get("guard", sim.Player, "standing")
			Expect(ok).To(BeFalse(), "the claim was counted once, for the subject it named then")
		})
	})
})

var _ = Describe("A core-only world", func() {
	It("writes no social record and no social keyframe section", func() {
		cfg := base()
		cfg.Defines.EncounterProbability = 1
		cfg.Cast = []sim.NPC{stays("merchant", "market"), stays("witness", "market"), stays("neighbor", "market")}
		cfg.Injections = []sim.Injection{theft(1, "theft@1", "witness")}
		r := build(cfg)
		r.through(30)
		for _, rec := range r.records(-1) {
			Expect(rec.Body.Kind()).NotTo(BeElementOf(trace.KindGrudge, trace.KindObligation, trace.KindReputation))
			if kf, ok := rec.Body.(*trace.Keyframe); ok {
				Expect(kf.Accumulators).To(BeEmpty())
				Expect(kf.Grudges).To(BeEmpty())
			}
			if e, ok := rec.Body.(*trace.RuleEval); ok {
				rule, _ := rules.Find(e.Rule)
				Expect(rule.Layer).To(Equal(rules.Core), e.Rule)
			}
		}
	})
})
