package expect

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/jsonschema"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/rules"
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
	rule    string // the pattern's rule, "" when it names none
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
	free     bool     // a string no fixture declares (a subject, a reason): a negative needs it to occur
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
// pattern by the kind it names); a field whose values are a closed set
// lists them (sim.TraceValues), and a reason is one some rule declares
// for the kind (the schema cannot tell which rule a pattern names: the
// loader checks that).
var matchSchema = func() *jsonschema.Schema {
	leaf := func(k trace.Kind, f trace.Field) *jsonschema.Schema {
		if values := sim.TraceValues(k, f.Path); values != nil {
			return jsonschema.Enum(values...)
		}
		if f.Path == "reason" && slices.Contains(trace.Evaluations(), k) {
			return reasonSchema(k)
		}
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
				p.Properties = append(p.Properties, jsonschema.Prop(child, leaf(k, f).Doc("the record's "+f.Path)))
			case f.Shape == trace.ShapeObject:
				obj.Properties = append(obj.Properties, jsonschema.Prop(f.Path, jsonschema.Object().Doc("the record's "+f.Path+", matched field by field")))
			default:
				obj.Properties = append(obj.Properties, jsonschema.Prop(f.Path, leaf(k, f).Doc("the record's "+f.Path)))
			}
		}
		s.OneOf = append(s.OneOf, obj.Doc(article(string(k))+" "+string(k)+" record (docs/trace-schema.md)"))
	}
	return s
}()

// reasonSchema is a reason some rule declares for records of kind k:
// one of the exact ones, or one that begins with the fixed words of one
// that goes on with a name ("kin killed: …").
func reasonSchema(k trace.Kind) *jsonschema.Schema {
	var exact, fixed []string
	for _, r := range rules.Catalogue() {
		for _, reason := range r.Reasons(k) {
			if head, ok := strings.CutSuffix(reason, "…"); ok {
				fixed = append(fixed, regexp.QuoteMeta(head))
			} else {
				exact = append(exact, reason)
			}
		}
	}
	slices.Sort(exact)
	slices.Sort(fixed)
	alts := []*jsonschema.Schema{jsonschema.Enum(slices.Compact(exact)...)}
	if fixed = slices.Compact(fixed); len(fixed) > 0 {
		alts = append(alts, &jsonschema.Schema{Types: []string{"string"}, Pattern: "^(?:" + strings.Join(fixed, "|") + ")"})
	}
	return jsonschema.AnyOf(alts...)
}

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
	var kindNode, ruleNode *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch n.Content[i].Value {
		case "kind":
			kindNode = n.Content[i+1]
		case "rule":
			ruleNode = resolve(n.Content[i+1])
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
	if ruleNode != nil && ruleNode.Kind == yaml.ScalarNode {
		c.rule = ruleNode.Value // checked with the other fields
	}
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
			known := c.valueNames()
			d.Entries(v, p, func(name, val *yaml.Node, vp string) {
				if !slices.Contains(known, name.Value) {
					d.Errorf(name, vp, "%s%s (%s: %s)", c.noValue(name.Value), d.Suggest(name.Value, known), c.valuesOf(), strings.Join(known, ", "))
					return
				}
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
			x, ok := any(nil), false
			dom := c.domain(d, full)
			if dom != nil && f.Shape == trace.ShapeString {
				x, ok = dom(v, p)
			} else {
				x, ok = scalar(d, v, p, f.Shape)
			}
			if ok {
				c.preds = append(c.preds, pred{path: at, scalar: x, free: f.Shape == trace.ShapeString && dom == nil})
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
			// The one set field, an encounter's pair, holds cast members.
			if s := d.NPC(m, mp); s != "" {
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

// valueNames are the value names the pattern's rule writes (every rule's
// when it names none, or names one the loader refuses).
func (c *traceCheck) valueNames() []string {
	if r, ok := rules.Find(c.rule); ok {
		return r.Values
	}
	var all []string
	for _, r := range rules.Catalogue() {
		all = append(all, r.Values...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// noValue and valuesOf say which rules' values a pattern's were checked
// against.
func (c *traceCheck) noValue(name string) string {
	if _, ok := rules.Find(c.rule); ok {
		return fmt.Sprintf("rule %s writes no value %q", c.rule, name)
	}
	return fmt.Sprintf("no rule writes a value %q", name)
}

func (c *traceCheck) valuesOf() string {
	if _, ok := rules.Find(c.rule); ok {
		return "its values"
	}
	return "the rules' values"
}

// domain returns how a pattern's string field is decoded when its value
// is something the fixture declares — a cast member, a claim, a location,
// a rule, a role — or one of a closed set the engine lists — a reason of
// the pattern's rule, a belief's change or stage, an obligation's state,
// an event's kind (sim.TraceValues) — so a misspelt value is refused
// where it is written instead of matching nothing (and a negative passing
// by it); nil for a free string (a subject, an id, a cause), whose value
// a negative must find in the records it examines instead (Finish). The
// function reports whether the value decoded.
func (c *traceCheck) domain(d Decoder, path string) func(*yaml.Node, string) (string, bool) {
	type decode = func(*yaml.Node, string) (string, bool)
	id := func(f func(*yaml.Node, string) string) decode {
		return func(n *yaml.Node, p string) (string, bool) { s := f(n, p); return s, s != "" }
	}
	enum := func(what string, names []string, read func(*yaml.Node, string) string) decode {
		return id(func(n *yaml.Node, p string) string {
			v := read(n, p)
			if v != "" && !slices.Contains(names, v) {
				d.Errorf(n, p, "unknown %s %q%s (%ss: %s)", what, v, d.Suggest(v, names), what, strings.Join(names, ", "))
				return ""
			}
			return v
		})
	}
	kind := c.kind
	if values := sim.TraceValues(trace.Kind(kind), path); values != nil {
		what, named := closedNames[path]
		if !named {
			what = kind + " " + path
		}
		return enum(what, values, d.Str)
	}
	if path == "reason" && slices.Contains(trace.Evaluations(), trace.Kind(kind)) {
		return c.reason(d)
	}
	rule := enum("rule", rules.Names(), d.Ident)
	npc, claim, variant := id(d.NPC), id(d.Claim), id(d.VariantID)
	// A vacant role's record has no holder: "" matches it.
	holder := func(n *yaml.Node, p string) (string, bool) {
		if r := resolve(n); r.Kind == yaml.ScalarNode && r.Tag == "!!str" && r.Value == "" {
			return "", true
		}
		return npc(n, p)
	}
	switch trace.Kind(kind) {
	case trace.KindTransmission:
		return map[string]decode{"teller": npc, "listener": npc, "claim": claim, "variant": variant, "rule": rule}[path]
	case trace.KindBelief:
		return map[string]decode{"holder": npc, "claim": claim, "variant": variant}[path]
	case trace.KindSupersession:
		return map[string]decode{"holder": npc, "claim": claim, "loser": variant, "winner": variant}[path]
	case trace.KindEncounter:
		return map[string]decode{"site": id(d.Location)}[path]
	case trace.KindGrudge:
		return map[string]decode{"holder": npc, "target": id(d.Entity), "rule": rule}[path]
	case trace.KindObligation:
		return map[string]decode{"creditor": id(d.Party), "debtor": id(d.Party), "rule": rule}[path]
	case trace.KindReputation:
		return map[string]decode{"observer": npc, "subject": id(d.Entity), "rule": rule}[path]
	case trace.KindSchedule:
		return map[string]decode{"npc": npc, "at": id(d.Location), "rule": rule}[path]
	case trace.KindRole:
		return map[string]decode{"role": id(d.Role), "holder": holder, "previous": holder, "rule": rule}[path]
	case trace.KindEvent:
		return map[string]decode{"rule": rule}[path]
	case trace.KindRule:
		return map[string]decode{"rule": rule}[path]
	}
	return nil
}

// closedNames name a closed set's field in messages where its path alone
// would not ("unknown event kind", not "unknown event event").
var closedNames = map[string]string{"roll.purpose": "roll purpose", "event": "event kind", "dimension": "reputation dimension"}

// reason decodes a rule or transmission record's reason, which must be
// one the pattern's rule declares for that record kind
// (rules.Rule.Reasons), or, when the pattern names no rule, one some rule
// does. A reason that goes on with a name ("kin killed: hroki") is
// checked up to the name, which no list holds.
func (c *traceCheck) reason(d Decoder) func(*yaml.Node, string) (string, bool) {
	return func(n *yaml.Node, p string) (string, bool) {
		before := d.Errors()
		v := d.Str(n, p)
		if d.Errors() != before {
			return "", false
		}
		k := trace.Kind(c.kind)
		named, ok := rules.Find(c.rule)
		cat := []rules.Rule{named}
		if !ok {
			cat = rules.Catalogue()
		}
		var known []string
		for _, r := range cat {
			if r.Declares(k, v) {
				return v, true
			}
			known = append(known, r.Reasons(k)...)
		}
		slices.Sort(known)
		known = slices.Compact(known)
		what, whose := fmt.Sprintf("no rule writes %s %s record", article(c.kind), c.kind), "the rules' reasons"
		if ok {
			what, whose = fmt.Sprintf("rule %s writes no %s record", c.rule, c.kind), "its reasons"
		}
		elsewhere := ""
		for _, other := range trace.Evaluations() {
			if other != k && slices.ContainsFunc(cat, func(r rules.Rule) bool { return r.Declares(other, v) }) {
				elsewhere = fmt.Sprintf("; that reason is a %s record's", other)
			}
		}
		d.Errorf(n, p, "%s with reason %q%s%s (%s: %s)", what, v, suggestReason(d, v, known), elsewhere, whose, strings.Join(known, "; "))
		return "", false
	}
}

// suggestReason is the did-you-mean for a reason: the closest declared
// one, or, for a reason that goes on with a name, the pattern whose fixed
// words are closest to the reason's beginning ("kin killed: …").
func suggestReason(d Decoder, v string, known []string) string {
	var exact []string
	for _, r := range known {
		if !strings.HasSuffix(r, "…") {
			exact = append(exact, r)
		}
	}
	if s := d.Suggest(v, exact); s != "" {
		return s
	}
	for _, r := range known {
		if fixed, ok := strings.CutSuffix(r, "…"); ok {
			head := v[:min(len(v), len(fixed))]
			if d.Suggest(head, []string{fixed}) != "" {
				return d.Suggest(head+"…", []string{r})
			}
		}
	}
	return ""
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
	if c.negative() {
		c.candidate(r, o)
	}
	for _, p := range c.preds {
		if !p.holds(r) {
			return
		}
	}
	if o.Matched == 0 {
		// The first record that matched is what a failed negative's
		// link opens: the row that shows the pattern did happen.
		seq, _ := r["seq"].(float64)
		tick, _ := r["tick"].(float64)
		o.About("trace", strconv.FormatInt(int64(seq), 10))
		o.firstMatch = int64(tick)
	}
	o.Matched++
}

// negative reports whether the check denies: exists: false, or count: 0.
func (c *traceCheck) negative() bool {
	return (c.count != nil && c.count.v == 0) || (c.count == nil && !c.exists)
}

var _ Evaluating = (*traceCheck)(nil)

// Evaluates is, for a negative about a rule, that rule over the range: a
// pattern that names a rule, whatever its record kind, or an event record
// pattern that names an event kind a rule derives (an escalation). A rule
// that was never evaluated in the range wrote no record the pattern could
// have matched, so denying one there proves nothing.
func (c *traceCheck) Evaluates(w When) ([]string, When) {
	if !c.negative() {
		return nil, w
	}
	if c.rule != "" {
		return []string{c.rule}, w
	}
	for _, p := range c.preds {
		if c.kind == string(trace.KindEvent) && p.path[0] == "event" {
			if rule := sim.DerivedBy(p.scalar.(string)); rule != "" {
				return []string{rule}, w
			}
		}
	}
	return nil, w
}

// negAt is where a negative says so.
func (c *traceCheck) negAt() Pos {
	if c.count != nil {
		return c.count.at
	}
	return c.notAt
}

// named is a negative's per-run record of which of its identity fields
// (a subject, an id, a cause) some examined record held.
type named []bool

// candidate notes, for a negative, which of the pattern's identities r
// holds: each must name something the run wrote, or the negative examined
// nothing about it.
func (c *traceCheck) candidate(r Record, o *Outcome) {
	seen, _ := o.state.(named)
	if seen == nil {
		seen = make(named, len(c.preds))
		o.state = seen
	}
	for i, p := range c.preds {
		if p.free && !seen[i] && p.holds(r) {
			seen[i] = true
		}
	}
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

// Finish judges the count over the range. A timed one's failure is
// placed at its range's first tick, so it sorts among the run's problems
// by where it looked rather than last; an untimed one is a judgement of
// the whole run, with no tick.
func (c *traceCheck) Finish(o *Outcome) {
	n, w := o.Matched, o.When
	at := int64(-1)
	if o.Timed {
		at, o.ranged = w.From, true
	}
	switch {
	case c.count == nil && c.exists && n == 0:
		o.Fail(at, c.matchAt, "no trace record matches %s in ticks [%d, %d] (of %d %s examined)", c.show, w.From, w.To, o.Examined, c.Unit())
	case c.negative() && n > 0:
		// Found, not judged over the range: placed at the first record
		// that matched, which the failure links to.
		o.ranged = false
		at, pos := o.firstMatch, c.notAt
		if c.count != nil {
			pos = c.count.at
		}
		o.Fail(at, pos, "%d trace records match %s in ticks [%d, %d], want none", n, c.show, w.From, w.To)
	case c.count != nil && n != c.count.v:
		o.Fail(at, c.count.at, "%d trace records match %s in ticks [%d, %d], want %d", n, c.show, w.From, w.To, c.count.v)
	case c.negative() && o.Examined > 0:
		c.couldMatch(o)
	}
}

// couldMatch fails a passing negative that could not have matched: a
// rule the world cannot evaluate, a kind of state it has no source of, a
// rule no record in the range shows evaluated (Evaluates), or an identity
// (a subject, an id, a cause) no record in the range held. What the
// fixture alone shows comes first, as it says best why: a disabled rule,
// a layer the world does not use.
func (c *traceCheck) couldMatch(o *Outcome) {
	at, unit := c.negAt(), c.Unit()
	if c.rule != "" && !o.needRule(at, unit, c.rule) {
		return
	}
	if state, ok := layerOf[trace.Kind(c.kind)]; ok && !o.needSource(at, unit, state) {
		return
	}
	for _, p := range c.preds {
		if p.path[0] == "event" && c.kind == string(trace.KindEvent) && !o.needEvent(at, unit, p.scalar.(string)) {
			return
		}
	}
	if rules, in := c.Evaluates(o.When); !o.needEvaluated(at, unit, rules, in) {
		return
	}
	seen, _ := o.state.(named)
	for i, p := range c.preds {
		if p.free && (seen == nil || !seen[i]) {
			o.couldNot(at, unit, fmt.Sprintf("no %s record in the range has %s %q, so the pattern names nothing the run wrote", c.kind, strings.Join(p.path, "."), p.scalar))
			return
		}
	}
}

// layerOf is the state each layer's record kind reports changes of.
var layerOf = map[trace.Kind]string{
	trace.KindGrudge: "grudges", trace.KindObligation: "obligations", trace.KindReputation: "reputation",
	trace.KindSchedule: "schedules", trace.KindRole: "roles",
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
