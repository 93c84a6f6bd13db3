package sim

import (
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/trace"
)

// Player is the reserved id of the player character: an actor in events,
// never an NPC, never a holder of beliefs.
const Player = "player"

// Location is a place NPCs can be. Hold is the region it belongs to ("" for
// none), so views can ask who lives in Markarth.
type Location struct {
	ID   string
	Hold string
}

// NPC is one member of the cast. Faction is its allegiance ("" for none),
// read by the allegiance mutation policy.
type NPC struct {
	ID       string
	Schedule schedule.Schedule
	Faction  string
}

// Relationship is how much From trusts To, in [0, 1].
type Relationship struct {
	From, To string
	Trust    float64
}

// Recollection is one slot a witness remembers differently from what
// happened.
type Recollection struct {
	Slot, Value string
}

// Witness is an NPC who sees an injected event, and anything they
// remember differently.
type Witness struct {
	NPC  string
	Says []Recollection
}

// Injection kinds.
const (
	Theft   = "theft"
	Killing = "killing"
	Report  = "report"
)

// Injection is something a fixture makes happen at a tick: a canonical event
// (Theft, Killing) or a Report — one NPC telling another a claim outside any
// encounter, the injection console of Tier 0.
type Injection struct {
	Tick int64
	Kind string
	ID   string // event id, and so claim id (canonical events only)

	Actor, Victim, Item, At string
	Witnesses               []Witness

	From, To, Claim string // Report
}

// Config is everything a World needs. Injections must be in tick order
// (stable: same-tick injections apply in the given order).
type Config struct {
	SeedID        string
	Branch        events.Branch
	Defines       rules.Defines
	Rules         *rules.Set
	Pins          []keyed.Pin
	Locations     []Location
	Cast          []NPC
	Relationships []Relationship
	Injections    []Injection
	// Items is the vocabulary an item slot can mutate to, besides the items
	// the injections name.
	Items []string
	Sink  trace.Sink
}
