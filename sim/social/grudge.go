package social

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/detmath"
)

// Curves are the half-lives and threshold of grudge decay.
type Curves struct {
	EmotionalHalfLife   float64 // ticks
	EvidentiaryHalfLife float64 // ticks
	// Settled is the total strength below which a grudge no longer acts.
	Settled float64
	// NoDecay holds both strengths at their anchored values (the
	// grudge-decay rule is off).
	NoDecay bool
}

// Grudge is one holder's grudge against one target. Strengths are those at
// Anchor; EmotionalAt and EvidentiaryAt derive them at any later tick.
type Grudge struct {
	Holder, Target string
	Emotional      float64 // at Anchor
	Evidentiary    float64 // at Anchor
	FormedAt       int64
	Anchor         int64
	// Causes are the ids of the events that caused or reinforced it, in
	// the order they did.
	Causes []string
}

func decay(v float64, elapsed int64, halfLife float64, off bool) float64 {
	if off || elapsed <= 0 {
		return v
	}
	return float64(v * detmath.Exp2(-(float64(elapsed) / halfLife)))
}

// EmotionalAt returns the emotional strength at tick t.
func (g *Grudge) EmotionalAt(t int64, c Curves) float64 {
	return decay(g.Emotional, t-g.Anchor, c.EmotionalHalfLife, c.NoDecay)
}

// EvidentiaryAt returns the evidentiary strength at tick t.
func (g *Grudge) EvidentiaryAt(t int64, c Curves) float64 {
	return decay(g.Evidentiary, t-g.Anchor, c.EvidentiaryHalfLife, c.NoDecay)
}

// SettledAt reports whether the grudge's total strength at t is below the
// settled threshold.
func (g *Grudge) SettledAt(t int64, c Curves) bool {
	return float64(g.EmotionalAt(t, c)+g.EvidentiaryAt(t, c)) < c.Settled
}

// SettlesAt returns the first tick at or after the anchor at which the
// grudge is settled, and false when it never settles (decay is off and it
// starts above the threshold, or it would take longer than a tick can
// say). Strength only falls after the anchor, so the tick is found by
// doubling then halving the age, each probe the very expression SettledAt
// evaluates. The search keeps its lower end at a tick it saw unsettled
// (the anchor, or the age before the last doubling), so the answer is a
// settled tick whose predecessor is not: the one a scan of every tick
// would give. The engine enters it in a calendar and looks at the grudge
// again only then.
func (g *Grudge) SettlesAt(c Curves) (int64, bool) {
	if g.SettledAt(g.Anchor, c) {
		return g.Anchor, true
	}
	if c.NoDecay {
		return 0, false
	}
	hi := int64(1)
	for !g.SettledAt(g.Anchor+hi, c) {
		if hi > math.MaxInt64/4-g.Anchor {
			return 0, false
		}
		hi *= 2
	}
	lo := hi / 2 // not settled at anchor+lo (lo = 0 is the anchor)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if g.SettledAt(g.Anchor+mid, c) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return g.Anchor + hi, true
}

// Grudges holds every grudge of a run, at most one per (holder, target).
type Grudges struct {
	curves Curves
	by     map[[2]string]*Grudge
	keys   [][2]string // sorted by holder, then target
}

// NewGrudges returns an empty set decaying on the given curves.
func NewGrudges(c Curves) *Grudges {
	return &Grudges{curves: c, by: map[[2]string]*Grudge{}}
}

// Curves returns the decay coefficients.
func (gs *Grudges) Curves() Curves { return gs.curves }

// Bear records that holder holds a grudge against target at tick t, with
// the given fresh strengths, because of cause. A first grudge is formed
// with them; an existing one is reinforced: each strength becomes the
// noisy-or (claims.NoisyOr) of its value at t and the fresh one, and the anchor moves to t.
// It returns the grudge and whether it was newly formed.
func (gs *Grudges) Bear(holder, target string, t int64, emotional, evidentiary float64, cause string) (*Grudge, bool, error) {
	if holder == target {
		return nil, false, fmt.Errorf("grudge of %s against itself", holder)
	}
	for _, v := range []float64{emotional, evidentiary} {
		if !(v >= 0 && v <= 1) {
			return nil, false, fmt.Errorf("grudge of %s against %s: strength %v outside [0, 1]", holder, target, v)
		}
	}
	k := [2]string{holder, target}
	if g, ok := gs.by[k]; ok {
		if t < g.Anchor {
			return nil, false, fmt.Errorf("grudge of %s against %s: reinforced at tick %d, before its anchor %d", holder, target, t, g.Anchor)
		}
		g.Emotional = claims.NoisyOr(g.EmotionalAt(t, gs.curves), emotional)
		g.Evidentiary = claims.NoisyOr(g.EvidentiaryAt(t, gs.curves), evidentiary)
		g.Anchor = t
		g.Causes = append(g.Causes, cause)
		return g, false, nil
	}
	g := &Grudge{Holder: holder, Target: target, Emotional: emotional, Evidentiary: evidentiary, FormedAt: t, Anchor: t, Causes: []string{cause}}
	gs.by[k] = g
	i, _ := slices.BinarySearchFunc(gs.keys, k, compareKey)
	gs.keys = slices.Insert(gs.keys, i, k)
	return g, true, nil
}

// Get returns holder's grudge against target.
func (gs *Grudges) Get(holder, target string) (*Grudge, bool) {
	g, ok := gs.by[[2]string{holder, target}]
	return g, ok
}

// All returns every grudge, sorted by holder, then target.
func (gs *Grudges) All() []*Grudge {
	out := make([]*Grudge, len(gs.keys))
	for i, k := range gs.keys {
		out[i] = gs.by[k]
	}
	return out
}

// Len returns the number of grudges.
func (gs *Grudges) Len() int { return len(gs.keys) }

func compareKey(a, b [2]string) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) }
