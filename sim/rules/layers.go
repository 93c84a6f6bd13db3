package rules

import (
	"fmt"
	"strings"
)

// Layer is a group of mechanisms that arrived together: the core of
// Tiers 0–2 (claims, encounters, mutation, resolution, stages), the
// social layer of Tier 3 (grudges, obligations, reputation, escalation,
// the tell decision), and one layer for each mechanism of Tiers 4 and 5:
// schedule write-back (4a), pair weighting (4b) and roles (5). Every
// define belongs to one layer (its `layer` tag). A world that cannot exercise a layer is neither fingerprinted by
// its defines nor traced with its schema version (decision 0015), so
// adding a layer leaves every older world's goldens byte for byte as they
// were.
type Layer uint8

// The layers, in the order they were added. Core is in every world.
const (
	Core Layer = iota
	Social
	// Schedule is Tier 4a's schedule write-back: mourning reroutes the
	// bereaved to the temple of their hold (decision 0020).
	Schedule
	// Weighting is Tier 4b's pair weighting: a grudge between two NPCs
	// lowers the odds that they meet (decision 0021).
	Weighting
	// Roles is Tier 5's roles, vacancy and succession (decision 0022).
	Roles
	layerCount // how many layers there are
)

var layerNames = []string{Core: "core", Social: "social", Schedule: "schedule", Weighting: "weighting", Roles: "roles"}

func (l Layer) String() string {
	if int(l) < len(layerNames) {
		return layerNames[l]
	}
	return fmt.Sprintf("layer(%d)", uint8(l))
}

// ParseLayer returns the layer named name.
func ParseLayer(name string) (Layer, bool) {
	for i, n := range layerNames {
		if n == name {
			return Layer(i), true
		}
	}
	return 0, false
}

// Layers is the set of layers a world uses. The zero value holds the
// core alone: no world is without it.
type Layers uint8

// CoreOnly is the set of a Tier 0–2 world.
const CoreOnly Layers = 0

// AllLayers holds every layer: a fingerprint of everything the engine can
// exercise.
const AllLayers = Layers(1<<layerCount-1) &^ 1

// Has reports whether the set holds l; Core is always held.
func (s Layers) Has(l Layer) bool { return l == Core || s&(1<<l) != 0 }

// With returns the set with l added.
func (s Layers) With(l Layer) Layers {
	if l == Core {
		return s
	}
	return s | 1<<l
}

// String lists the layers held, in the order they were added:
// "core+social+schedule".
func (s Layers) String() string {
	var names []string
	for i := range layerNames {
		if s.Has(Layer(i)) {
			names = append(names, layerNames[i])
		}
	}
	return strings.Join(names, "+")
}
