package trace

import "slices"

// Shape says how a field's value is shaped in the file, so a reader that
// matches records against patterns knows how to compare it.
type Shape string

// The shapes a record field can have.
const (
	ShapeString Shape = "string"
	ShapeNumber Shape = "number"
	ShapeBool   Shape = "bool"
	// ShapeObject is a mapping whose keys are listed as fields of their own
	// (roll.value, branch.generation).
	ShapeObject Shape = "object"
	// ShapeOpenObject is a mapping whose keys depend on the record (a rule's
	// values: accumulator names); every value is a number.
	ShapeOpenObject Shape = "open object"
	// ShapeSet is a list whose order carries no meaning (an encounter's pair,
	// written sorted): two sets are equal when they hold the same members.
	ShapeSet Shape = "set"
	// ShapeTable is a list of mappings (a keyframe's npcs and beliefs).
	ShapeTable Shape = "table"
)

// Field is one field a record kind carries. Path is dotted for nested
// fields ("roll.value").
type Field struct {
	Path  string
	Shape Shape
}

// schema is every field each record kind writes, envelope included. It is
// data, kept beside the encoders rather than derived from them, so a
// matcher can refuse a field no record has even when the encoders change;
// the package's tests hold it and the encoders to each other.
var schema = map[Kind][]Field{
	KindEncounter: {
		{"fired", ShapeBool}, {"id", ShapeString}, {"pair", ShapeSet}, {"site", ShapeString},
		{"roll", ShapeObject}, {"roll.key", ShapeString}, {"roll.natural", ShapeNumber}, {"roll.pinned", ShapeBool},
		{"roll.purpose", ShapeString}, {"roll.threshold", ShapeNumber}, {"roll.value", ShapeNumber},
	},
	KindTransmission: {
		{"claim", ShapeString}, {"confidence", ShapeNumber}, {"fired", ShapeBool}, {"listener", ShapeString}, {"reason", ShapeString},
		{"rule", ShapeString}, {"teller", ShapeString}, {"variant", ShapeString}, {"via", ShapeString},
	},
	KindRule: {
		{"fired", ShapeBool}, {"reason", ShapeString}, {"rule", ShapeString}, {"subject", ShapeString}, {"values", ShapeOpenObject},
		{"roll", ShapeObject}, {"roll.key", ShapeString}, {"roll.natural", ShapeNumber}, {"roll.pinned", ShapeBool},
		{"roll.purpose", ShapeString}, {"roll.threshold", ShapeNumber}, {"roll.value", ShapeNumber},
	},
	KindEvent: {
		{"event", ShapeString}, {"hash", ShapeString}, {"id", ShapeString}, {"log_seq", ShapeNumber},
	},
	KindBelief: {
		{"change", ShapeString}, {"claim", ShapeString}, {"confidence", ShapeNumber}, {"holder", ShapeString}, {"stage", ShapeString}, {"variant", ShapeString},
	},
	KindKeyframe: {
		{"beliefs", ShapeTable}, {"npcs", ShapeTable},
	},
	KindSupersession: {
		{"claim", ShapeString}, {"holder", ShapeString}, {"kept", ShapeBool}, {"loser", ShapeString}, {"via", ShapeString}, {"winner", ShapeString},
	},
}

// envelope is what every record carries besides its kind's own fields.
var envelope = []Field{
	{"branch", ShapeObject}, {"branch.generation", ShapeNumber}, {"branch.save_uuid", ShapeString},
	{"kind", ShapeString}, {"seq", ShapeNumber}, {"tick", ShapeNumber},
}

// Fields returns every field a record of the kind carries (its own and the
// envelope's), sorted by path; nil for an unknown kind. Optional fields
// (a transmission's confidence, a rule's roll) are included.
func Fields(k Kind) []Field {
	own, ok := schema[k]
	if !ok {
		return nil
	}
	out := append(slices.Clone(own), envelope...)
	slices.SortFunc(out, func(a, b Field) int {
		switch {
		case a.Path < b.Path:
			return -1
		case a.Path > b.Path:
			return 1
		}
		return 0
	})
	return out
}
