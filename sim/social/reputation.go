package social

import (
	"cmp"
	"fmt"
	"slices"
)

// Opinion is one observer's Beta(α, β) view of one subject on one
// dimension. Counted is how much evidence moved it (α + β − prior); For
// and Against count the pieces of evidence added to α and to β, so the
// invariant audit can hold α to α₀ + For·weight exactly where the sum is
// exact; Updated is the tick of the last evidence that moved it, so
// "whose row changed at tick t" is a question the book answers without a
// copy of the tick before.
type Opinion struct {
	Observer, Subject, Dimension string
	Alpha, Beta                  float64
	Counted                      float64
	For, Against                 int64
	Updated                      int64
}

// Mean is the expected value α / (α + β).
func (o *Opinion) Mean() float64 { return o.Alpha / float64(o.Alpha+o.Beta) }

// Prior is the Beta prior every opinion starts from, and the weight one
// piece of evidence carries.
type Prior struct {
	Alpha, Beta, Weight float64
}

type opinionKey struct{ observer, subject, dimension string }

func compareOpinionKey(a, b opinionKey) int {
	return cmp.Or(cmp.Compare(a.observer, b.observer), cmp.Compare(a.subject, b.subject), cmp.Compare(a.dimension, b.dimension))
}

// Reputation holds every observer's opinions. An observer who never
// received evidence about a subject has no opinion at all — not the prior —
// so "whose view moved" is exactly "who has a row".
type Reputation struct {
	prior Prior
	by    map[opinionKey]*Opinion
	keys  []opinionKey // sorted
	// counted maps each (observer, claim) already counted to the row its
	// evidence moved.
	counted map[[2]string]opinionKey
}

// NewReputation returns an empty book with the given prior and weight.
func NewReputation(p Prior) *Reputation {
	return &Reputation{prior: p, by: map[opinionKey]*Opinion{}, counted: map[[2]string]opinionKey{}}
}

// Evidence is one claim's bearing on a subject's reputation.
type Evidence struct {
	Observer, Subject, Dimension string
	For                          bool   // evidence for (α) or against (β)
	Claim                        string // the claim the observer believes
	Tick                         int64  // when the observer came to believe it
}

// Add counts the evidence unless the observer already counted this claim,
// and returns the opinion the claim's evidence moved and whether it moved
// now. A claim is counted once whatever it names: an observer who switches
// to a variant with another recipient holds the same claim, so the evidence
// stays where it was counted and Add returns that row, unchanged — never
// the new subject's, which may not exist.
func (r *Reputation) Add(e Evidence) (*Opinion, bool, error) {
	if e.Observer == e.Subject {
		return nil, false, fmt.Errorf("reputation of %s in its own eyes", e.Subject)
	}
	k := opinionKey{e.Observer, e.Subject, e.Dimension}
	if at, done := r.counted[[2]string{e.Observer, e.Claim}]; done {
		return r.by[at], false, nil
	}
	r.counted[[2]string{e.Observer, e.Claim}] = k
	o, ok := r.by[k]
	if !ok {
		o = &Opinion{Observer: e.Observer, Subject: e.Subject, Dimension: e.Dimension, Alpha: r.prior.Alpha, Beta: r.prior.Beta}
		r.by[k] = o
		i, _ := slices.BinarySearchFunc(r.keys, k, compareOpinionKey)
		r.keys = slices.Insert(r.keys, i, k)
	}
	if e.For {
		o.Alpha = float64(o.Alpha + r.prior.Weight)
		o.For++
	} else {
		o.Beta = float64(o.Beta + r.prior.Weight)
		o.Against++
	}
	o.Counted = float64(o.Counted + r.prior.Weight)
	o.Updated = e.Tick
	return o, true, nil
}

// Get returns observer's opinion of subject on dimension.
func (r *Reputation) Get(observer, subject, dimension string) (*Opinion, bool) {
	o, ok := r.by[opinionKey{observer, subject, dimension}]
	return o, ok
}

// All returns every opinion, sorted by observer, subject, dimension.
func (r *Reputation) All() []*Opinion {
	out := make([]*Opinion, len(r.keys))
	for i, k := range r.keys {
		out[i] = r.by[k]
	}
	return out
}

// Counted returns every (observer, claim) pair whose evidence the book has
// counted, sorted by observer, then claim: each moved exactly one row once.
func (r *Reputation) Counted() [][2]string {
	out := make([][2]string, 0, len(r.counted))
	for k := range r.counted {
		out = append(out, k)
	}
	slices.SortFunc(out, compareKey)
	return out
}

// CountedLen returns how many (observer, claim) pairs the book has
// counted: len(Counted()) without the sorted copy.
func (r *Reputation) CountedLen() int { return len(r.counted) }

// Prior returns the prior and the weight of one piece of evidence.
func (r *Reputation) Prior() Prior { return r.prior }
