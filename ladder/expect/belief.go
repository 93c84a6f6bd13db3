package expect

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/jsonschema"
	"github.com/chronicle/ladder/sim/claims"
)

// belief checks one (holder, claim) belief at every tick of its range:
// that it exists (or, with absent: true, that it does not) and that each
// field given equals the belief's. Unset fields are not checked. It
// examines ticks.
//
//	belief: {holder: neighbor, claim: theft@2, confidence: 0.72, source_chain: [witness]}
type beliefKind struct{}

func (beliefKind) Name() string   { return "belief" }
func (beliefKind) Timing() Timing { return AtEnd }
func (beliefKind) Doc() string {
	return "a (holder, claim) belief exists (or absent: true) and each field given equals the belief's; at the last tick unless timed"
}

type beliefCheck struct {
	holder, claim string
	at            Pos // of the body, for "does not exist"
	absent        *Pos

	confidence, verbatim, gist *Number
	stage, variant             *posString
	sources                    *posInt
	sourceChain                []string // a sequence: order matters
	sourceChainAt              *Pos
	evidence                   []evidenceExpect
	evidenceAt                 *Pos
	slots                      []SlotValue
}

// stages are the rumour stages a belief can be in; evidenceTypes how
// evidence is come by: the engine's lists (claims.Stages,
// claims.EvidenceTypes), as text.
var (
	stages        = texts(claims.Stages())
	evidenceTypes = texts(claims.EvidenceTypes())
)

// texts spells a list of string-typed values as strings.
func texts[S ~string](vs []S) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

type posString struct {
	v  string
	at Pos
}

type posInt struct {
	v  int64
	at Pos
}

// evidenceExpect is one expected evidence record; unset fields match
// anything. The list matches the belief's evidence one to one, in order.
type evidenceExpect struct {
	at      Pos
	typ     *posString
	source  *posString
	via     *posString
	tick    *posInt
	counted *struct {
		v  bool
		at Pos
	}
}

func (beliefKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	b := &beliefCheck{at: PosOf(n)}
	str := func(dst **posString) func(*yaml.Node, string) {
		return func(v *yaml.Node, p string) { *dst = &posString{d.Str(v, p), PosOf(v)} }
	}
	// checks are the fields absent: true cannot stand beside.
	var checks []string
	counted := func(f Field) Field {
		checks = append(checks, f.Name)
		return f
	}
	d.Object(n, path,
		Field{Name: "holder", Required: true, Doc: "who holds the belief", Decode: func(v *yaml.Node, p string) { b.holder = d.NPC(v, p) }},
		Field{Name: "claim", Required: true, Doc: "the claim believed", Decode: func(v *yaml.Node, p string) { b.claim = d.Claim(v, p) }},
		Field{Name: "absent", Doc: "true: the belief does not exist (no other field may be given)", Decode: func(v *yaml.Node, p string) {
			if x, ok := d.Bool(v, p); ok && !x {
				d.Errorf(v, p, "absent: false checks nothing; remove it")
			}
			at := PosOf(v)
			b.absent = &at
		}},
		counted(Field{Name: "confidence", Doc: "the belief's confidence, bit for bit", Decode: func(v *yaml.Node, p string) { b.confidence = d.Number(v, p) }}),
		counted(Field{Name: "verbatim", Doc: "its verbatim strength as of the tick, bit for bit", Decode: func(v *yaml.Node, p string) { b.verbatim = d.Number(v, p) }}),
		counted(Field{Name: "gist", Doc: "its gist strength as of the tick, bit for bit", Decode: func(v *yaml.Node, p string) { b.gist = d.Number(v, p) }}),
		counted(Field{Name: "stage", Doc: "its rumour stage as of the tick", Schema: jsonschema.Enum(stages...), Decode: func(v *yaml.Node, p string) {
			switch s := d.Str(v, p); {
			case slices.Contains(stages, s):
				b.stage = &posString{s, PosOf(v)}
			case s != "":
				d.Errorf(v, p, "unknown stage %q%s (%s)", s, d.Suggest(s, stages), strings.Join(stages, ", "))
			}
		}}),
		counted(Field{Name: "variant", Doc: "the variant it holds", Decode: func(v *yaml.Node, p string) { b.variant = &posString{d.VariantID(v, p), PosOf(v)} }}),
		counted(Field{Name: "sources", Doc: "how many distinct origins count towards its confidence", Schema: (&jsonschema.Schema{}).Min(0), Decode: func(v *yaml.Node, p string) {
			if x, ok := d.Int(v, p); ok {
				b.sources = &posInt{x, PosOf(v)}
			}
		}}),
		counted(Field{Name: "source_chain", Doc: "the chain of the evidence that formed it, oldest first, ending with the teller ([] for an eyewitness)", Decode: func(v *yaml.Node, p string) {
			b.sourceChain = d.NPCList(v, p)
			at := PosOf(v)
			b.sourceChainAt = &at
		}}),
		counted(Field{Name: "evidence", Doc: "its evidence records, one to one and in order; fields left out match anything", Decode: func(v *yaml.Node, p string) {
			at := PosOf(v)
			b.evidenceAt = &at
			b.evidence = []evidenceExpect{}
			d.List(v, p, func(_ int, ev *yaml.Node, ep string) {
				e := evidenceExpect{at: PosOf(ev)}
				d.Object(ev, ep,
					Field{Name: "type", Doc: "how it was come by", Schema: jsonschema.Enum(evidenceTypes...), Decode: func(x *yaml.Node, xp string) {
						s := d.Str(x, xp)
						if s != "" && !slices.Contains(evidenceTypes, s) {
							d.Errorf(x, xp, "evidence type is %s, got %q%s", strings.Join(evidenceTypes, " or "), s, d.Suggest(s, evidenceTypes))
						}
						e.typ = &posString{s, PosOf(x)}
					}},
					Field{Name: "source", Doc: "the teller (none for a witnessed record)", Decode: func(x *yaml.Node, xp string) { e.source = &posString{d.NPC(x, xp), PosOf(x)} }},
					Field{Name: "via", Doc: "what carried it: the event id for a witness, the encounter id for testimony, injected for a fixture's report", Decode: str(&e.via)},
					Field{Name: "tick", Doc: "when it was formed", Decode: func(x *yaml.Node, xp string) {
						if t, ok := d.Tick(x, xp); ok {
							e.tick = &posInt{t, PosOf(x)}
						}
					}},
					Field{Name: "counted", Doc: "whether it raised confidence (formed or corroborated the belief)", Decode: func(x *yaml.Node, xp string) {
						if c, ok := d.Bool(x, xp); ok {
							e.counted = &struct {
								v  bool
								at Pos
							}{c, PosOf(x)}
						}
					}},
				)
				b.evidence = append(b.evidence, e)
			})
		}}),
		counted(Field{Name: "slots", Doc: "slots of the variant it holds", Decode: func(v *yaml.Node, p string) { b.slots = d.SlotValues(v, p, d.ClaimKind(b.claim)) }}),
	)
	d.Exclusive(n, path, "absent: true cannot be combined with checks of the belief's fields", []string{"absent"}, checks)
	return b
}

func (b *beliefCheck) Unit() string { return "ticks" }

// Finish fails an absence that could not have matched: a belief in a
// claim that was nowhere in the world at any checked tick.
func (b *beliefCheck) Finish(o *Outcome) {
	if b.absent != nil && !o.Failed() && o.Examined > 0 && o.Candidates == 0 {
		o.couldNot(*b.absent, b.Unit(), fmt.Sprintf("claim %s was not in the world at any checked tick, so nobody could have held it", b.claim))
	}
}

func (b *beliefCheck) AtTick(w World, o *Outcome) {
	o.Examine(1)
	t := w.Tick()
	bel, ok := w.Store().Belief(b.holder, b.claim)
	name := fmt.Sprintf("belief(%s, %s)", b.holder, b.claim)
	if b.absent != nil {
		if _, minted := w.Store().Claim(b.claim); minted {
			o.Candidates++
		}
		if ok {
			o.Fail(t, *b.absent, "%s exists (variant %s, confidence %s), want none", name, bel.Variant, formatFloat(bel.Confidence))
		}
		return
	}
	if !ok {
		o.Fail(t, b.at, "%s does not exist", name)
		return
	}
	m := w.Store().Memory()
	if !b.confidence.compare(w, o, name+".confidence", bel.Confidence) ||
		!b.verbatim.compare(w, o, name+".verbatim", bel.VerbatimAt(t, m)) ||
		!b.gist.compare(w, o, name+".gist", bel.GistAt(t, m)) {
		return
	}
	switch got := string(bel.StageAt(t, m)); {
	case b.stage != nil && got != b.stage.v:
		o.Fail(t, b.stage.at, "%s.stage = %s, want %s", name, got, b.stage.v)
	case b.variant != nil && bel.Variant != b.variant.v:
		o.Fail(t, b.variant.at, "%s.variant = %s, want %s", name, bel.Variant, b.variant.v)
	case b.sources != nil && int64(len(bel.Origins)) != b.sources.v:
		o.Fail(t, b.sources.at, "%s.sources = %d %v, want %d", name, len(bel.Origins), bel.Origins, b.sources.v)
	case b.sourceChainAt != nil && !slices.Equal(bel.SourceChain(), b.sourceChain):
		o.Fail(t, *b.sourceChainAt, "%s.source_chain = %s, want %s", name, list(bel.SourceChain()), list(b.sourceChain))
	case b.evidenceAt != nil && !b.checkEvidence(t, o, name, bel.Evidence):
	case b.slots != nil:
		v, _ := w.Store().Variant(bel.Variant)
		checkSlots(t, o, name+" slots", v.Slots, b.slots)
	}
}

func (b *beliefCheck) checkEvidence(t int64, o *Outcome, name string, got []claims.Evidence) bool {
	if len(got) != len(b.evidence) {
		o.Fail(t, *b.evidenceAt, "%s has %d evidence records %s, want %d", name, len(got), showEvidence(got), len(b.evidence))
		return false
	}
	for i, w := range b.evidence {
		g := got[i]
		mismatch := func(at Pos, field, gv, wv string) bool {
			o.Fail(t, at, "%s.evidence[%d].%s = %s, want %s", name, i, field, gv, wv)
			return false
		}
		switch {
		case w.typ != nil && string(g.Type) != w.typ.v:
			return mismatch(w.typ.at, "type", string(g.Type), w.typ.v)
		case w.source != nil && g.Source != w.source.v:
			return mismatch(w.source.at, "source", g.Source, w.source.v)
		case w.via != nil && g.Via != w.via.v:
			return mismatch(w.via.at, "via", g.Via, w.via.v)
		case w.tick != nil && g.Tick != w.tick.v:
			return mismatch(w.tick.at, "tick", fmt.Sprint(g.Tick), fmt.Sprint(w.tick.v))
		case w.counted != nil && g.Counted != w.counted.v:
			return mismatch(w.counted.at, "counted", fmt.Sprint(g.Counted), fmt.Sprint(w.counted.v))
		}
	}
	return true
}

func showEvidence(evs []claims.Evidence) string {
	parts := make([]string, len(evs))
	for i, ev := range evs {
		parts[i] = fmt.Sprintf("%s@%d", ev.Type, ev.Tick)
		if ev.Source != "" {
			parts[i] += " from " + ev.Source
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// checkSlots checks expected slots against a variant's, in the order the
// fixture gives them.
func checkSlots(t int64, o *Outcome, name string, got claims.Slots, want []SlotValue) {
	for _, w := range want {
		s, ok := got.Get(w.Slot)
		switch {
		case !ok:
			o.Fail(t, w.Pos, "%s: no slot %q", name, w.Slot)
			return
		case s.Value != w.Value:
			o.Fail(t, w.Pos, "%s: %s = %s, want %s", name, w.Slot, s.Value, w.Value)
			return
		}
	}
}
