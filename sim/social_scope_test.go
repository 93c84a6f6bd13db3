package sim_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/rules"
)

// Social rules declining what is out of their scope. Rule 12's two refusals: nobody bears a grudge against themselves, and
// nobody forms one against the dead.
var _ = Describe("rule 12, grudges nobody can bear", func() {
	grudgeEvals := func(r run, t int64) []string {
		var out []string
		for _, e := range ruleEvals(r.records(t), rules.GrudgeCreation) {
			out = append(out, e.Subject+" "+e.Reason)
		}
		return out
	}

	It("declines a bereavement grudge when the kin who holds it is the killer", func() {
		cfg := base()
		cfg.Cast = []sim.NPC{stays("victim", "market"), nowhere("son")}
		cfg.Kin = [][]string{{"son", "victim"}}
		k := killing(1, "killing@1", "victim", "son")
		k.Actor = "son"
		cfg.Injections = []sim.Injection{k}
		r := build(cfg)
		r.through(1)
		Expect(grudgeEvals(r, 1)).To(Equal([]string{"son/killing@1 the actor is the holder"}))
		Expect(grudges(r.records(-1))).To(BeEmpty())
	})

	It("declines one against a killer who died before the kin heard of the killing", func() {
		cfg := base()
		cfg.Cast = []sim.NPC{stays("victim", "market"), stays("bandit", "market"), nowhere("son"), nowhere("stranger")}
		cfg.Kin = [][]string{{"son", "victim"}}
		k := killing(1, "killing@1", "victim", "stranger")
		k.Actor = "bandit"
		cfg.Injections = []sim.Injection{k, killing(2, "killing@2", "bandit"), report(3, "stranger", "son", "killing@1")}
		r := build(cfg)
		r.through(3)
		Expect(grudgeEvals(r, 3)).To(Equal([]string{"son/killing@1 the target is dead"}))
		Expect(grudges(r.records(-1))).To(BeEmpty())
	})
})

var _ = Describe("rule 14, an invocation of a favour nobody did", func() {
	It("settles nothing and says which favour was never issued", func() {
		cfg := base()
		cfg.Cast = []sim.NPC{nowhere("ria")}
		cfg.Injections = []sim.Injection{invoke(2, "invoke@2", "ria", sim.Player, "favour@1", sim.Refused)}
		r := build(cfg)
		r.through(2)
		var got []string
		for _, e := range ruleEvals(r.records(-1), rules.Obligations) {
			got = append(got, e.Subject+" "+e.Reason)
		}
		Expect(got).To(Equal([]string{"invoke@2 no obligation was issued for favour@1"}))
		Expect(r.Ledger().All()).To(BeEmpty())
	})
})
