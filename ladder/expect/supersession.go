package expect

import (
	"fmt"
	"slices"
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

func (c *supersessionCheck) Unit() string { return "supersession records in the store" }

// supersessionRun is what one run of the check has read: how many of the
// store's records, and, for a count of none, what in the store could
// have matched the pattern.
type supersessionRun struct {
	read int
	// held: the holder held a belief in the pattern's claim (any claim
	// when it names none) at some checked tick; variants: every variant
	// it names was in the store at one; via: some record read came via
	// the pattern's via.
	held, variants, via bool
}

// Finish fails a count of none that could not have matched: a holder who
// held no belief the pattern is about (only a holder has contests), a
// variant never in the store, or a via no record came by.
func (c *supersessionCheck) Finish(o *Outcome) {
	st, _ := o.state.(*supersessionRun)
	if c.count == nil || c.count.v != 0 || o.Failed() || o.Examined == 0 || st == nil {
		return
	}
	switch claim := c.about(); {
	case !st.held && claim != "":
		o.couldNot(c.count.at, c.Unit(), fmt.Sprintf("%s held no belief in %s at any checked tick, so they had no contest of it", c.holder, claim))
	case !st.held:
		o.couldNot(c.count.at, c.Unit(), fmt.Sprintf("%s held no belief at any checked tick, so they had no contest", c.holder))
	case !st.variants:
		o.couldNot(c.count.at, c.Unit(), fmt.Sprintf("a variant the pattern names (%s) was not in the store at any checked tick, so no contest could have named it", strings.Join(c.variantIDs(), ", ")))
	case !st.via:
		o.couldNot(c.via.at, c.Unit(), fmt.Sprintf("no supersession record in the range came via %q, so the pattern names nothing the run wrote", c.via.v))
	}
}

// about is the claim the pattern is about: its claim, or its loser's or
// winner's; "" when it names none.
func (c *supersessionCheck) about() string {
	for _, id := range []string{c.claim, c.loser, c.winner} {
		if claim, _, _ := strings.Cut(id, "#v"); claim != "" {
			return claim
		}
	}
	return ""
}

// variantIDs are the variants the pattern names.
func (c *supersessionCheck) variantIDs() []string {
	var out []string
	for _, id := range []string{c.loser, c.winner} {
		if id != "" {
			out = append(out, id)
		}
	}
	return out
}

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
// holds it (o.state holds how many have been read, o.Matched how many of
// those match): the check costs time linear in the run.
func (c *supersessionCheck) AtTick(w World, o *Outcome) {
	t, store := w.Tick(), w.Store()
	st, _ := o.state.(*supersessionRun)
	if st == nil {
		st = &supersessionRun{via: c.via == nil}
		o.state = st
	}
	for ; st.read < store.SupersessionCount(); st.read++ {
		o.Examine(1)
		s := store.SupersessionAt(st.read)
		if c.matches(s) {
			o.Matched++
		}
		if c.via != nil && s.Via == c.via.v {
			st.via = true
		}
	}
	if claim := c.about(); claim != "" {
		_, held := store.Belief(c.holder, claim)
		st.held = st.held || held
	} else {
		st.held = st.held || len(store.BeliefsOf(c.holder)) > 0
	}
	if !st.variants {
		st.variants = !slices.ContainsFunc(c.variantIDs(), func(id string) bool {
			_, ok := store.Variant(id)
			return !ok
		})
	}
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
