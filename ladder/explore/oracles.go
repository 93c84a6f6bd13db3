package explore

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/detmath"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// observer watches one run's records as the engine emits them, with the
// world beside it to read, and feeds the oracles: each an independent
// model of one rule's decision record (decisions 0016–0022), or of where
// a change must come from. Each keeps the first record its model
// disagrees with.
type observer struct {
	f        *fixture.Fixture
	w        *sim.World
	findings map[string]*Finding
	// touched holds, for the current tick, the (holder, claim) pairs some
	// record ties to a witnessing, a telling or a derivation.
	tick    int64
	touched map[[2]string]bool
	held    map[[2]string]bool // beliefs ever formed
	events  map[string]bool    // canonical event ids appended so far
	evals   map[string]bool    // rules with at least one evaluation record
	fired   map[string]bool    // rules with at least one fired evaluation
	mutated int64              // first tick a mutation changed a slot, -1 before
	// vocab is what a slot may mutate to (vocabulary.go); slotChosen the
	// slot the memory policy's last record chose.
	vocab      vocabulary
	slotChosen string

	acc      map[[2]string]*accModel
	grudges  map[[2]string]*grudgeModel
	counted  map[[2]string]int64 // (observer, claim) → tick counted
	opinions map[[3]string][2]float64
	weights  map[[2]string]float64 // last rule 18 (grudge) per pair subject
	restores map[[2]string]int64   // (npc, override) → the tick it must be lifted
	holders  map[string]string     // role → holder, "" vacant
	deaths   map[string]int64
	// succession is, per vacant role, the tick rule 19 must decide its
	// successor (or say why there is none).
	succession map[string]int64

	// memory is the gist curve (liveness.go); rumours are the beliefs by
	// (holder, claim), stagesDue the stage changes filed by tick and
	// stagesFrom the first tick not yet judged; rumoursApplied counts the
	// changes that fell due inside the run.
	memory         memoryCurve
	rumours        map[[2]string]*rumourModel
	stagesDue      map[int64][]rumourDue
	stagesFrom     int64
	rumoursApplied int
}

// oracleProperties are the properties the observer judges on every run
// (and PropRumourStages, counted only where a stage change fell due).
var oracleProperties = []string{PropObserver, PropVocabulary, PropAccumulation, PropGrudgeDecay, PropReputation, PropMourning, PropPairWeight, PropRoleReference}

func newObserver(f *fixture.Fixture) *observer {
	return &observer{
		f: f, findings: map[string]*Finding{}, tick: -1, touched: map[[2]string]bool{}, held: map[[2]string]bool{},
		events: map[string]bool{}, evals: map[string]bool{}, fired: map[string]bool{}, mutated: -1, vocab: newVocabulary(f),
		acc: map[[2]string]*accModel{}, grudges: map[[2]string]*grudgeModel{}, counted: map[[2]string]int64{},
		opinions: map[[3]string][2]float64{}, weights: map[[2]string]float64{}, restores: map[[2]string]int64{},
		holders: map[string]string{}, deaths: map[string]int64{}, succession: map[string]int64{},
		// The curve reaches as far as the world may be run on
		// (quiescence).
		memory: newMemoryCurve(f, runOnBound(f)), rumours: map[[2]string]*rumourModel{}, stagesDue: map[int64][]rumourDue{},
	}
}

// Start is handed the world before its first tick (ladder.Options.Observe).
func (o *observer) Start(w *sim.World) {
	o.w = w
	for _, r := range o.f.Roles {
		o.holders[r.ID] = r.Holder
	}
}

func (o *observer) fail(prop string, t int64, f *Finding) {
	if _, ok := o.findings[prop]; ok {
		return
	}
	f.Property, f.Tick = prop, t
	o.findings[prop] = f
}

// Emit sees every record of the run in order.
func (o *observer) Emit(r trace.Record) {
	if r.Tick != o.tick {
		o.endTick(r.Tick)
	}
	switch b := r.Body.(type) {
	case *trace.RuleEval:
		o.rule(r.Tick, b)
	case *trace.Transmission:
		if b.Fired {
			o.touched[[2]string{b.Listener, b.Claim}] = true
			o.touched[[2]string{b.Teller, b.Claim}] = true
		}
	case *trace.Supersession:
		o.touched[[2]string{b.Holder, b.Claim}] = true
	case *trace.Event:
		o.events[b.ID] = true
		if b.EventKind == "death" {
			o.death(r.Tick, b)
		}
	case *trace.BeliefChange:
		k := [2]string{b.Holder, b.Claim}
		if !o.touched[k] {
			o.fail(PropObserver, r.Tick, &Finding{Message: fmt.Sprintf("%s's belief in %s changed (%s) with no record this tick of a witnessing, telling or derivation that reached it", b.Holder, b.Claim, b.Change)})
		}
		o.held[k] = true
		o.rumour(r.Tick, b)
	case *trace.Keyframe:
		o.keyframe(r.Tick, b)
	case *trace.Grudge:
		o.grudge(r.Tick, b)
	case *trace.Reputation:
		o.reputation(r.Tick, b)
	case *trace.Obligation:
		if !o.events[b.Cause] {
			o.fail(PropObserver, r.Tick, &Finding{Message: fmt.Sprintf("obligation %s moved (%s) citing %s, which is no event of the log", b.ID, b.State, b.Cause)})
		}
	case *trace.Schedule:
		o.schedule(r.Tick, b)
	case *trace.Role:
		o.role(r.Tick, b)
	case *trace.Encounter:
		o.encounter(r.Tick, b)
	}
}

// endTick closes a tick: restores, settlings and stage changes that were
// due and did not come, roles held by the dead.
func (o *observer) endTick(next int64) {
	o.rumoursDueBefore(next)
	for _, k := range slices.SortedFunc(maps.Keys(o.restores), comparePair) {
		due := o.restores[k]
		if due < next && due < o.f.Ticks {
			o.fail(PropMourning, due, &Finding{Message: fmt.Sprintf("%s's mourning %s ends at tick %d and was not lifted then", k[0], k[1], due),
				Expect: list(expectTrace(due, "kind", str("schedule"), "npc", str(k[0]), "change", str("restored"), "override", str(k[1])))})
			delete(o.restores, k)
		}
	}
	for _, k := range slices.SortedFunc(maps.Keys(o.grudges), comparePair) {
		g := o.grudges[k]
		if due, ok := g.settles(o.f, o.f.Ticks); ok && !g.settled && due < next {
			o.fail(PropGrudgeDecay, due, &Finding{Message: fmt.Sprintf("%s's grudge against %s falls below grudge_settled at tick %d (total %s) and did not settle then", k[0], k[1], due, fmtF(g.total(o.f, due))),
				Expect: list(expectTrace(due, "kind", str("grudge"), "holder", str(k[0]), "target", str(k[1]), "change", str("settled")))})
			g.settled = true
		}
	}
	for _, id := range slices.Sorted(maps.Keys(o.succession)) {
		due := o.succession[id]
		if due < next && due < o.f.Ticks {
			o.fail(PropRoleReference, due, &Finding{Message: fmt.Sprintf("role %s fell vacant at tick %d and rule 19 made no decision on its successor at tick %d", id, due-o.f.Defines.SuccessionDelayTicks, due)})
			delete(o.succession, id)
		}
	}
	o.tick = next
	clear(o.touched)
}

func list(ns ...*yaml.Node) []*yaml.Node { return ns }

func fmtF(x float64) string { return canon.FormatFloat(x) }

func (o *observer) rule(t int64, b *trace.RuleEval) {
	o.evals[b.Rule] = true
	if b.Fired {
		o.fired[b.Rule] = true
	}
	if holder, claim, ok := strings.Cut(b.Subject, "/"); ok && !strings.Contains(holder, "<-") && !strings.Contains(holder, "->") {
		o.touched[[2]string{holder, claim}] = true
	}
	switch b.Rule {
	case rules.MutationPolicy:
		if b.Fired && o.mutated < 0 {
			o.mutated = t
		}
		o.mutation(t, b)
	case rules.AccumulationThreshold:
		o.accumulate(t, b)
	case rules.ReputationEvidence:
		if b.Fired {
			holder, claim, _ := strings.Cut(b.Subject, "/")
			k := [2]string{holder, claim}
			if first, twice := o.counted[k]; twice {
				o.fail(PropReputation, t, &Finding{Message: fmt.Sprintf("%s counted claim %s as reputation evidence again (first at tick %d)", holder, claim, first),
					Expect: list(expectTrace(t, "kind", str("rule"), "rule", str(rules.ReputationEvidence), "subject", str(b.Subject), "fired", boolean(false), "reason", str("already counted this claim")))})
			}
			o.counted[k] = t
		}
	case rules.PairWeighting:
		if b.Fired {
			o.pairRule(t, b)
		}
	case rules.RoleSuccession:
		id, _, _ := strings.Cut(b.Subject, "<-")
		if due, ok := o.succession[id]; ok && due == t {
			delete(o.succession, id)
		}
	case rules.GrudgeDecay:
		e, _ := value(b, "emotional")
		v, _ := value(b, "evidentiary")
		if total, ok := value(b, "total"); b.Fired && ok && (total != float64(e+v) || total >= o.f.Defines.GrudgeSettled) {
			o.fail(PropGrudgeDecay, t, &Finding{Message: fmt.Sprintf("%s settled with total %s: want emotional + evidentiary = %s, below grudge_settled %s",
				b.Subject, fmtF(total), fmtF(float64(e+v)), fmtF(o.f.Defines.GrudgeSettled)),
				Expect: list(expectTrace(t, "kind", str("rule"), "rule", str(rules.GrudgeDecay), "subject", str(b.Subject), "values", flowMap("total", float(float64(e+v)))))})
		}
	}
}

func value(b *trace.RuleEval, name string) (float64, bool) {
	for _, v := range b.Values {
		if v.Name == name {
			return v.Value, true
		}
	}
	return 0, false
}

// accModel is decision 0018's accumulator: the offences a victim believes
// one offender committed, by claim and event tick, and whether it is
// armed.
type accModel struct {
	offences map[string]int64
	disarmed bool
}

func (a *accModel) count(now, window int64) int {
	n := 0
	for _, tick := range a.offences {
		if now-tick <= window {
			n++
		}
	}
	return n
}

// accumulate checks one rule-11 evaluation against the model: the
// offender and the offence's tick are read from the victim's own belief,
// as the rule reads them.
func (o *observer) accumulate(t int64, b *trace.RuleEval) {
	if b.Reason == "disabled" || o.w == nil {
		return
	}
	victim, claim, _ := strings.Cut(b.Subject, "/")
	bel, ok := o.w.Store().Belief(victim, claim)
	if !ok {
		return
	}
	v, _ := o.w.Store().Variant(bel.Variant)
	actor, _ := v.Slots.Get("actor")
	c, _ := o.w.Store().Claim(claim)
	d := o.f.Defines
	k := [2]string{victim, actor.Value}
	a := o.acc[k]
	if a == nil {
		a = &accModel{offences: map[string]int64{}}
		o.acc[k] = a
	}
	fired, rearmed := false, false
	reason := "offence already counted"
	if _, dup := a.offences[claim]; !dup {
		if a.disarmed && int64(a.count(t, d.EscalationWindowTicks)) <= d.EscalationRearm {
			a.disarmed, rearmed = false, true
		}
		a.offences[claim] = c.Tick
		switch {
		case a.disarmed:
			reason = "already escalated: re-arms when the count falls to the re-arm level"
		case int64(a.count(t, d.EscalationWindowTicks)) >= d.EscalationThreshold:
			fired, reason, a.disarmed = true, "threshold reached", true
		default:
			reason = "below threshold"
		}
	}
	count := float64(a.count(t, d.EscalationWindowTicks))
	gotCount, _ := value(b, "count")
	gotRearmed, _ := value(b, "rearmed")
	if b.Fired != fired || (gotRearmed == 1) != rearmed || gotCount != count || b.Reason != reason {
		o.fail(PropAccumulation, t, &Finding{
			Message: fmt.Sprintf("%s: the model says fired %v, re-armed %v, count %v (%s); the engine recorded fired %v, re-armed %v, count %v (%s)",
				b.Subject, fired, rearmed, count, reason, b.Fired, gotRearmed == 1, gotCount, b.Reason),
			Expect: list(expectTrace(t, "kind", str("rule"), "rule", str(rules.AccumulationThreshold), "subject", str(b.Subject), "fired", boolean(fired),
				"reason", str(reason), "values", flowMap("count", float(count), "rearmed", float(boolFloat(rearmed))))),
		})
	}
}

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// grudgeModel is a grudge's anchor as its last record gave it.
type grudgeModel struct {
	anchor          int64
	emotional, evid float64
	settled         bool
	holder, target  string
	// due is the first tick whose total is below grudge_settled, once
	// found; scanned is the tick the scan for it has reached.
	due     int64
	found   bool
	scanned int64
}

func (g *grudgeModel) total(f *fixture.Fixture, t int64) float64 {
	d := f.Defines
	off := slices.Contains(f.Disabled, rules.GrudgeDecay)
	return float64(decay(g.emotional, t-g.anchor, d.GrudgeEmotionalHalfLifeTicks, off) + decay(g.evid, t-g.anchor, d.GrudgeEvidentiaryHalfLifeTicks, off))
}

// decay is decision 0016's curve: v · 2^(−elapsed/half-life), each step
// rounded to float64 as the decision writes it.
func decay(v float64, elapsed int64, halfLife float64, off bool) float64 {
	if off || elapsed <= 0 {
		return v
	}
	return float64(v * detmath.Exp2(-(float64(elapsed) / halfLife)))
}

// settles is the first tick from the anchor at which the total is below
// grudge_settled, found by a scan of every tick (the engine bisects)
// before bound: the run's end, or how far it may be run on.
func (g *grudgeModel) settles(f *fixture.Fixture, bound int64) (int64, bool) {
	for t := max(g.anchor, g.scanned); !g.found && t < bound; t++ {
		if g.total(f, t) < f.Defines.GrudgeSettled {
			g.due, g.found = t, true
		}
	}
	g.scanned = max(g.scanned, bound)
	return g.due, g.found && g.due < bound
}

func (o *observer) grudge(t int64, b *trace.Grudge) {
	k := [2]string{b.Holder, b.Target}
	g := o.grudges[k]
	if !o.held[[2]string{b.Holder, b.Cause}] {
		o.fail(PropObserver, t, &Finding{Message: fmt.Sprintf("%s's grudge against %s moved (%s) citing %s, which %s never came to believe", b.Holder, b.Target, b.Change, b.Cause, b.Holder)})
	}
	switch b.Change {
	case "formed", "reinforced":
		if g != nil && !g.settled {
			// Without a new cause it could only have fallen; with one it
			// is the noisy-or of the old and the new, never below the old.
			if before := g.total(o.f, t); float64(b.Emotional+b.Evidentiary) < before && b.Change == "reinforced" {
				o.fail(PropGrudgeDecay, t, &Finding{Message: fmt.Sprintf("%s's grudge against %s fell from %s to %s when reinforced", b.Holder, b.Target, fmtF(before), fmtF(float64(b.Emotional+b.Evidentiary)))})
			}
		}
		o.grudges[k] = &grudgeModel{anchor: t, emotional: b.Emotional, evid: b.Evidentiary, holder: b.Holder, target: b.Target}
	case "settled":
		var due int64
		var ok bool
		if g != nil {
			due, ok = g.settles(o.f, o.f.Ticks)
		}
		switch {
		case g == nil:
			o.fail(PropGrudgeDecay, t, &Finding{Message: fmt.Sprintf("%s's grudge against %s settled before it formed", b.Holder, b.Target)})
		case g.settled:
			o.fail(PropGrudgeDecay, t, &Finding{Message: fmt.Sprintf("%s's grudge against %s settled twice", b.Holder, b.Target)})
		case !ok || due != t:
			at := t
			if ok && due < t {
				at = due
			}
			o.fail(PropGrudgeDecay, at, &Finding{Message: fmt.Sprintf("%s's grudge against %s settled at tick %d (total %s); its total is first below grudge_settled %s at tick %d",
				b.Holder, b.Target, t, fmtF(g.total(o.f, t)), fmtF(o.f.Defines.GrudgeSettled), due),
				Expect: list(expectTrace(due, "kind", str("grudge"), "holder", str(b.Holder), "target", str(b.Target), "change", str("settled")))})
		}
		if g != nil {
			g.settled = true
		}
	}
}

func (o *observer) reputation(t int64, b *trace.Reputation) {
	if !o.held[[2]string{b.Observer, b.Cause}] {
		o.fail(PropObserver, t, &Finding{Message: fmt.Sprintf("%s's opinion of %s moved citing %s, which %s never came to believe", b.Observer, b.Subject, b.Cause, b.Observer)})
	}
	d := o.f.Defines
	k := [3]string{b.Observer, b.Subject, b.Dimension}
	ab, ok := o.opinions[k]
	if !ok {
		ab = [2]float64{d.ReputationPriorAlpha, d.ReputationPriorBeta}
	}
	da, db := float64(b.Alpha-ab[0]), float64(b.Beta-ab[1])
	// One piece of evidence moves exactly one of α, β by the weight.
	moved := (b.Alpha == float64(ab[0]+d.ReputationWeight) && b.Beta == ab[1]) || (b.Beta == float64(ab[1]+d.ReputationWeight) && b.Alpha == ab[0])
	if !moved {
		o.fail(PropReputation, t, &Finding{Message: fmt.Sprintf("%s's opinion of %s (%s) moved by α %s, β %s: one claim moves one of them by reputation_weight %s",
			b.Observer, b.Subject, b.Dimension, fmtF(da), fmtF(db), fmtF(d.ReputationWeight))})
	}
	o.opinions[k] = [2]float64{b.Alpha, b.Beta}
}

// pairRule checks a rule-18 record: its weight is the formula of its
// grudge, within [0, 1], and does not rise while the grudge grows.
func (o *observer) pairRule(t int64, b *trace.RuleEval) {
	g, _ := value(b, "grudge")
	after, _ := value(b, "after")
	want := max(0, 1-float64(o.f.Defines.AvoidanceStrength*g))
	pair := strings.SplitN(b.Subject, "/", 2)[0]
	holder, target, _ := strings.Cut(pair, "->")
	k := [2]string{min(holder, target), max(holder, target)}
	prevG, seen := o.weights[k]
	switch {
	case after != want || after < 0 || after > 1:
		o.fail(PropPairWeight, t, &Finding{Message: fmt.Sprintf("%s: grudge %s gives weight max(0, 1 − %s × %s) = %s; the engine recorded %s",
			b.Subject, fmtF(g), fmtF(o.f.Defines.AvoidanceStrength), fmtF(g), fmtF(want), fmtF(after)),
			Expect: list(expectTrace(t, "kind", str("rule"), "rule", str(rules.PairWeighting), "subject", str(b.Subject), "values", flowMap("after", float(want))))})
	case seen && g > prevG:
		if before, _ := value(b, "before"); after > before {
			o.fail(PropPairWeight, t, &Finding{Message: fmt.Sprintf("%s: the grudge grew from %s to %s and the weight rose from %s to %s", b.Subject, fmtF(prevG), fmtF(g), fmtF(before), fmtF(after))})
		}
	}
	o.weights[k] = g
}

// encounter checks a weighted encounter: its weight within [0, 1] and its
// threshold p·w.
func (o *observer) encounter(t int64, b *trace.Encounter) {
	if !b.Weighted {
		return
	}
	want := float64(o.f.Defines.EncounterProbability * b.Weight)
	if b.Weight < 0 || b.Weight > 1 || b.Roll.Threshold != want {
		o.fail(PropPairWeight, t, &Finding{Message: fmt.Sprintf("encounter %s: weight %s, threshold %s; want a weight within [0, 1] and threshold p·w = %s",
			b.ID(), fmtF(b.Weight), fmtF(b.Roll.Threshold), fmtF(want))})
	}
	if b.Fired != (b.Roll.Roll.Value < b.Roll.Threshold) {
		o.fail(PropPairWeight, t, &Finding{Message: fmt.Sprintf("encounter %s fired %v with roll %s against threshold %s", b.ID(), b.Fired, fmtF(b.Roll.Roll.Value), fmtF(b.Roll.Threshold))})
	}
}

func (o *observer) schedule(t int64, b *trace.Schedule) {
	k := [2]string{b.NPC, b.Override}
	switch b.Change {
	case "overridden":
		if b.To > 0 && strings.HasPrefix(b.Override, "rewrite@") {
			o.restores[k] = b.To
		}
	case "restored":
		due, ok := o.restores[k]
		if !ok || due != t {
			o.fail(PropMourning, t, &Finding{Message: fmt.Sprintf("%s's mourning %s was lifted at tick %d, due at %d", b.NPC, b.Override, t, due)})
		}
		delete(o.restores, k)
	}
}

func (o *observer) death(t int64, b *trace.Event) {
	if o.w == nil {
		return
	}
	victim := ""
	for _, r := range o.w.Log().Records() {
		if r.Event.ID == b.ID {
			victim = r.Event.Attrs["victim"]
		}
	}
	o.deaths[victim] = t
	for _, r := range o.f.Roles {
		if h := o.holders[r.ID]; h != "" && h == victim {
			// Its vacancy must follow within the tick: checked at the
			// role record, or when the tick ends without one.
			o.holders[r.ID] = "dead:" + victim
		}
	}
}

func (o *observer) role(t int64, b *trace.Role) {
	switch b.Change {
	case "vacant":
		o.holders[b.Role] = ""
		if o.w != nil && o.w.Enabled(rules.RoleSuccession) {
			o.succession[b.Role] = t + o.f.Defines.SuccessionDelayTicks
		}
	case "appointed":
		if _, dead := o.deaths[b.Holder]; dead || b.Holder == "" {
			o.fail(PropRoleReference, t, &Finding{Message: fmt.Sprintf("role %s was given to %q, who is not a living NPC", b.Role, b.Holder)})
		}
		o.holders[b.Role] = b.Holder
	}
}

// end closes the run: the last tick's checks, and roles still held by the dead.
func (o *observer) end() {
	o.endTick(o.f.Ticks)
	for _, id := range slices.Sorted(maps.Keys(o.holders)) {
		if h, ok := strings.CutPrefix(o.holders[id], "dead:"); ok && o.w != nil && o.w.Layers().Has(rules.Roles) && o.w.Enabled(rules.RoleSuccession) {
			t := o.deaths[h]
			o.fail(PropRoleReference, t, &Finding{Message: fmt.Sprintf("role %s still resolves to %s, dead since tick %d", id, h, t),
				Expect: list(expectTrace(t, "kind", str("role"), "role", str(id), "change", str("vacant")))})
		}
	}
}

// sorted returns the findings in property order.
func (o *observer) sorted() []*Finding {
	var out []*Finding
	for _, p := range Properties {
		if f, ok := o.findings[p.Name]; ok {
			out = append(out, f)
		}
	}
	slices.SortStableFunc(out, func(a, b *Finding) int { return cmp.Compare(a.Tick, b.Tick) })
	return out
}

func comparePair(a, b [2]string) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) }
