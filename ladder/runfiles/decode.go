package runfiles

import (
	"fmt"
	"maps"
	"slices"

	cmp "github.com/chronicle/ladder/ladder/compare"
	"github.com/chronicle/ladder/ladder/recfields"
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
	d := recfields.Of(rec.Fields)
	var b trace.Body
	switch trace.Kind(rec.Kind) {
	case trace.KindRule:
		b = &trace.RuleEval{Rule: d.Str("rule"), Subject: d.Str("subject"), Fired: d.Bool("fired"), Reason: d.Str("reason"), Values: values(d, "values")}
	case trace.KindEvent:
		b = &trace.Event{ID: d.Str("id"), EventKind: d.Str("event"), LogSeq: d.Integer("log_seq"), Hash: d.Str("hash"), Rule: d.Str("rule"), Cause: d.Str("cause")}
	case trace.KindGrudge:
		b = &trace.Grudge{Holder: d.Str("holder"), Target: d.Str("target"), Change: d.Str("change"),
			Emotional: d.Number("emotional"), Evidentiary: d.Number("evidentiary"), Rule: d.Str("rule"), Cause: d.Str("cause")}
	case trace.KindObligation:
		b = &trace.Obligation{ID: d.Str("id"), Favour: d.Str("favour"), Creditor: d.Str("creditor"), Debtor: d.Str("debtor"),
			State: d.Str("state"), Rule: d.Str("rule"), Cause: d.Str("cause")}
	case trace.KindReputation:
		b = &trace.Reputation{Observer: d.Str("observer"), Subject: d.Str("subject"), Dimension: d.Str("dimension"),
			Alpha: d.Number("alpha"), Beta: d.Number("beta"), Mean: d.Number("mean"), Rule: d.Str("rule"), Cause: d.Str("cause")}
	case trace.KindSchedule:
		b = &trace.Schedule{NPC: d.Str("npc"), Change: d.Str("change"), Override: d.Str("override"), At: d.Str("at"),
			From: d.Integer("from"), To: d.Integer("to"), Rule: d.Str("rule"), Cause: d.Str("cause")}
	case trace.KindRole:
		b = &trace.Role{Role: d.Str("role"), Change: d.Str("change"), Holder: d.Str("holder"), Previous: d.Str("previous"),
			Rule: d.Str("rule"), Cause: d.Str("cause")}
	default:
		return nil, nil
	}
	if err := d.Err(); err != nil {
		return nil, fmt.Errorf("%s record: %w", rec.Kind, err)
	}
	return b, nil
}

// values reads a rule's named values, written as an object, sorted by
// name (the order the encoder writes them in).
func values(d *recfields.Fields, k string) []trace.Value {
	m := d.Object(k)
	var out []trace.Value
	for _, name := range slices.Sorted(maps.Keys(m)) {
		x, ok := m[name].(float64)
		if !ok {
			d.Wrong(k+"."+name, m[name], "a number")
		}
		out = append(out, trace.Value{Name: name, Value: x})
	}
	return out
}
