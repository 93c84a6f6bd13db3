package expect

import (
	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/jsonschema"
)

// role checks one role at every tick of its range (decision 0022): its
// holder, or vacant: true; since, the tick the holder took it or it fell
// vacant; lapses, how many of its duty blocks have lapsed so far (each
// that would have started while it was vacant). It examines ticks.
//
//	from: 12
//	to: 35
//	role: {id: steward, vacant: true, since: 12}
type roleKind struct{}

func (roleKind) Name() string   { return "role" }
func (roleKind) Timing() Timing { return AtEnd }
func (roleKind) Doc() string {
	return "a role's holder or vacancy, since when, and its lapsed duties; at the last tick unless timed"
}

type roleCheck struct {
	id     string
	at     Pos
	holder *posString
	vacant *Pos
	since  *posInt
	lapses *posInt
}

func (roleKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &roleCheck{at: PosOf(n)}
	d.Object(n, path,
		Field{Name: "id", Required: true, Doc: "the role (steward, not role:steward)", Decode: func(v *yaml.Node, p string) { c.id = d.Role(v, p) }},
		Field{Name: "holder", Doc: "who holds it (not with vacant)", Decode: func(v *yaml.Node, p string) { c.holder = &posString{d.NPC(v, p), PosOf(v)} }},
		Field{Name: "vacant", Doc: "true: nobody holds it (not with holder)", Decode: func(v *yaml.Node, p string) {
			if x, ok := d.Bool(v, p); ok && !x {
				d.Errorf(v, p, "vacant: false says nothing about who holds it; give holder")
			}
			at := PosOf(v)
			c.vacant = &at
		}},
		Field{Name: "since", Doc: "the tick the holder took it, or it fell vacant", Decode: func(v *yaml.Node, p string) {
			if t, ok := d.Tick(v, p); ok {
				c.since = &posInt{t, PosOf(v)}
			}
		}},
		Field{Name: "lapses", Doc: "how many of its duty blocks have lapsed so far (each that would have started while it was vacant)", Schema: (&jsonschema.Schema{}).Min(0), Decode: func(v *yaml.Node, p string) {
			if x, ok := d.Int(v, p); ok {
				if x < 0 {
					d.Errorf(v, p, "lapses must not be negative")
				}
				c.lapses = &posInt{x, PosOf(v)}
			}
		}},
	)
	switch {
	case d.Exclusive(n, path, "a role has a holder or is vacant: give one of holder and vacant", []string{"holder"}, []string{"vacant"}):
	case d.Needs(n, path, "role needs holder, vacant, since and/or lapses: a role check with none checks nothing", "holder", "vacant", "since", "lapses"):
	}
	return c
}

func (c *roleCheck) Unit() string     { return "ticks" }
func (c *roleCheck) Subject() Subject { return Subject{"social", "role/" + c.id} }
func (c *roleCheck) Finish(*Outcome)  {}

func (c *roleCheck) AtTick(w World, o *Outcome) {
	o.Examine(1)
	t := w.Tick()
	r, ok := w.Roles().Get(c.id)
	if !ok {
		o.Fail(t, c.at, "role %s does not exist", c.id)
		return
	}
	holder := r.Holder
	if holder == "" {
		holder = "nobody (vacant)"
	}
	switch {
	case c.holder != nil && r.Holder != c.holder.v:
		o.Fail(t, c.holder.at, "role %s is held by %s since tick %d, want %s", c.id, holder, r.Since, c.holder.v)
	case c.vacant != nil && !r.Vacant():
		o.Fail(t, *c.vacant, "role %s is held by %s since tick %d, want vacant", c.id, holder, r.Since)
	case c.since != nil && r.Since != c.since.v:
		o.Fail(t, c.since.at, "role %s is held by %s since tick %d, want since tick %d", c.id, holder, r.Since, c.since.v)
	case c.lapses != nil && int64(r.Lapses) != c.lapses.v:
		o.Fail(t, c.lapses.at, "role %s has had %d duty lapses, want %d", c.id, r.Lapses, c.lapses.v)
	}
}
