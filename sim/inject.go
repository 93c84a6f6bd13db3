package sim

import (
	"fmt"

	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// inject applies one injection at the current tick.
func (w *World) inject(in Injection) error {
	switch in.Kind {
	case Theft, Killing:
		return w.canonical(in)
	case Report:
		return w.report(in)
	default:
		return fmt.Errorf("unknown injection kind %q", in.Kind)
	}
}

// canonical appends a theft or killing to the log, mints its claim and
// forms each witness's belief; a killing also kills its victim.
func (w *World) canonical(in Injection) error {
	if in.Kind == Killing && !w.Alive(in.Victim) {
		return fmt.Errorf("killing %s: victim %q is not a living NPC", in.ID, in.Victim)
	}
	for _, wit := range in.Witnesses {
		if !w.Alive(wit.NPC) {
			return fmt.Errorf("%s %s: witness %q is not a living NPC", in.Kind, in.ID, wit.NPC)
		}
	}
	attrs := map[string]string{"actor": in.Actor, "victim": in.Victim, "location": in.At}
	slots := claims.Slots{
		{Name: "actor", Type: claims.EntitySlot, Value: in.Actor},
		{Name: "location", Type: claims.LocationSlot, Value: in.At},
		{Name: "victim", Type: claims.EntitySlot, Value: in.Victim},
	}
	if in.Kind == Theft {
		attrs["item"] = in.Item
		slots = append(slots, claims.Slot{Name: "item", Type: claims.ItemSlot, Value: in.Item})
	}
	witnesses := make([]string, len(in.Witnesses))
	for i, wit := range in.Witnesses {
		witnesses[i] = wit.NPC
	}
	if err := w.appendEvent(events.Event{ID: in.ID, Kind: in.Kind, Tick: in.Tick, Attrs: attrs, Witnesses: witnesses}); err != nil {
		return err
	}
	claim, err := w.store.MintClaim(in.ID, in.Kind, in.Tick, slots)
	if err != nil {
		return err
	}
	w.ruleEval(rules.SharedClaimInvariant, claim.ID, true, "claim minted for event")
	for _, wit := range in.Witnesses {
		if err := w.witness(claim, wit); err != nil {
			return err
		}
	}
	if in.Kind == Killing {
		victim := w.index[in.Victim]
		w.npcs[victim].alive = false
		w.occupancy.Leave(victim)
		death := events.Event{ID: "death@" + in.ID, Kind: "death", Tick: in.Tick, Attrs: map[string]string{"victim": in.Victim, "cause": in.ID}}
		if err := w.appendEvent(death); err != nil {
			return err
		}
	}
	return nil
}

func (w *World) appendEvent(e events.Event) error {
	rec, err := w.log.Append(e)
	if err != nil {
		return err
	}
	w.emit(&trace.Event{ID: e.ID, EventKind: e.Kind, LogSeq: rec.Seq, Hash: rec.Hash})
	return nil
}

// witness forms one witness's belief in the variant they saw.
func (w *World) witness(claim *claims.Claim, wit Witness) error {
	subject := wit.NPC + "/" + claim.ID
	if !w.rules.Enabled(rules.WitnessCreatesBelief) {
		w.ruleEval(rules.WitnessCreatesBelief, subject, false, "disabled")
		return nil
	}
	variant := claim.Variant
	if len(wit.Says) > 0 {
		changes := make([]claims.Change, 0, len(wit.Says))
		for _, r := range wit.Says {
			slot, ok := claim.Slots.Get(r.Slot)
			if !ok {
				return fmt.Errorf("witness %s remembers slot %q, which a %s does not have", wit.NPC, r.Slot, claim.Kind)
			}
			changes = append(changes, claims.Change{Slot: r.Slot, From: slot.Value, To: r.Value})
		}
		v, err := w.store.Derive(claim.Variant, changes, claims.Origin{Reason: "witness-disagrees", Holder: wit.NPC, Tick: w.now})
		if err != nil {
			return fmt.Errorf("witness %s: %w", wit.NPC, err)
		}
		variant = v.ID
	}
	b, err := w.store.Witness(wit.NPC, variant, w.now, w.defines.WitnessConfidence, claim.ID)
	if err != nil {
		return err
	}
	w.ruleEval(rules.WitnessCreatesBelief, subject, true, "witnessed", trace.Value{Name: "confidence", Value: b.Confidence})
	w.beliefChange(b, "formed")
	return nil
}

// report delivers one injected telling outside any encounter.
func (w *World) report(in Injection) error {
	if !w.Alive(in.From) {
		return fmt.Errorf("report of %s: teller %q is not a living NPC", in.Claim, in.From)
	}
	if !w.Alive(in.To) {
		return fmt.Errorf("report of %s: listener %q is not a living NPC", in.Claim, in.To)
	}
	if _, ok := w.store.Belief(in.From, in.Claim); !ok {
		return fmt.Errorf("report of %s: teller %q holds no belief in it: %w", in.Claim, in.From, claims.ErrNoBelief)
	}
	return w.tell(injected, in.From, in.To, in.Claim)
}
