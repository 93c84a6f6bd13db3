package whynot

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// stay is a stretch of ticks an NPC spent in one state: alive at one
// place (loc -1: nowhere), or dead. A run's whereabouts are a few stays
// an NPC a day, so a window of thousands of ticks is read in tens.
type stay struct {
	span
	loc   int32
	alive bool
}

// span is an inclusive range of ticks.
type span struct{ from, to int64 }

// stays cuts every NPC's rows into stays, once the dense file is read.
func (r *Run) cutStays() {
	r.stays = make([][]stay, len(r.alive))
	for x := range r.alive {
		var out []stay
		for row := range r.rows {
			t, loc, alive := r.first+int64(row), r.at[x][row], r.alive[x][row]
			if n := len(out); n > 0 && out[n-1].loc == loc && out[n-1].alive == alive {
				out[n-1].to = t
				continue
			}
			out = append(out, stay{span: span{t, t}, loc: loc, alive: alive})
		}
		r.stays[x] = out
	}
}

// staysIn are an NPC's stays over a window of ticks, cut to it.
func (r *Run) staysIn(x int32, from, to int64) []stay {
	all := r.stays[x]
	i, _ := slices.BinarySearchFunc(all, from, func(s stay, t int64) int { return cmp.Compare(s.to, t) })
	var out []stay
	for ; i < len(all) && all[i].from <= to; i++ {
		s := all[i]
		s.from, s.to = max(s.from, from), min(s.to, to)
		out = append(out, s)
	}
	return out
}

// merged sorts spans and joins those that overlap or touch.
func merged(ss []span) []span {
	slices.SortFunc(ss, func(a, b span) int { return cmp.Or(cmp.Compare(a.from, b.from), cmp.Compare(a.to, b.to)) })
	var out []span
	for _, s := range ss {
		if n := len(out); n > 0 && s.from <= out[n-1].to+1 {
			out[n-1].to = max(out[n-1].to, s.to)
			continue
		}
		out = append(out, s)
	}
	return out
}

// spell spells spans: the last four, the most recent being what a
// question about a tick needs, and how many came before.
func spell(ss []span) string {
	var parts []string
	for _, s := range ss {
		if s.from == s.to {
			parts = append(parts, fmt.Sprint(s.from))
		} else {
			parts = append(parts, fmt.Sprintf("%d–%d", s.from, s.to))
		}
	}
	word := "ticks "
	if len(ss) == 1 && ss[0].from == ss[0].to {
		word = "tick "
	}
	if n := len(parts) - 4; n > 0 {
		return fmt.Sprintf("%s%s (and %s before)", word, strings.Join(parts[n:], ", "), plural(n, "stretch"))
	}
	return word + strings.Join(parts, ", ")
}
