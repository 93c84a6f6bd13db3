package audit

import (
	"strconv"
	"strings"

	"github.com/chronicle/ladder/sim/roles"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
)

// The invariants of Tiers 4 and 5 (schedule overrides, pair weights,
// roles). Each examines every record of its kind at every audit, full or
// not, in a world of its layer and nothing elsewhere: the state is a few
// records per NPC or per role, smaller than what one tick of encounters
// costs the engine, so there is no incremental form to hold equal to a
// full one.

// roleReferences: every role is vacant or held by a living cast member
// holding no other role; its appointer is a declared role; every
// reference to it in the live state (an obligation owed to or by the
// office, a base block that meets it, a duty) resolves to its holder,
// and to nobody while it is vacant; every role:<id> an obligation names
// is a declared role.
func (a *Auditor) roleReferences(sc *scope) {
	const inv = "role-references"
	if !a.w.Layers().Has(rules.Roles) {
		return
	}
	book := a.w.Roles()
	held := map[string]string{} // holder → role; looked up, never ranged over
	for _, r := range book.All() {
		sc.examined++
		rec := named("role", r.ID)
		switch {
		case r.Holder == "":
		case !a.cast[r.Holder]:
			a.find(inv, alarm, rec, "held by %q, who is not in the cast", r.Holder)
		case !a.w.Alive(r.Holder) && a.w.Enabled(rules.RoleSuccession):
			a.find(inv, alarm, rec, "held by %s, who is dead", r.Holder)
		case !a.w.Alive(r.Holder):
			// role-succession is off: nothing vacates the office, so the
			// dead keep it, as the fixture asked (its references still
			// resolve to them, which the loop below holds).
			held[r.Holder] = r.ID
		case held[r.Holder] != "":
			a.find(inv, alarm, rec, "held by %s, who holds %s too", r.Holder, held[r.Holder])
		default:
			held[r.Holder] = r.ID
		}
		if _, ok := book.Get(r.Appointer); r.Appointer != "" && !ok {
			a.find(inv, alarm, rec, "appointed by %q, which is not a declared role", r.Appointer)
		}
		for _, ref := range a.w.References(r.ID) {
			sc.examined++
			if ref.Resolved != r.Holder {
				a.find(inv, alarm, record{kind: "reference", a: ref.Where},
					"names %s and resolves to %s, but the role's holder is %s", ref.Names, nobody(ref.Resolved), nobody(r.Holder))
			}
		}
	}
	for _, o := range a.w.Ledger().All() {
		for _, party := range []string{o.Creditor, o.Debtor} {
			if id, ok := roles.Parse(party); ok {
				sc.examined++
				if _, declared := book.Get(id); !declared {
					a.find(inv, alarm, named("obligation", o.ID), "names %s, which is not a declared role", party)
				}
			}
		}
	}
}

func nobody(who string) string {
	if who == "" {
		return "nobody"
	}
	return who
}

// scheduleOverrides: every override laid over an NPC's schedule is a
// valid block with an id no other override of that NPC has, and was
// placed by something that still holds: a duty of a role the NPC holds
// (duties:<role>:<n>, the role's n-th duty block unchanged), or a
// mourning placed by a logged rewrite event for this NPC at the place,
// from and to it recorded.
func (a *Auditor) scheduleOverrides(sc *scope) {
	const inv = "schedule-overrides"
	if l := a.w.Layers(); !l.Has(rules.Schedule) && !l.Has(rules.Roles) {
		return
	}
	for _, id := range a.castIDs {
		_, eff, ok := a.w.Schedules(id)
		if !ok {
			a.find(inv, alarm, named("npc", id), "has no schedule")
			continue
		}
		seen := map[string]bool{} // looked up, never ranged over
		for _, o := range eff.Overrides {
			sc.examined++
			rec := record{kind: "override", a: id, b: o.ID}
			if seen[o.ID] {
				a.find(inv, alarm, rec, "laid twice over the schedule")
				continue
			}
			seen[o.ID] = true
			if err := o.Block.Validate(); err != nil {
				a.find(inv, alarm, rec, "%v", err)
				continue
			}
			if detail := a.overrideSource(id, o); detail != "" {
				a.find(inv, alarm, rec, "%s", detail)
			}
		}
	}
}

// overrideSource says what is wrong with what placed override o over
// npc's schedule, "" when it still holds.
func (a *Auditor) overrideSource(npc string, o schedule.Override) string {
	if role, n, ok := dutyOf(o.ID); ok {
		r, declared := a.w.Roles().Get(role)
		switch {
		case !declared:
			return "a duty of " + role + ", which is not a declared role"
		case n >= len(r.Duties):
			return "duty " + strconv.Itoa(n) + " of " + role + ", which has " + strconv.Itoa(len(r.Duties))
		case r.Holder != npc:
			return "a duty of " + role + ", held by " + nobody(r.Holder)
		case r.Duties[n] != o.Block:
			return "differs from duty " + strconv.Itoa(n) + " of " + role
		}
		return ""
	}
	rec, ok := a.w.Log().Lookup(o.ID)
	if !ok || rec.Event.Kind != "rewrite" {
		return "placed by no logged rewrite event or role duty"
	}
	at := rec.Event.Attrs
	want := schedule.Block{At: at["at"], From: atoi(at["from"]), To: atoi(at["to"]), Until: schedule.Forever}
	switch {
	case at["npc"] != npc:
		return "its rewrite event is for " + at["npc"]
	case o.Block != want:
		return "differs from the block its rewrite event recorded"
	}
	return ""
}

// dutyOf parses duties:<role>:<n> (roles.DutyID).
func dutyOf(id string) (role string, n int, ok bool) {
	rest, ok := strings.CutPrefix(id, "duties:")
	if !ok {
		return "", 0, false
	}
	i := strings.LastIndexByte(rest, ':')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(rest[i+1:])
	if err != nil || n < 0 || roles.DutyID(rest[:i], n) != id {
		return "", 0, false
	}
	return rest[:i], n, true
}

func atoi(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return -1
	}
	return n
}

// pairWeights: every pair rule 18 has weighed is two different cast
// members, listed once, and its weight lies in [0, 1] exactly.
func (a *Auditor) pairWeights(sc *scope) {
	const inv = "pair-weights"
	if !a.w.Layers().Has(rules.Weighting) {
		return
	}
	seen := map[[2]string]bool{} // looked up, never ranged over
	for _, p := range a.w.PairWeights() {
		sc.examined++
		rec := record{kind: "pair", a: p.A, b: p.B}
		key := [2]string{min(p.A, p.B), max(p.A, p.B)}
		switch {
		case !a.cast[p.A] || !a.cast[p.B] || p.A == p.B:
			a.find(inv, alarm, rec, "is not two different cast members")
			continue
		case seen[key]:
			a.find(inv, alarm, rec, "listed twice")
		}
		seen[key] = true
		a.inUnit(inv, rec, "weight", p.Weight)
	}
}
