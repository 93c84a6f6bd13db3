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
// evidence record of every holder in its range:
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
// Evidence only accumulates (a belief is never dropped and its records
// never change), so each record is read once, at the first tick of the
// range that holds it, and what it showed is kept: the check costs time
// linear in the run, not in the run times the evidence (a 200,000-tick
// copy of T3.4 spent two thirds of its time re-reading old records every
// tick). It examines the evidence records of the claim's holders; a claim
// nobody holds in the range has checked nothing.
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
// holder can tell it on, so no chain could have held one who never did;
// and by: encounter when no record was reported: "never by broadcast" is
// said only of news that was told.
func (c *provenanceCheck) Finish(o *Outcome) {
	if o.Failed() || o.Examined == 0 {
		return
	}
	st, _ := o.state.(*provenanceRun)
	switch {
	case c.notThrough != "" && o.Candidates == 0:
		o.couldNot(c.notThroughAt, c.Unit(), fmt.Sprintf("%s held no belief in %s at any checked tick, so no evidence chain could have held them", c.notThrough, c.claim))
	case c.byEncounter && (st == nil || st.reported == 0):
		o.couldNot(c.byAt, c.Unit(), fmt.Sprintf("no holder came by %s through a report in the range (every record was witnessed), so there was no report to have come another way than an encounter", c.claim))
	}
}

// provenanceRun is what one run of the check has read so far: how many
// records of each holder, the holders with a witnessed record, and the
// first record that broke it, which stays broken at every later tick.
type provenanceRun struct {
	read      map[string]int
	witnessed []string // sorted
	reported  int64    // records read that were reported: what by: encounter examines
	broken    *struct {
		at  Pos
		msg string
	}
}

func (c *provenanceCheck) AtTick(w World, o *Outcome) {
	t := w.Tick()
	if _, holds := w.Store().Belief(c.notThrough, c.claim); holds && c.notThrough != "" {
		o.Candidates++
	}
	st, _ := o.state.(*provenanceRun)
	if st == nil {
		st = &provenanceRun{read: map[string]int{}}
		o.state = st
	}
	if b := st.broken; b != nil {
		o.Fail(t, b.at, "%s", b.msg)
		return
	}
	for _, h := range w.Store().Holders(c.claim) {
		b, _ := w.Store().Belief(h, c.claim)
		for i := st.read[h]; i < len(b.Evidence); i++ {
			ev := b.Evidence[i]
			o.Examine(1)
			st.read[h] = i + 1
			where := func() string { return fmt.Sprintf("%s's evidence[%d] for %s", h, i, c.claim) }
			if ev.Type == claims.Reported {
				st.reported++
			}
			switch {
			case ev.Type == claims.Witnessed:
				if j, found := slices.BinarySearch(st.witnessed, h); !found {
					st.witnessed = slices.Insert(st.witnessed, j, h)
				}
			case c.byEncounter && !strings.HasPrefix(ev.Via, encounterVia):
				c.breaks(st, o, t, c.byAt, "%s came via %s, not an encounter", where(), ev.Via)
				return
			}
			if c.notThrough != "" && slices.Contains(ev.Chain, c.notThrough) {
				c.breaks(st, o, t, c.notThroughAt, "%s came through %s (chain %s)", where(), c.notThrough, list(ev.Chain))
				return
			}
		}
	}
	if c.witnessed != nil {
		want := slices.Sorted(slices.Values(c.witnessed))
		if !slices.Equal(st.witnessed, want) {
			o.Fail(t, c.witnessedAt, "holders of %s with witnessed evidence = %s, want exactly %s", c.claim, list(st.witnessed), list(want))
		}
	}
}

// breaks records the first record that breaks the check: it fails now and
// at every later tick of the range, as the record stays.
func (c *provenanceCheck) breaks(st *provenanceRun, o *Outcome, t int64, at Pos, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	st.broken = &struct {
		at  Pos
		msg string
	}{at, msg}
	o.Fail(t, at, "%s", msg)
}
