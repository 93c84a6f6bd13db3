package trace

import (
	"slices"
	"strings"
)

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
	// ShapeTable is a list no pattern matches: of mappings (a keyframe's
	// npcs and beliefs, a variant's slots and diff), or an ordered list (an
	// evidence's source chain).
	ShapeTable Shape = "table"
)

// Field is one field a record kind carries. Path is dotted for nested
// fields ("roll.value"). Size is the fixed number of members of a set
// field (an encounter's pair has 2), 0 when it varies.
type Field struct {
	Path  string
	Shape Shape
	Size  int
}

// schema is every field each record kind writes, envelope included. It is
// data, kept beside the encoders rather than derived from them, so a
// matcher can refuse a field no record has even when the encoders change;
// the package's tests hold it and the encoders to each other.
var schema = map[Kind][]Field{
	KindEncounter: {
		{Path: "fired", Shape: ShapeBool}, {Path: "id", Shape: ShapeString}, {Path: "pair", Shape: ShapeSet, Size: 2}, {Path: "site", Shape: ShapeString},
		{Path: "roll", Shape: ShapeObject}, {Path: "roll.key", Shape: ShapeString}, {Path: "roll.natural", Shape: ShapeNumber}, {Path: "roll.pinned", Shape: ShapeBool},
		{Path: "roll.purpose", Shape: ShapeString}, {Path: "roll.threshold", Shape: ShapeNumber}, {Path: "roll.value", Shape: ShapeNumber},
		{Path: "weight", Shape: ShapeNumber},
	},
	KindTransmission: {
		{Path: "claim", Shape: ShapeString}, {Path: "confidence", Shape: ShapeNumber}, {Path: "fired", Shape: ShapeBool}, {Path: "listener", Shape: ShapeString}, {Path: "reason", Shape: ShapeString},
		{Path: "rule", Shape: ShapeString}, {Path: "teller", Shape: ShapeString}, {Path: "variant", Shape: ShapeString}, {Path: "via", Shape: ShapeString},
	},
	KindRule: {
		{Path: "fired", Shape: ShapeBool}, {Path: "reason", Shape: ShapeString}, {Path: "rule", Shape: ShapeString}, {Path: "subject", Shape: ShapeString}, {Path: "values", Shape: ShapeOpenObject},
		{Path: "roll", Shape: ShapeObject}, {Path: "roll.key", Shape: ShapeString}, {Path: "roll.natural", Shape: ShapeNumber}, {Path: "roll.pinned", Shape: ShapeBool},
		{Path: "roll.purpose", Shape: ShapeString}, {Path: "roll.threshold", Shape: ShapeNumber}, {Path: "roll.value", Shape: ShapeNumber},
	},
	KindEvent: {
		{Path: "cause", Shape: ShapeString}, {Path: "event", Shape: ShapeString}, {Path: "hash", Shape: ShapeString}, {Path: "id", Shape: ShapeString},
		{Path: "log_seq", Shape: ShapeNumber}, {Path: "rule", Shape: ShapeString},
	},
	KindBelief: {
		{Path: "change", Shape: ShapeString}, {Path: "claim", Shape: ShapeString}, {Path: "confidence", Shape: ShapeNumber}, {Path: "holder", Shape: ShapeString}, {Path: "stage", Shape: ShapeString}, {Path: "variant", Shape: ShapeString},
		{Path: "evidence", Shape: ShapeObject}, {Path: "evidence.chain", Shape: ShapeTable}, {Path: "evidence.confidence", Shape: ShapeNumber}, {Path: "evidence.counted", Shape: ShapeBool},
		{Path: "evidence.type", Shape: ShapeString}, {Path: "evidence.variant", Shape: ShapeString}, {Path: "evidence.via", Shape: ShapeString},
	},
	KindVariant: {
		{Path: "by", Shape: ShapeString}, {Path: "claim", Shape: ShapeString}, {Path: "diff", Shape: ShapeTable}, {Path: "id", Shape: ShapeString},
		{Path: "predecessor", Shape: ShapeString}, {Path: "reason", Shape: ShapeString}, {Path: "slots", Shape: ShapeTable},
	},
	KindKeyframe: {
		{Path: "accumulators", Shape: ShapeTable}, {Path: "beliefs", Shape: ShapeTable}, {Path: "grudges", Shape: ShapeTable},
		{Path: "npcs", Shape: ShapeTable}, {Path: "obligations", Shape: ShapeTable}, {Path: "reputation", Shape: ShapeTable}, {Path: "roles", Shape: ShapeTable},
	},
	KindSupersession: {
		{Path: "claim", Shape: ShapeString}, {Path: "holder", Shape: ShapeString}, {Path: "kept", Shape: ShapeBool}, {Path: "loser", Shape: ShapeString}, {Path: "via", Shape: ShapeString}, {Path: "winner", Shape: ShapeString},
	},
	KindGrudge: {
		{Path: "cause", Shape: ShapeString}, {Path: "change", Shape: ShapeString}, {Path: "emotional", Shape: ShapeNumber}, {Path: "evidentiary", Shape: ShapeNumber},
		{Path: "holder", Shape: ShapeString}, {Path: "rule", Shape: ShapeString}, {Path: "target", Shape: ShapeString},
	},
	KindObligation: {
		{Path: "cause", Shape: ShapeString}, {Path: "creditor", Shape: ShapeString}, {Path: "debtor", Shape: ShapeString}, {Path: "favour", Shape: ShapeString},
		{Path: "id", Shape: ShapeString}, {Path: "rule", Shape: ShapeString}, {Path: "state", Shape: ShapeString},
	},
	KindReputation: {
		{Path: "alpha", Shape: ShapeNumber}, {Path: "beta", Shape: ShapeNumber}, {Path: "cause", Shape: ShapeString}, {Path: "dimension", Shape: ShapeString},
		{Path: "mean", Shape: ShapeNumber}, {Path: "observer", Shape: ShapeString}, {Path: "rule", Shape: ShapeString}, {Path: "subject", Shape: ShapeString},
	},
	KindSchedule: {
		{Path: "at", Shape: ShapeString}, {Path: "cause", Shape: ShapeString}, {Path: "change", Shape: ShapeString}, {Path: "from", Shape: ShapeNumber},
		{Path: "npc", Shape: ShapeString}, {Path: "override", Shape: ShapeString}, {Path: "rule", Shape: ShapeString}, {Path: "to", Shape: ShapeNumber},
	},
	KindRole: {
		{Path: "cause", Shape: ShapeString}, {Path: "change", Shape: ShapeString}, {Path: "holder", Shape: ShapeString},
		{Path: "previous", Shape: ShapeString}, {Path: "role", Shape: ShapeString}, {Path: "rule", Shape: ShapeString},
	},
}

// envelope is what every record carries besides its kind's own fields.
var envelope = []Field{
	{Path: "branch", Shape: ShapeObject}, {Path: "branch.generation", Shape: ShapeNumber}, {Path: "branch.save_uuid", Shape: ShapeString},
	{Path: "kind", Shape: ShapeString}, {Path: "seq", Shape: ShapeNumber}, {Path: "tick", Shape: ShapeNumber},
}

// Fields returns every field a record of the kind carries (its own and the
// envelope's), sorted by path; nil for an unknown kind. Optional fields
// (a transmission's confidence, a rule's roll, a derived event's rule and
// cause, a keyframe's social sections, an encounter's weight, a
// schedule record's to, a belief change's evidence) are included.
func Fields(k Kind) []Field {
	own, ok := schema[k]
	if !ok {
		return nil
	}
	out := append(slices.Clone(own), envelope...)
	slices.SortFunc(out, func(a, b Field) int { return strings.Compare(a.Path, b.Path) })
	return out
}
