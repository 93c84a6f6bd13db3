package sim_test

import (
	"errors"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/trace"
)

var _ = Describe("Injections", func() {
	DescribeTable("a refused injection stops Step with an InjectionError at its index in Config.Injections",
		func(ins []sim.Injection, tick int64, index int, want string, sentinel error) {
			cfg := base()
			cfg.Cast = []sim.NPC{stays("merchant", "home"), nowhere("a"), nowhere("b"), nowhere("c")}
			cfg.Injections = ins
			r := build(cfg)
			for r.Now() < tick-1 {
				Expect(r.Step()).To(Succeed())
			}
			err := r.Step()
			var ie *sim.InjectionError
			Expect(errors.As(err, &ie)).To(BeTrue(), "got %v", err)
			Expect(ie.Index).To(Equal(index))
			Expect(ie.Tick).To(Equal(tick))
			Expect(err).To(MatchError(want))
			if sentinel != nil {
				Expect(errors.Is(err, sentinel)).To(BeTrue(), "%v should wrap %v", err, sentinel)
			}
		},
		Entry("a report from an NPC who holds nothing",
			[]sim.Injection{theft(0, "theft@0", "a"), report(1, "a", "b", "theft@0"), report(2, "c", "a", "theft@0")}, int64(2), 2,
			`injection 2 at tick 2: report of theft@0: teller "c" holds no belief in it: holder has no belief in this claim`, claims.ErrNoBelief),
		Entry("a report of a claim that does not exist yet",
			[]sim.Injection{report(0, "a", "b", "theft@9")}, int64(0), 0,
			`injection 0 at tick 0: report of theft@9: teller "a" holds no belief in it: holder has no belief in this claim`, claims.ErrNoBelief),
		Entry("a report from a dead teller",
			[]sim.Injection{theft(0, "theft@0", "a"), killing(1, "killing@1", "a"), report(1, "a", "b", "theft@0")}, int64(1), 2,
			`injection 2 at tick 1: report of theft@0: teller "a" is not a living NPC`, nil),
		Entry("a report to a dead listener",
			[]sim.Injection{theft(0, "theft@0", "a"), killing(0, "killing@0", "b"), report(3, "a", "b", "theft@0")}, int64(3), 2,
			`injection 2 at tick 3: report of theft@0: listener "b" is not a living NPC`, nil),
		Entry("a dead witness",
			[]sim.Injection{killing(0, "killing@0", "a", "b"), theft(1, "theft@1", "b", "a")}, int64(1), 1,
			`injection 1 at tick 1: theft theft@1: witness "a" is not a living NPC`, nil),
		Entry("killing a dead NPC",
			[]sim.Injection{theft(0, "theft@0"), killing(2, "first", "a"), killing(4, "second", "a")}, int64(4), 2,
			`injection 2 at tick 4: killing second: victim "a" is not a living NPC`, nil),
		Entry("killing someone who is not in the cast",
			[]sim.Injection{killing(0, "killing@0", "ghost")}, int64(0), 0,
			`injection 0 at tick 0: killing killing@0: victim "ghost" is not a living NPC`, nil),
		Entry("an unknown kind",
			[]sim.Injection{theft(0, "theft@0"), {Tick: 0, Kind: "arson", ID: "arson@0"}}, int64(0), 1,
			`injection 1 at tick 0: unknown injection kind "arson"`, nil),
		Entry("a second event with the same id",
			[]sim.Injection{theft(0, "same"), theft(1, "same")}, int64(1), 1,
			`injection 1 at tick 1: events: append "same" at tick 1: event id already in the log at seq 0`, events.ErrDuplicateID),
	)

	It("forms each living witness's belief at the witness confidence, in the variant it remembers", func() {
		cfg := base()
		cfg.Defines.WitnessConfidence = 0.7
		cfg.Cast = []sim.NPC{stays("merchant", "home"), nowhere("a"), nowhere("b")}
		in := theft(0, "theft@0", "a")
		in.Witnesses = append(in.Witnesses, sim.Witness{NPC: "b", Says: []sim.Recollection{{Slot: "item", Value: "apple"}}})
		cfg.Injections = []sim.Injection{in}
		r := build(cfg)
		r.through(0)

		a, b := r.belief("a", "theft@0"), r.belief("b", "theft@0")
		Expect(a.Variant).To(Equal("theft@0#v0"))
		Expect(b.Variant).To(Equal("theft@0#v1"))
		Expect(bits(a.Confidence)).To(Equal(bits(0.7)))
		Expect(bits(b.Confidence)).To(Equal(bits(0.7)))
		v, _ := r.Store().Variant("theft@0#v1")
		Expect(cmp.Diff([]claims.Change{{Slot: "item", From: "sweetroll", To: "apple"}}, v.Diff)).To(BeEmpty())
		Expect(v.Origin).To(Equal(claims.Origin{Reason: "witness-disagrees", Holder: "b", Tick: 0}))

		recs := r.records(0)
		Expect(kinds(recs)).To(Equal([]trace.Kind{
			trace.KindEvent, trace.KindVariant, trace.KindRule, // the event, the claim minted with its v0
			trace.KindRule, trace.KindBelief, // a
			trace.KindVariant, trace.KindRule, trace.KindBelief, // b's own account, then b
			trace.KindKeyframe,
		}))
		Expect(bodies(recs, func(trace.Variant) bool { return true })).To(Equal([]trace.Variant{
			{ID: "theft@0#v0", Claim: "theft@0", Reason: "event",
				Slots: []trace.Slot{{Name: "actor", Type: "entity", Value: "player"}, {Name: "item", Type: "item", Value: "sweetroll"}, {Name: "location", Type: "location", Value: "market"}, {Name: "victim", Type: "entity", Value: "merchant"}}},
			{ID: "theft@0#v1", Claim: "theft@0", Predecessor: "theft@0#v0", Reason: "witness-disagrees", By: "b",
				Diff:  []trace.SlotChange{{Slot: "item", From: "sweetroll", To: "apple"}},
				Slots: []trace.Slot{{Name: "actor", Type: "entity", Value: "player"}, {Name: "item", Type: "item", Value: "apple"}, {Name: "location", Type: "location", Value: "market"}, {Name: "victim", Type: "entity", Value: "merchant"}}},
		}))
		Expect(bodies(recs, func(b trace.BeliefChange) bool { return b.Holder == "b" })).To(Equal([]trace.BeliefChange{
			{Holder: "b", Claim: "theft@0", Variant: "theft@0#v1", Change: "formed", Confidence: 0.7, Stage: "heard",
				Evidence: &trace.Evidence{Type: "witnessed", Variant: "theft@0#v1", Via: "theft@0", Confidence: 0.7, Counted: true}},
		}))
		Expect(ruleEvals(recs, "shared-claim-invariant")).To(Equal([]trace.RuleEval{
			{Rule: "shared-claim-invariant", Subject: "theft@0", Fired: true, Reason: "claim minted for event"},
		}))
		Expect(ruleEvals(recs, "witness-creates-belief")).To(Equal([]trace.RuleEval{
			{Rule: "witness-creates-belief", Subject: "a/theft@0", Fired: true, Reason: "witnessed", Values: []trace.Value{{Name: "confidence", Value: 0.7}}},
			{Rule: "witness-creates-belief", Subject: "b/theft@0", Fired: true, Reason: "witnessed", Values: []trace.Value{{Name: "confidence", Value: 0.7}}},
		}))
	})

	Describe("a killing", func() {
		var r run

		BeforeEach(func() {
			cfg := base()
			cfg.Defines.EncounterProbability = 1
			cfg.Cast = []sim.NPC{stays("merchant", "market"), stays("victim", "market"), stays("w", "market")}
			cfg.Injections = []sim.Injection{killing(3, "killing@3", "victim", "w")}
			r = build(cfg)
			r.through(2)
		})

		It("kills the victim, who is then nowhere", func() {
			Expect(r.Alive("victim")).To(BeTrue())
			Expect(r.At("victim")).To(Equal("market"))
			r.through(3)
			Expect(r.Alive("victim")).To(BeFalse())
			Expect(r.At("victim")).To(Equal(""))
			Expect(r.Alive("w")).To(BeTrue())
		})

		It("appends the killing and then a death event naming victim and cause, both traced", func() {
			r.through(3)
			recs := r.Log().Records()
			Expect(recs).To(HaveLen(2))
			Expect(recs[0].Event.ID).To(Equal("killing@3"))
			Expect(recs[0].Event.Kind).To(Equal("killing"))
			Expect(recs[0].Event.Witnesses).To(Equal([]string{"w"}))
			Expect(cmp.Diff(events.Event{
				ID: "death@killing@3", Kind: "death", Tick: 3,
				Attrs: map[string]string{"victim": "victim", "cause": "killing@3"},
			}, recs[1].Event)).To(BeEmpty())

			evs := bodies[trace.Event](r.records(3), nil)
			Expect(evs).To(Equal([]trace.Event{
				{ID: "killing@3", EventKind: "killing", LogSeq: 0, Hash: recs[0].Hash},
				{ID: "death@killing@3", EventKind: "death", LogSeq: 1, Hash: recs[1].Hash},
			}))
			Expect(events.Verify(recs)).To(Succeed())
		})

		It("mints one claim with actor, location and victim but no item", func() {
			r.through(3)
			c, ok := r.Store().Claim("killing@3")
			Expect(ok).To(BeTrue())
			Expect(c.Slots).To(Equal(claims.Slots{
				{Name: "actor", Type: claims.EntitySlot, Value: sim.Player},
				{Name: "location", Type: claims.LocationSlot, Value: "market"},
				{Name: "victim", Type: claims.EntitySlot, Value: "victim"},
			}))
			Expect(r.Store().ClaimIDs()).To(Equal([]string{"killing@3"}), "the death event mints no claim")
		})

		It("leaves the dead out of every later encounter, from the killing's own tick", func() {
			pairs := func(t int64) [][2]string {
				var out [][2]string
				for _, e := range encounters(r.records(t)) {
					out = append(out, e.Pair)
				}
				return out
			}
			Expect(pairs(2)).To(Equal([][2]string{{"merchant", "victim"}, {"merchant", "w"}, {"victim", "w"}}))
			r.through(10)
			for t := int64(3); t <= 10; t++ {
				Expect(pairs(t)).To(Equal([][2]string{{"merchant", "w"}}), "tick %d", t)
			}
		})
	})
})
