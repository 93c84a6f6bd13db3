package expect

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/sim/roles"
	"github.com/chronicle/ladder/sim/social"
)

// no_orphans is the invariant of T5.3, checked at every tick of the run
// (it refuses timing): everything that concerns a role — an obligation
// owed to or by it, a base block that meets it, its duties — names the
// role (role:<id>), never a person, and resolves through it to the
// role's holder now, or to nobody while it is vacant; nothing resolves to
// a dead NPC. old_holder names who held the role first: once it no
// longer holds it, no open obligation may name it either (a debt recorded
// to the person rather than the office dangles from then on, and the
// engine's list of the role's references would not even show it). The
// role must change hands during the run (the holder dies), or the
// invariant was never put to the test and the check fails. It examines
// the references to the role and the open obligations, at every tick.
//
//	no_orphans: {role: steward, old_holder: proventus}
type noOrphansKind struct{}

func (noOrphansKind) Name() string   { return "no_orphans" }
func (noOrphansKind) Timing() Timing { return WholeRunOnly }

type noOrphansCheck struct {
	role, old string
	at, oldAt Pos
}

// orphanRun is one run's record of the role's history, kept in its
// Outcome.
type orphanRun struct {
	heldByOld, leftOld bool
}

func (noOrphansKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &noOrphansCheck{at: PosOf(n)}
	d.Object(n, path,
		Field{Name: "role", Required: true, Decode: func(v *yaml.Node, p string) { c.role = d.Role(v, p) }},
		Field{Name: "old_holder", Required: true, Decode: func(v *yaml.Node, p string) { c.old, c.oldAt = d.NPC(v, p), PosOf(v) }},
	)
	return c
}

func (c *noOrphansCheck) Unit() string { return "role references and open obligations" }

func (c *noOrphansCheck) AtTick(w World, o *Outcome) {
	t := w.Tick()
	st, _ := o.state.(*orphanRun)
	if st == nil {
		st = &orphanRun{}
		o.state = st
	}
	r, ok := w.Roles().Get(c.role)
	if !ok {
		o.Fail(t, c.at, "role %s does not exist", c.role)
		return
	}
	if r.Holder == c.old {
		st.heldByOld = true
	} else if st.heldByOld {
		st.leftOld = true
	}
	ref := roles.Ref(c.role)
	holder := r.Holder
	if st.leftOld {
		for _, ob := range w.Ledger().All() {
			if ob.State != social.Issued {
				continue
			}
			o.Examine(1)
			if ob.Creditor == c.old || ob.Debtor == c.old {
				o.Fail(t, c.oldAt, "%s (owed by %s to %s) names %s, who no longer holds %s: an orphan; it should name the office, %s",
					ob.ID, ob.Debtor, ob.Creditor, c.old, c.role, ref)
				return
			}
		}
	}
	refs := w.References(c.role)
	o.Examine(int64(len(refs)))
	for _, x := range refs {
		switch {
		case x.Names != ref:
			o.Fail(t, c.at, "%s names %q, not the role %s: an orphan once %s is gone", x.Where, x.Names, ref, x.Names)
		case x.Resolved != holder:
			o.Fail(t, c.at, "%s resolves to %s, but %s is %s", x.Where, who(x.Resolved), ref, heldBy(holder, r.Since))
		case x.Resolved != "" && !w.Alive(x.Resolved):
			o.Fail(t, c.at, "%s resolves to %s, who is dead", x.Where, x.Resolved)
		default:
			continue
		}
		return
	}
}

func (c *noOrphansCheck) Finish(o *Outcome) {
	st, _ := o.state.(*orphanRun)
	switch {
	case o.Failed() || o.Examined == 0:
	case st == nil || !st.heldByOld:
		o.Fail(-1, c.oldAt, "%s never held %s: the invariant was not put to the test", c.old, c.role)
	case !st.leftOld:
		o.Fail(-1, c.oldAt, "%s held %s to the end: the role never changed hands, so the invariant was not put to the test", c.old, c.role)
	}
}

func who(npc string) string {
	if npc == "" {
		return "nobody"
	}
	return npc
}

func heldBy(holder string, since int64) string {
	if holder == "" {
		return fmt.Sprintf("vacant since tick %d", since)
	}
	return fmt.Sprintf("held by %s since tick %d", holder, since)
}
