package sim

import (
	"fmt"
	"slices"

	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/trace"
)

// PurposeEncounter is the roll purpose of encounter sampling. A purpose is
// part of every roll's key, so adding a new kind of roll at a site never
// moves an existing one.
const PurposeEncounter = "encounter"

// encounters samples every co-present pair of living NPCs and lets each
// fired encounter carry testimony.
func (w *World) encounters(t int64) error {
	if !w.rules.Enabled(rules.EncounterSampling) {
		w.ruleEval(rules.EncounterSampling, "", false, "disabled")
		return nil
	}
	presences := make([]schedule.Presence, 0, len(w.ids))
	for _, id := range w.ids {
		if n := w.npcs[id]; n.alive {
			presences = append(presences, schedule.Presence{Location: n.schedule.At(t), NPC: id})
		}
	}
	p := w.defines.EncounterProbability
	for _, g := range schedule.Groups(presences) {
		for i, a := range g.NPCs {
			for _, b := range g.NPCs[i+1:] {
				// Groups sorts NPCs, so (a, b) is already the canonical order
				// of this symmetric roll.
				r := trace.Roll{Roll: w.roller.Roll(PurposeEncounter, t, g.Location, a, b), Threshold: p}
				enc := trace.Encounter{ID: r.Roll.Key.String(), Site: g.Location, Pair: [2]string{a, b}, Roll: r, Fired: r.Passed()}
				w.emit(enc)
				if !enc.Fired {
					continue
				}
				if err := w.converse(encounter{id: enc.ID, site: g.Location}, a, b); err != nil {
					return fmt.Errorf("tick %d, %s: %w", t, enc.ID, err)
				}
			}
		}
	}
	return nil
}

// encounter is where a telling happens: a fired encounter, or the
// injection console (id "injected", no site).
type encounter struct {
	id, site string
}

var injected = encounter{id: "injected"}

// converse lets a fired encounter carry every claim either of the two
// holds, in claim order.
func (w *World) converse(e encounter, a, b string) error {
	for _, c := range mergeSorted(w.store.Held(a), w.store.Held(b)) {
		ba, aHolds := w.store.Belief(a, c)
		bb, bHolds := w.store.Belief(b, c)
		var err error
		switch {
		case aHolds && bHolds:
			err = w.bothHold(e, ba, bb)
		case aHolds:
			err = w.offer(e, a, b, c)
		default:
			err = w.offer(e, b, a, c)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// refusal returns why teller cannot pass claim on now ("" when it can).
func (w *World) refusal(teller, claim string) string {
	tb, _ := w.store.Belief(teller, claim)
	switch stage := tb.StageAt(w.now, w.store.Memory()); {
	case !w.rules.Enabled(rules.TestimonyTransfer):
		return "disabled"
	case w.justHeard[[2]string{teller, claim}]:
		return "teller heard it this tick"
	case stage == claims.Dormant || stage == claims.Forgotten:
		return "teller's rumour is " + string(stage)
	}
	return ""
}

func active(b *claims.Belief, t int64, m claims.Memory) bool {
	s := b.StageAt(t, m)
	return s == claims.Heard || s == claims.Repeated
}

// offer decides whether teller passes claim on to a listener who does not
// hold it, tracing the decision either way.
func (w *World) offer(e encounter, teller, listener, claim string) error {
	if reason := w.refusal(teller, claim); reason != "" {
		tb, _ := w.store.Belief(teller, claim)
		w.emit(trace.Transmission{Via: e.id, Claim: claim, Variant: tb.Variant, Teller: teller, Listener: listener, Rule: rules.TestimonyTransfer, Reason: reason})
		return nil
	}
	w.justHeard[[2]string{listener, claim}] = true
	return w.tell(e, teller, listener, claim)
}

// bothHold handles an encounter between two holders of a claim. Different
// variants are contested: each hears the other's version (when the other
// can tell it), both against what each held before the encounter. The same
// variant passes only to reactivate: an active holder retells a dormant or
// forgotten one.
func (w *World) bothHold(e encounter, ba, bb *claims.Belief) error {
	m := w.store.Memory()
	decline := func(teller, listener *claims.Belief, rule, reason string) {
		w.emit(trace.Transmission{Via: e.id, Claim: ba.Claim, Variant: teller.Variant, Teller: teller.Holder, Listener: listener.Holder, Rule: rule, Reason: reason})
	}
	if ba.Variant == bb.Variant {
		activeA, activeB := active(ba, w.now, m), active(bb, w.now, m)
		switch {
		case activeA && activeB:
			decline(ba, bb, rules.TestimonyTransfer, "both hold")
		case !activeA && !activeB:
			decline(ba, bb, rules.TestimonyTransfer, "both rumours are inactive")
		case activeA:
			return w.offerHolder(e, ba, bb)
		default:
			return w.offerHolder(e, bb, ba)
		}
		return nil
	}
	type contest struct {
		teller, listener *claims.Belief
		testimony        claims.Testimony
		side             claims.Side
		refusal          string
	}
	// Snapshot both sides before either changes: the beliefs themselves are
	// live, so after the first contest only the snapshot still says what
	// the second teller holds.
	var cs []contest
	for _, p := range [][2]*claims.Belief{{bb, ba}, {ba, bb}} {
		teller, listener := p[0], p[1]
		cs = append(cs, contest{
			teller: teller, listener: listener,
			testimony: w.testimony(e, teller, listener.Holder, teller.Variant),
			side:      claims.SideOf(teller),
			refusal:   w.refusal(teller.Holder, teller.Claim),
		})
	}
	for _, c := range cs {
		if c.refusal != "" {
			decline(c.teller, c.listener, rules.VariantResolution, c.refusal)
			continue
		}
		// A holder weighs each variant once: meeting the same disagreement
		// again is not new evidence, and re-contesting would erode
		// confidence by repetition alone.
		if weighed(c.listener, c.testimony.Variant) {
			decline(c.teller, c.listener, rules.VariantResolution, "listener already weighed this variant")
			continue
		}
		if err := w.resolve(c.listener, c.testimony, c.side); err != nil {
			return err
		}
	}
	return nil
}

// weighed reports whether b's evidence already includes variant.
func weighed(b *claims.Belief, variant string) bool {
	return slices.ContainsFunc(b.Evidence, func(e claims.Evidence) bool { return e.Variant == variant })
}

// offerHolder is offer for a listener who already holds the same variant.
func (w *World) offerHolder(e encounter, teller, listener *claims.Belief) error {
	if reason := w.refusal(teller.Holder, teller.Claim); reason != "" {
		w.emit(trace.Transmission{Via: e.id, Claim: teller.Claim, Variant: teller.Variant, Teller: teller.Holder, Listener: listener.Holder, Rule: rules.DormancyReactivation, Reason: reason})
		return nil
	}
	return w.tell(e, teller.Holder, listener.Holder, teller.Claim)
}
