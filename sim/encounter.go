package sim

import (
	"fmt"

	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/trace"
)

// Roll purposes. A purpose is part of every roll's key, so adding a new kind
// of roll at a site never moves an existing one.
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
				if err := w.converse(enc.ID, a, b); err != nil {
					return fmt.Errorf("tick %d, %s: %w", t, enc.ID, err)
				}
			}
		}
	}
	return nil
}

// converse lets a fired encounter carry every claim exactly one of the two
// holds, in claim order.
func (w *World) converse(via, a, b string) error {
	for _, c := range mergeSorted(w.store.Held(a), w.store.Held(b)) {
		ba, aHolds := w.store.Belief(a, c)
		_, bHolds := w.store.Belief(b, c)
		var err error
		switch {
		case aHolds && bHolds:
			w.emit(trace.Transmission{Via: via, Claim: c, Variant: ba.Variant, Teller: a, Listener: b, Rule: rules.TestimonyTransfer, Reason: "both hold"})
		case aHolds:
			err = w.offer(via, a, b, c)
		default:
			err = w.offer(via, b, a, c)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// offer decides whether teller passes claim on to listener in an encounter,
// tracing the decision either way.
func (w *World) offer(via, teller, listener, claim string) error {
	tb, _ := w.store.Belief(teller, claim)
	declined := trace.Transmission{Via: via, Claim: claim, Variant: tb.Variant, Teller: teller, Listener: listener, Rule: rules.TestimonyTransfer}
	switch stage := tb.StageAt(w.now, w.store.Memory()); {
	case !w.rules.Enabled(rules.TestimonyTransfer):
		declined.Reason = "disabled"
	case w.justHeard[[2]string{teller, claim}]:
		declined.Reason = "teller heard it this tick"
	case stage == claims.Dormant || stage == claims.Forgotten:
		declined.Reason = "teller's rumour is " + string(stage)
	default:
		w.justHeard[[2]string{listener, claim}] = true
		return w.tell(teller, listener, claim, via)
	}
	w.emit(declined)
	return nil
}

// tell delivers one telling: the listener forms a belief at the retold
// confidence, or — if they already hold the same variant — the report is
// offered as corroboration.
func (w *World) tell(teller, listener, claim, via string) error {
	tb, _ := w.store.Belief(teller, claim)
	testimony := claims.Testimony{
		Teller: teller, Chain: append(tb.SourceChain(), teller), Variant: tb.Variant,
		Tick: w.now, Via: via, Confidence: w.retold(teller, listener, tb.Confidence),
	}
	if lb, holds := w.store.Belief(listener, claim); holds {
		return w.corroborate(lb, testimony)
	}
	lb, err := w.store.Hear(listener, testimony)
	if err != nil {
		return err
	}
	w.emit(trace.Transmission{Via: via, Claim: claim, Variant: tb.Variant, Teller: teller, Listener: listener, Fired: true, Rule: rules.TestimonyTransfer, Reason: "listener did not hold it", Confidence: lb.Confidence})
	w.beliefChange(lb, "formed")
	if w.store.Repeat(teller, claim) {
		w.beliefChange(tb, "repeated")
	}
	return nil
}

// retold is the confidence a listener receives: the teller's confidence times
// the retell decay, and — when trust-discounted retelling is on — times
// trust_floor + (1 − trust_floor) × trust(listener → teller).
func (w *World) retold(teller, listener string, confidence float64) float64 {
	c := float64(confidence * w.defines.RetellDecay)
	subject := listener + "<-" + teller
	if !w.rules.Enabled(rules.TrustDiscountedRetelling) {
		w.ruleEval(rules.TrustDiscountedRetelling, subject, false, "disabled")
		return c
	}
	trust, ok := w.trust[[2]string{listener, teller}]
	reason := "relationship"
	if !ok {
		trust, reason = w.defines.DefaultTrust, "no relationship: default trust"
	}
	floor := w.defines.TrustFloor
	factor := floor + float64((1-floor)*trust)
	w.ruleEval(rules.TrustDiscountedRetelling, subject, true, reason,
		trace.Value{Name: "factor", Value: factor}, trace.Value{Name: "trust", Value: trust})
	return float64(c * factor)
}

// corroborate offers a report to an existing belief of the same variant.
func (w *World) corroborate(lb *claims.Belief, t claims.Testimony) error {
	subject := lb.Holder + "/" + lb.Claim
	if !w.rules.Enabled(rules.Corroboration) {
		w.ruleEval(rules.Corroboration, subject, false, "disabled")
		return nil
	}
	out, err := w.store.Corroborate(lb.Holder, t, w.defines.CorroborationWindow)
	if err != nil {
		return err
	}
	w.emit(trace.Transmission{Via: t.Via, Claim: lb.Claim, Variant: t.Variant, Teller: t.Teller, Listener: lb.Holder, Fired: true, Rule: rules.Corroboration, Reason: "listener already held it", Confidence: t.Confidence})
	w.ruleEval(rules.Corroboration, subject, out.Raised, out.Reason,
		trace.Value{Name: "after", Value: out.After}, trace.Value{Name: "before", Value: out.Before}, trace.Value{Name: "report", Value: t.Confidence})
	change := "reinforced"
	if out.Raised {
		change = "corroborated"
	}
	w.beliefChange(lb, change)
	return nil
}

// mergeSorted returns the sorted union of two sorted lists.
func mergeSorted(a, b []string) []string {
	out := make([]string, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0] < b[0]:
			out, a = append(out, a[0]), a[1:]
		case b[0] < a[0]:
			out, b = append(out, b[0]), b[1:]
		default:
			out, a, b = append(out, a[0]), a[1:], b[1:]
		}
	}
	return append(append(out, a...), b...)
}
