package sim_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
)

// Rule 19 with two roles whose calendars fall on the same ticks: the
// steward (prov) and the reeve (rolf), both appointed by the jarl, both
// with a duty at the market 8–12, both holders killed at tick 9. Every
// lapse and every succession due in a tick happens, not only the first.
var _ = Describe("rule 19, two roles due in the same tick", func() {
	twoRoles := func(delay int64) run {
		cfg := base()
		cfg.Defines.SuccessionDelayTicks = delay
		cfg.Cast = []sim.NPC{
			{ID: "prov", Faction: "court", Schedule: schedule.Schedule{Home: "home"}},
			{ID: "rolf", Faction: "court", Schedule: schedule.Schedule{Home: "home"}},
			{ID: "balg", Faction: "court", Schedule: schedule.Schedule{Home: "home"}},
			{ID: "iri", Faction: "court", Schedule: schedule.Schedule{Home: "tavern"}},
			{ID: "avo", Faction: "court", Schedule: schedule.Schedule{Home: "tavern"}},
			stays("belethor", "market"),
		}
		cfg.Roles = []sim.Role{
			{ID: "steward", Faction: "court", Holder: "prov", Appointer: "jarl", Duties: []schedule.Block{daily("market", 8, 12)}},
			{ID: "reeve", Faction: "court", Holder: "rolf", Appointer: "jarl", Duties: []schedule.Block{daily("market", 8, 12)}},
			{ID: "jarl", Faction: "court", Holder: "balg"},
		}
		cfg.Relationships = []sim.Relationship{{From: "balg", To: "iri", Trust: 0.9}, {From: "balg", To: "avo", Trust: 0.8}}
		cfg.Injections = []sim.Injection{killing(9, "killing@9", "prov"), killing(9, "killing@9b", "rolf")}
		return build(cfg)
	}

	It("lapses the duty of each vacant role that would have started", func() {
		r := twoRoles(30)
		r.through(32)
		for _, id := range []string{"lapse@32:reeve:0", "lapse@32:steward:0"} {
			_, ok := r.Log().Lookup(id)
			Expect(ok).To(BeTrue(), id)
		}
		var subjects []string
		for _, e := range ruleEvals(r.records(32), rules.RoleSuccession) {
			subjects = append(subjects, e.Subject)
		}
		Expect(subjects).To(Equal([]string{"reeve/duties:reeve:0", "steward/duties:steward:0"}), "roles in id order")
	})

	It("decides each succession due, roles in id order", func() {
		r := twoRoles(10)
		r.through(19)
		var changes []string
		for _, c := range roleRecords(r.records(19)) {
			changes = append(changes, c.Role+" "+c.Change+" "+c.Holder)
		}
		Expect(changes).To(HaveLen(2))
		Expect(changes[0]).To(HavePrefix("reeve appointed "))
		Expect(changes[1]).To(HavePrefix("steward appointed "))
		for _, id := range []string{"reeve", "steward"} {
			role, _ := r.Roles().Get(id)
			Expect(role.Vacant()).To(BeFalse(), id)
		}
	})
})
