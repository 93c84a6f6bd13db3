package runfiles

import (
	"slices"
	"strings"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/roles"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/social"
	"github.com/chronicle/ladder/sim/trace"
)

// Role is one role as of the last of a run's records, with every
// reference to it.
type Role struct {
	*roles.Role
	References []roles.Reference
}

// Roles rebuilds the roles as of the last of recs. What a role is — its
// faction, appointer, duties and first holder — and the blocks and duties
// that reference it are the fixture's, read from w, a world built from it
// and not stepped; what became of it is the run's: each role record sets
// its holder, since and (falling vacant) its previous holder, rule 19's
// lapse evaluations count its lapses, and each obligation issued to or by
// the office is a reference. Every reference resolves to the holder: the
// engine lays a role's duties on its holder, keeps the blocks that meet
// it for the holder, and resolves an obligation's party to the holder, and
// suspends or lifts them all while it is vacant.
func Roles(w *sim.World, recs []trace.Record) []Role {
	var out []Role
	for _, r := range w.Roles().All() {
		c := *r
		out = append(out, Role{Role: &c, References: w.References(r.ID)})
	}
	find := func(id string) *Role {
		for i := range out {
			if out[i].ID == id {
				return &out[i]
			}
		}
		return nil
	}
	for _, rec := range recs {
		switch b := rec.Body.(type) {
		case *trace.Role:
			if r := find(b.Role); r != nil {
				r.Holder, r.Since = b.Holder, rec.Tick
				if b.Change == trace.RoleVacant {
					r.Previous = b.Previous
				}
			}
		case *trace.RuleEval:
			id, _, _ := strings.Cut(b.Subject, "/")
			r := find(id)
			if r == nil || b.Rule != rules.RoleSuccession || !b.Fired {
				continue
			}
			for _, v := range b.Values {
				if v.Name == "lapses" {
					r.Lapses = int(v.Value)
				}
			}
		case *trace.Obligation:
			if b.State != string(social.Issued) {
				continue
			}
			for _, side := range []struct{ name, who string }{{"creditor", b.Creditor}, {"debtor", b.Debtor}} {
				id, ok := roles.Parse(side.who)
				if r := find(id); ok && r != nil {
					r.References = append(r.References, roles.Reference{Role: id, Where: b.ID + " " + side.name, Names: side.who})
				}
			}
		}
	}
	for i := range out {
		r := &out[i]
		for k := range r.References {
			r.References[k].Resolved = r.Holder
		}
		slices.SortStableFunc(r.References, func(a, b roles.Reference) int { return strings.Compare(a.Where, b.Where) })
	}
	return out
}
