package sim

import (
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/mutation"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// told returns what teller tells of claim now: in the encounter phase, its
// belief as the phase found it; from the injection console (the events
// phase), its belief as it stands.
func (w *World) told(teller, claim string) told {
	tb, _ := w.store.AsOfPhase(teller, claim)
	return telling(tb, w.now, w.store.Memory())
}

// testimony is what teller tells listener: the given variant, through the
// teller's chain, at the retold confidence.
func (w *World) testimony(e encounter, teller, claim string, tv told, listener, variant string) claims.Testimony {
	tb, _ := w.store.Belief(teller, claim)
	return claims.Testimony{
		Teller: teller, Chain: append(tb.SourceChain(), teller), Variant: variant,
		Tick: w.now, Via: e.id, Confidence: w.retold(teller, listener, tv.confidence),
	}
}

// tell delivers one telling. A listener without the claim forms a belief
// (in an encounter, possibly of a mutated variant); one holding the same
// variant is offered corroboration; one holding another variant resolves
// the contest.
func (w *World) tell(e encounter, teller, listener, claim string) error {
	tv := w.told(teller, claim)
	if e != injected && w.keeps(e, teller, listener, claim, tv) {
		return nil
	}
	lb, holds := w.store.Belief(listener, claim)
	if holds && lb.Variant != tv.variant {
		return w.resolve(lb, w.testimony(e, teller, claim, tv, listener, tv.variant), tv.side)
	}
	if holds {
		return w.corroborate(lb, w.testimony(e, teller, claim, tv, listener, tv.variant))
	}
	variant := tv.variant
	if e != injected {
		v, err := w.mutate(e, teller, claim, tv, listener)
		if err != nil {
			return err
		}
		variant = v
	}
	testimony := w.testimony(e, teller, claim, tv, listener, variant)
	lb, err := w.store.Hear(listener, testimony)
	if err != nil {
		return err
	}
	w.transmission(trace.Transmission{Via: e.id, Claim: claim, Variant: variant, Teller: teller, Listener: listener, Fired: true, Rule: rules.TestimonyTransfer, Reason: "listener did not hold it", Confidence: lb.Confidence})
	w.beliefHeard(lb, trace.BeliefFormed)
	w.formed(lb)
	if w.store.Repeat(teller, claim) {
		tb, _ := w.store.Belief(teller, claim)
		w.beliefChange(tb, trace.BeliefRepeated)
	}
	return nil
}

// mutate runs the mutation policies on one encounter retelling and returns
// the variant the listener will hear: the teller's own, or a new one
// derived from it.
func (w *World) mutate(e encounter, teller, claim string, tv told, listener string) (string, error) {
	subject := listener + "<-" + teller + "/" + claim
	if !w.rules.Enabled(rules.MutationPolicy) {
		w.ruleEval(rules.MutationPolicy, subject, false, "disabled")
		return tv.variant, nil
	}
	v, _ := w.store.Variant(tv.variant)
	r := mutation.Retelling{
		Teller: teller, Listener: listener, Tick: w.now, Site: e.site, Variant: v, Verbatim: tv.verbatim,
		Faction: w.faction, Rivals: w.rivals, Alternatives: w.alternatives, Roller: w.roller,
	}
	for _, p := range w.policies {
		d, applies := p.Decide(r)
		if !applies {
			continue
		}
		for _, s := range d.Steps {
			w.emit(&trace.RuleEval{Rule: rules.MutationPolicy, Subject: subject, Fired: s.Fired, Reason: s.Reason, Values: s.Values, Roll: s.Roll})
		}
		if len(d.Changes) == 0 {
			return tv.variant, nil
		}
		nv, err := w.derive(tv.variant, d.Changes, claims.Origin{Reason: "mutation:" + d.Policy, Holder: teller, Tick: w.now})
		if err != nil {
			return "", err
		}
		return nv.ID, nil
	}
	return tv.variant, nil
}

func (w *World) faction(npc string) string {
	if i, ok := w.index[npc]; ok {
		return w.npcs[i].faction
	}
	return ""
}

// rivals returns the members of every faction but the given one, sorted.
func (w *World) rivals(faction string) []string {
	var out []string
	for i, id := range w.ids {
		if f := w.npcs[i].faction; f != "" && f != faction {
			out = append(out, id)
		}
	}
	return out
}

// alternatives returns what a slot could become: any other cast member or
// the player for an actor or victim, any other location, any other known
// item.
func (w *World) alternatives(s claims.Slot) mutation.Choices {
	switch s.Type {
	case claims.EntitySlot:
		return mutation.NewChoices(w.entities, s.Value)
	case claims.LocationSlot:
		return mutation.NewChoices(w.locations, s.Value)
	case claims.ItemSlot:
		return mutation.NewChoices(w.items, s.Value)
	}
	return mutation.Choices{}
}

// resolve applies the variant-resolution rule: listener hears a variant
// other than the one it holds.
func (w *World) resolve(lb *claims.Belief, t claims.Testimony, incoming claims.Side) error {
	subject := lb.Holder + "/" + lb.Claim
	if !w.rules.Enabled(rules.VariantResolution) {
		w.ruleEval(rules.VariantResolution, subject, false, "disabled")
		return nil
	}
	r, err := w.store.Resolve(lb.Holder, t, incoming, w.defines.ContestedDent)
	if err != nil {
		return err
	}
	sup := r.Supersession
	w.transmission(trace.Transmission{Via: t.Via, Claim: lb.Claim, Variant: t.Variant, Teller: t.Teller, Listener: lb.Holder, Fired: true, Rule: rules.VariantResolution, Reason: "listener held another variant", Confidence: t.Confidence})
	w.ruleEval(rules.VariantResolution, subject, true, r.Reason,
		trace.Value{Name: "after", Value: r.After}, trace.Value{Name: "before", Value: r.Before},
		trace.Value{Name: "held_strength", Value: r.Held.Strength}, trace.Value{Name: "held_witnessed", Value: boolValue(r.Held.Terminal == claims.Witnessed)},
		trace.Value{Name: "incoming_strength", Value: r.Incoming.Strength}, trace.Value{Name: "incoming_witnessed", Value: boolValue(r.Incoming.Terminal == claims.Witnessed)})
	w.emit(&trace.Supersession{Holder: sup.Holder, Claim: sup.Claim, Loser: sup.Loser, Winner: sup.Winner, Via: sup.Via, Kept: sup.Kept})
	w.beliefHeard(lb, trace.BeliefContested)
	if !sup.Kept {
		w.formed(lb)
	}
	return nil
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
