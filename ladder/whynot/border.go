package whynot

import (
	"fmt"
	"slices"
	"strings"
)

// bridge is an NPC whose route joins the asker's holds with the holders':
// a carrier who could have brought the news.
type bridge struct {
	npc   int32
	reach int64 // the first tick its route is in the asker's holds; -1 when never
	sched bool  // its schedule, not the dense file, puts it there then (it was dead)
	died  int64 // the tick it died at, -1 when alive at the window's end
}

// border answers for an NPC only ever in holds no holder was in: the news
// needed a carrier, so it names the NPCs whose routes join the holds by
// the tick asked about — and what became of each — and those who reach
// its holds only later.
func (r *Run) border(x, c int32, from, to int64, mine []presence, holds []string, s *spread) (Cause, Line, []Line) {
	npc, claim := r.npcs.list[x], r.claims.list[c]
	theirs := strings.Join(s.holds, ", ")
	summary := fmt.Sprintf("%s was only ever in %s (%s) since tick %d, and every holder of %s was in %s: the news needed a carrier",
		npc, strings.Join(holds, ", "), r.placeList(mine), from, claim, theirs)
	var now, later []bridge
	for b := range int32(len(r.alive)) {
		if b == x || !r.mayJoin(b, holds, s.holds) {
			continue
		}
		br, joins := r.route(b, holds, s.holds, from, to)
		switch {
		case joins:
			now = append(now, br)
		case br.reach >= 0:
			later = append(later, br)
		}
	}
	line := Line{Tick: from, Text: summary}
	var lines []Line
	for _, br := range now {
		lines = append(lines, r.bridgeLine(br, c, holds, s.holds, to))
	}
	switch {
	case len(now) == 1 && now[0].died >= 0:
		br := now[0]
		d := r.deathOf(br.npc, br.died)
		line = Line{Tick: br.died, Trace: d.line, Text: fmt.Sprintf("%s, and the only carrier between %s and %s, %s, died at tick %d %s",
			summary, theirs, strings.Join(holds, ", "), d.npc, br.died, r.before(d, s.holds, holds))}
	case len(now) == 1:
		line = Line{Tick: lines[0].Tick, Trace: lines[0].Trace, Text: fmt.Sprintf("%s, and the only one between them, %s, did not carry it", summary, r.npcs.list[now[0].npc])}
	case len(now) > 1:
		line.Text = fmt.Sprintf("%s, and none of the %d NPCs whose routes joined them carried it", summary, len(now))
	default:
		line.Text = fmt.Sprintf("%s, and nobody's whereabouts or schedule has joined them since", summary)
	}
	for _, br := range later {
		lines = append(lines, r.laterLine(br, c, holds, to))
	}
	return Border, line, lines
}

// bridgeLine says what became of a carrier who could have bridged the
// holds by tick to.
func (r *Run) bridgeLine(br bridge, c int32, mine, theirs []string, to int64) Line {
	name, claim := r.npcs.list[br.npc], r.claims.list[c]
	fm := r.formedBy(br.npc, c, to)
	who := fmt.Sprintf("%s, who had not heard %s", name, claim)
	if fm != nil {
		who = fmt.Sprintf("%s, who had heard %s at tick %d (trace.jsonl:%d)", name, claim, fm.tick, fm.line)
	}
	if br.died >= 0 {
		d := r.deathOf(br.npc, br.died)
		text := fmt.Sprintf("tick %d: %s, died%s, %s", br.died, who, d, r.before(d, theirs, mine))
		if br.sched {
			text += fmt.Sprintf(": its schedule (%s) would have had it at %s, in %s, at tick %d", r.world.Fixture, r.scheduled(br.npc, br.reach), r.world.Holds[r.scheduled(br.npc, br.reach)], br.reach)
		}
		return Line{Tick: br.died, Trace: d.line, Text: text}
	}
	where := strings.Join(mine, ", ")
	if fm == nil {
		return Line{Tick: br.reach, Text: fmt.Sprintf("tick %d: %s, was in %s then (dense.csv: %s/at)", br.reach, who, where, name)}
	}
	return Line{Tick: fm.tick, Trace: fm.line, Text: fmt.Sprintf("tick %d: %s heard %s only after its last time in %s, at tick %d (dense.csv: %s/at)",
		fm.tick, name, claim, where, r.lastIn(br.npc, mine, fm.tick), name)}
}

// before says when in its journey a carrier died: before it left the
// holders' holds, on its way, or after it had been in the asker's.
func (r *Run) before(d death, theirs, mine []string) string {
	hold := r.world.Holds[d.where]
	switch {
	case slices.Contains(theirs, hold):
		return "before it left " + hold
	case slices.Contains(mine, hold):
		return "in " + hold
	}
	return "on its way to " + strings.Join(mine, ", ")
}

// laterLine names a carrier whose route reaches the asker's holds only
// after the tick asked about.
func (r *Run) laterLine(br bridge, c int32, holds []string, to int64) Line {
	name, where := r.npcs.list[br.npc], strings.Join(holds, ", ")
	source := fmt.Sprintf("dense.csv: %s/at", name)
	if br.sched {
		source = fmt.Sprintf("its schedule, %s", r.world.Fixture)
	}
	text := fmt.Sprintf("tick %d: %s reaches %s only then (%s)", br.reach, name, where, source)
	if fm := r.formedBy(br.npc, c, to); fm != nil {
		return Line{Tick: br.reach, Trace: fm.line, Text: fmt.Sprintf("%s; it had heard %s at tick %d", text, r.claims.list[c], fm.tick)}
	}
	return Line{Tick: br.reach, Text: text}
}

// formedBy is an NPC's belief formation when it was by tick to.
func (r *Run) formedBy(x, c int32, to int64) *formation {
	if p := r.pairs[[2]int32{x, c}]; p != nil && p.formed != nil && p.formed.tick <= to {
		return p.formed
	}
	return nil
}

// route follows an NPC from tick from: where the dense file has it while
// alive, where its base schedule would have had it once dead. It joins
// the holds when by tick to it has been in one of mine and one of
// theirs; reach is its first tick in mine (to the run's end).
func (r *Run) route(b int32, mine, theirs []string, from, to int64) (bridge, bool) {
	br := bridge{npc: b, reach: -1, died: -1}
	_, last := r.Ticks()
	inTheirs := false
	for t := from; t <= last; t++ {
		row := int(t - r.first)
		place, sched := "", false
		if r.alive[b][row] {
			if loc := r.at[b][row]; loc >= 0 {
				place = r.places.list[loc]
			}
		} else {
			if br.died < 0 && t <= to {
				br.died = r.deathTickFrom(b, row)
			}
			if s, ok := r.world.Schedules[r.npcs.list[b]]; ok {
				place, sched = s.At(t), true
			}
		}
		hold := r.world.Holds[place]
		if t <= to && slices.Contains(theirs, hold) {
			inTheirs = true
		}
		if br.reach < 0 && slices.Contains(mine, hold) {
			br.reach, br.sched = t, sched
		}
		if br.reach >= 0 && (inTheirs || t > to) {
			break
		}
	}
	return br, inTheirs && br.reach >= 0 && br.reach <= to
}

// deathTickFrom is the tick of the death that left an NPC dead at a row.
func (r *Run) deathTickFrom(x int32, row int) int64 {
	for row > 0 && !r.alive[x][row-1] {
		row--
	}
	return r.first + int64(row)
}

// scheduled is where an NPC's base schedule puts it at a tick.
func (r *Run) scheduled(x int32, t int64) string {
	return r.world.Schedules[r.npcs.list[x]].At(t)
}

// lastIn is the last tick, by tick to, an NPC was in one of the holds.
func (r *Run) lastIn(x int32, holds []string, to int64) int64 {
	for t := to; t >= r.first; t-- {
		row := int(t - r.first)
		if loc := r.at[x][row]; r.alive[x][row] && slices.Contains(holds, r.holdOf(loc)) {
			return t
		}
	}
	return -1
}

// mayJoin reports whether an NPC is ever, anywhere in the run or its
// schedule, in one of each set of holds: the cheap test before its route
// is followed tick by tick.
func (r *Run) mayJoin(b int32, mine, theirs []string) bool {
	if r.everIn == nil {
		r.everIn = make([][]string, len(r.alive))
		for x := range r.everIn {
			r.everIn[x] = r.holdsEver(int32(x))
		}
	}
	ever := r.everIn[b]
	in := func(hs []string) bool {
		return slices.ContainsFunc(hs, func(h string) bool { return slices.Contains(ever, h) })
	}
	return in(mine) && in(theirs)
}

// holdsEver is every hold an NPC is in on a row of the dense file or at a
// tick of its base schedule over the run.
func (r *Run) holdsEver(x int32) []string {
	var holds []string
	for row, loc := range r.at[x] {
		if r.alive[x][row] {
			holds = append(holds, r.holdOf(loc))
		}
	}
	if s, ok := r.world.Schedules[r.npcs.list[x]]; ok {
		first, last := r.Ticks()
		for t := first; t <= last; t = s.Next(t) {
			holds = append(holds, r.world.Holds[s.At(t)])
		}
	}
	return holdSet(holds)
}
