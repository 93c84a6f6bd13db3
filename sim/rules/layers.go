package rules

import (
	"fmt"
	"strings"
)

// Layer is a group of mechanisms that arrived together: the core of
// Tiers 0–2 (claims, encounters, mutation, resolution, stages) and the
// social layer of Tier 3 (grudges, obligations, reputation, escalation,
// the tell decision). Every define belongs to one layer (its `layer`
// tag). A world that cannot exercise a layer is neither fingerprinted by
// its defines nor traced with its schema version (decision 0015), so
// adding a layer leaves every older world's goldens byte for byte as they
// were.
type Layer uint8

// The layers, in the order they were added. Core is in every world.
const (
	Core Layer = iota
	Social
	layerCount // how many layers there are
)

var layerNames = []string{Core: "core", Social: "social"}

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
// "core+social".
func (s Layers) String() string {
	var names []string
	for i := range layerNames {
		if s.Has(Layer(i)) {
			names = append(names, layerNames[i])
		}
	}
	return strings.Join(names, "+")
}
