package sim

import (
	"fmt"
	"slices"

	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/mutation"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// PurposeEncounter is the roll purpose of encounter sampling. A purpose is
// part of every roll's key, so adding a new kind of roll at a site never
// moves an existing one.
const PurposeEncounter = "encounter"

// Purposes lists every roll purpose the engine draws: a pin or a trace
// pattern naming any other could never match.
func Purposes() []string {
	return []string{PurposeEncounter, mutation.PurposeMutation, mutation.PurposeSlot, mutation.PurposeValue, PurposeSuccession}
}

// told is what a holder tells of a claim. In the encounter phase it is
// fixed when the phase starts (the store reads beliefs as of the phase's
// start), so what anyone tells in a tick — whether, which variant, at what
// confidence — never depends on the order pairs are visited in: a belief
// formed, woken, switched or dented during the phase is told from the next
// tick on.
type told struct {
	variant    string
	confidence float64
	side       claims.Side
	verbatim   float64
}

func telling(b *claims.Belief, t int64, m claims.Memory) told {
	return told{variant: b.Variant, confidence: b.Confidence, side: claims.SideOf(b), verbatim: b.VerbatimAt(t, m)}
}

// encounters samples every co-present pair of living NPCs and lets each
// fired encounter carry testimony. Locations are visited in id order and
// pairs in id order within each, the order the trace records them in.
func (w *World) encounters(t int64) error {
	if !w.rules.Enabled(rules.EncounterSampling) {
		w.ruleEval(rules.EncounterSampling, "", false, "disabled")
		return nil
	}
	w.store.BeginPhase()
	defer w.store.EndPhase()
	p := w.defines.EncounterProbability
	enc := &w.rec.encounter
	enc.Roll.Threshold = p
	weighing := w.layers.Has(rules.Weighting) && w.rules.Enabled(rules.PairWeighting)
	for j := range w.occupancy.Locations() {
		here := w.occupancy.Here(j)
		site := w.locations[j]
		for i, a := range here {
			for _, b := range here[i+1:] {
				// Ascending numbers are sorted ids, so (a, b) is already the
				// canonical order of this symmetric roll. The roll is made in
				// the record, its key over the record's own pair: nothing is
				// allocated or copied about.
				enc.Site, enc.Pair = site, [2]string{w.ids[a], w.ids[b]}
				enc.Roll.Roll.Key = w.roller.Key(PurposeEncounter, t, site, enc.Pair[:])
				w.roller.Fill(&enc.Roll.Roll)
				// Rule 18 moves the threshold of a pair with a grudge, never
				// the roll (decision 0021).
				enc.Weighted, enc.Weight, enc.Roll.Threshold = false, 0, p
				if weighing && w.weighs(int(a), int(b)) {
					if wt, ok := w.pairWeight(enc.Pair[0], enc.Pair[1], t); ok {
						enc.Weighted, enc.Weight, enc.Roll.Threshold = true, wt, float64(p*wt)
					}
				}
				enc.Fired = enc.Roll.Passed()
				w.emit(enc)
				if !enc.Fired {
					continue
				}
				id := enc.ID()
				if err := w.converse(encounter{id: id, site: site}, w.ids[a], w.ids[b]); err != nil {
					return fmt.Errorf("tick %d, %s: %w", t, id, err)
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
// holds when it starts, in claim order.
func (w *World) converse(e encounter, a, b string) error {
	// The list is taken before anyone is told anything: telling adds to
	// the store's own lists, which are not to be read while they change.
	w.topics = mergeClaims(w.topics[:0], w.store.BeliefsOf(a), w.store.BeliefsOf(b))
	for _, c := range w.topics {
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

// refusal returns the rule and reason that stop teller passing claim on
// in this encounter phase ("" when it can).
func (w *World) refusal(teller, claim string) (rule, reason string) {
	if !w.rules.Enabled(rules.TestimonyTransfer) {
		return rules.TestimonyTransfer, "disabled"
	}
	if _, ok := w.tellable(teller, claim); ok {
		return "", ""
	}
	tb, _ := w.store.Belief(teller, claim)
	if stage := tb.StageAt(w.now, w.store.Memory()); stage == claims.Dormant || stage == claims.Forgotten {
		return rules.TestimonyTransfer, "teller's rumour is " + string(stage)
	}
	return rules.TestimonyTransfer, "teller heard it this tick"
}

// tellable returns what teller can tell of claim in this encounter phase:
// its belief as the phase found it, if it held one and it was active.
func (w *World) tellable(teller, claim string) (told, bool) {
	m := w.store.Memory()
	b, ok := w.store.AsOfPhase(teller, claim)
	if !ok || !active(b, w.now, m) {
		return told{}, false
	}
	return telling(b, w.now, m), true
}

func active(b *claims.Belief, t int64, m claims.Memory) bool {
	s := b.StageAt(t, m)
	return s == claims.Heard || s == claims.Repeated
}

// offer decides whether teller passes claim on to a listener who does not
// hold it, tracing the decision either way.
func (w *World) offer(e encounter, teller, listener, claim string) error {
	if rule, reason := w.refusal(teller, claim); reason != "" {
		tb, _ := w.store.Belief(teller, claim)
		w.transmission(trace.Transmission{Via: e.id, Claim: claim, Variant: tb.Variant, Teller: teller, Listener: listener, Rule: rule, Reason: reason})
		return nil
	}
	return w.tell(e, teller, listener, claim)
}

// bothHold handles an encounter between two holders of a claim. Holding
// the same variant, they exchange nothing unless one is dormant or
// forgotten and the other can tell it: then it is told again and wakes.
// Holding different variants, each hears the other's version (when the
// other can tell it) and the variant-resolution rule decides.
func (w *World) bothHold(e encounter, ba, bb *claims.Belief) error {
	m := w.store.Memory()
	decline := func(teller, listener *claims.Belief, rule, reason string) {
		w.transmission(trace.Transmission{Via: e.id, Claim: ba.Claim, Variant: teller.Variant, Teller: teller.Holder, Listener: listener.Holder, Rule: rule, Reason: reason})
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
	for _, p := range [][2]*claims.Belief{{bb, ba}, {ba, bb}} {
		teller, listener := p[0], p[1]
		if rule, reason := w.refusal(teller.Holder, teller.Claim); reason != "" {
			if rule == rules.TestimonyTransfer && reason != "disabled" {
				rule = rules.VariantResolution
			}
			decline(teller, listener, rule, reason)
			continue
		}
		// A holder weighs each variant once: meeting the same disagreement
		// again is not new evidence, and re-contesting would erode
		// confidence by repetition alone.
		if tv, _ := w.tellable(teller.Holder, teller.Claim); weighed(listener, tv.variant) {
			decline(teller, listener, rules.VariantResolution, "listener already weighed this variant")
			continue
		}
		if err := w.tell(e, teller.Holder, listener.Holder, teller.Claim); err != nil {
			return err
		}
	}
	return nil
}

// weighed reports whether b's evidence already includes variant.
func weighed(b *claims.Belief, variant string) bool {
	return slices.ContainsFunc(b.Evidence, func(e claims.Evidence) bool { return e.Variant == variant })
}

// offerHolder is offer for a dormant or forgotten listener who holds the
// same variant: telling it again reactivates it.
func (w *World) offerHolder(e encounter, teller, listener *claims.Belief) error {
	if rule, reason := w.refusal(teller.Holder, teller.Claim); reason != "" {
		if reason != "disabled" {
			rule = rules.DormancyReactivation
		}
		w.transmission(trace.Transmission{Via: e.id, Claim: teller.Claim, Variant: teller.Variant, Teller: teller.Holder, Listener: listener.Holder, Rule: rule, Reason: reason})
		return nil
	}
	return w.tell(e, teller.Holder, listener.Holder, teller.Claim)
}
