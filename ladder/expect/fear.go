package expect

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/jsonschema"
	"github.com/chronicle/ladder/tolerances"
	"github.com/chronicle/ladder/views"
)

// fear checks the collective fear view (package views) at every tick of
// its range, at one location or, without location, over the whole cast:
// total, bit for bit (a number or an expression); contributors, exactly
// the holders whose beliefs contribute (a set); recompute: size-scaled,
// the view's total against an independent recomputation within regime 3
// (tolerances.SizeScaled). The recomputation takes another path through
// the store — claim by claim, each claim's holders, each term formed in
// another order (confidence × gist first, then severity) and summed
// pairwise rather than one after another — with severities of its own
// (fearSeverities), so it agrees with the view only if both add up the
// same terms with the same weights. It examines every belief the view
// weighed (Unit); a range in which nobody in scope holds one checks
// nothing.
//
//	from: 14
//	fear: {location: temple, recompute: size-scaled}
type fearKind struct{}

func (fearKind) Name() string   { return "fear" }
func (fearKind) Timing() Timing { return AtEnd }
func (fearKind) Doc() string {
	return "collective fear, the view computed on read from beliefs: its total, who contributes, and an independent recomputation within regime 3; at the last tick unless timed"
}

type fearCheck struct {
	location     string // views.Everyone for the whole cast
	at           Pos
	total        *Number
	contributors []string // nil: unchecked
	contribAt    Pos
	recompute    *Pos
}

func (fearKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &fearCheck{location: views.Everyone, at: PosOf(n)}
	before := d.Errors()
	d.Object(n, path,
		Field{Name: "location", Doc: "where to read it (default: the whole cast, wherever they are)", Decode: func(v *yaml.Node, p string) { c.location = d.Location(v, p) }},
		Field{Name: "total", Doc: "the view's total, bit for bit (a number or an expression)", Decode: func(v *yaml.Node, p string) { c.total = d.Number(v, p) }},
		Field{Name: "contributors", Doc: "exactly the holders whose beliefs contribute, as a set", Decode: func(v *yaml.Node, p string) {
			c.contributors, c.contribAt = d.NPCList(v, p), PosOf(v)
			if c.contributors == nil {
				c.contributors = []string{}
			}
		}},
		Field{Name: "recompute", Doc: "size-scaled: the total against an independent recomputation within regime 3", Schema: jsonschema.Enum("size-scaled"), Decode: func(v *yaml.Node, p string) {
			if s := d.Str(v, p); s != "size-scaled" && d.Errors() == before {
				d.Errorf(v, p, "recompute: want size-scaled (regime 3, the only tolerance for a sum whose order may differ), got %q", s)
			}
			at := PosOf(v)
			c.recompute = &at
		}},
	)
	d.Needs(n, path, "fear needs total, contributors and/or recompute: a fear check with none checks nothing", "total", "contributors", "recompute")
	return c
}

// Unit is what the view weighed: every belief of a living NPC in the
// check's scope, whether it carries fear or not. A negative —
// contributors: [], nobody's beliefs carry fear here — has examined
// each of them; counting only the contributing ones would make that
// negative examine nothing exactly when it holds.
func (c *fearCheck) Unit() string { return "beliefs weighed" }

// weighed counts the beliefs the view weighed at this tick.
func (c *fearCheck) weighed(w World) int64 {
	var n int64
	for _, npc := range w.NPCs() {
		if w.Alive(npc) && (c.location == views.Everyone || w.At(npc) == c.location) {
			n += int64(len(w.Store().Held(npc)))
		}
	}
	return n
}
func (c *fearCheck) Finish(*Outcome) {}

// where names the check's scope in messages.
func (c *fearCheck) where() string {
	if c.location == views.Everyone {
		return "fear(everywhere)"
	}
	return "fear(" + c.location + ")"
}

func (c *fearCheck) AtTick(w World, o *Outcome) {
	t := w.Tick()
	src := views.Engine(w)
	var f views.Fear
	if c.location == views.Everyone {
		f = views.Everywhere(src)
	} else {
		f = views.At(src, c.location)
	}
	o.Examine(c.weighed(w))
	if c.total != nil && !c.total.compare(w, o, c.where()+".total", f.Total) {
		return
	}
	if c.contributors != nil {
		var got []string
		for _, x := range f.Contributions {
			if !slices.Contains(got, x.Holder) {
				got = append(got, x.Holder)
			}
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(c.contributors))
		if !slices.Equal(got, want) {
			o.Fail(t, c.contribAt, "%s contributors = %s, want exactly %s (missing %s, unexpected %s)", c.where(), list(got), list(want), list(minus(want, got)), list(minus(got, want)))
			return
		}
	}
	if c.recompute != nil {
		again, sum := RecomputeFear(src, c.location)
		if sum.Terms != len(f.Contributions) {
			o.Fail(t, *c.recompute, "%s: the view sums %d beliefs, the recomputation %d: they do not add up the same terms", c.where(), len(f.Contributions), sum.Terms)
			return
		}
		ok, bound, err := tolerances.SizeScaled.Within(f.Total, again, sum)
		switch {
		case err != nil:
			o.Fail(t, *c.recompute, "%s: %v", c.where(), err)
		case !ok:
			o.Fail(t, *c.recompute, "%s.total = %s, recomputed %s: |Δ| %s > %s, regime 3 (%d terms, Σ|x| %s)", c.where(), formatFloat(f.Total), formatFloat(again),
				formatFloat(abs(f.Total-again)), formatFloat(bound), sum.Terms, formatFloat(sum.Magnitude))
		}
	}
}

// fearSeverities is the severity of each claim kind the recomputation
// weighs — a killing 1, a brawl 0.5, a theft 0.25, every other kind
// nothing — the fear view's specification (docs/views.md) written out
// here rather than read from package views, so that the check shares no
// table with what it checks: a change to the view's severities (or to
// these) fails every recompute check whose range holds a belief of the
// kind changed, and a kind the view starts to weigh fails as a count of
// terms that differs. Looked up, never ranged over.
var fearSeverities = map[string]float64{"killing": 1, "brawl": 0.5, "theft": 0.25}

// RecomputeFear computes the fear at location (views.Everyone for the
// whole cast) without the view's code or table, for regime 3 to hold the
// view to: claim by claim (sorted), each claim's holders sorted, each
// term formed as (confidence × gist) × severity with the severities of
// fearSeverities, the terms summed pairwise. It reads the run through the
// view's Source — the beliefs, not the view's arithmetic — so that the
// same recomputation serves a world and a run's written files. It
// returns the total and the sum's size (its terms, their magnitude and
// the two roundings forming a term may take).
func RecomputeFear(src views.Source, location string) (float64, tolerances.Sum) {
	terms := fearTerms(src, location)
	return pairwiseSum(terms), tolerances.Sum{Terms: len(terms), Magnitude: magnitudeOf(terms), TermRoundings: 2}
}

// fearTerms forms the terms RecomputeFear sums.
func fearTerms(src views.Source, location string) []float64 {
	type term struct {
		claim string
		x     float64
	}
	var held []term // holder by holder, as the source lists them
	for _, h := range src.NPCs() {
		if !src.Alive(h) || (location != views.Everyone && src.At(h) != location) {
			continue
		}
		for _, b := range src.Beliefs(h) {
			sev := fearSeverities[b.Kind]
			if sev == 0 || b.Forgotten {
				continue
			}
			held = append(held, term{b.Claim, float64(float64(b.Confidence*b.Gist) * sev)})
		}
	}
	// Claim by claim; the stable sort keeps each claim's holders sorted.
	slices.SortStableFunc(held, func(a, b term) int { return strings.Compare(a.claim, b.claim) })
	terms := make([]float64, len(held))
	for i, t := range held {
		terms[i] = t.x
	}
	return terms
}

// pairwiseSum sums by halves: another algorithm and another order than
// the view's running sum.
func pairwiseSum(xs []float64) float64 {
	switch len(xs) {
	case 0:
		return 0
	case 1:
		return xs[0]
	}
	return pairwiseSum(xs[:len(xs)/2]) + pairwiseSum(xs[len(xs)/2:])
}

func magnitudeOf(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += abs(x)
	}
	return s
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
