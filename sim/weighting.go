package sim

import (
	"cmp"
	"slices"

	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/social"
	"github.com/chronicle/ladder/sim/trace"
)

// Rule 18, pairwise encounter weighting (decision 0021): a grudge between
// two NPCs gives the pair a weight w = max(0, 1 − avoidance_strength · g),
// g the larger total strength of the two directions' grudges; their
// encounter fires when the roll is below p · w. The roll — key and value —
// is the one it would be without the rule: only the threshold moves. It
// runs in a world that uses the weighting layer.

// pairOf returns the pair of NPC numbers a and b, lower first.
func pairOf(a, b int) [2]int {
	if b < a {
		a, b = b, a
	}
	return [2]int{a, b}
}

// weighs reports whether rule 18 weighs a pair's encounters: it is on,
// and a grudge has formed between the two.
func (w *World) weighs(a, b int) bool {
	return len(w.paired) > 0 && w.paired[pairOf(a, b)]
}

// pairWeight returns the weight of a pair at t, and false when no active
// grudge lies between them.
func (w *World) pairWeight(a, b string, t int64) (float64, bool) {
	g, ok := w.grudges.Between(a, b, t)
	if !ok {
		return 1, false
	}
	return social.Weight(g, w.defines.AvoidanceStrength), true
}

// reweigh is rule 18's record when a grudge between two NPCs forms or is
// reinforced: the grudge (holder->target/cause), its strength g, the
// weight before and after. before is the pair's weight just before the
// grudge changed. From then on the pair's encounters carry their weight.
func (w *World) reweigh(holder, target, cause, change string, before float64, t int64) {
	i, npc := w.index[target]
	if !npc || !w.layers.Has(rules.Weighting) {
		return
	}
	subject := holder + "->" + target + "/" + cause
	if !w.rules.Enabled(rules.PairWeighting) {
		w.ruleEval(rules.PairWeighting, subject, false, "disabled")
		return
	}
	g, _ := w.grudges.Between(holder, target, t)
	after, _ := w.pairWeight(holder, target, t)
	w.ruleEval(rules.PairWeighting, subject, true, "grudge "+change,
		trace.Value{Name: "after", Value: after}, trace.Value{Name: "before", Value: before}, trace.Value{Name: "grudge", Value: g})
	p := pairOf(w.index[holder], i)
	if !w.paired[p] {
		w.paired[p] = true
		k, _ := slices.BinarySearchFunc(w.pairs, p, comparePair)
		w.pairs = slices.Insert(w.pairs, k, p)
	}
}

func comparePair(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) }

// PairWeight is one weighted pair's weight at a tick.
type PairWeight struct {
	A, B   string // sorted
	Weight float64
}

// PairWeights returns the weight at the current tick of every pair rule 18
// has weighed, sorted by the pair; a pair whose grudges have all settled
// weighs 1.
func (w *World) PairWeights() []PairWeight {
	out := make([]PairWeight, 0, len(w.pairs))
	for _, p := range w.pairs {
		a, b := w.ids[p[0]], w.ids[p[1]]
		weight, _ := w.pairWeight(a, b, w.now)
		out = append(out, PairWeight{A: a, B: b, Weight: weight})
	}
	return out
}
