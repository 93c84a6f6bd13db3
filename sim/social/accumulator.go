package social

import (
	"cmp"
	"slices"
)

// Threshold configures an accumulator: it fires when Count ≥ Fire while
// armed, and re-arms when the count is back at or below Rearm. Window
// bounds which offences count: those whose event tick is within the last
// Window ticks.
type Threshold struct {
	Fire, Rearm int
	Window      int64
}

// Offence is one counted event, by its claim id and the tick it happened.
type Offence struct {
	Claim string
	Tick  int64
}

// Accumulator counts the offences one victim believes one offender
// committed, and fires once per series. The zero value is armed and empty.
type Accumulator struct {
	Victim, Offender string
	Offences         []Offence // sorted by tick, then claim
	// Disarmed is set when the accumulator fires and cleared when the count
	// falls back to the re-arm level.
	Disarmed bool
}

// Judgement is one evaluation of an accumulator.
type Judgement struct {
	Count   int    // offences within the window, the new one included
	Fired   bool   // this offence tipped it
	Rearmed bool   // it re-armed before judging this offence
	Reason  string // why it fired or did not
}

// Note counts a newly believed offence at tick now and judges the
// accumulator: a disarmed accumulator whose count (before this offence) is
// at or below the re-arm level re-arms first; then an armed one fires when
// the count reaches the threshold. Offences older than the window stay
// recorded but do not count. An offence already noted changes nothing.
func (a *Accumulator) Note(o Offence, now int64, th Threshold) Judgement {
	i, dup := slices.BinarySearchFunc(a.Offences, o, compareOffence)
	if dup {
		return Judgement{Count: a.Count(now, th.Window), Reason: "offence already counted"}
	}
	var j Judgement
	if a.Disarmed && a.Count(now, th.Window) <= th.Rearm {
		a.Disarmed, j.Rearmed = false, true
	}
	a.Offences = slices.Insert(a.Offences, i, o)
	j.Count = a.Count(now, th.Window)
	switch {
	case a.Disarmed:
		j.Reason = "already escalated: re-arms when the count falls to the re-arm level"
	case j.Count >= th.Fire:
		j.Fired, j.Reason = true, "threshold reached"
		a.Disarmed = true
	default:
		j.Reason = "below threshold"
	}
	return j
}

// Count returns how many noted offences lie within the window ending at
// now (event tick ≥ now − window).
func (a *Accumulator) Count(now, window int64) int {
	n := 0
	for _, o := range a.Offences {
		if now-o.Tick <= window {
			n++
		}
	}
	return n
}

func compareOffence(a, b Offence) int {
	return cmp.Or(cmp.Compare(a.Tick, b.Tick), cmp.Compare(a.Claim, b.Claim))
}

// Accumulators holds one accumulator per (victim, offender).
type Accumulators struct {
	by   map[[2]string]*Accumulator
	keys [][2]string // sorted by victim, then offender
}

// NewAccumulators returns an empty set.
func NewAccumulators() *Accumulators { return &Accumulators{by: map[[2]string]*Accumulator{}} }

// For returns the accumulator of (victim, offender), creating an armed,
// empty one the first time.
func (s *Accumulators) For(victim, offender string) *Accumulator {
	k := [2]string{victim, offender}
	if a, ok := s.by[k]; ok {
		return a
	}
	a := &Accumulator{Victim: victim, Offender: offender}
	s.by[k] = a
	i, _ := slices.BinarySearchFunc(s.keys, k, compareKey)
	s.keys = slices.Insert(s.keys, i, k)
	return a
}

// All returns every accumulator, sorted by victim, then offender.
func (s *Accumulators) All() []*Accumulator {
	out := make([]*Accumulator, len(s.keys))
	for i, k := range s.keys {
		out[i] = s.by[k]
	}
	return out
}
