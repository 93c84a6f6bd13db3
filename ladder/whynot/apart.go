package whynot

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// spreadKey names a claim's spread over a window of ticks, without one
// NPC (the one asked about, when it held the claim once: a forgotten
// rumour is no holder's company).
type spreadKey struct {
	claim, without int32
	from, to       int64
}

// spread is where a claim's holders were over a window of ticks: each
// place with the ticks some holder was there and who.
type spread struct {
	places  []presence // by place name
	holders []int32    // sorted: every holder at a place at some tick
	nowhere []int32    // sorted: holders alive over the window and never at a place
	holds   []string   // the holds of their places, sorted; roads have none
}

// presence is who was at one place, and when.
type presence struct {
	place   int32
	spans   []span  // sorted, apart
	holders []int32 // sorted, each once
}

// maxSpreads bounds the spreads kept between questions.
const maxSpreads = 4096

// spreadOf is where claim c's holders were from tick from to tick to: a
// holder from the tick it could first tell it (the tick after a telling
// formed its belief, the tick a witness saw the event), alive, at a place.
func (r *Run) spreadOf(c, without int32, from, to int64) *spread {
	k := spreadKey{claim: c, without: without, from: from, to: to}
	if s := r.spreads[k]; s != nil {
		return s
	}
	if len(r.spreads) > maxSpreads {
		clear(r.spreads) // a page asks every tick in turn: keep the cache a cache
	}
	at := map[int32]*presence{}
	s := &spread{}
	for _, h := range r.holders[c] {
		p := r.pairs[[2]int32{h, c}]
		if h == without || p.formed == nil {
			continue
		}
		was, alive := false, false
		for _, st := range r.staysIn(h, max(from, start(p.formed)), to) {
			if !st.alive {
				continue
			}
			alive = true
			if st.loc < 0 {
				continue
			}
			pr := at[st.loc]
			if pr == nil {
				pr = &presence{place: st.loc}
				at[st.loc] = pr
			}
			pr.spans = append(pr.spans, st.span)
			pr.holders = append(pr.holders, h)
			was = true
		}
		switch {
		case was:
			s.holders = append(s.holders, h)
		case alive:
			s.nowhere = append(s.nowhere, h)
		}
	}
	for _, pr := range at {
		pr.spans = merged(pr.spans)
		slices.Sort(pr.holders)
		pr.holders = slices.Compact(pr.holders)
		s.places = append(s.places, *pr)
	}
	slices.SortFunc(s.places, func(a, b presence) int { return cmp.Compare(r.places.list[a.place], r.places.list[b.place]) })
	for _, pr := range s.places {
		s.holds = append(s.holds, r.holdOf(pr.place))
	}
	s.holds = holdSet(s.holds)
	r.spreads[k] = s
	return s
}

// start is the first tick a holder could tell what it formed: the tick
// after a telling in an encounter formed it, the tick itself when it
// witnessed the event or a fixture report told it, before the encounters.
func start(fm *formation) int64 {
	if t := fm.told; t != nil && t.via != "injected" {
		return fm.tick + 1
	}
	return fm.tick
}

// whereabouts are the places an NPC was at while alive over a window,
// each with its spans there, in order of its first visit.
func (r *Run) whereabouts(x int32, from, to int64) []presence {
	var out []presence
	for _, st := range r.staysIn(x, from, to) {
		if !st.alive || st.loc < 0 {
			continue
		}
		i := slices.IndexFunc(out, func(p presence) bool { return p.place == st.loc })
		if i < 0 {
			out = append(out, presence{place: st.loc})
			i = len(out) - 1
		}
		out[i].spans = append(out[i].spans, st.span)
	}
	return out
}

// noChance says why an NPC, alive and without the rumour, had no chance
// to hear it over a window: nobody held it, it was nowhere, it was in
// another hold than every holder, or it never shared a place with one.
func (r *Run) noChance(x, c int32, from, to int64) (Cause, Line, []Line) {
	without := int32(-1)
	if slices.Contains(r.holders[c], x) {
		without = x
	}
	s := r.spreadOf(c, without, from, to)
	if len(s.holders)+len(s.nowhere) == 0 {
		return r.noHolder(x, c, from, to)
	}
	npc := r.npcs.list[x]
	mine := r.whereabouts(x, from, to)
	if len(mine) == 0 {
		return Nowhere, Line{Tick: from, Text: fmt.Sprintf("%s was nowhere — at no location (dense.csv: %s/at is empty) — at every tick it was alive since tick %d, so it could meet no one", npc, npc, from)},
			[]Line{r.holdersLine(c, s, from)}
	}
	if len(s.holders) == 0 {
		return Apart, Line{Tick: from, Text: fmt.Sprintf("%s never shared a place with a holder of %s since tick %d: every holder (%s) was nowhere — at no location (dense.csv: each NPC's /at is empty)",
			npc, r.claims.list[c], from, r.npcList(s.nowhere))}, nil
	}
	var holds []string
	for _, p := range mine {
		holds = append(holds, r.holdOf(p.place))
	}
	holds = holdSet(holds)
	if len(holds) > 0 && len(s.holds) > 0 && !slices.ContainsFunc(holds, func(h string) bool { return slices.Contains(s.holds, h) }) {
		return r.border(x, c, from, to, mine, holds, s)
	}
	return r.apart(x, c, from, mine, s)
}

// apart answers for an NPC who shared a hold with holders but never a
// place at a tick: where it was, and where it was when holders were at
// its places.
func (r *Run) apart(x, c int32, from int64, mine []presence, s *spread) (Cause, Line, []Line) {
	npc := r.npcs.list[x]
	summary := Line{Tick: from, Text: fmt.Sprintf("%s never shared a place with a holder of %s since tick %d: it was at %s; the %s were at %s (dense.csv: each NPC's /at)",
		npc, r.claims.list[c], from, r.placeList(mine), plural(len(s.holders), "holder"), r.placeList(s.places))}
	var lines []Line
	for _, p := range mine {
		where := r.places.list[p.place]
		i := slices.IndexFunc(s.places, func(q presence) bool { return q.place == p.place })
		first := p.spans[0].from
		if i < 0 {
			lines = append(lines, Line{Tick: first, Text: fmt.Sprintf("tick %d: %s was at %s for the first time since tick %d; no holder has been there since", first, npc, where, from)})
			continue
		}
		q := s.places[i]
		var then []string
		for _, sp := range q.spans {
			for _, st := range r.staysIn(x, sp.from, sp.to) {
				then = append(then, r.placeName(st.loc))
			}
		}
		slices.Sort(then)
		lines = append(lines, Line{Tick: q.spans[len(q.spans)-1].to, Text: fmt.Sprintf("%s: holders were at %s (%s), while %s was at %s (dense.csv: each NPC's /at)",
			spell(q.spans), where, r.npcList(q.holders), npc, strings.Join(slices.Compact(then), ", "))})
	}
	slices.SortStableFunc(lines, func(a, b Line) int { return cmp.Compare(b.Tick, a.Tick) })
	return Apart, summary, lines
}

// noHolder answers for a claim nobody alive held over the window: its
// holders were dead by then, it was formed only later, its witnesses
// formed nothing, or nobody witnessed it at all.
func (r *Run) noHolder(x, c int32, from, to int64) (Cause, Line, []Line) {
	claim := r.claims.list[c]
	head := fmt.Sprintf("nobody held %s alive since tick %d", claim, from)
	var dead, later []int32
	for _, h := range r.holders[c] {
		if p := r.pairs[[2]int32{h, c}]; h != x && p.formed != nil {
			if start(p.formed) <= to {
				dead = append(dead, h)
			} else {
				later = append(later, h)
			}
		}
	}
	mint := r.mints[c]
	switch {
	case len(dead) > 0:
		var lines []Line
		for _, h := range dead {
			d := r.deathOf(h, r.deathTickFrom(h, int(to-r.first)))
			lines = append(lines, Line{Tick: d.tick, Trace: d.line, Text: fmt.Sprintf("tick %d: %s died%s", d.tick, d.npc, d)})
		}
		return NoHolder, Line{Tick: from, Text: fmt.Sprintf("%s: everyone who had heard it (%s) was dead", head, r.npcList(dead))}, lines
	case len(later) > 0:
		first := later[0]
		for _, h := range later[1:] {
			if r.pairs[[2]int32{h, c}].formed.line < r.pairs[[2]int32{first, c}].formed.line {
				first = h
			}
		}
		fm := r.pairs[[2]int32{first, c}].formed
		return NoHolder, Line{Tick: fm.tick, Trace: fm.line, Text: fmt.Sprintf("%s: its first holder, %s, formed it only at tick %d, and could tell it from tick %d", head, r.npcs.list[first], fm.tick, start(fm))}, nil
	}
	for _, w := range r.witnessed[c] {
		if !w.fired && w.tick <= to {
			return NoHolder, Line{Tick: w.tick, Trace: w.line, Text: fmt.Sprintf("%s: its witness %s formed nothing: %s: %s", head, r.npcs.list[w.other], w.name, w.reason)}, nil
		}
	}
	return NoHolder, Line{Tick: mint.tick, Trace: mint.line, Text: fmt.Sprintf("%s: nobody witnessed its event at tick %d and nobody was told it", head, mint.tick)}, nil
}

// holdersLine says where a claim's holders were over a window.
func (r *Run) holdersLine(c int32, s *spread, from int64) Line {
	who, where := s.holders, "at "+r.placeList(s.places)
	if len(who) == 0 {
		who, where = s.nowhere, "nowhere too"
	}
	verb := "the holders of %s (%s) were %s (dense.csv)"
	if len(who) == 1 {
		verb = "the holder of %s, %s, was %s (dense.csv)"
	}
	return Line{Tick: from, Text: fmt.Sprintf("since tick %d: "+verb, from, r.claims.list[c], r.npcList(who), where)}
}

// holdOf is the hold a place is in, "" for a road or a place the fixture
// does not name.
func (r *Run) holdOf(place int32) string {
	if place < 0 {
		return ""
	}
	return r.world.Holds[r.places.list[place]]
}

// holdSet sorts holds and drops roads and repeats.
func holdSet(holds []string) []string {
	slices.Sort(holds)
	holds = slices.Compact(holds)
	return slices.DeleteFunc(holds, func(h string) bool { return h == "" })
}

// placeList names the places, sorted, at most eight.
func (r *Run) placeList(ps []presence) string {
	var names []string
	for _, p := range ps {
		names = append(names, r.places.list[p.place])
	}
	slices.Sort(names)
	return capped(names, 8)
}

// npcList names NPCs, sorted, at most eight.
func (r *Run) npcList(xs []int32) string {
	var names []string
	for _, x := range xs {
		names = append(names, r.npcs.list[x])
	}
	slices.Sort(names)
	return capped(names, 8)
}

func capped(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}
