package sim

import (
	"fmt"
	"slices"

	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// inject applies one injection at the current tick.
func (w *World) inject(in Injection) error {
	switch in.Kind {
	case Theft, Killing, Brawl, Favour, Invoke, Title, Secret:
		return w.canonical(in)
	case Report:
		return w.report(in)
	default:
		return fmt.Errorf("unknown injection kind %q", in.Kind)
	}
}

// slotsOf returns the slots of the claim an injected event mints, each
// named as the event's attribute of the same name.
func slotsOf(in Injection) (claims.Slots, error) {
	entity := func(name, v string) claims.Slot { return claims.Slot{Name: name, Type: claims.EntitySlot, Value: v} }
	fixed := func(name, v string) claims.Slot { return claims.Slot{Name: name, Type: claims.FixedSlot, Value: v} }
	slots := claims.Slots{entity("actor", in.Actor), {Name: "location", Type: claims.LocationSlot, Value: in.At}}
	switch in.Kind {
	case Theft:
		slots = append(slots, entity("victim", in.Victim), claims.Slot{Name: "item", Type: claims.ItemSlot, Value: in.Item})
	case Killing, Brawl:
		slots = append(slots, entity("victim", in.Victim))
	case Favour:
		slots = append(slots, entity("recipient", in.Recipient))
	case Invoke:
		if in.Outcome != Fulfilled && in.Outcome != Refused {
			return nil, fmt.Errorf("invoke %s: outcome %q is neither %s nor %s", in.ID, in.Outcome, Fulfilled, Refused)
		}
		slots = append(slots, entity("recipient", in.Recipient), fixed("favour", in.Favour), fixed("outcome", in.Outcome))
	case Title:
		slots = append(slots, entity("recipient", in.Recipient), fixed("title", in.TitleName))
	case Secret:
		slots = append(slots, entity("implicates", in.Implicates))
	}
	for _, sl := range slots {
		if sl.Value == "" {
			return nil, fmt.Errorf("%s %s: no %s", in.Kind, in.ID, sl.Name)
		}
	}
	return slots, nil
}

// parties are an event's participants besides its witnesses: a brawl's
// two fighters, a favour's, an invocation's or a title's giver and
// receiver. Those who are NPCs were there, so they witness it whether or
// not the fixture lists them (decision 0017); a theft's or a killing's
// victim learns of it like anyone else, and a secret's witnesses are the
// ones who learn it.
func parties(in Injection) []string {
	switch in.Kind {
	case Brawl:
		return []string{in.Actor, in.Victim}
	case Favour, Invoke, Title:
		return []string{in.Actor, in.Recipient}
	}
	return nil
}

// witnessesOf returns who sees an event: the fixture's witnesses in order,
// then each NPC party not among them, actor first. A party that is a role
// is its holder.
func (w *World) witnessesOf(in Injection) []Witness {
	out := slices.Clone(in.Witnesses)
	for _, p := range parties(in) {
		p = w.party(p)
		if _, npc := w.index[p]; npc && !slices.ContainsFunc(out, func(x Witness) bool { return x.NPC == p }) {
			out = append(out, Witness{NPC: p})
		}
	}
	return out
}

// canonical appends an event to the log, mints its claim and forms each
// witness's belief; a killing also kills its victim. A brawl's onlookers
// are counted for the grudge its loser may bear, and favours and
// invocations wait for the social phase's obligations rule.
func (w *World) canonical(in Injection) error {
	if in.Kind == Killing && !w.Alive(in.Victim) {
		return fmt.Errorf("killing %s: victim %q is not a living NPC", in.ID, in.Victim)
	}
	for _, p := range parties(in) {
		holder := w.party(p)
		if holder == "" {
			return fmt.Errorf("%s %s: %s is vacant: nobody acts for it", in.Kind, in.ID, p)
		}
		if _, npc := w.index[holder]; npc && !w.Alive(holder) {
			return fmt.Errorf("%s %s: %q is not a living NPC", in.Kind, in.ID, holder)
		}
	}
	seen := w.witnessesOf(in)
	for _, wit := range seen {
		if !w.Alive(wit.NPC) {
			return fmt.Errorf("%s %s: witness %q is not a living NPC", in.Kind, in.ID, wit.NPC)
		}
	}
	slots, err := slotsOf(in)
	if err != nil {
		return err
	}
	attrs := make(map[string]string, len(slots))
	for _, sl := range slots {
		attrs[sl.Name] = sl.Value
	}
	witnesses := make([]string, len(seen))
	for i, wit := range seen {
		witnesses[i] = wit.NPC
	}
	if err := w.appendEvent(events.Event{ID: in.ID, Kind: in.Kind, Tick: in.Tick, Attrs: attrs, Witnesses: witnesses}, ""); err != nil {
		return err
	}
	switch in.Kind {
	case Brawl:
		w.onlookers[in.ID] = len(seen) - among(parties(in), seen)
	case Favour, Invoke:
		w.dealings = append(w.dealings, in)
	}
	claim, err := w.mintClaim(in.ID, in.Kind, in.Tick, slots)
	if err != nil {
		return err
	}
	w.ruleEval(rules.SharedClaimInvariant, claim.ID, true, "claim minted for event")
	for _, wit := range seen {
		if err := w.witness(claim, wit); err != nil {
			return err
		}
	}
	if in.Kind == Killing {
		victim := w.index[in.Victim]
		w.npcs[victim].alive = false
		w.occupancy.Leave(victim)
		death := events.Event{ID: "death@" + in.ID, Kind: Death, Tick: in.Tick, Attrs: map[string]string{"victim": in.Victim, "cause": in.ID}}
		if err := w.appendEvent(death, ""); err != nil {
			return err
		}
		if r, holds := w.roles.Of(in.Victim); holds && w.layers.Has(rules.Roles) {
			return w.vacate(r, in, death.ID, in.Tick)
		}
	}
	return nil
}

// among counts the witnesses whose ids are in ids.
func among(ids []string, ws []Witness) int {
	n := 0
	for _, wit := range ws {
		if slices.Contains(ids, wit.NPC) {
			n++
		}
	}
	return n
}

// appendEvent appends e to the canonical log and traces it. An event the
// engine derived names the rule that derived it (DerivedBy, by its kind)
// and the event that caused it (decision 0013): both go into its
// attributes, so they are hash-chained with it, and into its trace record.
// Any other event has neither: its cause is "".
func (w *World) appendEvent(e events.Event, cause string) error {
	rule := DerivedBy(e.Kind)
	if rule != "" {
		e.Attrs["rule"], e.Attrs["cause"] = rule, cause
	}
	rec, err := w.log.Append(e)
	if err != nil {
		return err
	}
	w.emit(&trace.Event{ID: e.ID, EventKind: e.Kind, LogSeq: rec.Seq, Hash: rec.Hash, Rule: rule, Cause: cause})
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
		v, err := w.derive(claim.Variant, changes, claims.Origin{Reason: "witness-disagrees", Holder: wit.NPC, Tick: w.now})
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
	w.beliefHeard(b, trace.BeliefFormed)
	w.formed(b)
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
