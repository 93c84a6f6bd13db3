package schedule

import (
	"fmt"
	"math"
	"slices"
)

// Nowhere is the location number of an NPC who is at no location: no
// block covers the tick and it has no home, or it has left the cast.
const Nowhere = -1

// Occupancy is where every NPC of a cast is at the current tick, and who
// is at each location — the co-present groups encounters are drawn from —
// kept up to date as NPCs move instead of rebuilt every tick.
//
// NPCs and locations are numbered: NPC i is the i-th schedule given to
// NewOccupancy and location j the j-th location id. The engine numbers
// both in sorted id order, so ascending numbers are sorted ids and a
// group read in order is the group sorted by id.
//
// It mirrors Schedule.At: after Advance(t), NPC i is at location
// index(schedules[i].At(t)) and in that location's group, unless it has
// left; Reschedule changes an NPC's schedule mid-run (an override laid on
// or lifted) and re-places it at once. An NPC is looked at again only at the tick Schedule.Next says it
// may move, so a tick costs one comparison per NPC plus the work of the
// NPCs who actually move.
type Occupancy struct {
	schedules []Schedule
	places    [][]int32 // NPC → the location number of each base block, then of each override, then of home
	at        []int32   // NPC → location number, or Nowhere
	moves     []int64   // NPC → the next tick it may move; Forever once it has left
	gone      []bool    // NPC → it has left the cast
	here      [][]int32 // location → the NPCs there, ascending
	index     map[string]int32
}

// NewOccupancy numbers the locations and schedules for Advance. Every
// location a schedule names must be among locations, which must not
// repeat.
func NewOccupancy(locations []string, schedules []Schedule) (*Occupancy, error) {
	o := &Occupancy{
		schedules: slices.Clone(schedules),
		places:    make([][]int32, len(schedules)),
		at:        make([]int32, len(schedules)),
		moves:     make([]int64, len(schedules)),
		gone:      make([]bool, len(schedules)),
		here:      make([][]int32, len(locations)),
		index:     make(map[string]int32, len(locations)+1),
	}
	o.index[""] = Nowhere
	for j, id := range locations {
		if _, dup := o.index[id]; dup {
			return nil, fmt.Errorf("occupancy: location %q given twice", id)
		}
		o.index[id] = int32(j)
	}
	for i, s := range schedules {
		o.at[i], o.moves[i] = Nowhere, math.MinInt64 // placed by the first Advance
		places, err := o.number(s)
		if err != nil {
			return nil, fmt.Errorf("occupancy: NPC %d's schedule %w", i, err)
		}
		o.places[i] = places
	}
	return o, nil
}

// number returns the location number of each of s's base blocks, then of
// each override, then of home.
func (o *Occupancy) number(s Schedule) ([]int32, error) {
	out := make([]int32, 0, len(s.Blocks)+len(s.Overrides)+1)
	add := func(loc string) error {
		j, ok := o.index[loc]
		if !ok {
			return fmt.Errorf("names unknown location %q", loc)
		}
		out = append(out, j)
		return nil
	}
	for _, b := range s.Blocks {
		if err := add(b.At); err != nil {
			return nil, err
		}
	}
	for _, ov := range s.Overrides {
		if err := add(ov.Block.At); err != nil {
			return nil, err
		}
	}
	return out, add(s.Home)
}

// Reschedule gives NPC i a new schedule at tick t — the same base with an
// override laid on or lifted, a block suspended or resumed — and places it
// where that schedule puts it at t, at once: an override changes where an
// NPC is without waiting for a move its old schedule had planned. An NPC
// who has left keeps the schedule and stays nowhere. Advance may go on
// from t.
func (o *Occupancy) Reschedule(i int, s Schedule, t int64) error {
	places, err := o.number(s)
	if err != nil {
		return fmt.Errorf("occupancy: reschedule NPC %d: schedule %w", i, err)
	}
	o.schedules[i], o.places[i] = s, places
	if !o.gone[i] {
		o.place(i, t)
	}
	return nil
}

// Schedule returns NPC i's schedule as the occupancy follows it.
func (o *Occupancy) Schedule(i int) Schedule { return o.schedules[i] }

// Advance brings every NPC to where its schedule puts it at tick t. Ticks
// must not go backwards: an NPC's next move is only known forwards.
func (o *Occupancy) Advance(t int64) {
	for i, m := range o.moves {
		if m <= t {
			o.place(i, t)
		}
	}
}

func (o *Occupancy) place(i int, t int64) {
	s, places := o.schedules[i], o.places[i]
	b := s.Which(t)
	if b < 0 {
		b = len(places) - 1 // home
	}
	o.move(i, places[b])
	o.moves[i] = s.Next(t)
}

// move takes NPC i from its group to loc's, keeping both sorted.
func (o *Occupancy) move(i int, loc int32) {
	from := o.at[i]
	if from == loc {
		return
	}
	n := int32(i)
	if from != Nowhere {
		g := o.here[from]
		k, _ := slices.BinarySearch(g, n)
		o.here[from] = slices.Delete(g, k, k+1)
	}
	if loc != Nowhere {
		g := o.here[loc]
		k, _ := slices.BinarySearch(g, n)
		o.here[loc] = slices.Insert(g, k, n)
	}
	o.at[i] = loc
}

// Leave takes NPC i out of the cast for good (it has died): it is nowhere
// from now on.
func (o *Occupancy) Leave(i int) {
	o.move(i, Nowhere)
	o.moves[i] = Forever
	o.gone[i] = true
}

// At returns NPC i's location number, or Nowhere.
func (o *Occupancy) At(i int) int32 { return o.at[i] }

// Here returns the NPCs at location j, ascending. The slice is the
// occupancy's own: read it, and do not keep it past the next Advance or
// Leave.
func (o *Occupancy) Here(j int) []int32 { return o.here[j] }

// Locations returns how many locations there are.
func (o *Occupancy) Locations() int { return len(o.here) }
