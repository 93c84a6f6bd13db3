package expect

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"
)

// holders checks who holds a claim (a stored belief, any stage) at every
// tick of its range, among the NPCs in scope: the whole cast, or those
// resident (or not resident) in a hold. exactly and only are sets (order
// does not matter); exactly demands the holders in scope be that set, only
// that they be a subset of it; count demands their number.
//
// through demands that every piece of evidence of every holder in scope
// carries the named NPC in its chain: each evidence record is examined, not
// only the one that formed the belief. The named NPC is not through itself:
// its own belief is skipped. A witnessed record has an empty chain, so an
// eyewitness in scope fails it.
//
// It examines the NPCs in scope at each tick, or with through the evidence
// records it traced; scoped to a hold nobody lives in, or tracing nothing,
// it fails as checked nothing.
type holdersKind struct{}

func (holdersKind) Name() string   { return "holders" }
func (holdersKind) Timing() Timing { return AtEnd }
func (holdersKind) Doc() string {
	return "who holds a claim among the NPCs in scope (the cast, or residents of a hold); at the last tick unless timed"
}

type holdersCheck struct {
	claim                 string
	resident, notResident string
	exactly, only         []string // nil: unchecked
	exactlyAt, onlyAt     Pos
	count                 *posInt
	through               string
	throughAt             Pos
}

func (holdersKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	h := &holdersCheck{}
	d.Object(n, path,
		Field{Name: "claim", Required: true, Doc: "the claim held (a stored belief, any stage)", Decode: func(v *yaml.Node, p string) { h.claim = d.Claim(v, p) }},
		Field{Name: "resident", Doc: "scope: only NPCs resident in this hold", Decode: func(v *yaml.Node, p string) { h.resident = d.Hold(v, p) }},
		Field{Name: "not_resident", Doc: "scope: only NPCs not resident in this hold", Decode: func(v *yaml.Node, p string) { h.notResident = d.Hold(v, p) }},
		Field{Name: "exactly", Doc: "the holders in scope are exactly these, in any order", Decode: func(v *yaml.Node, p string) { h.exactly, h.exactlyAt = d.NPCList(v, p), PosOf(v) }},
		Field{Name: "only", Doc: "the holders in scope are among these", Decode: func(v *yaml.Node, p string) { h.only, h.onlyAt = d.NPCList(v, p), PosOf(v) }},
		Field{Name: "count", Doc: "how many hold it in scope", Decode: func(v *yaml.Node, p string) {
			if c, ok := d.Int(v, p); ok {
				h.count = &posInt{c, PosOf(v)}
			}
		}},
		Field{Name: "through", Doc: "every evidence record of every other holder in scope has this NPC in its chain", Decode: func(v *yaml.Node, p string) { h.through, h.throughAt = d.NPC(v, p), PosOf(v) }},
	)
	d.Needs(n, path, "holders needs at least one of exactly, only, count, through", "exactly", "only", "count", "through")
	return h
}

func (h *holdersCheck) Unit() string {
	if h.through != "" {
		return "evidence records of holders in scope"
	}
	return "NPCs in scope"
}

// Finish fails a denial — "nobody holds it" (count: 0, exactly: []) or
// "nobody outside these holds it" (only) — when the claim was not in the
// world at any checked tick: nobody could have held it, inside the set or
// out.
func (h *holdersCheck) Finish(o *Outcome) {
	if at, denies := h.denies(); denies && !o.Failed() && o.Examined > 0 && o.Candidates == 0 {
		o.couldNot(at, h.Unit(), fmt.Sprintf("claim %s was not in the world at any checked tick, so nobody could have held it", h.claim))
	}
}

// denies reports whether the check says who in scope does not hold the
// claim — nobody, or nobody outside only's set — and where.
func (h *holdersCheck) denies() (Pos, bool) {
	switch {
	case h.count != nil && h.count.v == 0:
		return h.count.at, true
	case h.exactly != nil && len(h.exactly) == 0:
		return h.exactlyAt, true
	case h.only != nil:
		return h.onlyAt, true
	}
	return Pos{}, false
}

func (h *holdersCheck) inScope(w World, npc string) bool {
	r := w.Resident(npc)
	return (h.resident == "" || r == h.resident) && (h.notResident == "" || r != h.notResident)
}

func (h *holdersCheck) AtTick(w World, o *Outcome) {
	t := w.Tick()
	scoped := 0
	for _, npc := range w.NPCs() {
		if h.inScope(w, npc) {
			scoped++
		}
	}
	if h.through == "" {
		o.Examine(int64(scoped))
	}
	if _, minted := w.Store().Claim(h.claim); minted {
		o.Candidates++
	}
	var got []string
	for _, npc := range w.Store().Holders(h.claim) {
		if h.inScope(w, npc) {
			got = append(got, npc)
		}
	}
	scope := "holders of " + h.claim
	if h.resident != "" {
		scope += " resident in " + h.resident
	}
	if h.notResident != "" {
		scope += " not resident in " + h.notResident
	}
	if h.through != "" && !h.checkThrough(w, o, got) {
		return
	}
	if h.count != nil && int64(len(got)) != h.count.v {
		o.Fail(t, h.count.at, "%d %s %s, want %d", len(got), scope, list(got), h.count.v)
		return
	}
	if h.exactly != nil {
		want := slices.Sorted(slices.Values(h.exactly))
		if !slices.Equal(got, want) {
			h.about(o, minus(want, got), minus(got, want))
			o.Fail(t, h.exactlyAt, "%s = %s, want exactly %s (missing %s, unexpected %s)", scope, list(got), list(want), list(minus(want, got)), list(minus(got, want)))
			return
		}
	}
	if h.only != nil {
		if extra := minus(got, h.only); len(extra) > 0 {
			h.about(o, nil, extra)
			o.Fail(t, h.onlyAt, "%s include %s, outside the allowed %s", scope, list(extra), list(h.only))
		}
	}
}

// throughRun is what one run of a through check has read: how many
// evidence records of each holder, and the first that broke it.
type throughRun struct {
	read   map[string]int
	broken string
}

// checkThrough examines every evidence record of every holder in scope
// but the through NPC itself. Evidence only accumulates, so each record is
// read once, at the first tick of the range that holds it; one that breaks
// the check breaks it at every later tick.
func (h *holdersCheck) checkThrough(w World, o *Outcome, holders []string) bool {
	st, _ := o.state.(*throughRun)
	if st == nil {
		st = &throughRun{read: map[string]int{}}
		o.state = st
	}
	if st.broken != "" {
		o.Fail(w.Tick(), h.throughAt, "%s", st.broken)
		return false
	}
	for _, npc := range holders {
		if npc == h.through {
			continue
		}
		b, _ := w.Store().Belief(npc, h.claim)
		for i := st.read[npc]; i < len(b.Evidence); i++ {
			ev := b.Evidence[i]
			o.Examine(1)
			st.read[npc] = i + 1
			if !slices.Contains(ev.Chain, h.through) {
				how := fmt.Sprintf("came by %s", list(ev.Chain))
				if len(ev.Chain) == 0 {
					how = "was " + string(ev.Type)
				}
				st.broken = fmt.Sprintf("%s's evidence[%d] for %s %s, not through %s", npc, i, h.claim, how, h.through)
				o.Fail(w.Tick(), h.throughAt, "%s", st.broken)
				return false
			}
		}
	}
	return true
}

// about names the first NPC a failed holders check is about: one who
// should hold the claim and does not (the page's "why not?" answer for
// it), else one who holds it and should not (its belief row).
func (h *holdersCheck) about(o *Outcome, missing, unexpected []string) {
	switch {
	case len(missing) > 0:
		o.About("whynot", missing[0]+":"+h.claim)
	case len(unexpected) > 0:
		o.About("belief", unexpected[0]+":"+h.claim)
	}
}
