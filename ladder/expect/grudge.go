package expect

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/jsonschema"
	"github.com/chronicle/ladder/sim/social"
)

// grudge checks one holder's grudge against one target at every tick of
// its range: that it exists (or, with absent: true, that it does not) and
// that each field given holds — emotional and evidentiary strengths as of
// the tick (numbers or expressions, bit for bit), settled, the causes in
// the order they caused or reinforced it (a sequence), and, with
// emotional_above_evidentiary: true, that it is felt more than proven
// (emotional > evidentiary, strictly). It examines ticks.
//
//	from: 2
//	grudge: {holder: loser, target: player, emotional_above_evidentiary: true}
//
// With count instead of a holder and a target, it counts the grudges (of
// the holder, or against the target, when either is given) and examines
// every NPC as a potential holder at each tick, so count: 0 in a world
// with a cast always looks at something.
//
//	grudge: {count: 1}
type grudgeKind struct{}

func (grudgeKind) Name() string   { return "grudge" }
func (grudgeKind) Timing() Timing { return AtEnd }
func (grudgeKind) Doc() string {
	return "one holder's grudge against a target (or absent: true), or with count the number of grudges; at the last tick unless timed"
}

type grudgeCheck struct {
	holder, target         string
	at                     Pos
	absent                 *Pos
	emotional, evidentiary *Number
	above                  *Pos
	settled                *struct {
		v  bool
		at Pos
	}
	causes   []string
	causesAt *Pos
	count    *posInt
}

func (grudgeKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &grudgeCheck{at: PosOf(n)}
	// checks are the fields of one grudge, which neither count nor
	// absent: true can stand beside.
	var checks []string
	counted := func(f Field) Field {
		checks = append(checks, f.Name)
		return f
	}
	d.Object(n, path,
		Field{Name: "holder", Doc: "who holds the grudge", Decode: func(v *yaml.Node, p string) { c.holder = d.NPC(v, p) }},
		Field{Name: "target", Doc: "whom it is against", Decode: func(v *yaml.Node, p string) { c.target = d.Entity(v, p) }},
		Field{Name: "absent", Doc: "true: no such grudge (no other check may be given)", Decode: func(v *yaml.Node, p string) {
			if x, ok := d.Bool(v, p); ok && !x {
				d.Errorf(v, p, "absent: false checks nothing; remove it")
			}
			at := PosOf(v)
			c.absent = &at
		}},
		counted(Field{Name: "emotional", Doc: "its emotional strength as of the tick, bit for bit", Decode: func(v *yaml.Node, p string) { c.emotional = d.Number(v, p) }}),
		counted(Field{Name: "evidentiary", Doc: "its evidentiary strength as of the tick, bit for bit", Decode: func(v *yaml.Node, p string) { c.evidentiary = d.Number(v, p) }}),
		counted(Field{Name: "emotional_above_evidentiary", Doc: "true: felt more than proven (emotional > evidentiary, strictly)", Decode: func(v *yaml.Node, p string) {
			if x, ok := d.Bool(v, p); ok && !x {
				d.Errorf(v, p, "emotional_above_evidentiary: false checks nothing; compare the strengths with emotional and evidentiary")
			}
			at := PosOf(v)
			c.above = &at
		}}),
		counted(Field{Name: "settled", Doc: "whether it is settled (its total strength below the grudge_settled define) and no longer acts", Decode: func(v *yaml.Node, p string) {
			if x, ok := d.Bool(v, p); ok {
				c.settled = &struct {
					v  bool
					at Pos
				}{x, PosOf(v)}
			}
		}}),
		counted(Field{Name: "causes", Doc: "the claims that caused or reinforced it, in that order", Decode: func(v *yaml.Node, p string) {
			c.causes = []string{}
			d.List(v, p, func(_ int, x *yaml.Node, xp string) {
				if id := d.Claim(x, xp); id != "" {
					c.causes = append(c.causes, id)
				}
			})
			at := PosOf(v)
			c.causesAt = &at
		}}),
		Field{Name: "count", Doc: "instead of holder and target, or with one of them: how many grudges there are (of the holder, against the target)", Schema: (&jsonschema.Schema{}).Min(0), Decode: func(v *yaml.Node, p string) {
			if x, ok := d.Int(v, p); ok {
				if x < 0 {
					d.Errorf(v, p, "count must not be negative")
				}
				c.count = &posInt{x, PosOf(v)}
			}
		}},
	)
	// Each Exclusive is called until one refuses (when generating the
	// schema, every one is: none refuses there).
	switch {
	case d.Exclusive(n, path, "count counts grudges; check one grudge's fields or absence in an expectation of its own", []string{"count"}, append(checks, "absent")):
	case d.Exclusive(n, path, "absent: true cannot be combined with checks of the grudge's fields", []string{"absent"}, checks):
	case d.Needs(n, path, "a grudge is named by its holder and its target (or give count)", "holder and target", "count"):
	}
	return c
}

func (c *grudgeCheck) Unit() string {
	if c.count != nil {
		return "NPCs (as holders)"
	}
	return "ticks"
}

// Finish fails a grudge's absence, or a count of none, in a world with
// no source of grudges.
func (c *grudgeCheck) Finish(o *Outcome) {
	switch {
	case o.Failed() || o.Examined == 0:
	case c.absent != nil:
		o.needSource(*c.absent, c.Unit(), "grudges")
	case c.count != nil && c.count.v == 0:
		o.needSource(c.count.at, c.Unit(), "grudges")
	}
}

func (c *grudgeCheck) AtTick(w World, o *Outcome) {
	t := w.Tick()
	if c.count != nil {
		o.Examine(int64(len(w.NPCs())))
		var got []string
		for _, g := range w.Grudges().All() {
			if (c.holder == "" || g.Holder == c.holder) && (c.target == "" || g.Target == c.target) {
				got = append(got, g.Holder+"->"+g.Target)
			}
		}
		if int64(len(got)) != c.count.v {
			o.Fail(t, c.count.at, "%d grudges%s %s, want %d", len(got), c.scope(), list(got), c.count.v)
		}
		return
	}
	o.Examine(1)
	name := fmt.Sprintf("grudge(%s, %s)", c.holder, c.target)
	g, ok := w.Grudges().Get(c.holder, c.target)
	cv := w.Grudges().Curves()
	if c.absent != nil {
		if ok {
			o.Fail(t, *c.absent, "%s exists (emotional %s, evidentiary %s, causes %s), want none", name,
				formatFloat(g.EmotionalAt(t, cv)), formatFloat(g.EvidentiaryAt(t, cv)), list(g.Causes))
		}
		return
	}
	if !ok {
		o.Fail(t, c.at, "%s does not exist%s", name, others(w.Grudges()))
		return
	}
	e, v := g.EmotionalAt(t, cv), g.EvidentiaryAt(t, cv)
	if !c.emotional.compare(w, o, name+".emotional", e) || !c.evidentiary.compare(w, o, name+".evidentiary", v) {
		return
	}
	switch {
	case c.above != nil && !(e > v):
		o.Fail(t, *c.above, "%s.emotional = %s is not above its evidentiary %s", name, formatFloat(e), formatFloat(v))
	case c.settled != nil && g.SettledAt(t, cv) != c.settled.v:
		o.Fail(t, c.settled.at, "%s.settled = %v (total %s, settled below %s), want %v", name, !c.settled.v, formatFloat(float64(e+v)), formatFloat(cv.Settled), c.settled.v)
	case c.causesAt != nil && !slices.Equal(g.Causes, c.causes):
		o.Fail(t, *c.causesAt, "%s.causes = %s, want %s", name, list(g.Causes), list(c.causes))
	}
}

func (c *grudgeCheck) scope() string {
	switch {
	case c.holder != "" && c.target != "":
		return " of " + c.holder + " against " + c.target
	case c.holder != "":
		return " of " + c.holder
	case c.target != "":
		return " against " + c.target
	}
	return ""
}

// others lists the grudges that do exist, for a "does not exist" message.
func others(gs *social.Grudges) string {
	var all []string
	for _, g := range gs.All() {
		all = append(all, g.Holder+"->"+g.Target)
	}
	return " (grudges: " + list(all) + ")"
}
