package expect

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// schedule checks where an NPC's schedule puts it at every tick of its
// range, base against effective (decision 0020): at, where it is (its
// effective schedule, null for nowhere); base, where the fixture's
// schedule — never edited — would put it; override, the id of the
// override that places it (a rewrite event, duties:<role>:<n>), or none
// when the base decides. It examines ticks.
//
//	from: 11
//	to: 82
//	schedule: {npc: frida, at: temple, override: "rewrite@10:frida:killing@10"}
type scheduleKind struct{}

func (scheduleKind) Name() string   { return "schedule" }
func (scheduleKind) Timing() Timing { return AtEnd }
func (scheduleKind) Doc() string {
	return "where an NPC's effective and base schedules put it, and the override in force; at the last tick unless timed"
}

type scheduleCheck struct {
	npc                string
	at, base, override *posString
}

// noOverride is how a fixture says the base decides.
const noOverride = "none"

func (scheduleKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &scheduleCheck{}
	place := func(dst **posString) func(*yaml.Node, string) {
		return func(v *yaml.Node, p string) {
			s := ""
			if !d.Null(v) {
				s = d.Location(v, p)
			}
			*dst = &posString{s, PosOf(v)}
		}
	}
	d.Object(n, path,
		Field{Name: "npc", Required: true, Doc: "the NPC", Decode: func(v *yaml.Node, p string) { c.npc = d.NPC(v, p) }},
		Field{Name: "at", Doc: "where its effective schedule puts it (overrides laid over the base); null: nowhere", Decode: place(&c.at)},
		Field{Name: "base", Doc: "where the fixture's own schedule, never edited, would put it; null: nowhere", Decode: place(&c.base)},
		Field{Name: "override", Doc: "the id of the override that places it — a rewrite event's id, or duties:<role>:<n> — or none when the base decides",
			Decode: func(v *yaml.Node, p string) { c.override = &posString{d.Str(v, p), PosOf(v)} }},
	)
	d.Needs(n, path, "schedule needs at, base and/or override: a schedule check with none checks nothing", "at", "base", "override")
	return c
}

func (c *scheduleCheck) Unit() string { return "ticks" }

func (c *scheduleCheck) Subject() Subject { return Subject{"social", "schedule/" + c.npc} }

// Finish fails "no override in force" in a world that can lay none.
func (c *scheduleCheck) Finish(o *Outcome) {
	if c.override != nil && c.override.v == noOverride && !o.Failed() && o.Examined > 0 {
		o.needSource(c.override.at, c.Unit(), "schedules")
	}
}

func (c *scheduleCheck) AtTick(w World, o *Outcome) {
	o.Examine(1)
	t := w.Tick()
	p := w.Placement(c.npc)
	override := p.Override
	if override == "" {
		override = noOverride
	}
	describe := func() string {
		return fmt.Sprintf("%s is at %q (override %s), its base at %q", c.npc, p.At, override, p.Base)
	}
	switch {
	case c.at != nil && p.At != c.at.v:
		o.Fail(t, c.at.at, "%s, want at %q", describe(), c.at.v)
	case c.base != nil && p.Base != c.base.v:
		o.Fail(t, c.base.at, "%s, want base %q", describe(), c.base.v)
	case c.override != nil && override != c.override.v:
		o.Fail(t, c.override.at, "%s, want override %s", describe(), c.override.v)
	}
}
