package page

import (
	"slices"
	"strings"

	"github.com/chronicle/ladder/sim/canon"
)

func formatFloat(f float64) string { return canon.FormatFloat(f) }

// Row is one line of the as-of-tick belief table: one NPC's belief in one
// claim, or one NPC who holds nothing (Claim ""; Stage "unheard").
type Row struct {
	Holder string
	Alive  bool
	At     string
	Claim  string
	// Held is false for an NPC who holds nothing, and for a belief only
	// the golden holds at this tick.
	Held                                bool
	Variant, Confidence, Stage, Sources string
	// Verbatim and Gist are the memory strengths, "" where the section
	// does not embed them (Strengths).
	Verbatim, Gist string
	Evidence       []Evidence // what had arrived by the tick
	// Golden is the golden's state of the same belief at the tick, set
	// only when it differs from the actual one (failing rungs).
	Golden *BeliefState
}

// at returns the change in effect at tick t: the last one at or before t.
func at[T any](changes []T, tickOf func(T) int64, t int64) (T, bool) {
	i, _ := slices.BinarySearchFunc(changes, t+1, func(c T, x int64) int {
		if tickOf(c) < x {
			return -1
		}
		return 1
	})
	if i == 0 {
		var zero T
		return zero, false
	}
	return changes[i-1], true
}

func presenceTick(p Presence) int64  { return p.Tick }
func beliefTick(b BeliefState) int64 { return b.Tick }

// BeliefsAt returns the belief table as of the end of tick t: every NPC in
// id order with where it was, and each belief it held — variant,
// confidence, stage, sources and the evidence that had arrived — or one
// "unheard" row when it held none. The page's script computes the same
// table from the embedded data.
func (s *Section) BeliefsAt(t int64) []Row {
	if s.Actual == nil {
		return nil
	}
	var rows []Row
	for _, n := range s.Actual.NPCs {
		p, _ := at(n.Changes, presenceTick, t)
		base := Row{Holder: n.ID, Alive: p.Alive, At: p.At}
		held := 0
		for _, c := range s.claimsOf(n.ID) {
			a := stateAt(s.Actual, n.ID, c, t)
			var g BeliefState
			if s.Golden != nil {
				g = stateAt(s.Golden, n.ID, c, t)
			}
			if !a.Held && !g.Held {
				continue
			}
			r := base
			r.Claim, r.Held = c, a.Held
			r.Variant, r.Confidence, r.Stage, r.Sources = a.Variant, a.Confidence, a.Stage, a.Sources
			if x, ok := s.StrengthAt(n.ID, c, t); ok && a.Held {
				r.Verbatim, r.Gist = x.Verbatim, x.Gist
			}
			for _, e := range s.Evidence[[2]string{n.ID, c}] {
				if e.Tick <= t {
					r.Evidence = append(r.Evidence, e)
				}
			}
			if s.Golden != nil && !sameState(a, g) {
				g.Tick = t
				r.Golden = &g
			}
			rows = append(rows, r)
			held++
		}
		if held == 0 {
			r := base
			r.Stage = "unheard"
			rows = append(rows, r)
		}
	}
	return rows
}

// sameState compares two belief states' values, not their change ticks.
func sameState(a, b BeliefState) bool {
	a.Tick, b.Tick = 0, 0
	return sameBelief(a, b)
}

// claimsOf returns the claims a holder has a belief track for in the
// actual run or the golden, sorted.
func (s *Section) claimsOf(holder string) []string {
	var out []string
	for _, tr := range []*Tracks{s.Actual, s.Golden} {
		if tr == nil {
			continue
		}
		for _, b := range tr.Beliefs {
			if b.Holder == holder {
				out = append(out, b.Claim)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func stateAt(tr *Tracks, holder, claim string, t int64) BeliefState {
	i, ok := slices.BinarySearchFunc(tr.Beliefs, [2]string{holder, claim}, func(b BeliefTrack, k [2]string) int {
		if c := strings.Compare(b.Holder, k[0]); c != 0 {
			return c
		}
		return strings.Compare(b.Claim, k[1])
	})
	if !ok {
		return BeliefState{}
	}
	st, _ := at(tr.Beliefs[i].Changes, beliefTick, t)
	return st
}

// FeedAt returns the feed records of tick t in derivation order, and
// whether the tick is embedded at all (a capped section embeds a window
// of ticks; Counts covers the rest).
func (s *Section) FeedAt(t int64) ([]Record, bool) {
	if s.Window.Capped && (t < s.Window.From || t > s.Window.To) {
		return nil, false
	}
	lo, _ := slices.BinarySearchFunc(s.Feed, t, func(r Record, x int64) int {
		if r.Tick < x {
			return -1
		}
		return 1
	})
	hi := lo
	for hi < len(s.Feed) && s.Feed[hi].Tick == t {
		hi++
	}
	return s.Feed[lo:hi], true
}
