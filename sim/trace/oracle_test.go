package trace_test

import (
	"fmt"

	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/trace"
)

// The oracle is the trace format written the slow, obvious way: each
// record as a canon.Object whose fields are listed in any order and
// sorted by canon.Marshal. It is how the encoders were first written;
// the hand-written encoders must give the same bytes and the same errors
// for every record of every kind. A new kind gets its oracle here first.

// oracleLine returns a record's line as canon.Marshal writes it.
func oracleLine(r trace.Record, b events.Branch) ([]byte, error) {
	fs, err := oracleFields(r.Body)
	if err != nil {
		return nil, err
	}
	obj := append(fs,
		canon.Field{Key: "branch", Value: canon.Object{{Key: "generation", Value: b.Generation}, {Key: "save_uuid", Value: b.SaveUUID}}},
		canon.Field{Key: "kind", Value: string(r.Body.Kind())},
		canon.Field{Key: "seq", Value: r.Seq},
		canon.Field{Key: "tick", Value: r.Tick},
	)
	line, err := canon.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("trace record %d (tick %d, %s): %w", r.Seq, r.Tick, r.Body.Kind(), err)
	}
	return append(line, '\n'), nil
}

func oracleRoll(r trace.Roll) canon.Object {
	return canon.Object{
		{Key: "key", Value: r.Roll.Key.String()},
		{Key: "natural", Value: r.Roll.Natural},
		{Key: "pinned", Value: r.Roll.Pinned},
		{Key: "purpose", Value: r.Roll.Key.Purpose},
		{Key: "threshold", Value: r.Threshold},
		{Key: "value", Value: r.Roll.Value},
	}
}

// oracleFields returns a body's own fields; it accepts a kind as a value
// or a pointer.
func oracleFields(body trace.Body) (canon.Object, error) {
	switch b := body.(type) {
	case *trace.Encounter:
		return oracleFields(*b)
	case trace.Encounter:
		return canon.Object{
			{Key: "fired", Value: b.Fired},
			{Key: "id", Value: b.ID()},
			{Key: "pair", Value: []string{b.Pair[0], b.Pair[1]}},
			{Key: "roll", Value: oracleRoll(b.Roll)},
			{Key: "site", Value: b.Site},
		}, nil
	case *trace.Transmission:
		return oracleFields(*b)
	case trace.Transmission:
		out := canon.Object{
			{Key: "claim", Value: b.Claim},
			{Key: "fired", Value: b.Fired},
			{Key: "listener", Value: b.Listener},
			{Key: "reason", Value: b.Reason},
			{Key: "rule", Value: b.Rule},
			{Key: "teller", Value: b.Teller},
			{Key: "variant", Value: b.Variant},
			{Key: "via", Value: b.Via},
		}
		if b.Fired {
			out = append(out, canon.Field{Key: "confidence", Value: b.Confidence})
		}
		return out, nil
	case *trace.RuleEval:
		return oracleFields(*b)
	case trace.RuleEval:
		vals := make(canon.Object, len(b.Values))
		for i, v := range b.Values {
			vals[i] = canon.Field{Key: v.Name, Value: v.Value}
		}
		out := canon.Object{
			{Key: "fired", Value: b.Fired},
			{Key: "reason", Value: b.Reason},
			{Key: "rule", Value: b.Rule},
			{Key: "subject", Value: b.Subject},
			{Key: "values", Value: vals},
		}
		if b.Roll != nil {
			out = append(out, canon.Field{Key: "roll", Value: oracleRoll(*b.Roll)})
		}
		return out, nil
	case *trace.Supersession:
		return oracleFields(*b)
	case trace.Supersession:
		return canon.Object{
			{Key: "claim", Value: b.Claim},
			{Key: "holder", Value: b.Holder},
			{Key: "kept", Value: b.Kept},
			{Key: "loser", Value: b.Loser},
			{Key: "via", Value: b.Via},
			{Key: "winner", Value: b.Winner},
		}, nil
	case *trace.Event:
		return oracleFields(*b)
	case trace.Event:
		return canon.Object{
			{Key: "event", Value: b.EventKind},
			{Key: "hash", Value: b.Hash},
			{Key: "id", Value: b.ID},
			{Key: "log_seq", Value: b.LogSeq},
		}, nil
	case *trace.BeliefChange:
		return oracleFields(*b)
	case trace.BeliefChange:
		return canon.Object{
			{Key: "change", Value: b.Change},
			{Key: "claim", Value: b.Claim},
			{Key: "confidence", Value: b.Confidence},
			{Key: "holder", Value: b.Holder},
			{Key: "stage", Value: b.Stage},
			{Key: "variant", Value: b.Variant},
		}, nil
	case *trace.Keyframe:
		return oracleFields(*b)
	case trace.Keyframe:
		npcs := make([]any, len(b.NPCs))
		for i, n := range b.NPCs {
			npcs[i] = canon.Object{{Key: "alive", Value: n.Alive}, {Key: "at", Value: n.At}, {Key: "id", Value: n.ID}}
		}
		beliefs := make([]any, len(b.Beliefs))
		for i, s := range b.Beliefs {
			beliefs[i] = canon.Object{
				{Key: "claim", Value: s.Claim},
				{Key: "confidence", Value: s.Confidence},
				{Key: "gist", Value: s.Gist},
				{Key: "holder", Value: s.Holder},
				{Key: "stage", Value: s.Stage},
				{Key: "variant", Value: s.Variant},
				{Key: "verbatim", Value: s.Verbatim},
			}
		}
		return canon.Object{{Key: "beliefs", Value: beliefs}, {Key: "npcs", Value: npcs}}, nil
	}
	return nil, fmt.Errorf("the oracle has no spelling for %T: add one before adding the kind", body)
}
