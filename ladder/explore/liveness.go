package explore

import (
	"fmt"
	"math"
	"slices"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// Liveness: what time alone must bring about. A rumour nobody refreshes
// goes dormant, then forgotten (rule 9, decision 0010); a grudge with no
// new cause settles (rule 13, decision 0016). Each is due at a tick its
// defines imply from its last refresh or cause, so a run can be held to
// it wherever the tick falls inside the run; quiescence runs a world on
// past its end so that the ticks a run stops short of are reached too.

// never is a due tick no run reaches.
const never = int64(math.MaxInt64)

// runOnBound is the tick a world is run on to at most (quiescence): twice
// its own length, or, if longer, as long as the generator lets a world of
// its cast and places run (costBudget). A run on so costs at most two
// runs of the world, or one of the longest the generator would draw for
// it: a few tens of milliseconds.
func runOnBound(f *fixture.Fixture) int64 {
	n := int64(max(1, len(f.Cast)))
	return max(2*f.Ticks, costBudget*int64(max(1, len(f.Locations)))/(n*n))
}

// rumourModel is one belief's memory as its records give it.
type rumourModel struct {
	// anchor is the tick of its last refresh: formed, told again
	// (corroborated, reinforced, reactivated) or contested.
	anchor int64
	// dormant and forgotten are the ticks time alone made it so, as
	// recorded since the anchor; -1 before.
	dormant, forgotten int64
}

// memoryCurve is decision 0002's gist curve under a run's defines: the
// elapsed ticks after which a belief's gist, 2^(−elapsed/gist_half_life),
// is first below dormant_gist and below forgotten_gist, each found by a
// scan of every tick (the engine bisects: the scan is the model) up to a
// bound, never beyond it or when decay or stages are off.
type memoryCurve struct {
	halfLife               float64
	dormantGist, forgotten float64
	decayOff, stagesOff    bool
	toDormant, toForgotten int64
}

func newMemoryCurve(f *fixture.Fixture, bound int64) memoryCurve {
	d := f.Defines
	m := memoryCurve{halfLife: d.GistHalfLifeTicks, dormantGist: d.DormantGist, forgotten: d.ForgottenGist,
		decayOff: slices.Contains(f.Disabled, rules.BeliefDecay), stagesOff: slices.Contains(f.Disabled, rules.RumourStages),
		toDormant: never, toForgotten: never}
	if m.decayOff || m.stagesOff {
		return m
	}
	for e := int64(1); e <= bound && m.toForgotten == never; e++ {
		g := m.gist(e)
		if m.toDormant == never && g < m.dormantGist {
			m.toDormant = e
		}
		if g < m.forgotten {
			m.toForgotten = e
		}
	}
	return m
}

// gist is the gist left elapsed ticks after a refresh.
func (m memoryCurve) gist(elapsed int64) float64 { return decay(1, elapsed, m.halfLife, m.decayOff) }

// stage is the stage time has brought a belief to, elapsed ticks after
// its refresh: dormant, forgotten, or "" while it is as it was stored.
func (m memoryCurve) stage(elapsed int64) string {
	switch {
	case elapsed >= m.toForgotten:
		return trace.BeliefForgotten
	case elapsed >= m.toDormant:
		return trace.BeliefDormant
	}
	return ""
}

// due is when a belief anchored at anchor goes dormant and forgotten
// (never when not): crossing both thresholds at once, it is forgotten,
// with no dormant tick of its own.
func (m memoryCurve) due(anchor int64) (dormant, forgotten int64) {
	dormant, forgotten = never, never
	if m.toForgotten != never {
		forgotten = anchor + m.toForgotten
	}
	if m.toDormant != never && m.toDormant < m.toForgotten {
		dormant = anchor + m.toDormant
	}
	return dormant, forgotten
}

// refreshes are the belief changes that refresh memory (strengths back
// to 1): every change that is not the holder passing it on or time.
var refreshes = []string{trace.BeliefFormed, trace.BeliefCorroborated, trace.BeliefReinforced, trace.BeliefReactivated, trace.BeliefContested}

// rumour follows a belief record: a refresh moves the anchor and files
// the stage changes due from it; a stage change by time must be one that
// is due, at its tick.
func (o *observer) rumour(t int64, b *trace.BeliefChange) {
	k := [2]string{b.Holder, b.Claim}
	m := o.rumours[k]
	switch {
	case slices.Contains(refreshes, b.Change):
		if m == nil {
			m = &rumourModel{}
			o.rumours[k] = m
		}
		*m = rumourModel{anchor: t, dormant: -1, forgotten: -1}
		for _, at := range o.dueTicks(t) {
			o.stagesDue[at] = append(o.stagesDue[at], rumourDue{k, t})
		}
	case b.Change == trace.BeliefDormant || b.Change == trace.BeliefForgotten:
		if m == nil {
			return // a belief never formed: observer locality's to say
		}
		dormant, forgotten := o.memory.due(m.anchor)
		want, seen := dormant, &m.dormant
		if b.Change == trace.BeliefForgotten {
			want, seen = forgotten, &m.forgotten
		}
		if t != want || *seen >= 0 {
			o.fail(PropRumourStages, t, &Finding{Message: fmt.Sprintf("%s's belief in %s went %s at tick %d; refreshed last at tick %d, its gist (%s then) is first below %s at tick %s",
				b.Holder, b.Claim, b.Change, t, m.anchor, fmtF(o.memory.gist(t-m.anchor)), o.threshold(b.Change), tickOrNever(want))})
		}
		*seen = t
	}
}

// dueTicks are the ticks at which a belief refreshed at anchor changes
// stage by time, within the bound of the curve.
func (o *observer) dueTicks(anchor int64) []int64 {
	var out []int64
	dormant, forgotten := o.memory.due(anchor)
	for _, at := range []int64{dormant, forgotten} {
		if at != never {
			out = append(out, at)
		}
	}
	return out
}

func (o *observer) threshold(change string) string {
	if change == trace.BeliefForgotten {
		return "forgotten_gist " + fmtF(o.memory.forgotten)
	}
	return "dormant_gist " + fmtF(o.memory.dormantGist)
}

func tickOrNever(t int64) string {
	if t == never {
		return "never (within the bound)"
	}
	return fmt.Sprint(t)
}

// rumourDue is a stage change filed at a refresh: the belief, and the
// anchor it is due from (a later refresh makes it lapse).
type rumourDue struct {
	k      [2]string
	anchor int64
}

// rumoursDueBefore judges the stage changes due before tick next (and
// inside the run) that still stand: each must have been recorded at its
// tick.
func (o *observer) rumoursDueBefore(next int64) {
	for o.stagesFrom < next && o.stagesFrom < o.f.Ticks {
		at := o.stagesFrom
		o.stagesFrom++
		due := o.stagesDue[at]
		delete(o.stagesDue, at)
		for _, d := range due {
			m := o.rumours[d.k]
			if m.anchor != d.anchor {
				continue // refreshed since: due later
			}
			o.rumoursApplied++
			dormant, _ := o.memory.due(m.anchor)
			change, seen := trace.BeliefForgotten, m.forgotten
			if at == dormant {
				change, seen = trace.BeliefDormant, m.dormant
			}
			if seen != at {
				o.fail(PropRumourStages, at, &Finding{Message: fmt.Sprintf("%s's belief in %s, refreshed last at tick %d, has gist %s at tick %d, below %s, and did not go %s then",
					d.k[0], d.k[1], m.anchor, fmtF(o.memory.gist(at-m.anchor)), at, o.threshold(change), change),
					Expect: list(expectTrace(at, "kind", str("belief"), "holder", str(d.k[0]), "claim", str(d.k[1]), "change", str(change)))})
			}
		}
	}
}

// keyframe holds every belief a keyframe shows to the stage and gist its
// last refresh gives it.
func (o *observer) keyframe(t int64, k *trace.Keyframe) {
	for _, b := range k.Beliefs {
		m := o.rumours[[2]string{b.Holder, b.Claim}]
		if m == nil {
			continue
		}
		want := o.memory.stage(t - m.anchor)
		got := b.Stage
		if got != trace.BeliefDormant && got != trace.BeliefForgotten {
			got = ""
		}
		if gist := o.memory.gist(t - m.anchor); got != want || b.Gist != gist {
			o.fail(PropRumourStages, t, &Finding{Message: fmt.Sprintf("the keyframe at tick %d shows %s's belief in %s %s with gist %s; refreshed last at tick %d, it is %s with gist %s",
				t, b.Holder, b.Claim, b.Stage, fmtF(b.Gist), m.anchor, stageName(want), fmtF(gist))})
		}
	}
}

func stageName(s string) string {
	if s == "" {
		return "heard or repeated"
	}
	return s
}

// restingBy is the tick a world that ends here must be run on to (its
// last tick + 1) for every grudge left open and every rumour left to go
// dormant or forgotten to come due, counting only those due before
// bound; 0 when none is.
func (o *observer) restingBy(bound int64) int64 {
	last := int64(-1)
	for _, m := range o.rumours {
		for _, at := range o.dueTicks(m.anchor) {
			if at >= o.f.Ticks && at < bound {
				last = max(last, at)
			}
		}
	}
	for _, g := range o.grudges {
		if at, ok := g.settles(o.f, bound); ok && !g.settled && at >= o.f.Ticks {
			last = max(last, at)
		}
	}
	return last + 1
}
