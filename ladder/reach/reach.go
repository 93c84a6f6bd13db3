package reach

import (
	"fmt"
	"slices"

	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/rules"
)

// fixtureReach answers a run's negative expectations: what its world can
// produce at all (expect.Reach). It reads the fixture — its rules, its
// injections, its households, factions and roles — and the layers the
// world uses, and errs toward "possible": a negative it wrongly calls
// impossible would fail a sound rung, one it wrongly calls possible only
// keeps today's "checked nothing" test. So a source counts as present
// whenever some injection could lead to it, mutation of a slot included
// (a retold killing may name another victim).
type fixtureReach struct {
	f      *fixture.Fixture
	layers rules.Layers
}

var _ expect.Reach = fixtureReach{}

// Of is what f's world can reach, for its run's expectations
// (expect.Run.Within).
func Of(f *fixture.Fixture) expect.Reach {
	return fixtureReach{f: f, layers: f.WorldConfig().Layers()}
}

// layerWhy says what puts a world in each layer (sim.Config.Layers), for
// a rule whose layer this world lacks.
var layerWhy = map[rules.Layer]string{
	rules.Social:    "the social layer, which this world does not use (it injects no brawl, favour, invocation, title or secret, declares no household, and robs nobody with a faction)",
	rules.Schedule:  "the schedule layer, which this world does not use (it needs the social layer and a location tagged temple)",
	rules.Weighting: "the weighting layer, which this world does not use (it needs the social layer and a brawl, an invocation or a killing between two NPCs)",
	rules.Roles:     "the roles layer, which this world does not use (it declares no role)",
}

func (r fixtureReach) Rule(name string) (bool, string) {
	rule, ok := rules.Find(name)
	if !ok {
		return false, "is not in the catalogue"
	}
	if slices.Contains(r.f.Disabled, name) {
		return false, "is disabled in this fixture (rules.disable): it writes only its disabled records; assert those instead"
	}
	if !r.layers.Has(rule.Layer) {
		return false, "belongs to " + layerWhy[rule.Layer]
	}
	return true, ""
}

// injects reports whether the fixture injects an event of one of kinds.
func (r fixtureReach) injects(kinds ...string) bool {
	return slices.ContainsFunc(r.f.Injections, func(in sim.Injection) bool { return slices.Contains(kinds, in.Kind) })
}

// refuses reports whether the fixture injects a refused invocation.
func (r fixtureReach) refuses() bool {
	return slices.ContainsFunc(r.f.Injections, func(in sim.Injection) bool { return in.Kind == sim.Invoke && in.Outcome == sim.Refused })
}

// both is the first failing condition's reason, "" when all hold.
func both(conds ...func() (bool, string)) (bool, string) {
	for _, c := range conds {
		if ok, why := c(); !ok {
			return false, why
		}
	}
	return true, ""
}

func (r fixtureReach) rule(name string) func() (bool, string) {
	return func() (bool, string) {
		ok, why := r.Rule(name)
		return ok, "rule " + name + " " + why
	}
}

// cond is a condition already known, with its reason.
func cond(ok bool, why string) func() (bool, string) {
	return func() (bool, string) { return ok, why }
}

func (r fixtureReach) Source(state string) (bool, string) {
	switch state {
	case "grudges":
		// A brawl's loser, a refused creditor, a killing's victim's kin
		// (rule 12): a retold killing may name any victim, so any
		// household will do.
		return both(r.rule(rules.GrudgeCreation), cond(r.injects(sim.Brawl) || r.refuses() || r.injects(sim.Killing) && len(r.f.Kin) > 0,
			"no brawl, no refused invocation, and no killing in a world with kin"))
	case "reputation":
		return both(r.rule(rules.ReputationEvidence), cond(r.injects(sim.Title, sim.Invoke), "no title and no invocation to be evidence"))
	case "obligations":
		return both(r.rule(rules.Obligations), cond(r.injects(sim.Favour), "no favour to issue one"))
	case "roles":
		return both(r.rule(rules.RoleSuccession), cond(len(r.f.Roles) > 0, "no role is declared"))
	case "schedules":
		mourning, noMourning := both(r.rule(rules.ScheduleWriteBack), cond(r.injects(sim.Killing) && len(r.f.Kin) > 0, "no killing in a world with kin"))
		duties, noDuties := both(r.rule(rules.RoleSuccession), cond(r.dutyOrMeeting(), "no role has duties and no block meets one"))
		if mourning || duties {
			return true, ""
		}
		return false, "no mourning can be laid (" + noMourning + ") and no duty can move (" + noDuties + ")"
	case "claims":
		return cond(slices.ContainsFunc(r.f.Injections, func(in sim.Injection) bool { return in.Kind != sim.Report }), "no event mints a claim")()
	}
	return false, fmt.Sprintf("unknown state %q", state)
}

// dutyOrMeeting reports whether some role has duties or some cast
// member's block meets a role: what a vacancy or an appointment moves.
func (r fixtureReach) dutyOrMeeting() bool {
	for _, role := range r.f.Roles {
		if len(role.Duties) > 0 {
			return true
		}
	}
	for _, n := range r.f.Cast {
		for _, b := range n.Schedule.Blocks {
			if b.Meets != "" {
				return true
			}
		}
	}
	return false
}

// holderKilled reports whether a killing's victim holds a role: what
// makes one fall vacant.
func (r fixtureReach) holderKilled() bool {
	return slices.ContainsFunc(r.f.Injections, func(in sim.Injection) bool {
		return in.Kind == sim.Killing && slices.ContainsFunc(r.f.Roles, func(role sim.Role) bool { return role.Holder == in.Victim })
	})
}

func (r fixtureReach) Event(kind string) (bool, string) {
	switch kind {
	case sim.Theft, sim.Killing, sim.Brawl, sim.Favour, sim.Invoke, sim.Title, sim.Secret:
		return cond(r.injects(kind), "the fixture injects none")()
	case sim.Death:
		return cond(r.injects(sim.Killing), "the fixture injects no killing")()
	case sim.Escalation:
		faction := slices.ContainsFunc(r.f.Cast, func(n sim.NPC) bool { return n.Faction != "" })
		return both(r.rule(rules.AccumulationThreshold), cond(r.injects(sim.Theft) && faction, "no theft in a world where anyone has a faction"))
	case sim.Grudge:
		return r.Source("grudges")
	case sim.Obligation:
		return r.Source("obligations")
	case sim.Rewrite, sim.Restore:
		return both(r.rule(rules.ScheduleWriteBack), cond(r.injects(sim.Killing) && len(r.f.Kin) > 0, "no killing in a world with kin"))
	case sim.Vacancy, sim.Lapse, sim.Appointment:
		return both(r.rule(rules.RoleSuccession), cond(r.holderKilled(), "no killing of a role's holder"))
	}
	return false, fmt.Sprintf("%q is no event kind the engine appends", kind)
}
