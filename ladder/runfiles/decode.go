package runfiles

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	cmp "github.com/chronicle/ladder/ladder/compare"
	"github.com/chronicle/ladder/sim/trace"
)

// Decode returns a record read from a file as the engine's record type,
// for the kinds the triage instruments show: rule evaluations, events and
// the social layer's changes (grudge, obligation, reputation, schedule,
// role). Every field those kinds write is set, except a rule's roll,
// which no instrument prints. Other kinds give nil. A field of the wrong
// type is an error naming it; a field the record leaves out is its zero
// value, as the encoder leaves out a schedule's open end.
func Decode(rec cmp.Record) (trace.Body, error) {
	d := decoder{f: rec.Fields}
	var b trace.Body
	switch trace.Kind(rec.Kind) {
	case trace.KindRule:
		b = &trace.RuleEval{Rule: d.str("rule"), Subject: d.str("subject"), Fired: d.boolean("fired"), Reason: d.str("reason"), Values: d.values("values")}
	case trace.KindEvent:
		b = &trace.Event{ID: d.str("id"), EventKind: d.str("event"), LogSeq: d.integer("log_seq"), Hash: d.str("hash"), Rule: d.str("rule"), Cause: d.str("cause")}
	case trace.KindGrudge:
		b = &trace.Grudge{Holder: d.str("holder"), Target: d.str("target"), Change: d.str("change"),
			Emotional: d.number("emotional"), Evidentiary: d.number("evidentiary"), Rule: d.str("rule"), Cause: d.str("cause")}
	case trace.KindObligation:
		b = &trace.Obligation{ID: d.str("id"), Favour: d.str("favour"), Creditor: d.str("creditor"), Debtor: d.str("debtor"),
			State: d.str("state"), Rule: d.str("rule"), Cause: d.str("cause")}
	case trace.KindReputation:
		b = &trace.Reputation{Observer: d.str("observer"), Subject: d.str("subject"), Dimension: d.str("dimension"),
			Alpha: d.number("alpha"), Beta: d.number("beta"), Mean: d.number("mean"), Rule: d.str("rule"), Cause: d.str("cause")}
	case trace.KindSchedule:
		b = &trace.Schedule{NPC: d.str("npc"), Change: d.str("change"), Override: d.str("override"), At: d.str("at"),
			From: d.integer("from"), To: d.integer("to"), Rule: d.str("rule"), Cause: d.str("cause")}
	case trace.KindRole:
		b = &trace.Role{Role: d.str("role"), Change: d.str("change"), Holder: d.str("holder"), Previous: d.str("previous"),
			Rule: d.str("rule"), Cause: d.str("cause")}
	default:
		return nil, nil
	}
	if len(d.bad) > 0 {
		return nil, fmt.Errorf("%s record: %s", rec.Kind, strings.Join(d.bad, "; "))
	}
	return b, nil
}

// decoder reads fields of one decoded JSON object, collecting every field
// of the wrong type.
type decoder struct {
	f   map[string]any
	bad []string
}

func (d *decoder) wrong(k string, v any, want string) {
	d.bad = append(d.bad, fmt.Sprintf("%s is %T, want %s", k, v, want))
}

// field reads field k as a T: the zero T when the record leaves it out,
// and a wrong-type note (want names T) when it holds something else.
func field[T any](d *decoder, k, want string) T {
	var x T
	v, ok := d.f[k]
	if !ok {
		return x
	}
	x, ok = v.(T)
	if !ok {
		d.wrong(k, v, want)
	}
	return x
}

func (d *decoder) str(k string) string     { return field[string](d, k, "a string") }
func (d *decoder) boolean(k string) bool   { return field[bool](d, k, "a bool") }
func (d *decoder) number(k string) float64 { return field[float64](d, k, "a number") }

func (d *decoder) integer(k string) int64 {
	x := d.number(k)
	if x != float64(int64(x)) {
		d.wrong(k, x, "an integer")
	}
	return int64(x)
}

// values reads a rule's named values, written as an object, sorted by
// name (the order the encoder writes them in).
func (d *decoder) values(k string) []trace.Value {
	v, ok := d.f[k]
	if !ok {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		d.wrong(k, v, "an object")
		return nil
	}
	var out []trace.Value
	for _, name := range slices.Sorted(maps.Keys(m)) {
		x, ok := m[name].(float64)
		if !ok {
			d.wrong(k+"."+name, m[name], "a number")
		}
		out = append(out, trace.Value{Name: name, Value: x})
	}
	return out
}
