package expect

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/jsonschema"
	"github.com/chronicle/ladder/sim/claims"
)

// provenance checks how every holder of a claim came by it, reading every
// evidence record of every holder at every tick of its range:
//
//   - by: encounter — every reported record came through a fired
//     encounter (its via is an encounter id), never the injection console
//     or anything else: news that spread by meetings only, never by
//     broadcast;
//
//   - witnessed: [a, …] — the holders with a witnessed record are exactly
//     this set (a set): the claim's only origins;
//
//   - not_through: npc — no record's chain holds npc: nobody heard it
//     through them, however far back.
//
//     provenance: {claim: "escalation@40:lucan:player", by: encounter, witnessed: [lucan]}
//
// It examines the evidence records of the claim's holders; a claim nobody
// holds in the range has checked nothing.
type provenanceKind struct{}

func (provenanceKind) Name() string   { return "provenance" }
func (provenanceKind) Timing() Timing { return AtEnd }
func (provenanceKind) Doc() string {
	return "how every holder of a claim came by it: by encounter only, its only eyewitnesses, never through an NPC; at the last tick unless timed"
}

type provenanceCheck struct {
	claim        string
	byEncounter  bool
	byAt         Pos
	witnessed    []string // a set; nil: unchecked
	witnessedAt  Pos
	notThrough   string
	notThroughAt Pos
}

// encounterVia is how an encounter's id, and so the via of evidence
// formed in one, begins (the id is its roll's key, purpose first).
const encounterVia = "encounter@"

func (provenanceKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &provenanceCheck{}
	d.Object(n, path,
		Field{Name: "claim", Required: true, Doc: "the claim", Decode: func(v *yaml.Node, p string) { c.claim = d.Claim(v, p) }},
		Field{Name: "by", Doc: "encounter: every reported record came through a fired encounter", Schema: jsonschema.Enum("encounter"), Decode: func(v *yaml.Node, p string) {
			switch s := d.Str(v, p); s {
			case "encounter":
				c.byEncounter, c.byAt = true, PosOf(v)
			case "":
			default:
				d.Errorf(v, p, "by: %q is not a way news travels here; the one checked is encounter", s)
			}
		}},
		Field{Name: "witnessed", Doc: "exactly the holders with a witnessed record, in any order: the claim's only origins", Decode: func(v *yaml.Node, p string) { c.witnessed, c.witnessedAt = d.NPCList(v, p), PosOf(v) }},
		Field{Name: "not_through", Doc: "no evidence record's chain holds this NPC", Decode: func(v *yaml.Node, p string) { c.notThrough, c.notThroughAt = d.NPC(v, p), PosOf(v) }},
	)
	d.Needs(n, path, "provenance needs at least one of by, witnessed, not_through", "by", "witnessed", "not_through")
	return c
}

func (c *provenanceCheck) Unit() string { return "evidence records of holders" }

// Finish fails not_through when its NPC never held the claim: only a
// holder can tell it on, so no chain could have held one who never did.
func (c *provenanceCheck) Finish(o *Outcome) {
	if c.notThrough != "" && !o.Failed() && o.Examined > 0 && o.Candidates == 0 {
		o.couldNot(c.notThroughAt, c.Unit(), fmt.Sprintf("%s held no belief in %s at any checked tick, so no evidence chain could have held them", c.notThrough, c.claim))
	}
}

func (c *provenanceCheck) AtTick(w World, o *Outcome) {
	t := w.Tick()
	if _, holds := w.Store().Belief(c.notThrough, c.claim); holds && c.notThrough != "" {
		o.Candidates++
	}
	var witnessed []string
	for _, h := range w.Store().Holders(c.claim) {
		b, _ := w.Store().Belief(h, c.claim)
		for i, ev := range b.Evidence {
			o.Examine(1)
			where := fmt.Sprintf("%s's evidence[%d] for %s", h, i, c.claim)
			switch {
			case ev.Type == claims.Witnessed:
				if !slices.Contains(witnessed, h) {
					witnessed = append(witnessed, h)
				}
			case c.byEncounter && !strings.HasPrefix(ev.Via, encounterVia):
				o.Fail(t, c.byAt, "%s came via %s, not an encounter", where, ev.Via)
				return
			}
			if c.notThrough != "" && slices.Contains(ev.Chain, c.notThrough) {
				o.Fail(t, c.notThroughAt, "%s came through %s (chain %s)", where, c.notThrough, list(ev.Chain))
				return
			}
		}
	}
	if c.witnessed != nil {
		want := slices.Sorted(slices.Values(c.witnessed))
		if !slices.Equal(witnessed, want) {
			o.Fail(t, c.witnessedAt, "holders of %s with witnessed evidence = %s, want exactly %s", c.claim, list(witnessed), list(want))
		}
	}
}
