// Package jsonschema holds JSON Schema documents as Go values and writes
// them as JSON in a fixed key order, so a generated schema is byte-stable
// and reviewable in a diff.
//
// It exists for the fixture schema (docs/fixture.schema.json), which the
// fixture loader derives from its own field tables: the loader decodes YAML
// by hand from yaml.Node, with positions, so reflection over Go types could
// not see the keys it accepts. The vocabulary is the subset of draft-07
// that schema needs — the draft editors' YAML language servers all read.
//
//	s := jsonschema.Object(
//		jsonschema.Prop("holder", jsonschema.String().Doc("an NPC")),
//	).Require("holder")
//	b, _ := json.MarshalIndent(s, "", "  ")
package jsonschema
