package expect

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/jsonschema"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/events"
)

// events counts the canonical events of one kind whose tick is in the
// range (the whole run unless timed) and demands the count. It examines
// every canonical event in the range, of any kind: with none at all, even
// count: 0 has checked nothing.
//
//	events: {kind: death, count: 1}
type eventsKind struct{}

func (eventsKind) Name() string   { return "events" }
func (eventsKind) Timing() Timing { return WholeRun }
func (eventsKind) Doc() string {
	return "the number of canonical events of one kind in the range; the whole run unless timed"
}

type eventsCheck struct {
	kind  string
	count *posInt
}

func (eventsKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &eventsCheck{}
	d.Object(n, path,
		Field{Name: "kind", Required: true, Doc: "the canonical event kind counted, injected or engine-made", Schema: jsonschema.Enum(d.EventKinds()...), Decode: func(v *yaml.Node, p string) {
			c.kind = d.Ident(v, p)
			if kinds := d.EventKinds(); c.kind != "" && !slices.Contains(kinds, c.kind) {
				d.Errorf(v, p, "unknown event kind %q%s (kinds: %s)", c.kind, d.Suggest(c.kind, kinds), strings.Join(kinds, ", "))
			}
		}},
		Field{Name: "count", Required: true, Doc: "how many", Schema: (&jsonschema.Schema{}).Min(0), Decode: func(v *yaml.Node, p string) {
			if x, ok := d.Int(v, p); ok {
				if x < 0 {
					d.Errorf(v, p, "count must not be negative: no range holds fewer than no events")
					return
				}
				c.count = &posInt{x, PosOf(v)}
			}
		}},
	)
	return c
}

func (c *eventsCheck) Unit() string { return "canonical events" }

func (c *eventsCheck) ObserveEvent(r events.Record, o *Outcome) {
	o.Examine(1)
	if r.Event.Kind == c.kind {
		o.Matched++
	}
}

func (c *eventsCheck) Finish(o *Outcome) {
	switch {
	case o.Matched != c.count.v:
		o.Fail(-1, c.count.at, "%d %s events in ticks [%d, %d], want %d", o.Matched, c.kind, o.When.From, o.When.To, c.count.v)
	case c.count.v == 0 && o.Examined > 0:
		// None of a kind this world cannot append, or that the rule
		// deriving it never got to evaluate, proves nothing.
		if o.needEvent(c.count.at, c.Unit(), c.kind) {
			rules, in := c.Evaluates(o.When)
			o.needEvaluated(c.count.at, c.Unit(), rules, in)
		}
	}
}

var _ Evaluating = (*eventsCheck)(nil)

// Evaluates is, for a count of none of a kind a rule derives (an
// escalation, a vacancy), that rule over the range: a rule that never
// evaluated there could not have appended one.
func (c *eventsCheck) Evaluates(w When) ([]string, When) {
	if rule := sim.DerivedBy(c.kind); rule != "" && c.count != nil && c.count.v == 0 {
		return []string{rule}, w
	}
	return nil, w
}
