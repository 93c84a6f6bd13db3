package views

import (
	"slices"
	"strings"

	"github.com/chronicle/ladder/sim/claims"
)

// Everyone is the location name of the fear of the whole cast, wherever
// each holder is (Everywhere).
const Everyone = "*"

// Source is what the fear view reads of a run as of one tick: the cast,
// who is alive and where, and each one's beliefs. Engine reads it from a
// world's claims store; a run's dense file holds the same (package
// ladder/runfiles), so that the view of a finished run — a CI artifact, a
// golden — is the view the run had, not a re-run's.
type Source interface {
	Tick() int64
	// NPCs lists the cast, sorted.
	NPCs() []string
	Alive(npc string) bool
	// At is where the NPC is now ("" when nowhere).
	At(npc string) string
	// Beliefs are the NPC's beliefs as of the tick, sorted by claim.
	Beliefs(npc string) []Belief
}

// Belief is one belief as the view weighs it.
type Belief struct {
	Claim, Variant string
	Kind           string  // the claim's event kind
	Confidence     float64 // as of the tick
	Gist           float64 // the gist strength as of the tick
	Forgotten      bool    // the rumour's stage is forgotten
}

// World is what Engine reads: a world's claims store and its cast.
type World interface {
	Tick() int64
	Store() *claims.Store
	NPCs() []string
	Alive(npc string) bool
	At(npc string) string
}

// Engine reads a world as the view's Source: each belief's gist and
// stage as the store's memory model has them at the world's tick.
func Engine(w World) Source { return engine{w} }

type engine struct{ World }

func (e engine) Beliefs(npc string) []Belief {
	st, t := e.Store(), e.Tick()
	m := st.Memory()
	bs := st.BeliefsOf(npc)
	out := make([]Belief, 0, len(bs))
	for _, b := range bs {
		c, ok := st.Claim(b.Claim)
		if !ok {
			continue
		}
		out = append(out, Belief{Claim: b.Claim, Variant: b.Variant, Kind: c.Kind, Confidence: b.Confidence,
			Gist: b.GistAt(t, m), Forgotten: b.StageAt(t, m) == claims.Forgotten})
	}
	return out
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
	var out []Contribution
	for _, npc := range src.NPCs() {
		if !src.Alive(npc) {
			continue
		}
		for _, b := range src.Beliefs(npc) {
			sev := Severity(b.Kind)
			if sev == 0 || b.Forgotten {
				continue
			}
			out = append(out, Contribution{Holder: npc, Claim: b.Claim, Variant: b.Variant, Kind: b.Kind,
				Confidence: b.Confidence, Gist: b.Gist, Severity: sev, Weight: Weight(sev, b.Confidence, b.Gist)})
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
