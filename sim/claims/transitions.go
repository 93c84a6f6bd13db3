package claims

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// never is the shift of a threshold gist does not cross.
const never = math.MaxInt64

// shifts returns the elapsed ticks (at least 1) at which gist first falls
// below dormant_gist and below forgotten_gist: the only ticks after its
// anchor at which a belief's derived stage can change, because gist
// depends on nothing but the ticks elapsed since the anchor and never
// rises with them. Each is found by bisection on GistAt itself, so the
// comparison is exactly the one StageAt makes.
func (m Memory) shifts() [2]int64 {
	if m.NoStages || m.NoDecay {
		return [2]int64{never, never}
	}
	return [2]int64{m.crossing(m.DormantGist), m.crossing(m.ForgottenGist)}
}

// crossing returns the fewest elapsed ticks e >= 1 with GistAt(e) < x for
// a belief anchored at 0, or never.
func (m Memory) crossing(x float64) int64 {
	below := func(e int64) bool { return (&Belief{}).GistAt(e, m) < x }
	hi := int64(1)
	for !below(hi) {
		if hi > never/4 {
			return never
		}
		hi *= 2
	}
	lo := hi / 2 // below(lo) is false, or lo is 0
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if below(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// schedule enters b's possible stage changes in the calendar, from its
// current anchor.
func (s *Store) schedule(b *Belief) {
	for _, e := range s.shifts {
		if e == never || b.Anchor > never-e {
			continue
		}
		at := b.Anchor + e
		entry := due{b: b, anchor: b.Anchor}
		if n := len(s.calendar[at]); n > 0 && s.calendar[at][n-1] == entry {
			continue // both thresholds crossed at once
		}
		s.calendar[at] = append(s.calendar[at], entry)
	}
}

// reanchor sets b's anchor (memory refreshed at tick t) and reschedules
// its stage changes; the entries of the old anchor lapse.
func (s *Store) reanchor(b *Belief, t int64) {
	if b.Anchor == t {
		return
	}
	b.Anchor = t
	s.schedule(b)
}

// Transitions returns the beliefs whose derived stage at tick t differs
// from the tick before — heard or repeated to dormant, dormant to
// forgotten — sorted by holder, then claim. A belief whose anchor is t
// (formed or refreshed this tick) is not among them: its stage changed by
// what happened, not by time. The answer is StageAt(t-1) != StageAt(t)
// over every belief, asked only of the beliefs the calendar names for t.
// Call it once for every tick, in order: it forgets the tick's entries.
func (s *Store) Transitions(t int64) []*Belief {
	entries := s.calendar[t]
	delete(s.calendar, t)
	var out []*Belief
	for _, d := range entries {
		b := d.b
		// An entry is filed at its anchor plus a shift of at least one, so
		// one whose anchor still holds is before t: a belief anchored at t
		// was re-anchored since, and its entry lapsed.
		if b.Anchor != d.anchor || b.StageAt(t-1, s.mem) == b.StageAt(t, s.mem) {
			continue
		}
		out = append(out, b)
	}
	slices.SortFunc(out, func(a, b *Belief) int {
		return cmp.Or(strings.Compare(a.Holder, b.Holder), strings.Compare(a.Claim, b.Claim))
	})
	return out
}
