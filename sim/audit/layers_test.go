package audit_test

import (
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/audit"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/roles"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/tolerances"
)

// layered is a sound Tier 4-5 world driven by hand: the steward's office
// held by a, with one duty at the hall laid over a's schedule; b's
// audience meets the office, and b owes it a favour the office did at
// tick 2; b mourns at the temple by a logged rewrite; a and c are weighed
// at 0.4.
func layered() *fake {
	GinkgoHelper()
	f := newDriver(0).f
	f.layers = rules.CoreOnly.With(rules.Social).With(rules.Schedule).With(rules.Weighting).With(rules.Roles)
	duty := schedule.Block{At: "hall", From: 8, To: 12, Every: 24, Until: schedule.Forever}
	var err error
	f.roles, err = roles.NewBook([]roles.Role{
		{ID: "jarl", Holder: "f"},
		{ID: "steward", Appointer: "jarl", Holder: "a", Duties: []schedule.Block{duty}},
	})
	Expect(err).NotTo(HaveOccurred())
	_, err = f.log.Append(events.Event{ID: "favour@2", Kind: "favour", Tick: 2, Attrs: map[string]string{"actor": "role:steward", "recipient": "b"}})
	Expect(err).NotTo(HaveOccurred())
	_, err = f.ledger.Issue("favour@2", "role:steward", "b", 2)
	Expect(err).NotTo(HaveOccurred())
	_, err = f.log.Append(events.Event{ID: "rewrite@3:b:k", Kind: "rewrite", Tick: 3, Attrs: map[string]string{"npc": "b", "at": "temple", "from": "4", "to": "76"}})
	Expect(err).NotTo(HaveOccurred())
	f.sched = map[string]schedule.Schedule{}
	for _, id := range f.cast {
		f.sched[id] = schedule.Schedule{Home: "home"}
	}
	f.sched["a"] = schedule.Schedule{Home: "home", Overrides: []schedule.Override{{ID: roles.DutyID("steward", 0), Block: duty}}}
	f.sched["b"] = schedule.Schedule{Home: "home", Overrides: []schedule.Override{{ID: "rewrite@3:b:k", Block: schedule.Block{At: "temple", From: 4, To: 76, Until: schedule.Forever}}}}
	f.refs = map[string][]roles.Reference{"steward": {
		{Role: "steward", Where: "b's block 1", Names: "role:steward", Resolved: "a"},
		{Role: "steward", Where: "duties:steward:0", Names: "role:steward", Resolved: "a"},
	}}
	f.weights = []sim.PairWeight{{A: "a", B: "c", Weight: 0.4}}
	return f
}

// auditOf audits f once, in full, and returns its findings.
func auditOf(f *fake) ([]audit.Finding, []audit.Examined) {
	a := audit.New(f, audit.Options{})
	return a.Full().Findings, a.Examined()
}

var _ = Describe("the invariants of Tiers 4 and 5", func() {
	It("pass a sound world, each examining its records", func() {
		fs, ex := auditOf(layered())
		Expect(fs).To(BeEmpty())
		for _, e := range ex {
			switch e.Invariant {
			case "role-references":
				Expect(e.Records).To(Equal(int64(5)), "two roles, two references, one debt to an office")
			case "schedule-overrides":
				Expect(e.Records).To(Equal(int64(2)))
			case "pair-weights":
				Expect(e.Records).To(Equal(int64(1)))
			}
		}
	})

	It("leave the dead in office when role-succession is off: nothing was meant to vacate it", func() {
		f := layered()
		f.dead["a"] = true
		f.off = map[string]bool{rules.RoleSuccession: true}
		fs, _ := auditOf(f)
		Expect(fs).To(BeEmpty())
		// The references must still follow the office to its (dead) holder.
		f.refs["steward"][0].Resolved = "d"
		fs, _ = auditOf(f)
		Expect(fs).To(HaveLen(1))
		Expect(fs[0].Detail).To(ContainSubstring("resolves to d, but the role's holder is a"))
	})

	DescribeTable("fail on each fault they exist for, naming the invariant and the record",
		func(plant func(f *fake), inv, record, detail string, grade tolerances.Grade) {
			f := layered()
			plant(f)
			fs, _ := auditOf(f)
			Expect(fs).To(HaveLen(1), "%v", fs)
			Expect(fs[0].Invariant).To(Equal(inv))
			Expect(fs[0].Record).To(Equal(record))
			Expect(fs[0].Detail).To(ContainSubstring(detail))
			Expect(fs[0].Grade).To(Equal(grade))
		},
		Entry("a dead holder left in office", func(f *fake) { f.dead["a"] = true },
			"role-references", "role steward", "held by a, who is dead", tolerances.Alarm),
		Entry("a holder who is not in the cast", func(f *fake) { r, _ := f.roles.Get("jarl"); r.Holder = "ghost" },
			"role-references", "role jarl", `held by "ghost", who is not in the cast`, tolerances.Alarm),
		Entry("one NPC in two offices", func(f *fake) {
			r, _ := f.roles.Get("steward")
			r.Holder = "f"
			f.refs = nil
			f.sched["a"] = f.sched["c"]
		},
			"role-references", "role steward", "held by f, who holds jarl too", tolerances.Alarm),
		Entry("an appointer that is not a role", func(f *fake) { r, _ := f.roles.Get("steward"); r.Appointer = "king" },
			"role-references", "role steward", `appointed by "king"`, tolerances.Alarm),
		Entry("an audience kept with the old holder", func(f *fake) { f.refs["steward"][0].Resolved = "d" },
			"role-references", "reference b's block 1", "resolves to d, but the role's holder is a", tolerances.Alarm),
		Entry("a debt to an office nobody declared", func(f *fake) {
			_, err := f.log.Append(events.Event{ID: "favour@5", Kind: "favour", Tick: 5, Attrs: map[string]string{"actor": "role:treasurer", "recipient": "b"}})
			Expect(err).NotTo(HaveOccurred())
			o, err := f.ledger.Issue("favour@5", "role:treasurer", "b", 5)
			Expect(err).NotTo(HaveOccurred())
			_ = o
		}, "role-references", "obligation obligation:favour@5", "names role:treasurer, which is not a declared role", tolerances.Alarm),
		Entry("a duty left with a holder who lost the role", func(f *fake) { r, _ := f.roles.Get("steward"); r.Holder = "d"; f.refs = nil },
			"schedule-overrides", "override a/duties:steward:0", "a duty of steward, held by d", tolerances.Alarm),
		Entry("an override laid twice", func(f *fake) { s := f.sched["b"]; s.Overrides = append(s.Overrides, s.Overrides[0]); f.sched["b"] = s },
			"schedule-overrides", "override b/rewrite@3:b:k", "laid twice", tolerances.Alarm),
		Entry("an override no event explains", func(f *fake) { s := f.sched["b"]; s.Overrides[0].ID = "edit"; f.sched["b"] = s },
			"schedule-overrides", "override b/edit", "placed by no logged rewrite event or role duty", tolerances.Alarm),
		Entry("a mourning drifted from its rewrite event", func(f *fake) { s := f.sched["b"]; s.Overrides[0].Block.To = 77; f.sched["b"] = s },
			"schedule-overrides", "override b/rewrite@3:b:k", "differs from the block its rewrite event recorded", tolerances.Alarm),
		Entry("a mourning on the wrong NPC", func(f *fake) { f.sched["c"] = f.sched["b"] },
			"schedule-overrides", "override c/rewrite@3:b:k", "its rewrite event is for b", tolerances.Alarm),
		Entry("a duty of a role nobody declared", func(f *fake) { s := f.sched["a"]; s.Overrides[0].ID = roles.DutyID("treasurer", 0); f.sched["a"] = s },
			"schedule-overrides", "override a/duties:treasurer:0", "a duty of treasurer, which is not a declared role", tolerances.Alarm),
		Entry("a duty its role does not have", func(f *fake) { s := f.sched["a"]; s.Overrides[0].ID = roles.DutyID("steward", 1); f.sched["a"] = s },
			"schedule-overrides", "override a/duties:steward:1", "duty 1 of steward, which has 1", tolerances.Alarm),
		Entry("a duty drifted from its role's block", func(f *fake) { s := f.sched["a"]; s.Overrides[0].Block.To = 13; f.sched["a"] = s },
			"schedule-overrides", "override a/duties:steward:0", "differs from duty 0 of steward", tolerances.Alarm),
		Entry("a duty of a role with no name", func(f *fake) { s := f.sched["a"]; s.Overrides[0].ID = "duties::0"; f.sched["a"] = s },
			"schedule-overrides", "override a/duties::0", "placed by no logged rewrite event or role duty", tolerances.Alarm),
		Entry("a mourning whose rewrite event's window does not parse: no block matches it", func(f *fake) {
			_, err := f.log.Append(events.Event{ID: "rewrite@4:c:k", Kind: "rewrite", Tick: 4, Attrs: map[string]string{"npc": "c", "at": "temple", "from": "one", "to": "76"}})
			Expect(err).NotTo(HaveOccurred())
			f.sched["c"] = schedule.Schedule{Home: "home", Overrides: []schedule.Override{{ID: "rewrite@4:c:k", Block: schedule.Block{At: "temple", From: 1, To: 76, Until: schedule.Forever}}}}
		}, "schedule-overrides", "override c/rewrite@4:c:k", "differs from the block its rewrite event recorded", tolerances.Alarm),
		Entry("an invalid block", func(f *fake) { s := f.sched["a"]; s.Overrides[0].Block.To = 4; f.sched["a"] = s },
			"schedule-overrides", "override a/duties:steward:0", "empty or negative", tolerances.Alarm),
		Entry("a weight an ulp above 1", func(f *fake) { f.weights[0].Weight = math.Nextafter(1, 2) },
			"pair-weights", "pair a/c", "outside [0, 1]", tolerances.Warn),
		Entry("a negative weight, by how far", func(f *fake) { f.weights[0].Weight = -0.5 },
			"pair-weights", "pair a/c", "weight -0.5 is 0.5 outside [0, 1] (ok bound 0, warn ceiling 1e-06)", tolerances.Alarm),
		Entry("a pair weighed against itself", func(f *fake) { f.weights[0].B = "a" },
			"pair-weights", "pair a/a", "not two different cast members", tolerances.Alarm),
		Entry("a pair listed twice", func(f *fake) { f.weights = append(f.weights, sim.PairWeight{A: "c", B: "a", Weight: 0.4}) },
			"pair-weights", "pair c/a", "listed twice", tolerances.Alarm),
	)
})
