package whynot

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/chronicle/ladder/sim/trace"
)

// chance is one tick an NPC could have heard a claim: it was co-present
// with a holder (an encounter was rolled for the pair, or would have been
// had sampling been on), or a fixture report was made to it.
type chance struct {
	tick   int64
	holder int32
	site   int32         // -1 for a fixture report
	enc    *encounter    // the encounter rolled; nil when none was
	off    int           // the encounter-sampling decline's line, when none was rolled
	told   *transmission // the telling the trace recorded, fired or declined
	keep   *rule         // the tell-decision behind a declined telling
	// inactive is the holder's stage when it was dormant or forgotten,
	// and could not tell; fresh is set when the holder heard it only
	// that tick, from someone else, and could not tell it yet.
	inactive stage
	fresh    bool
}

// line is the trace line a chance rests on: its telling, else its roll,
// else the sampling decline.
func (ch chance) line() int {
	switch {
	case ch.told != nil:
		return ch.told.line
	case ch.enc != nil:
		return ch.enc.line
	}
	return ch.off
}

// chances are the chances an NPC had to hear a claim over a window of
// ticks, in trace order: every encounter rolled between it and a holder
// (an NPC whose belief was formed before the roll), every tick it shared
// a place with one while encounter sampling was off, and every telling
// the trace records to it.
func (r *Run) chances(x, c int32, from, to int64) ([]chance, error) {
	p := r.pairs[[2]int32{x, c}]
	used := map[int]bool{} // the tellings placed, by line
	var out []chance
	encs := r.encounters(x)
	i, _ := slices.BinarySearchFunc(encs, from, func(e encounter, t int64) int { return cmp.Compare(e.tick, t) })
	for ; i < len(encs) && encs[i].tick <= to; i++ {
		e := &encs[i]
		if !r.holderAt(e.other, c, e.ref) {
			continue
		}
		ch := chance{tick: e.tick, holder: e.other, site: e.site, enc: e}
		if e.fired {
			if ch.told = r.telling(x, c, e); ch.told == nil {
				return nil, fmt.Errorf("trace line %d: %s met %s, a holder of %s, and no telling of it follows", e.line, r.npcs.list[x], r.npcs.list[e.other], r.claims.list[c])
			}
			used[ch.told.line] = true
			ch.keep = keeper(p, ch.told)
		}
		ch.inactive, ch.fresh = r.holderState(e.other, c, e.ref)
		out = append(out, ch)
	}
	out = append(out, r.unrolled(x, c, from, to)...)
	if p != nil {
		for k := range p.told {
			t := &p.told[k]
			if t.tick < from || t.tick > to || used[t.line] {
				continue
			}
			ch := chance{tick: t.tick, holder: t.teller, site: -1, told: t, keep: keeper(p, t)}
			if t.via != "injected" {
				ch.site = r.siteOf(t)
			}
			out = append(out, ch)
		}
	}
	slices.SortFunc(out, func(a, b chance) int {
		return cmp.Or(cmp.Compare(a.tick, b.tick), cmp.Compare(a.line(), b.line()), cmp.Compare(a.holder, b.holder))
	})
	return out, nil
}

// unrolled are the chances of ticks whose encounter sampling was off:
// every holder where the NPC was, from the dense file.
func (r *Run) unrolled(x, c int32, from, to int64) []chance {
	var out []chance
	i, _ := slices.BinarySearchFunc(r.offs, from, func(o ref, t int64) int { return cmp.Compare(o.tick, t) })
	for ; i < len(r.offs) && r.offs[i].tick <= to; i++ {
		t, off := r.offs[i].tick, r.offs[i].line
		row := int(t - r.first)
		if !r.alive[x][row] || r.at[x][row] < 0 {
			continue
		}
		for _, h := range r.holders[c] {
			if h == x || !r.alive[h][row] || r.at[h][row] != r.at[x][row] || !r.holderAt(h, c, ref{tick: t, line: off}) {
				continue
			}
			ch := chance{tick: t, holder: h, site: r.at[x][row], off: off}
			ch.inactive, ch.fresh = r.holderState(h, c, ref{tick: t, line: off})
			out = append(out, ch)
		}
	}
	return out
}

// encounters are the encounters an NPC was in.
func (r *Run) encounters(x int32) []encounter {
	if int(x) >= len(r.enc) {
		return nil
	}
	return r.enc[x]
}

// holderAt reports whether h had formed a belief in the claim before the
// record at: a holder, able to tell it or not.
func (r *Run) holderAt(h, c int32, at ref) bool {
	p := r.pairs[[2]int32{h, c}]
	return p != nil && p.formed != nil && p.formed.line < at.line
}

// holderState is a holder's state at a record: its stage when it could
// not tell (dormant or forgotten, by the dense file's stage of the tick,
// or the stage it was woken from later that tick), and whether it had
// heard the claim only that tick from someone else.
func (r *Run) holderState(h, c int32, at ref) (inactive stage, fresh bool) {
	p := r.pairs[[2]int32{h, c}]
	if fm := p.formed; fm.tick == at.tick && fm.told != nil && fm.told.via != "injected" {
		return none, true
	}
	for k := len(p.changes) - 1; k > 0; k-- {
		ch := p.changes[k]
		if ch.tick == at.tick && ch.line > at.line && ch.change == "reactivated" {
			if s, _ := stageOf(p.changes[k-1].stage); s == dormant || s == forgotten {
				return s, false
			}
		}
		if ch.tick < at.tick {
			break
		}
	}
	if h < int32(len(r.alive)) && p.stage != nil {
		if s := p.stage[int(at.tick-r.first)]; s == dormant || s == forgotten {
			return s, false
		}
	}
	return none, false
}

// telling is the transmission of the claim a fired encounter carried
// between the NPC and the holder: to the NPC, or — when both held it —
// the one the engine wrote with the pair's first as teller.
func (r *Run) telling(x, c int32, e *encounter) *transmission {
	find := func(listener, teller int32) *transmission {
		p := r.pairs[[2]int32{listener, c}]
		if p == nil {
			return nil
		}
		i, _ := slices.BinarySearchFunc(p.told, e.line, func(t transmission, line int) int { return cmp.Compare(t.line, line) })
		for ; i < len(p.told) && p.told[i].tick == e.tick; i++ {
			if p.told[i].teller == teller {
				return &p.told[i]
			}
		}
		return nil
	}
	if t := find(x, e.other); t != nil {
		return t
	}
	return find(e.other, x)
}

// keeper is the tell-decision evaluation that declined a telling.
func keeper(p *pair, t *transmission) *rule {
	if p == nil || t.fired {
		return nil
	}
	for k := len(p.keeps) - 1; k >= 0; k-- {
		if kp := &p.keeps[k]; kp.tick == t.tick && kp.other == t.teller && kp.line < t.line {
			return kp
		}
	}
	return nil
}

// siteOf is where a telling's encounter was, from its id.
func (r *Run) siteOf(t *transmission) int32 {
	if id, ok := trace.CutEncounterID(t.via); ok {
		return r.places.id(id.Site)
	}
	return -1
}
