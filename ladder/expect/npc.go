package expect

import "gopkg.in/yaml.v3"

// npc checks one NPC's state at every tick of its range: alive, and where
// it is (at: null for nowhere). It examines ticks.
type npcKind struct{}

func (npcKind) Name() string   { return "npc" }
func (npcKind) Timing() Timing { return AtEnd }
func (npcKind) Doc() string {
	return "one NPC is alive (or dead) and where it is; at the last tick unless timed"
}

type npcCheck struct {
	id    string
	alive *struct {
		v  bool
		at Pos
	}
	at *posString
}

func (npcKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &npcCheck{}
	d.Object(n, path,
		Field{Name: "id", Required: true, Doc: "the NPC", Decode: func(v *yaml.Node, p string) { c.id = d.NPC(v, p) }},
		Field{Name: "alive", Doc: "true: alive; false: dead", Decode: func(v *yaml.Node, p string) {
			if b, ok := d.Bool(v, p); ok {
				c.alive = &struct {
					v  bool
					at Pos
				}{b, PosOf(v)}
			}
		}},
		Field{Name: "at", Doc: "where the NPC is; null: nowhere", Decode: func(v *yaml.Node, p string) {
			s := ""
			if !d.Null(v) {
				s = d.Location(v, p)
			}
			c.at = &posString{s, PosOf(v)}
		}},
	)
	d.Needs(n, path, "npc needs alive and/or at: an npc check with neither checks nothing", "alive", "at")
	return c
}

func (c *npcCheck) Unit() string     { return "ticks" }
func (c *npcCheck) Subject() Subject { return Subject{"npc", c.id} }
func (c *npcCheck) Finish(*Outcome)  {}

func (c *npcCheck) AtTick(w World, o *Outcome) {
	o.Examine(1)
	t := w.Tick()
	if c.alive != nil && w.Alive(c.id) != c.alive.v {
		o.Fail(t, c.alive.at, "%s alive = %v, want %v", c.id, w.Alive(c.id), c.alive.v)
		return
	}
	if c.at != nil && w.At(c.id) != c.at.v {
		o.Fail(t, c.at.at, "%s is at %q, want %q", c.id, w.At(c.id), c.at.v)
	}
}
