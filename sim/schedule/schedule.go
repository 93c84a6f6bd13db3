package schedule

import (
	"cmp"
	"fmt"
	"math"
	"slices"
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

// Schedule is one NPC's blocks, in priority order, and home.
type Schedule struct {
	Home   string
	Blocks []Block
}

// At returns where the NPC is at tick t: the first covering block's
// location, else home ("" when it has none).
func (s Schedule) At(t int64) string {
	for _, b := range s.Blocks {
		if b.Covers(t) {
			return b.At
		}
	}
	return s.Home
}

// Presence is one NPC at one location.
type Presence struct {
	Location string
	NPC      string
}

// Group is the NPCs at one location, sorted.
type Group struct {
	Location string
	NPCs     []string
}

// Groups gathers presences into co-present groups, locations sorted and
// NPCs sorted within each, dropping NPCs who are nowhere.
func Groups(ps []Presence) []Group {
	ps = slices.Clone(ps)
	slices.SortFunc(ps, func(a, b Presence) int {
		return cmp.Or(cmp.Compare(a.Location, b.Location), cmp.Compare(a.NPC, b.NPC))
	})
	var out []Group
	for _, p := range ps {
		if p.Location == "" {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Location == p.Location {
			out[n-1].NPCs = append(out[n-1].NPCs, p.NPC)
			continue
		}
		out = append(out, Group{Location: p.Location, NPCs: []string{p.NPC}})
	}
	return out
}
