package schedule

import (
	"fmt"
	"math"
)

// Forever is the Until of a block that never stops recurring.
const Forever = math.MaxInt64

// Block places an NPC at a location for a tick range, once or recurring.
type Block struct {
	At       string
	From, To int64 // half-open; within the period when Every > 0
	Every    int64 // period in ticks; 0 for a one-off block
	Since    int64 // first tick a recurring block applies (its phase origin)
	Until    int64 // first tick it no longer applies
	// Meets names a role the block is spent with ("role:steward": a
	// petitioner's audience), "" for none. The reference resolves through
	// the role at run time, never to a person (decision 0022): the engine
	// keeps such a block in force only while the role has a holder.
	Meets string
}

// Validate reports a block that can never be well defined.
func (b Block) Validate() error {
	switch {
	case b.At == "":
		return fmt.Errorf("block has no location")
	case b.From < 0 || b.To <= b.From:
		return fmt.Errorf("block range [%d, %d) is empty or negative", b.From, b.To)
	case b.Every < 0:
		return fmt.Errorf("block period %d is negative", b.Every)
	case b.Every > 0 && b.To > b.Every:
		return fmt.Errorf("block range [%d, %d) does not fit in its period %d", b.From, b.To, b.Every)
	case b.Until <= b.Since:
		return fmt.Errorf("block applies from %d until %d: never", b.Since, b.Until)
	}
	return nil
}

// Covers reports whether the block places its NPC at tick t.
func (b Block) Covers(t int64) bool {
	if t < b.Since || t >= b.Until {
		return false
	}
	if b.Every == 0 {
		return t >= b.From && t < b.To
	}
	phase := (t - b.Since) % b.Every
	return phase >= b.From && phase < b.To
}

// next returns the first tick after t at which Covers may change: a start
// or an end of one of the block's ranges, or Until; Forever when there is
// none. A recurring block's ranges are found from t's phase, the way
// Covers finds them, so the two agree on every tick Covers can answer.
func (b Block) next(t int64) int64 {
	if t >= b.Until {
		return Forever
	}
	var n int64
	switch {
	case b.Every > 0 && b.From == 0 && b.To == b.Every:
		// A range filling its period covers all of [Since, Until).
		if t < b.Since {
			return b.Since
		}
		return b.Until
	case b.Every == 0:
		lo, hi := max(b.Since, b.From), min(b.Until, b.To)
		switch {
		case lo >= hi || t >= hi:
			return Forever
		case t < lo:
			return lo
		default:
			return hi
		}
	case t < b.Since:
		n = later(b.Since, b.From)
	default:
		phase := (t - b.Since) % b.Every
		start := t - phase // where t's period began
		switch {
		case phase < b.From:
			n = later(start, b.From)
		case phase < b.To:
			n = later(start, b.To)
		default:
			n = later(later(start, b.Every), b.From)
		}
	}
	return min(n, b.Until)
}

// later returns t + d for d >= 0, or Forever when that overflows.
func later(t, d int64) int64 {
	if t > Forever-d {
		return Forever
	}
	return t + d
}

// Override is a block laid over a schedule at run time (decision 0020):
// while it covers a tick it wins over the base, which is never edited, so
// lifting it restores the base exactly. ID names what placed it — the
// rewrite event of a mourning, a role's duty — so the trace and the
// schedule view can tell an override from the block it hides.
type Override struct {
	ID    string
	Block Block
}

// Schedule is one NPC's base blocks, in priority order, its home, and the
// overrides laid over them, newest last.
type Schedule struct {
	Home      string
	Blocks    []Block
	Overrides []Override
}

// At returns where the NPC is at tick t: the newest covering override's
// location, else the first covering base block's, else home ("" when it
// has none).
func (s Schedule) At(t int64) string {
	i := s.Which(t)
	switch {
	case i < 0:
		return s.Home
	case i < len(s.Blocks):
		return s.Blocks[i].At
	}
	return s.Overrides[i-len(s.Blocks)].Block.At
}

// Which returns which block places the NPC at tick t: len(Blocks)+k for
// override k (the newest covering override wins), else the index of the
// first covering base block, else -1 (at home).
func (s Schedule) Which(t int64) int {
	for k := len(s.Overrides) - 1; k >= 0; k-- {
		if s.Overrides[k].Block.Covers(t) {
			return len(s.Blocks) + k
		}
	}
	for i, b := range s.Blocks {
		if b.Covers(t) {
			return i
		}
	}
	return -1
}

// InForce returns the override that places the NPC at tick t, if one
// does: the base is then hidden, not changed.
func (s Schedule) InForce(t int64) (Override, bool) {
	if i := s.Which(t); i >= len(s.Blocks) {
		return s.Overrides[i-len(s.Blocks)], true
	}
	return Override{}, false
}

// Base returns the schedule without its overrides: where the NPC would be
// had no rule rewritten anything.
func (s Schedule) Base() Schedule { return Schedule{Home: s.Home, Blocks: s.Blocks} }

// Next returns the first tick after t at which the NPC may be somewhere
// other than At(t) — At is the same at every tick of [t, Next(t)) — or
// Forever when it never moves again. Only a block's start or end, base or
// override, can move an NPC, so the engine asks where an NPC is only at
// those ticks, instead of asking every NPC every tick.
func (s Schedule) Next(t int64) int64 {
	n := int64(Forever)
	for _, b := range s.Blocks {
		n = min(n, b.next(t))
	}
	for _, o := range s.Overrides {
		n = min(n, o.Block.next(t))
	}
	return n
}
