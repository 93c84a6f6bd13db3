package trace_test

import (
	"fmt"
	"math"
	"reflect"
	"slices"

	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/trace"
)

// The oracle is the trace format written the slow, obvious way: each
// record as a canon.Object whose fields are listed in any order and
// sorted by canon.Marshal. It is how the encoders were first written;
// the hand-written encoders must give the same bytes and the same errors
// for every record of every kind. A new kind gets its oracle here first.

// oracleLine returns a record's line as canon.Marshal writes it in
// version 3: the version-2 fields (oracleFields), less what version 3
// leaves out because another field spells it (oracleV3), the branch as
// its index 0.
func oracleLine(r trace.Record, b events.Branch) ([]byte, error) {
	fs, err := oracleFields(r.Body)
	if err != nil {
		return nil, err
	}
	obj := append(oracleV3(r.Body, fs),
		canon.Field{Key: "branch", Value: 0},
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

// oracleLineV2 returns a record's line as canon.Marshal writes it in
// version 2, the branch spelt out.
func oracleLineV2(r trace.Record, b events.Branch) ([]byte, error) {
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

// oracleV3 drops from a body's version-2 fields what version 3 leaves
// out, by the reader's rule read the plain way: a field goes when the
// field that spells it gives it back (trace.CutEncounterID,
// trace.ClaimOf) equal to its value.
func oracleV3(body trace.Body, fs canon.Object) canon.Object {
	drop := func(fs canon.Object, key string, spelt any) canon.Object {
		return slices.DeleteFunc(fs, func(f canon.Field) bool { return f.Key == key && reflect.DeepEqual(f.Value, spelt) })
	}
	switch b := body.(type) {
	case *trace.Encounter:
		return oracleV3(*b, fs)
	case trace.Encounter:
		id, ok := trace.CutEncounterID(b.ID())
		if ok {
			fs = drop(fs, "pair", []string{id.Pair[0], id.Pair[1]})
			fs = drop(fs, "site", id.Site)
		}
		roll := canon.Object{{Key: "threshold", Value: b.Roll.Threshold}, {Key: "value", Value: b.Roll.Roll.Value}}
		if !ok || id.Purpose != b.Roll.Roll.Key.Purpose {
			roll = append(roll, canon.Field{Key: "purpose", Value: b.Roll.Roll.Key.Purpose})
		}
		if b.Roll.Roll.Pinned || math.Float64bits(b.Roll.Roll.Natural) != math.Float64bits(b.Roll.Roll.Value) {
			roll = append(roll, canon.Field{Key: "natural", Value: b.Roll.Roll.Natural}, canon.Field{Key: "pinned", Value: b.Roll.Roll.Pinned})
		}
		for i := range fs {
			if fs[i].Key == "roll" {
				fs[i].Value = roll
			}
		}
	case *trace.Transmission:
		return oracleV3(*b, fs)
	case trace.Transmission:
		fs = drop(fs, "claim", trace.ClaimOf(b.Variant))
	case *trace.BeliefChange:
		return oracleV3(*b, fs)
	case trace.BeliefChange:
		fs = drop(fs, "claim", trace.ClaimOf(b.Variant))
	case *trace.Supersession:
		return oracleV3(*b, fs)
	case trace.Supersession:
		fs = drop(fs, "claim", trace.ClaimOf(b.Winner))
	}
	return fs
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
		out := canon.Object{
			{Key: "fired", Value: b.Fired},
			{Key: "id", Value: b.ID()},
			{Key: "pair", Value: []string{b.Pair[0], b.Pair[1]}},
			{Key: "roll", Value: oracleRoll(b.Roll)},
			{Key: "site", Value: b.Site},
		}
		if b.Weighted {
			out = append(out, canon.Field{Key: "weight", Value: b.Weight})
		}
		return out, nil
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
		out := canon.Object{
			{Key: "event", Value: b.EventKind},
			{Key: "hash", Value: b.Hash},
			{Key: "id", Value: b.ID},
			{Key: "log_seq", Value: b.LogSeq},
		}
		if b.Rule != "" {
			out = append(out, canon.Field{Key: "rule", Value: b.Rule})
		}
		if b.Cause != "" {
			out = append(out, canon.Field{Key: "cause", Value: b.Cause})
		}
		return out, nil
	case *trace.BeliefChange:
		return oracleFields(*b)
	case trace.BeliefChange:
		out := canon.Object{
			{Key: "change", Value: b.Change},
			{Key: "claim", Value: b.Claim},
			{Key: "confidence", Value: b.Confidence},
			{Key: "holder", Value: b.Holder},
			{Key: "stage", Value: b.Stage},
			{Key: "variant", Value: b.Variant},
		}
		if e := b.Evidence; e != nil {
			out = append(out, canon.Field{Key: "evidence", Value: canon.Object{
				{Key: "type", Value: e.Type},
				{Key: "variant", Value: e.Variant},
				{Key: "chain", Value: append([]string{}, e.Chain...)},
				{Key: "via", Value: e.Via},
				{Key: "confidence", Value: e.Confidence},
				{Key: "counted", Value: e.Counted},
			}})
		}
		return out, nil
	case *trace.Variant:
		return oracleFields(*b)
	case trace.Variant:
		diff := make([]any, len(b.Diff))
		for i, d := range b.Diff {
			diff[i] = canon.Object{{Key: "slot", Value: d.Slot}, {Key: "from", Value: d.From}, {Key: "to", Value: d.To}}
		}
		slots := make([]any, len(b.Slots))
		for i, sl := range b.Slots {
			slots[i] = canon.Object{{Key: "name", Value: sl.Name}, {Key: "type", Value: sl.Type}, {Key: "value", Value: sl.Value}}
		}
		return canon.Object{
			{Key: "id", Value: b.ID},
			{Key: "claim", Value: b.Claim},
			{Key: "predecessor", Value: b.Predecessor},
			{Key: "diff", Value: diff},
			{Key: "slots", Value: slots},
			{Key: "reason", Value: b.Reason},
			{Key: "by", Value: b.By},
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
		out := canon.Object{{Key: "beliefs", Value: beliefs}, {Key: "npcs", Value: npcs}}
		if len(b.Accumulators) > 0 {
			rows := make([]any, len(b.Accumulators))
			for i, a := range b.Accumulators {
				rows[i] = canon.Object{{Key: "victim", Value: a.Victim}, {Key: "offender", Value: a.Offender}, {Key: "count", Value: a.Count}, {Key: "armed", Value: a.Armed}}
			}
			out = append(out, canon.Field{Key: "accumulators", Value: rows})
		}
		if len(b.Grudges) > 0 {
			rows := make([]any, len(b.Grudges))
			for i, g := range b.Grudges {
				rows[i] = canon.Object{{Key: "holder", Value: g.Holder}, {Key: "target", Value: g.Target}, {Key: "emotional", Value: g.Emotional},
					{Key: "evidentiary", Value: g.Evidentiary}, {Key: "settled", Value: g.Settled}}
			}
			out = append(out, canon.Field{Key: "grudges", Value: rows})
		}
		if len(b.Obligations) > 0 {
			rows := make([]any, len(b.Obligations))
			for i, o := range b.Obligations {
				rows[i] = canon.Object{{Key: "id", Value: o.ID}, {Key: "favour", Value: o.Favour}, {Key: "creditor", Value: o.Creditor},
					{Key: "debtor", Value: o.Debtor}, {Key: "state", Value: o.State}}
			}
			out = append(out, canon.Field{Key: "obligations", Value: rows})
		}
		if len(b.Reputation) > 0 {
			rows := make([]any, len(b.Reputation))
			for i, o := range b.Reputation {
				rows[i] = canon.Object{{Key: "observer", Value: o.Observer}, {Key: "subject", Value: o.Subject}, {Key: "dimension", Value: o.Dimension},
					{Key: "alpha", Value: o.Alpha}, {Key: "beta", Value: o.Beta}, {Key: "mean", Value: o.Mean}}
			}
			out = append(out, canon.Field{Key: "reputation", Value: rows})
		}
		if len(b.Roles) > 0 {
			rows := make([]any, len(b.Roles))
			for i, r := range b.Roles {
				rows[i] = canon.Object{{Key: "id", Value: r.ID}, {Key: "holder", Value: r.Holder}, {Key: "since", Value: r.Since}}
			}
			out = append(out, canon.Field{Key: "roles", Value: rows})
		}
		return out, nil
	case *trace.Grudge:
		return oracleFields(*b)
	case trace.Grudge:
		return canon.Object{
			{Key: "holder", Value: b.Holder},
			{Key: "target", Value: b.Target},
			{Key: "change", Value: b.Change},
			{Key: "emotional", Value: b.Emotional},
			{Key: "evidentiary", Value: b.Evidentiary},
			{Key: "rule", Value: b.Rule},
			{Key: "cause", Value: b.Cause},
		}, nil
	case *trace.Obligation:
		return oracleFields(*b)
	case trace.Obligation:
		return canon.Object{
			{Key: "id", Value: b.ID},
			{Key: "favour", Value: b.Favour},
			{Key: "creditor", Value: b.Creditor},
			{Key: "debtor", Value: b.Debtor},
			{Key: "state", Value: b.State},
			{Key: "rule", Value: b.Rule},
			{Key: "cause", Value: b.Cause},
		}, nil
	case *trace.Reputation:
		return oracleFields(*b)
	case trace.Reputation:
		return canon.Object{
			{Key: "observer", Value: b.Observer},
			{Key: "subject", Value: b.Subject},
			{Key: "dimension", Value: b.Dimension},
			{Key: "alpha", Value: b.Alpha},
			{Key: "beta", Value: b.Beta},
			{Key: "mean", Value: b.Mean},
			{Key: "rule", Value: b.Rule},
			{Key: "cause", Value: b.Cause},
		}, nil
	case *trace.Schedule:
		return oracleFields(*b)
	case trace.Schedule:
		out := canon.Object{
			{Key: "npc", Value: b.NPC},
			{Key: "change", Value: b.Change},
			{Key: "override", Value: b.Override},
			{Key: "at", Value: b.At},
			{Key: "from", Value: b.From},
			{Key: "rule", Value: b.Rule},
			{Key: "cause", Value: b.Cause},
		}
		if b.To != 0 {
			out = append(out, canon.Field{Key: "to", Value: b.To})
		}
		return out, nil
	case *trace.Role:
		return oracleFields(*b)
	case trace.Role:
		return canon.Object{
			{Key: "role", Value: b.Role},
			{Key: "change", Value: b.Change},
			{Key: "holder", Value: b.Holder},
			{Key: "previous", Value: b.Previous},
			{Key: "rule", Value: b.Rule},
			{Key: "cause", Value: b.Cause},
		}, nil
	}
	return nil, fmt.Errorf("the oracle has no spelling for %T: add one before adding the kind", body)
}
