package expect

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/jsonschema"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/trace"
)

// trace counts the trace records that match a pattern, over the records
// whose tick is in the range (the whole run unless timed), reading each
// record once as the run streams them. With count the number of matches
// must equal it; otherwise at least one must exist, or none with
// exists: false.
//
// The pattern names the record kind and any of that kind's fields
// (sim/trace's schema); a field the kind does not have is refused at load
// time with a suggestion. Scalars compare exactly (numbers bit for bit);
// nested objects (roll) match field by field; a rule's values match the
// names given. A set field (an encounter's pair) given as a list matches
// when the record holds exactly those members, in any order; spelled
// {includes: [a, …]} it matches when the record holds at least those.
//
//	trace: {match: {kind: encounter, pair: {includes: [caravaneer]}}, exists: false}
//
// It examines the records of the pattern's kind in the range: a negative
// or counting match over a range with no record of that kind at all has
// checked nothing and fails.
type traceKind struct{}

func (traceKind) Name() string   { return "trace" }
func (traceKind) Timing() Timing { return WholeRun }
func (traceKind) Doc() string {
	return "trace records matching a pattern exist (at least one, exactly count, or none with exists: false); the whole run unless timed"
}

type traceCheck struct {
	kind    string
	preds   []pred
	show    string // the pattern as canonical JSON, for messages
	matchAt Pos
	count   *posInt
	exists  bool
	notAt   Pos // of exists: false
}

// pred is one field of a pattern.
type pred struct {
	path     []string
	scalar   any      // string, float64 or bool
	set      []string // exact set, sorted
	includes []string // subset
	isSet    bool
	isSubset bool
}

func (traceKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &traceCheck{exists: true}
	var match *yaml.Node
	d.Object(n, path,
		Field{Name: "match", Required: true, Doc: "the pattern: the record kind and any of that kind's fields", Schema: matchSchema, Decode: func(v *yaml.Node, _ string) { match = v }},
		Field{Name: "count", Doc: "exactly this many records match (count: 0 is exists: false)", Schema: (&jsonschema.Schema{}).Min(0), Decode: func(v *yaml.Node, p string) {
			if x, ok := d.Int(v, p); ok {
				if x < 0 {
					d.Errorf(v, p, "count must not be negative")
				}
				c.count = &posInt{x, PosOf(v)}
			}
		}},
		Field{Name: "exists", Doc: "false: no record matches", Decode: func(v *yaml.Node, p string) {
			if b, ok := d.Bool(v, p); ok {
				c.exists, c.notAt = b, PosOf(v)
			}
		}},
	)
	d.Exclusive(n, path, "give count or exists: false, not both (count: 0 is exists: false)", []string{"count"}, []string{"exists: false"})
	if match != nil {
		c.matchAt = PosOf(match)
		shown := c.decodeMatch(d, match, path+".match")
		b, _ := canon.Marshal(shown)
		c.show = string(b)
	}
	return c
}

// matchSchema is what a pattern accepts, one alternative per record kind,
// from sim/trace's schema of each kind's fields (decodeMatch reads the
// pattern by the kind it names).
var matchSchema = func() *jsonschema.Schema {
	leaf := func(f trace.Field) *jsonschema.Schema {
		switch f.Shape {
		case trace.ShapeNumber:
			return jsonschema.Number()
		case trace.ShapeBool:
			return jsonschema.Boolean()
		case trace.ShapeOpenObject:
			return jsonschema.Map(jsonschema.String(), jsonschema.Number()).Doc("values by name; those given must match")
		case trace.ShapeSet:
			members := jsonschema.Array(jsonschema.String())
			if f.Size > 0 {
				members.MinItems, members.MaxItems = new(f.Size), new(f.Size)
			}
			includes := jsonschema.Array(jsonschema.String())
			includes.MinItems = new(1)
			return jsonschema.AnyOf(members.Doc("exactly these members, in any order"),
				jsonschema.Object(jsonschema.Prop("includes", includes.Doc("at least these members"))).Require("includes"))
		}
		return jsonschema.String()
	}
	s := &jsonschema.Schema{}
	for _, k := range trace.Kinds() {
		obj := jsonschema.Object(jsonschema.Prop("kind", jsonschema.Const(string(k)))).Require("kind")
		for _, f := range trace.Fields(k) {
			parent, child, nested := strings.Cut(f.Path, ".")
			switch {
			case f.Path == "kind", f.Shape == trace.ShapeTable:
				// The kind is given above; a table cannot be matched.
			case nested:
				p := obj.Property(parent)
				p.Properties = append(p.Properties, jsonschema.Prop(child, leaf(f).Doc("the record's "+f.Path)))
			case f.Shape == trace.ShapeObject:
				obj.Properties = append(obj.Properties, jsonschema.Prop(f.Path, jsonschema.Object().Doc("the record's "+f.Path+", matched field by field")))
			default:
				obj.Properties = append(obj.Properties, jsonschema.Prop(f.Path, leaf(f).Doc("the record's "+f.Path)))
			}
		}
		s.OneOf = append(s.OneOf, obj.Doc(article(string(k))+" "+string(k)+" record (docs/trace-schema.md)"))
	}
	return s
}()

func kindNames() []string {
	var out []string
	for _, k := range trace.Kinds() {
		out = append(out, string(k))
	}
	return out
}

func (c *traceCheck) decodeMatch(d Decoder, n *yaml.Node, path string) map[string]any {
	n = resolve(n)
	shown := map[string]any{}
	if n.Kind != yaml.MappingNode {
		d.Errorf(n, path, "want a mapping of record fields with the record kind (kind: %s)", strings.Join(kindNames(), ", "))
		return shown
	}
	var kindNode *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "kind" {
			kindNode = n.Content[i+1]
		}
	}
	if kindNode == nil {
		d.Errorf(n, path, "a trace match names the record kind (kind: %s)", strings.Join(kindNames(), ", "))
		return shown
	}
	c.kind = d.Str(kindNode, path+".kind")
	if c.kind == "" {
		return shown
	}
	if !slices.Contains(kindNames(), c.kind) {
		d.Errorf(kindNode, path+".kind", "unknown record kind %q%s (kinds: %s)", c.kind, d.Suggest(c.kind, kindNames()), strings.Join(kindNames(), ", "))
		return shown
	}
	shown["kind"] = c.kind
	fields := trace.Fields(trace.Kind(c.kind))
	c.fields(d, n, path, nil, fields, shown)
	return shown
}

// fields decodes the keys of a pattern mapping at prefix (nil at the top).
func (c *traceCheck) fields(d Decoder, n *yaml.Node, path string, prefix []string, schema []trace.Field, shown map[string]any) {
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolve(n.Content[i+1])
		p := path + "." + k.Value
		if seen[k.Value] {
			d.Errorf(k, p, "duplicate key")
			continue
		}
		seen[k.Value] = true
		if len(prefix) == 0 && k.Value == "kind" {
			continue
		}
		full := strings.Join(append(slices.Clone(prefix), k.Value), ".")
		i := slices.IndexFunc(schema, func(f trace.Field) bool { return f.Path == full })
		if i < 0 {
			var names []string
			for _, f := range schema {
				parent, name, nested := strings.Cut(f.Path, ".")
				if (len(prefix) == 0 && !nested) || (len(prefix) == 1 && nested && parent == prefix[0]) {
					if !nested {
						name = parent
					}
					names = append(names, name)
				}
			}
			d.Errorf(k, p, "%s %s record has no field %q%s (fields: %s)", article(c.kind), c.kind, full, d.Suggest(k.Value, names), strings.Join(names, ", "))
			continue
		}
		at := append(slices.Clone(prefix), k.Value)
		switch f := schema[i]; f.Shape {
		case trace.ShapeObject:
			if v.Kind != yaml.MappingNode {
				d.Errorf(v, p, "%s is an object: match its fields as a mapping", full)
				continue
			}
			sub := map[string]any{}
			shown[k.Value] = sub
			c.fields(d, v, p, at, schema, sub)
		case trace.ShapeOpenObject:
			sub := map[string]any{}
			shown[k.Value] = sub
			d.Entries(v, p, func(name, val *yaml.Node, vp string) {
				if x, ok := d.Float(val, vp); ok {
					c.preds = append(c.preds, pred{path: append(slices.Clone(at), name.Value), scalar: x})
					sub[name.Value] = x
				}
			})
		case trace.ShapeSet:
			c.set(d, v, p, at, shown, k.Value, f.Size)
		case trace.ShapeTable:
			d.Errorf(k, p, "%s is a table of records and cannot be matched; check the state with belief, holders or npc expectations", full)
		default:
			if x, ok := scalar(d, v, p, f.Shape); ok {
				c.preds = append(c.preds, pred{path: at, scalar: x})
				shown[k.Value] = x
			}
		}
	}
}

// set decodes a set field: a list (the exact set) or {includes: list}.
func (c *traceCheck) set(d Decoder, v *yaml.Node, p string, at []string, shown map[string]any, key string, size int) {
	members := func(l *yaml.Node, lp string) []string {
		out := []string{}
		d.List(l, lp, func(_ int, m *yaml.Node, mp string) {
			if s := d.Str(m, mp); s != "" {
				out = append(out, s)
			}
		})
		return out
	}
	switch v.Kind {
	case yaml.SequenceNode:
		s := members(v, p)
		if size > 0 && len(v.Content) != size {
			// A pair given one member matches nothing, so "never meets
			// anyone" would pass without looking.
			d.Errorf(v, p, "%s always has %d members, got %d; to match records whose %s includes some, write %s: {includes: [...]}", strings.Join(at, "."), size, len(v.Content), key, key)
			return
		}
		shown[key] = anys(s)
		c.preds = append(c.preds, pred{path: at, set: slices.Sorted(slices.Values(s)), isSet: true})
	case yaml.MappingNode:
		var inc []string
		d.Object(v, p, Field{Name: "includes", Required: true, Decode: func(l *yaml.Node, lp string) {
			inc = members(l, lp)
			switch n := len(resolve(l).Content); {
			case n == 0:
				d.Errorf(l, lp, "includes: [] matches every record; name at least one member")
			case size > 0 && n > size:
				d.Errorf(l, lp, "%s has %d members; includes names %d, so it matches nothing", strings.Join(at, "."), size, n)
			}
		}})
		shown[key] = map[string]any{"includes": anys(inc)}
		c.preds = append(c.preds, pred{path: at, includes: inc, isSubset: true})
	default:
		d.Errorf(v, p, "%s is a set: give its members as a list (exactly those, any order) or {includes: [...]} (at least those)", strings.Join(at, "."))
	}
}

func scalar(d Decoder, v *yaml.Node, p string, shape trace.Shape) (any, bool) {
	switch shape {
	case trace.ShapeNumber:
		return d.Float(v, p)
	case trace.ShapeBool:
		return d.Bool(v, p)
	default:
		// Ids and reasons are strings in the file: Str refuses a bare
		// number or bool, which could never match one.
		before := d.Errors()
		s := d.Str(v, p)
		return s, d.Errors() == before
	}
}

func (c *traceCheck) Unit() string { return c.kind + " records" }

func (c *traceCheck) TraceKind() string { return c.kind }

var _ KindedTraceCheck = (*traceCheck)(nil)

func (c *traceCheck) ObserveTrace(r Record, o *Outcome) {
	if r["kind"] != c.kind {
		return
	}
	o.Examine(1)
	for _, p := range c.preds {
		if !p.holds(r) {
			return
		}
	}
	o.Matched++
}

func (p pred) holds(r Record) bool {
	var v any = map[string]any(r)
	for _, k := range p.path {
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		if v, ok = m[k]; !ok {
			return false
		}
	}
	switch {
	case p.isSet || p.isSubset:
		l, ok := v.([]any)
		if !ok {
			return false
		}
		got := make([]string, 0, len(l))
		for _, x := range l {
			s, ok := x.(string)
			if !ok {
				return false
			}
			got = append(got, s)
		}
		if p.isSubset {
			return len(minus(p.includes, got)) == 0
		}
		slices.Sort(got)
		return slices.Equal(got, p.set)
	}
	if f, ok := p.scalar.(float64); ok {
		g, ok := v.(float64)
		return ok && SameFloat(f, g)
	}
	return v == p.scalar
}

func (c *traceCheck) Finish(o *Outcome) {
	n, w := o.Matched, o.When
	switch {
	case c.count != nil && n != c.count.v:
		o.Fail(-1, c.count.at, "%d trace records match %s in ticks [%d, %d], want %d", n, c.show, w.From, w.To, c.count.v)
	case c.count == nil && c.exists && n == 0:
		o.Fail(-1, c.matchAt, "no trace record matches %s in ticks [%d, %d] (of %d %s examined)", c.show, w.From, w.To, o.Examined, c.Unit())
	case c.count == nil && !c.exists && n > 0:
		o.Fail(-1, c.notAt, "%d trace records match %s in ticks [%d, %d], want none", n, c.show, w.From, w.To)
	}
}

func anys(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// article is "an" before a vowel, else "a".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}
