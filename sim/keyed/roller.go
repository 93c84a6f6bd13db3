package keyed

import (
	"errors"
	"fmt"
	"slices"
)

// ErrDuplicatePin is wrapped by a PinError when two pins force the same key.
var ErrDuplicatePin = errors.New("duplicate pin key")

// ErrPinValue is wrapped by a PinError when a pin's value is NaN or outside [0,1).
var ErrPinValue = errors.New("pin value outside [0,1)")

// Pin forces the roll whose key matches it to Value. A fixture uses pins to
// reach a branch of the simulation without searching for a seed that hits it.
// The seed is the Roller's own, so a pin names only the rest of the key.
type Pin struct {
	Purpose      string
	Tick         int64
	Site         string
	Participants []string
	Value        float64
}

// Roll is the outcome of one keyed roll. Natural is Value(Key) even when a
// pin forced Value, so triage can see what the run would have rolled.
type Roll struct {
	Key     Key
	Value   float64
	Natural float64
	Pinned  bool
}

// PinError reports a pin that NewRoller rejected.
type PinError struct {
	Index int   // position of the rejected pin in the slice given to NewRoller
	Key   Key   // the key the pin would have forced
	Err   error // wraps ErrDuplicatePin or ErrPinValue
}

// Error names the pin by index and key.
func (e *PinError) Error() string {
	return fmt.Sprintf("keyed: pin %d %s: %v", e.Index, e.Key, e.Err)
}

// Unwrap returns the underlying cause so errors.Is finds the sentinel.
func (e *PinError) Unwrap() error { return e.Err }

// Roller hands out keyed rolls for one seed and applies a fixture's pins.
// It records which pins were consumed, so it is not safe for concurrent use.
type Roller struct {
	seedID  string
	pins    []Pin
	used    []bool
	byKey   map[string]int // key encoding to pin index; looked up, never ranged over
	scratch []byte         // reused encoding buffer, so a roll does not allocate one
	hash    hasher
}

// NewRoller returns a Roller for seedID with the given pins. It rejects a
// pin whose key repeats an earlier pin's, or whose value is NaN or outside
// [0,1), with a *PinError naming the first such pin.
func NewRoller(seedID string, pins []Pin) (*Roller, error) {
	r := &Roller{
		seedID: seedID,
		pins:   make([]Pin, len(pins)),
		used:   make([]bool, len(pins)),
		byKey:  make(map[string]int, len(pins)),
		hash:   newHasher(),
	}
	for i, p := range pins {
		p.Participants = slices.Clone(p.Participants)
		k := r.Key(p.Purpose, p.Tick, p.Site, p.Participants)
		if !PinValueOK(p.Value) {
			return nil, &PinError{Index: i, Key: k, Err: fmt.Errorf("%w: %v", ErrPinValue, p.Value)}
		}
		enc := string(k.AppendEncoding(nil))
		if first, dup := r.byKey[enc]; dup {
			return nil, &PinError{Index: i, Key: k, Err: fmt.Errorf("%w, first given as pin %d", ErrDuplicatePin, first)}
		}
		r.byKey[enc] = i
		r.pins[i] = p
	}
	return r, nil
}

// PinValueOK reports whether v can be a pinned roll's value: a number in
// [0, 1), the values a roll takes (NaN fails too). Loaders refuse a pin
// with it, at the pin's line, before any world is built.
func PinValueOK(v float64) bool { return v >= 0 && v < 1 }

// SeedID returns the seed every roll of r is keyed by.
func (r *Roller) SeedID() string { return r.seedID }

// Roll returns the roll keyed by r's seed and the arguments. Participants
// are taken in the order given and copied into the returned key. If a pin
// matches the key exactly, Value is the pin's and the pin counts as used.
func (r *Roller) Roll(purpose string, tick int64, site string, participants ...string) Roll {
	roll := Roll{Key: r.Key(purpose, tick, site, slices.Clone(participants))}
	r.Fill(&roll)
	return roll
}

// Key returns the key of a roll under r's seed. It keeps participants as
// given, without copying them.
func (r *Roller) Key(purpose string, tick int64, site string, participants []string) Key {
	return Key{SeedID: r.seedID, Purpose: purpose, Tick: tick, Site: site, Participants: participants}
}

// Fill rolls roll.Key: it sets Value, Natural and Pinned as Roll would,
// applying a pin that matches the key exactly. The key is normally built
// by r.Key, so that it carries r's seed. Fill works in place and allocates
// nothing: the engine rolls every co-present pair every tick, into the
// record that traces the roll, and a roll that allocated or copied its key
// about would make bookkeeping a large part of a run.
func (r *Roller) Fill(roll *Roll) {
	r.scratch = appendEncoding(r.scratch[:0], &roll.Key)
	roll.Natural = r.hash.value(r.scratch)
	roll.Value, roll.Pinned = roll.Natural, false
	if len(r.byKey) == 0 {
		return
	}
	if i, ok := r.byKey[string(r.scratch)]; ok {
		r.used[i] = true
		roll.Value = r.pins[i].Value
		roll.Pinned = true
	}
}

// Unused returns copies of the pins no roll has matched yet, in the order
// they were given. A pin that never matches is a fixture bug: the key it
// names is not one the run rolls.
func (r *Roller) Unused() []Pin {
	var unused []Pin
	for i, p := range r.pins {
		if !r.used[i] {
			p.Participants = slices.Clone(p.Participants)
			unused = append(unused, p)
		}
	}
	return unused
}
