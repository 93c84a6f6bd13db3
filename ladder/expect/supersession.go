package expect

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/jsonschema"
	"github.com/chronicle/ladder/sim/claims"
)

// supersession checks the store's own supersession records — the
// separate records variant resolution writes, naming loser and winner —
// rather than their echo in the trace: a resolution that traced the right
// thing but stored another (or nothing) fails here. A pattern names the
// holder and any of claim, loser, winner, kept, via and tick (the tick the
// contest happened); every field given must equal the record's. Without
// count, at least one record must match at every checked tick; with
// count, exactly that many.
//
//	supersession: {holder: hilde, loser: "theft@1#v1", winner: "theft@1#v0", kept: false}
//
// It examines each supersession record the store holds in its range once
// (records accumulate: one made at tick 10 is still there at tick 20, and
// counts there); with none at all, even count: 0 has checked nothing.
type supersessionKind struct{}

func (supersessionKind) Name() string   { return "supersession" }
func (supersessionKind) Timing() Timing { return AtEnd }
func (supersessionKind) Doc() string {
	return "the store's supersession records of a holder match a pattern (at least one, or count); at the last tick unless timed"
}

type supersessionCheck struct {
	holder, claim string
	loser, winner string
	via           *posString
	kept          *struct {
		v  bool
		at Pos
	}
	tick  *posInt
	count *posInt
	at    Pos
}

func (supersessionKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &supersessionCheck{at: PosOf(n)}
	d.Object(n, path,
		Field{Name: "holder", Required: true, Doc: "the holder who resolved the contest", Decode: func(v *yaml.Node, p string) { c.holder = d.NPC(v, p) }},
		Field{Name: "claim", Doc: "the claim contested", Decode: func(v *yaml.Node, p string) { c.claim = d.Claim(v, p) }},
		Field{Name: "loser", Doc: "the variant that lost", Decode: func(v *yaml.Node, p string) { c.loser = d.VariantID(v, p) }},
		Field{Name: "winner", Doc: "the variant that won", Decode: func(v *yaml.Node, p string) { c.winner = d.VariantID(v, p) }},
		Field{Name: "kept", Doc: "true when the holder's own variant won and the incoming one lost", Decode: func(v *yaml.Node, p string) {
			if b, ok := d.Bool(v, p); ok {
				c.kept = &struct {
					v  bool
					at Pos
				}{b, PosOf(v)}
			}
		}},
		Field{Name: "via", Doc: "what carried the contesting evidence (an encounter id, injected)", Decode: func(v *yaml.Node, p string) { c.via = &posString{d.Str(v, p), PosOf(v)} }},
		Field{Name: "tick", Doc: "the tick the contest happened", Decode: func(v *yaml.Node, p string) {
			if x, ok := d.Tick(v, p); ok {
				c.tick = &posInt{x, PosOf(v)}
			}
		}},
		Field{Name: "count", Doc: "exactly this many records match", Schema: (&jsonschema.Schema{}).Min(0), Decode: func(v *yaml.Node, p string) {
			if x, ok := d.Int(v, p); ok {
				if x < 0 {
					d.Errorf(v, p, "count must not be negative")
					return
				}
				c.count = &posInt{x, PosOf(v)}
			}
		}},
	)
	if c.loser != "" && c.loser == c.winner {
		d.Errorf(n, path, "loser and winner are both %s: a supersession names two different variants", c.loser)
	}
	return c
}

func (c *supersessionCheck) Unit() string    { return "supersession records in the store" }
func (c *supersessionCheck) Finish(*Outcome) {}

func (c *supersessionCheck) matches(s claims.Supersession) bool {
	return s.Holder == c.holder &&
		(c.claim == "" || s.Claim == c.claim) &&
		(c.loser == "" || s.Loser == c.loser) &&
		(c.winner == "" || s.Winner == c.winner) &&
		(c.kept == nil || s.Kept == c.kept.v) &&
		(c.via == nil || s.Via == c.via.v) &&
		(c.tick == nil || s.Tick == c.tick.v)
}

// AtTick counts the records matching the pattern. Records only
// accumulate, so each is read once, at the first tick of the range that
// holds it (o.state is how many have been read, o.Matched how many of
// those match): the check costs time linear in the run.
func (c *supersessionCheck) AtTick(w World, o *Outcome) {
	t, store := w.Tick(), w.Store()
	read, _ := o.state.(int)
	for ; read < store.SupersessionCount(); read++ {
		o.Examine(1)
		if c.matches(store.SupersessionAt(read)) {
			o.Matched++
		}
	}
	o.state = read
	switch n := o.Matched; {
	case c.count != nil && n != c.count.v:
		o.Fail(t, c.count.at, "%d supersession records match %s, want %d; the store holds %s", n, c.pattern(), c.count.v, describe(store.Supersessions()))
	case c.count == nil && n == 0:
		o.Fail(t, c.at, "no supersession record matches %s; the store holds %s", c.pattern(), describe(store.Supersessions()))
	}
}

// pattern spells the fields the check compares, in a fixed order.
func (c *supersessionCheck) pattern() string {
	parts := []string{"holder: " + c.holder}
	add := func(name, v string) {
		if v != "" {
			parts = append(parts, name+": "+v)
		}
	}
	add("claim", c.claim)
	add("loser", c.loser)
	add("winner", c.winner)
	if c.kept != nil {
		parts = append(parts, fmt.Sprintf("kept: %v", c.kept.v))
	}
	if c.via != nil {
		parts = append(parts, "via: "+c.via.v)
	}
	if c.tick != nil {
		parts = append(parts, fmt.Sprintf("tick: %d", c.tick.v))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// describe lists supersession records for a failure message, in the order
// the store made them.
func describe(records []claims.Supersession) string {
	if len(records) == 0 {
		return "none"
	}
	out := make([]string, len(records))
	for i, s := range records {
		out[i] = fmt.Sprintf("{holder: %s, claim: %s, loser: %s, winner: %s, kept: %v, via: %s, tick: %d}", s.Holder, s.Claim, s.Loser, s.Winner, s.Kept, s.Via, s.Tick)
	}
	return "[" + strings.Join(out, "; ") + "]"
}
