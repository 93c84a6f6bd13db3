package sim

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/social"
	"github.com/chronicle/ladder/sim/trace"
)

// The social phase (decision 0012) runs after the encounters of a tick in
// a world that uses the social layer. It sees the tick's favours and
// invocations (rule 14, obligations) in injection order, then every
// belief that formed or switched variant in the tick's injections and
// encounters, in canonical order — holder, then claim — and evaluates the
// social rules in whose scope the holder is (decision 0014): 11
// accumulation-threshold, 12 grudge-creation, 16 reputation-evidence, in
// that order. What they derive that forms a belief (an escalation's
// warning) joins a next round, in canonical order again. Social rules read
// what the holder believes — its variant's slots — never the log: a
// victim escalates over the thefts it has heard of, and only those.

// formed notes that b formed, or switched variant, in this tick, for the
// social phase; a world without the social layer keeps no list.
func (w *World) formed(b *claims.Belief) {
	if w.layers.Has(rules.Social) {
		w.fresh = append(w.fresh, beliefRef{b.Holder, b.Claim})
	}
}

func (w *World) socialPhase(t int64) error {
	if w.layers.Has(rules.Schedule) {
		if err := w.restore(t); err != nil {
			return err
		}
	}
	for _, in := range w.dealings {
		if err := w.obligations(in); err != nil {
			return err
		}
	}
	w.dealings = w.dealings[:0]
	var round []beliefRef
	for len(w.fresh) > 0 {
		round = append(round[:0], w.fresh...)
		w.fresh = w.fresh[:0]
		slices.SortFunc(round, func(a, b beliefRef) int {
			return cmp.Or(cmp.Compare(a.holder, b.holder), cmp.Compare(a.claim, b.claim))
		})
		for _, r := range slices.Compact(round) {
			if err := w.react(r, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// react evaluates the social rules for one holder's new belief.
func (w *World) react(r beliefRef, t int64) error {
	b, _ := w.store.Belief(r.holder, r.claim)
	c, _ := w.store.Claim(r.claim)
	v, _ := w.store.Variant(b.Variant)
	slot := func(name string) string { s, _ := v.Slots.Get(name); return s.Value }
	subject := r.holder + "/" + r.claim
	switch c.Kind {
	case Theft:
		if slot("victim") == r.holder && w.faction(r.holder) != "" {
			return w.accumulate(b, subject, slot("actor"), slot("location"), c.Tick, t)
		}
	case Brawl:
		if slot("victim") == r.holder {
			e0 := min(1, w.defines.GrudgeHumiliation+float64(w.defines.GrudgeAudienceWeight*float64(w.onlookers[r.claim])))
			return w.bearGrudge(b, subject, slot("actor"), "brawl lost in public", e0, t,
				trace.Value{Name: "onlookers", Value: float64(w.onlookers[r.claim])})
		}
	case Killing:
		victim := slot("victim")
		if w.kin.Related(r.holder, victim) {
			if err := w.bearGrudge(b, subject, slot("actor"), "kin killed: "+victim, w.defines.GrudgeBereavement, t); err != nil {
				return err
			}
		}
		// Rule 17's scope: a holder of a killing whose victim has kin.
		if w.layers.Has(rules.Schedule) && len(w.kin.Of(victim)) > 0 {
			return w.mourn(b, subject, victim, t)
		}
	case Invoke:
		// A party that is a role is its holder at the time (decision 0022).
		actor, recipient := w.party(slot("actor")), w.party(slot("recipient"))
		if slot("outcome") == Refused && actor == r.holder {
			if err := w.refused(b, subject, recipient, slot("favour"), t); err != nil {
				return err
			}
		}
		if r.holder != actor && r.holder != recipient {
			// Reputation is a person's (decision 0017): an office's debt
			// honoured or refused is evidence about whoever acts for it, as
			// the refusal's grudge is; a vacant office is nobody to judge.
			if recipient == "" {
				w.ruleEval(rules.ReputationEvidence, subject, false, "the debtor's office "+slot("recipient")+" is vacant: nobody to judge")
				return nil
			}
			return w.evidence(b, subject, recipient, Reliability, slot("outcome") == Fulfilled, t)
		}
	case Title:
		if r.holder != slot("actor") && r.holder != slot("recipient") {
			return w.evidence(b, subject, slot("recipient"), Standing, true, t)
		}
	}
	return nil
}

// accumulate is rule 11 for a theft victim with a faction: the theft is
// counted against its offender (once per claim, within the window) and
// the accumulator judged; at the threshold, armed, it escalates.
func (w *World) accumulate(b *claims.Belief, subject, offender, location string, eventTick, t int64) error {
	if !w.rules.Enabled(rules.AccumulationThreshold) {
		w.ruleEval(rules.AccumulationThreshold, subject, false, "disabled")
		return nil
	}
	d := w.defines
	a := w.accumulators.For(b.Holder, offender)
	j := a.Note(social.Offence{Claim: b.Claim, Tick: eventTick}, t,
		social.Threshold{Fire: int(d.EscalationThreshold), Rearm: int(d.EscalationRearm), Window: d.EscalationWindowTicks})
	w.ruleEval(rules.AccumulationThreshold, subject, j.Fired, j.Reason,
		trace.Value{Name: "armed", Value: boolValue(j.Fired || !a.Disarmed)}, trace.Value{Name: "count", Value: float64(j.Count)},
		trace.Value{Name: "rearm", Value: float64(d.EscalationRearm)}, trace.Value{Name: "rearmed", Value: boolValue(j.Rearmed)},
		trace.Value{Name: "threshold", Value: float64(d.EscalationThreshold)})
	if !j.Fired {
		return nil
	}
	return w.escalate(b.Holder, offender, location, b.Claim, t)
}

// escalate appends the escalation event (decision 0013), mints its claim —
// the warning — and forms the victim's belief in it, in that order: the
// event precedes every belief in its claim, and the warning travels only
// as the victim tells it.
func (w *World) escalate(victim, offender, location, cause string, t int64) error {
	id := "escalation@" + strconv.FormatInt(t, 10) + ":" + victim + ":" + offender
	attrs := map[string]string{"actor": offender, "victim": victim, "location": location}
	if err := w.appendEvent(events.Event{ID: id, Kind: Escalation, Tick: t, Attrs: attrs, Witnesses: []string{victim}}, cause); err != nil {
		return err
	}
	claim, err := w.mintClaim(id, Escalation, t, claims.Slots{
		{Name: "actor", Type: claims.EntitySlot, Value: offender},
		{Name: "location", Type: claims.LocationSlot, Value: location},
		{Name: "victim", Type: claims.EntitySlot, Value: victim},
	})
	if err != nil {
		return err
	}
	w.ruleEval(rules.SharedClaimInvariant, claim.ID, true, "claim minted for event")
	return w.witness(claim, Witness{NPC: victim})
}

// refused is rule 12's scope for the creditor of a refused invocation: the
// refusal is a grudge cause when it violated the obligation (rule 14 ran
// earlier in this phase).
func (w *World) refused(b *claims.Belief, subject, debtor, favour string, t int64) error {
	o, ok := w.ledger.Get(social.ObligationID(favour))
	if !ok || o.State != social.Violated || o.Cause != b.Claim {
		if !w.rules.Enabled(rules.GrudgeCreation) {
			w.ruleEval(rules.GrudgeCreation, subject, false, "disabled")
			return nil
		}
		w.ruleEval(rules.GrudgeCreation, subject, false, "no obligation was violated by it")
		return nil
	}
	return w.bearGrudge(b, subject, debtor, "favour refused", w.defines.GrudgeRefusal, t)
}

// bearGrudge is rule 12: the holder bears a grudge against target, at the
// emotional strength its cause gives and the evidentiary strength its
// confidence in the cause gives (decision 0016). The grudge is an event
// (decision 0013) and a grudge record, and enters the settling calendar.
func (w *World) bearGrudge(b *claims.Belief, subject, target, reason string, emotional float64, t int64, more ...trace.Value) error {
	if !w.rules.Enabled(rules.GrudgeCreation) {
		w.ruleEval(rules.GrudgeCreation, subject, false, "disabled")
		return nil
	}
	evidentiary := float64(b.Confidence * w.defines.GrudgeEvidenceWeight)
	values := append([]trace.Value{{Name: "confidence", Value: b.Confidence}, {Name: "emotional", Value: emotional}, {Name: "evidentiary", Value: evidentiary}}, more...)
	switch {
	case target == b.Holder:
		w.ruleEval(rules.GrudgeCreation, subject, false, "the actor is the holder", values...)
		return nil
	case target != Player && !w.Alive(target):
		w.ruleEval(rules.GrudgeCreation, subject, false, "the target is dead", values...)
		return nil
	}
	w.ruleEval(rules.GrudgeCreation, subject, true, reason, values...)
	before, _ := w.pairWeight(b.Holder, target, t)
	g, isNew, err := w.grudges.Bear(b.Holder, target, t, emotional, evidentiary, b.Claim)
	if err != nil {
		return err
	}
	id := "grudge@" + strconv.FormatInt(t, 10) + ":" + b.Holder + ":" + target + ":" + b.Claim
	if err := w.appendEvent(events.Event{ID: id, Kind: Grudge, Tick: t, Attrs: map[string]string{"holder": b.Holder, "target": target}}, b.Claim); err != nil {
		return err
	}
	change := trace.GrudgeReinforced
	if isNew {
		change = trace.GrudgeFormed
	}
	c := w.grudges.Curves()
	w.emit(&trace.Grudge{Holder: g.Holder, Target: g.Target, Change: change, Emotional: g.EmotionalAt(t, c), Evidentiary: g.EvidentiaryAt(t, c),
		Rule: rules.GrudgeCreation, Cause: b.Claim})
	if at, ok := g.SettlesAt(c); ok {
		w.settling[at] = append(w.settling[at], grudgeDue{g: g, causes: len(g.Causes)})
	}
	w.reweigh(g.Holder, g.Target, b.Claim, change, before, t)
	return nil
}

// grudgeDue is one entry of the settling calendar: the grudge as it
// stood after its causes-th cause. A cause added since — at a later tick
// or in the same one, which leaves the anchor where it was — made a later
// entry, and makes this one stale.
type grudgeDue struct {
	g      *social.Grudge
	causes int
}

// settle is rule 13's trace: the grudges whose total strength falls below
// grudge_settled at t, by holder then target (decay is derived on read, so
// this records the derivation; a grudge reinforced since its entry was
// made, even in the tick it formed, has another entry instead).
func (w *World) settle(t int64) {
	due := w.settling[t]
	if len(due) == 0 {
		return
	}
	delete(w.settling, t)
	slices.SortFunc(due, func(a, b grudgeDue) int {
		return cmp.Or(cmp.Compare(a.g.Holder, b.g.Holder), cmp.Compare(a.g.Target, b.g.Target))
	})
	c := w.grudges.Curves()
	for _, d := range due {
		g := d.g
		if len(g.Causes) != d.causes {
			continue
		}
		e, v := g.EmotionalAt(t, c), g.EvidentiaryAt(t, c)
		w.ruleEval(rules.GrudgeDecay, g.Holder+"->"+g.Target, true, "total strength fell below grudge_settled",
			trace.Value{Name: "emotional", Value: e}, trace.Value{Name: "evidentiary", Value: v}, trace.Value{Name: "total", Value: float64(e + v)})
		w.emit(&trace.Grudge{Holder: g.Holder, Target: g.Target, Change: trace.GrudgeSettled, Emotional: e, Evidentiary: v,
			Rule: rules.GrudgeDecay, Cause: g.Causes[len(g.Causes)-1]})
	}
}

// evidence is rule 16: an observer who believes a title or an invocation,
// and is not a party to it, counts it once as evidence about its subject.
func (w *World) evidence(b *claims.Belief, subject, about, dimension string, favourable bool, t int64) error {
	if !w.rules.Enabled(rules.ReputationEvidence) {
		w.ruleEval(rules.ReputationEvidence, subject, false, "disabled")
		return nil
	}
	o, moved, err := w.reputation.Add(social.Evidence{Observer: b.Holder, Subject: about, Dimension: dimension, For: favourable, Claim: b.Claim, Tick: t})
	if err != nil {
		return err
	}
	values := []trace.Value{{Name: "alpha", Value: o.Alpha}, {Name: "beta", Value: o.Beta}}
	if !moved {
		w.ruleEval(rules.ReputationEvidence, subject, false, "already counted this claim", values...)
		return nil
	}
	reason := "evidence for " + about + "'s " + dimension
	if !favourable {
		reason = "evidence against " + about + "'s " + dimension
	}
	w.ruleEval(rules.ReputationEvidence, subject, true, reason, values...)
	w.emit(&trace.Reputation{Observer: o.Observer, Subject: o.Subject, Dimension: o.Dimension, Alpha: o.Alpha, Beta: o.Beta, Mean: o.Mean(),
		Rule: rules.ReputationEvidence, Cause: b.Claim})
	return nil
}

// obligations is rule 14 for one favour or invocation of this tick: the
// parties were there, so it is evaluated for the event itself (decision
// 0017). A favour issues the recipient's debt to the actor; an invocation
// by the creditor settles it, fulfilled or — refused — violated; each
// transition is an event and an obligation record.
func (w *World) obligations(in Injection) error {
	if !w.rules.Enabled(rules.Obligations) {
		w.ruleEval(rules.Obligations, in.ID, false, "disabled")
		return nil
	}
	var o *social.Obligation
	if in.Kind == Favour {
		var err error
		if o, err = w.ledger.Issue(in.ID, in.Actor, in.Recipient, in.Tick); err != nil {
			return err
		}
		w.ruleEval(rules.Obligations, in.ID, true, "issued: "+in.Recipient+" owes "+in.Actor)
	} else {
		// An obligation that was never issued is the ledger's to decline
		// (Settle, below); one owed by others is the invocation's.
		if owed, ok := w.ledger.Get(social.ObligationID(in.Favour)); ok && (owed.Creditor != in.Actor || owed.Debtor != in.Recipient) {
			w.ruleEval(rules.Obligations, in.ID, false, fmt.Sprintf("owed by %s to %s, not by %s to %s", owed.Debtor, owed.Creditor, in.Recipient, in.Actor))
			return nil
		}
		outcome := social.Fulfilled
		if in.Outcome == Refused {
			outcome = social.Violated
		}
		var why string
		if o, why = w.ledger.Settle(in.Favour, outcome, in.ID, in.Tick); why != "" {
			w.ruleEval(rules.Obligations, in.ID, false, why)
			return nil
		}
		w.ruleEval(rules.Obligations, in.ID, true, string(o.State)+": "+in.Outcome)
	}
	id := "obligation@" + strconv.FormatInt(in.Tick, 10) + ":" + o.Favour + ":" + string(o.State)
	attrs := map[string]string{"obligation": o.ID, "state": string(o.State)}
	if err := w.appendEvent(events.Event{ID: id, Kind: Obligation, Tick: in.Tick, Attrs: attrs}, in.ID); err != nil {
		return err
	}
	w.emit(&trace.Obligation{ID: o.ID, Favour: o.Favour, Creditor: o.Creditor, Debtor: o.Debtor, State: string(o.State), Rule: rules.Obligations, Cause: in.ID})
	return nil
}

// keeps is rule 15, for a telling in an encounter: a private claim (a
// secret) is kept by a teller it implicates, or who is kin of someone it
// implicates — as the teller's own variant names them. It reports whether
// the teller keeps it; the decline is also a transmission record, so the
// encounter feed shows it where it shows tellings (decision 0019). Public
// claims are not evaluated.
func (w *World) keeps(e encounter, teller, listener, claim string, tv told) bool {
	if !w.layers.Has(rules.Social) {
		return false // no secrets in a core-only world: spare the hot path the look-up
	}
	c, _ := w.store.Claim(claim)
	if c.Kind != Secret {
		return false
	}
	subject := listener + "<-" + teller + "/" + claim
	if !w.rules.Enabled(rules.TellDecision) {
		w.ruleEval(rules.TellDecision, subject, false, "disabled")
		return false
	}
	v, _ := w.store.Variant(tv.variant)
	s, _ := v.Slots.Get("implicates")
	implicated, kin := s.Value == teller, w.kin.Related(teller, s.Value)
	values := []trace.Value{{Name: "implicated", Value: boolValue(implicated)}, {Name: "kin", Value: boolValue(kin)}}
	reason := ""
	switch {
	case implicated:
		reason = "keeps the secret: implicated"
	case kin:
		reason = "keeps the secret: kin of " + s.Value
	default:
		w.ruleEval(rules.TellDecision, subject, true, "no motive to keep it", values...)
		return false
	}
	w.ruleEval(rules.TellDecision, subject, false, reason, values...)
	w.transmission(trace.Transmission{Via: e.id, Claim: claim, Variant: tv.variant, Teller: teller, Listener: listener, Rule: rules.TellDecision, Reason: reason})
	return true
}
