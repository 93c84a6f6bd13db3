package views

import (
	"slices"
	"strings"

	"github.com/chronicle/ladder/sim/claims"
)

// Everyone is the location name of the fear of the whole cast, wherever
// each holder is (Everywhere).
const Everyone = "*"

// Source is what the fear view reads of a run as of its current tick: the
// claims store and the cast. The ladder's world view and the engine's
// world both provide it; the view only reads.
type Source interface {
	Tick() int64
	Store() *claims.Store
	// NPCs lists the cast, sorted.
	NPCs() []string
	Alive(npc string) bool
	// At is where the NPC is now ("" when nowhere).
	At(npc string) string
}

// Severity is how much fear one believed claim of a kind carries at full
// confidence and full memory: a killing is the worst thing the engine
// knows, a public beating half of it, a theft a quarter; every other kind
// (favours, titles, secrets, and the derived vacancy, lapse and
// appointment news) carries none. These numbers are the view's, not the
// engine's defines: nothing in the engine reads them, so they are no part
// of a rung's defines_hash.
func Severity(kind string) float64 {
	switch kind {
	case "killing":
		return 1
	case "brawl":
		return 0.5
	case "theft":
		return 0.25
	}
	return 0
}

// Contribution is one belief's share of the fear where its holder is.
type Contribution struct {
	Holder, Claim, Variant, Kind string
	Confidence                   float64
	Gist                         float64 // the holder's gist strength now
	Severity                     float64
	// Weight is Severity × Confidence × Gist, each product rounded to
	// float64 before the next (no fused multiply-add).
	Weight float64
}

// Weight is one contribution's weight: severity × confidence × gist, each
// product rounded to float64 so it is the same bits on every platform.
func Weight(severity, confidence, gist float64) float64 {
	return float64(float64(severity*confidence) * gist)
}

// Fear is the collective fear at one location at one tick: the sum of the
// weights of every contributing belief held by a living NPC there, and the
// contributions themselves, by holder then claim.
type Fear struct {
	Location string // "" for NPCs who are nowhere
	Tick     int64
	Total    float64
	// Contributions are in the order Total sums them: holders sorted,
	// each holder's beliefs sorted by claim.
	Contributions []Contribution
}

// Contributions returns the beliefs of living holders that carry fear now,
// holders in cast order (sorted) and each holder's beliefs by claim. A
// belief whose rumour is forgotten, or of a kind with no severity, does
// not contribute.
func Contributions(src Source) []Contribution {
	st, t := src.Store(), src.Tick()
	m := st.Memory()
	var out []Contribution
	for _, npc := range src.NPCs() {
		if !src.Alive(npc) {
			continue
		}
		for _, b := range st.BeliefsOf(npc) {
			c, ok := st.Claim(b.Claim)
			if !ok {
				continue
			}
			sev := Severity(c.Kind)
			if sev == 0 || b.StageAt(t, m) == claims.Forgotten {
				continue
			}
			g := b.GistAt(t, m)
			out = append(out, Contribution{Holder: npc, Claim: b.Claim, Variant: b.Variant, Kind: c.Kind,
				Confidence: b.Confidence, Gist: g, Severity: sev, Weight: Weight(sev, b.Confidence, g)})
		}
	}
	return out
}

// ByLocation returns the fear at every location where some NPC now holds
// a contributing belief, sorted by location ("" — nowhere — first).
func ByLocation(src Source) []Fear {
	var out []Fear
	index := map[string]int{}
	for _, c := range Contributions(src) {
		loc := src.At(c.Holder)
		i, ok := index[loc]
		if !ok {
			i = len(out)
			index[loc] = i
			out = append(out, Fear{Location: loc, Tick: src.Tick()})
		}
		out[i].Contributions = append(out[i].Contributions, c)
		out[i].Total += c.Weight
	}
	slices.SortFunc(out, func(a, b Fear) int { return strings.Compare(a.Location, b.Location) })
	return out
}

// At returns the fear at one location now: zero with no contributions
// when nobody there holds a contributing belief.
func At(src Source, location string) Fear {
	f := Fear{Location: location, Tick: src.Tick()}
	for _, c := range Contributions(src) {
		if src.At(c.Holder) == location {
			f.Contributions = append(f.Contributions, c)
			f.Total += c.Weight
		}
	}
	return f
}

// Everywhere returns the fear of the whole cast, wherever each holder is.
func Everywhere(src Source) Fear {
	f := Fear{Tick: src.Tick(), Location: Everyone}
	f.Contributions = Contributions(src)
	for _, c := range f.Contributions {
		f.Total += c.Weight
	}
	return f
}
