package compare

import (
	"fmt"
	"io"
	"slices"
)

// Side is one of the two runs a comparison reads.
type Side struct {
	// Name is how the report names the run: "T2.3", "T2.3/swapped",
	// "goldens/T1.1-tell/trace.jsonl".
	Name  string
	Trace io.Reader // the run's trace.jsonl, read once, front to back
	Dense []byte    // the run's dense.csv; nil when there is none
}

// Options tune what a Report keeps.
type Options struct {
	// List is how many rolls of each class the report keeps, earliest
	// first; counts are always complete. Negative keeps every one.
	List int
}

// Drift classifies a roll that is not the same in both runs.
type Drift int

// The classes, in the order a report lists them. Value drift and
// threshold drift are the same key rolled differently; the "only" classes
// are keys one run rolled and the other did not — control-flow drift.
const (
	// ValueDrift is a key both runs rolled with different values. Rolls
	// are functions of their keys, so only a pin (or a bug) causes it.
	ValueDrift Drift = iota
	// ThresholdDrift is a key both runs rolled with the same value against
	// different thresholds: the world changed the odds, not the dice
	// (pair weighting, a define).
	ThresholdDrift
	// OnlyA is a key only the first run rolled.
	OnlyA
	// OnlyB is a key only the second run rolled.
	OnlyB
)

// Drifts lists the classes in report order.
var Drifts = []Drift{ValueDrift, ThresholdDrift, OnlyA, OnlyB}

// Difference is one roll that is not the same in both runs: both sides
// for a shared key, one side (the other nil) for a key only one rolled.
type Difference struct {
	A, B *Roll
}

// Tick is the tick of the roll.
func (d Difference) Tick() int64 {
	if d.A != nil {
		return d.A.Tick
	}
	return d.B.Tick
}

// Key is the roll's key.
func (d Difference) Key() string {
	if d.A != nil {
		return d.A.Key
	}
	return d.B.Key
}

// Class counts the rolls of one drift class and keeps the earliest.
type Class struct {
	Count  int
	Listed []Difference // at most Options.List, in tick order
}

// Run describes one side as read.
type Run struct {
	Name     string
	Header   Header
	Records  int   // records after the header
	Rolls    int   // rolls among them
	LastTick int64 // tick of the last record; -1 when there is none
}

// Divergence is the first roll that is not the same in both runs.
type Divergence struct {
	Drift Drift
	Difference
}

// BeliefDivergence is the first tick at which some holder's set of held
// variants differs between the runs.
type BeliefDivergence struct {
	Tick   int64
	Holder string
	A, B   []string // the variants each run's holder holds, sorted
}

// Report is the comparison of two runs.
type Report struct {
	A, B Run
	// Shared counts the keys both runs rolled; Same those of them rolled
	// with the same value against the same threshold.
	Shared, Same int
	// Classes holds the rolls that differ, by Drift.
	Classes [4]Class
	// Flipped counts the shared keys whose outcome differs (see
	// Roll.Outcome), whether the value or the threshold moved.
	Flipped     int
	FirstRoll   *Divergence       // nil when every roll is the same
	FirstBelief *BeliefDivergence // nil when the belief sets never differ
	Dense       DenseReport
}

// SameRolls reports whether the runs rolled the same keys with the same
// values and thresholds.
func (r *Report) SameRolls() bool { return r.FirstRoll == nil }

// Runs compares two runs of one seed. It reads both traces once, in
// step, a tick at a time: only one tick of records of each run is in
// memory, plus each run's belief sets and the differences it keeps. Rolls
// are aligned by key within their tick (a key names its tick): the n-th
// roll of a key in one run pairs with the n-th in the other.
func Runs(a, b Side, opt Options) (*Report, error) {
	ra, err := NewReader(a.Trace)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", a.Name, err)
	}
	rb, err := NewReader(b.Trace)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.Name, err)
	}
	if ra.Header.SeedID != rb.Header.SeedID {
		return nil, fmt.Errorf("%s has seed %q and %s seed %q: rolls of different seeds share no value, so the runs cannot be aligned",
			a.Name, ra.Header.SeedID, b.Name, rb.Header.SeedID)
	}
	c := &comparison{opt: opt, rep: &Report{
		A: Run{Name: a.Name, Header: ra.Header, LastTick: -1},
		B: Run{Name: b.Name, Header: rb.Header, LastTick: -1},
	}}
	la, err := NewLookahead(ra)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", a.Name, err)
	}
	lb, err := NewLookahead(rb)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.Name, err)
	}
	sa, sb := &stream{Lookahead: la, run: &c.rep.A, beliefs: beliefs{}}, &stream{Lookahead: lb, run: &c.rep.B, beliefs: beliefs{}}
	for {
		t, ok := NextTick(sa.Lookahead, sb.Lookahead)
		if !ok {
			break
		}
		if err := sa.tick(t); err != nil {
			return nil, fmt.Errorf("%s: %w", a.Name, err)
		}
		if err := sb.tick(t); err != nil {
			return nil, fmt.Errorf("%s: %w", b.Name, err)
		}
		c.rolls(sa.rolls, sb.rolls)
		c.beliefs(t, sa, sb)
	}
	c.rep.Dense = compareDense(a, b)
	return c.rep, nil
}

// stream reads one run a tick at a time.
type stream struct {
	*Lookahead
	run     *Run
	rolls   []Roll // the rolls of the tick just read, in file order
	beliefs beliefs
	dirty   []string // holders whose set may have changed this tick
	reset   bool     // a keyframe replaced the sets this tick
}

// tick reads every record of tick t (none when the run has none there).
func (s *stream) tick(t int64) error {
	s.rolls, s.dirty, s.reset = s.rolls[:0], s.dirty[:0], false
	for s.More && s.Head.Tick == t {
		rec := s.Head
		s.run.Records++
		s.run.LastTick = t
		r, ok, err := RollOf(rec.Fields, rec.Line)
		if err != nil {
			return fmt.Errorf("trace line %d: %w", rec.Line, err)
		}
		if ok {
			s.run.Rolls++
			s.rolls = append(s.rolls, r)
		}
		holder, all, err := s.beliefs.apply(rec)
		if err != nil {
			return err
		}
		if holder != "" {
			s.dirty = append(s.dirty, holder)
		}
		s.reset = s.reset || all
		if err := s.Advance(); err != nil {
			return err
		}
	}
	return nil
}

type comparison struct {
	opt Options
	rep *Report
}

// rolls pairs one tick's rolls of each run by key and classifies them.
// The first divergent roll is the earliest in the tick by its place among
// the tick's rolls in its own file, the first run's on a tie.
func (c *comparison) rolls(as, bs []Roll) {
	byKey := make(map[string][]int, len(bs))
	for j, r := range bs {
		byKey[r.Key] = append(byKey[r.Key], j)
	}
	paired := make([]bool, len(bs))
	first, firstAt := (*Divergence)(nil), 0
	note := func(d Drift, diff Difference, at int) {
		cl := &c.rep.Classes[d]
		cl.Count++
		if c.opt.List < 0 || len(cl.Listed) < c.opt.List {
			cl.Listed = append(cl.Listed, diff)
		}
		if c.rep.FirstRoll == nil && (first == nil || at < firstAt) {
			first, firstAt = &Divergence{Drift: d, Difference: diff}, at
		}
	}
	for i := range as {
		a := &as[i]
		js := byKey[a.Key]
		if len(js) == 0 {
			note(OnlyA, Difference{A: clone(a)}, i)
			continue
		}
		j := js[0]
		byKey[a.Key] = js[1:]
		paired[j] = true
		b := &bs[j]
		c.rep.Shared++
		if a.Outcome() != b.Outcome() {
			c.rep.Flipped++
		}
		switch {
		case !SameValue(a.Value, b.Value):
			note(ValueDrift, Difference{A: clone(a), B: clone(b)}, i)
		case !SameValue(a.Threshold, b.Threshold):
			note(ThresholdDrift, Difference{A: clone(a), B: clone(b)}, i)
		default:
			c.rep.Same++
		}
	}
	for j := range bs {
		if !paired[j] {
			note(OnlyB, Difference{B: clone(&bs[j])}, j)
		}
	}
	if c.rep.FirstRoll == nil {
		c.rep.FirstRoll = first
	}
}

func clone(r *Roll) *Roll { x := *r; return &x }

// beliefs compares, after tick t, the sets of the holders either run
// touched (every holder after a keyframe), until a first difference is
// found.
func (c *comparison) beliefs(t int64, sa, sb *stream) {
	if c.rep.FirstBelief != nil {
		return
	}
	var holders []string
	if sa.reset || sb.reset {
		holders = append(sa.beliefs.holders(), sb.beliefs.holders()...)
	} else {
		holders = append(slices.Clone(sa.dirty), sb.dirty...)
	}
	slices.Sort(holders)
	for _, h := range slices.Compact(holders) {
		x, y := sa.beliefs.held(h), sb.beliefs.held(h)
		if !slices.Equal(x, y) {
			c.rep.FirstBelief = &BeliefDivergence{Tick: t, Holder: h, A: x, B: y}
			return
		}
	}
}
