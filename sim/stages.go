package sim

import (
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// stages traces the rumour-stage transitions that time alone caused this
// tick: a belief not touched this tick whose derived stage differs from the
// tick before (heard or repeated → dormant → forgotten), in holder, then
// claim order. Stages are never stored — StageAt derives them — so this is
// a record of the derivation, not a write. Beliefs whose stage did not
// change are not recorded: that would be one record per belief per tick,
// and the keyframes already show every stage once a day. The store's stage
// calendar names the beliefs, so a tick looks only at those whose gist
// crosses a threshold at it.
func (w *World) stages(t int64) {
	if t == 0 {
		return
	}
	m := w.store.Memory()
	for _, b := range w.store.Transitions(t) {
		reason, change := "gist fell below dormant_gist", trace.BeliefDormant
		if b.StageAt(t, m) == claims.Forgotten {
			reason, change = "gist fell below forgotten_gist", trace.BeliefForgotten
		}
		w.ruleEval(rules.RumourStages, b.Holder+"/"+b.Claim, true, reason, trace.Value{Name: "gist", Value: b.GistAt(t, m)})
		w.beliefChange(b, change)
	}
}
