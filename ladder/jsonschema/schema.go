package jsonschema

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
)

// Draft is the JSON Schema dialect the documents declare.
const Draft = "http://json-schema.org/draft-07/schema#"

// Schema is one schema node. The zero value accepts anything. Fields that
// are unset are not written.
type Schema struct {
	// Dialect ($schema) and Title are for a document's root.
	Dialect     string
	Title       string
	Ref         string
	Types       []string // "object", "string", "integer", "number", "boolean", "array", "null"
	Description string
	Const       any
	Enum        []any
	Pattern     string
	Minimum     *float64
	Maximum     *float64
	// ExclusiveMinimum and ExclusiveMaximum are numbers (draft-07), not
	// flags.
	ExclusiveMinimum *float64
	ExclusiveMaximum *float64

	Items       *Schema
	MinItems    *int
	MaxItems    *int
	UniqueItems bool

	Properties    []Property // in the order they are written
	Required      []string
	MinProperties *int
	PropertyNames *Schema
	// Additional is the schema of keys not in Properties; Closed refuses
	// them (additionalProperties: false).
	Additional *Schema
	Closed     bool
	// Dependencies maps a key to what the object must satisfy when it
	// holds that key, in order.
	Dependencies []Property

	AnyOf, OneOf, AllOf []*Schema
	Not                 *Schema
	If, Then            *Schema
}

// Property is a named schema: an object's property or a dependency.
type Property struct {
	Name   string
	Schema *Schema
}

// Prop is a Property.
func Prop(name string, s *Schema) Property { return Property{Name: name, Schema: s} }

// String, Integer, Number and Boolean are schemas of one scalar type.
func String() *Schema  { return &Schema{Types: []string{"string"}} }
func Integer() *Schema { return &Schema{Types: []string{"integer"}} }
func Number() *Schema  { return &Schema{Types: []string{"number"}} }
func Boolean() *Schema { return &Schema{Types: []string{"boolean"}} }

// Array is a list of items.
func Array(items *Schema) *Schema { return &Schema{Types: []string{"array"}, Items: items} }

// Object is a closed mapping of the given properties.
func Object(props ...Property) *Schema {
	return &Schema{Types: []string{"object"}, Properties: props, Closed: true}
}

// Map is a mapping whose keys match names and whose values all match
// values.
func Map(names, values *Schema) *Schema {
	return &Schema{Types: []string{"object"}, PropertyNames: names, Additional: values}
}

// FiniteNumber is a number that is neither NaN nor an infinity, as the
// loader reads every number. JSON has neither, but YAML does (.nan, .inf)
// and an editor's validator sees them as numbers: every numeric keyword
// compares, and NaN compares false with everything, so NaN passes any
// bound. It fails the one schema no finite number can pass — at least 1
// and at most 0 — so its negation refuses NaN alone; the largest finite
// float64 as the bounds refuses the infinities.
func FiniteNumber() *Schema {
	s := Number().Range(-math.MaxFloat64, math.MaxFloat64)
	s.AllOf = []*Schema{{Description: "not NaN", Not: (&Schema{}).Range(1, 0)}}
	return s
}

// Enum is a string out of a fixed set.
func Enum(values ...string) *Schema {
	s := String()
	for _, v := range values {
		s.Enum = append(s.Enum, v)
	}
	return s
}

// Const is exactly one value.
func Const(v any) *Schema { return &Schema{Const: v} }

// AnyOf is a value matching at least one of alts.
func AnyOf(alts ...*Schema) *Schema { return &Schema{AnyOf: alts} }

// Ref points at another node of the document by JSON pointer.
func Ref(pointer string) *Schema { return &Schema{Ref: pointer} }

// Doc sets the description and returns s.
func (s *Schema) Doc(text string) *Schema { s.Description = text; return s }

// Require adds required keys and returns s.
func (s *Schema) Require(names ...string) *Schema {
	s.Required = append(s.Required, names...)
	return s
}

// Range sets inclusive bounds and returns s.
func (s *Schema) Range(lo, hi float64) *Schema { s.Minimum, s.Maximum = &lo, &hi; return s }

// Min sets an inclusive lower bound and returns s.
func (s *Schema) Min(lo float64) *Schema { s.Minimum = &lo; return s }

// Empty reports whether s says nothing at all: it accepts anything.
func (s *Schema) Empty() bool {
	return s.Ref == "" && len(s.Types) == 0 && s.Const == nil && len(s.Enum) == 0 && len(s.AnyOf) == 0 &&
		len(s.OneOf) == 0 && len(s.AllOf) == 0 && s.Not == nil && s.If == nil && s.Pattern == "" && s.Items == nil &&
		len(s.Properties) == 0 && s.Additional == nil && !s.Closed && len(s.Required) == 0 && s.PropertyNames == nil &&
		s.MinProperties == nil && s.Minimum == nil && s.Maximum == nil && s.ExclusiveMinimum == nil && s.ExclusiveMaximum == nil
}

// AllowNull adds null to the types s accepts (a key that may be written
// with no value).
func (s *Schema) AllowNull() *Schema {
	if len(s.Types) > 0 && !slices.Contains(s.Types, "null") {
		s.Types = append(s.Types, "null")
	}
	return s
}

// Property returns the schema of the named property, or nil.
func (s *Schema) Property(name string) *Schema {
	for _, p := range s.Properties {
		if p.Name == name {
			return p.Schema
		}
	}
	return nil
}

// Without returns a shallow copy of s without the named properties (and
// without them among the required keys).
func (s *Schema) Without(names ...string) *Schema {
	c := *s
	c.Properties = slices.DeleteFunc(slices.Clone(s.Properties), func(p Property) bool { return slices.Contains(names, p.Name) })
	c.Required = slices.DeleteFunc(slices.Clone(s.Required), func(n string) bool { return slices.Contains(names, n) })
	return &c
}

// Walk calls visit for s and every schema inside it, depth first, with a
// JSON-pointer-like path ("/properties/cast/additionalProperties").
func (s *Schema) Walk(path string, visit func(path string, s *Schema)) {
	if s == nil {
		return
	}
	visit(path, s)
	s.Items.Walk(path+"/items", visit)
	for _, p := range s.Properties {
		p.Schema.Walk(path+"/properties/"+p.Name, visit)
	}
	s.PropertyNames.Walk(path+"/propertyNames", visit)
	s.Additional.Walk(path+"/additionalProperties", visit)
	for _, d := range s.Dependencies {
		d.Schema.Walk(path+"/dependencies/"+d.Name, visit)
	}
	for i, a := range s.AnyOf {
		a.Walk(path+"/anyOf/"+itoa(i), visit)
	}
	for i, a := range s.OneOf {
		a.Walk(path+"/oneOf/"+itoa(i), visit)
	}
	for i, a := range s.AllOf {
		a.Walk(path+"/allOf/"+itoa(i), visit)
	}
	s.Not.Walk(path+"/not", visit)
	s.If.Walk(path+"/if", visit)
	s.Then.Walk(path+"/then", visit)
}

func itoa(i int) string { return strconv.Itoa(i) }

// MarshalJSON writes s with its keys in a fixed order: identity, then
// type and value constraints, then structure.
func (s *Schema) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	put := func(key string, v any) error {
		raw, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(raw)
		return nil
	}
	type entry struct {
		key  string
		v    any
		omit bool
	}
	var types any = s.Types
	if len(s.Types) == 1 {
		types = s.Types[0]
	}
	entries := []entry{
		{"$schema", s.Dialect, s.Dialect == ""},
		{"title", s.Title, s.Title == ""},
		{"$ref", s.Ref, s.Ref == ""},
		{"description", s.Description, s.Description == ""},
		{"type", types, len(s.Types) == 0},
		{"const", s.Const, s.Const == nil},
		{"enum", s.Enum, len(s.Enum) == 0},
		{"pattern", s.Pattern, s.Pattern == ""},
		{"minimum", s.Minimum, s.Minimum == nil},
		{"maximum", s.Maximum, s.Maximum == nil},
		{"exclusiveMinimum", s.ExclusiveMinimum, s.ExclusiveMinimum == nil},
		{"exclusiveMaximum", s.ExclusiveMaximum, s.ExclusiveMaximum == nil},
		{"items", s.Items, s.Items == nil},
		{"minItems", s.MinItems, s.MinItems == nil},
		{"maxItems", s.MaxItems, s.MaxItems == nil},
		{"uniqueItems", true, !s.UniqueItems},
		{"properties", orderedProps(s.Properties), len(s.Properties) == 0},
		{"required", s.Required, len(s.Required) == 0},
		{"minProperties", s.MinProperties, s.MinProperties == nil},
		{"propertyNames", s.PropertyNames, s.PropertyNames == nil},
		{"additionalProperties", s.Additional, s.Additional == nil || s.Closed},
		{"additionalProperties", false, !s.Closed},
		{"dependencies", orderedProps(s.Dependencies), len(s.Dependencies) == 0},
		{"anyOf", s.AnyOf, len(s.AnyOf) == 0},
		{"oneOf", s.OneOf, len(s.OneOf) == 0},
		{"allOf", s.AllOf, len(s.AllOf) == 0},
		{"not", s.Not, s.Not == nil},
		{"if", s.If, s.If == nil},
		{"then", s.Then, s.Then == nil},
	}
	for _, e := range entries {
		if e.omit {
			continue
		}
		if err := put(e.key, e.v); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// orderedProps writes properties as a JSON object in their order.
type orderedProps []Property

func (ps orderedProps) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(p.Name)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(p.Schema)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
