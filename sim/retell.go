package sim

import (
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

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

// ReasonNotReactivated is corroboration's reason for a telling to a
// dormant or forgotten holder while dormancy reactivation is disabled:
// such a telling could only corroborate by reactivating.
const ReasonNotReactivated = "not reactivated: dormancy-reactivation is disabled"

// corroborate offers a report to an existing belief of the same variant.
// Told to a dormant or forgotten holder, it is also a reactivation.
func (w *World) corroborate(lb *claims.Belief, t claims.Testimony) error {
	subject := lb.Holder + "/" + lb.Claim
	m := w.store.Memory()
	stageBefore, gistBefore := lb.StageAt(w.now, m), lb.GistAt(w.now, m)
	reactivating := stageBefore == claims.Dormant || stageBefore == claims.Forgotten
	// Corroboration first: a belief told again is reactivated only by
	// being corroborated, so with corroboration off reactivation is never
	// evaluated, and its own toggle must not change the run.
	if !w.rules.Enabled(rules.Corroboration) {
		w.ruleEval(rules.Corroboration, subject, false, "disabled")
		return nil
	}
	if reactivating && !w.rules.Enabled(rules.DormancyReactivation) {
		w.ruleEval(rules.DormancyReactivation, subject, false, "disabled")
		// Corroboration's switch was read, and it decides nothing here:
		// its record says so, so that a run which reads a rule's switch
		// always names the rule (switching off a rule no record names
		// must change nothing).
		w.ruleEval(rules.Corroboration, subject, false, ReasonNotReactivated)
		return nil
	}
	out, err := w.store.Corroborate(lb.Holder, t, w.defines.CorroborationWindow)
	if err != nil {
		return err
	}
	w.transmission(trace.Transmission{Via: t.Via, Claim: lb.Claim, Variant: t.Variant, Teller: t.Teller, Listener: lb.Holder, Fired: true, Rule: rules.Corroboration, Reason: "listener already held it", Confidence: t.Confidence})
	w.ruleEval(rules.Corroboration, subject, out.Raised, out.Reason,
		trace.Value{Name: "after", Value: out.After}, trace.Value{Name: "before", Value: out.Before}, trace.Value{Name: "report", Value: t.Confidence})
	change := trace.BeliefReinforced
	if out.Raised {
		change = trace.BeliefCorroborated
	}
	if reactivating {
		w.ruleEval(rules.DormancyReactivation, subject, true, "told again while "+string(stageBefore),
			trace.Value{Name: "gist_before", Value: gistBefore})
		change = trace.BeliefReactivated
	}
	w.beliefHeard(lb, change)
	return nil
}

// mergeClaims appends to dst the sorted union of the claims of two
// holders' beliefs, each list sorted by claim.
func mergeClaims(dst []string, a, b []*claims.Belief) []string {
	for len(a) > 0 && len(b) > 0 {
		switch ca, cb := a[0].Claim, b[0].Claim; {
		case ca < cb:
			dst, a = append(dst, ca), a[1:]
		case cb < ca:
			dst, b = append(dst, cb), b[1:]
		default:
			dst, a, b = append(dst, ca), a[1:], b[1:]
		}
	}
	for _, x := range a {
		dst = append(dst, x.Claim)
	}
	for _, x := range b {
		dst = append(dst, x.Claim)
	}
	return dst
}
