package sim

import (
	"slices"

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
// none), so views can ask who lives in Markarth. Tags say what kind of
// place it is (`temple`, `market`…), for the rules that send NPCs to a
// kind of place: Tier 4's mourning goes to the temple of the mourner's
// hold (decision 0020).
type Location struct {
	ID   string
	Hold string
	Tags []string
}

// NPC is one member of the cast. Faction is its allegiance ("" for none),
// read by the allegiance mutation policy.
type NPC struct {
	ID       string
	Schedule schedule.Schedule
	Faction  string
}

// Role is an office declared by the world (decision 0022): its faction,
// its first holder ("" for vacant from the start), the role whose holder
// appoints its successor ("" for none), and the duties its holder keeps.
type Role struct {
	ID, Faction, Holder, Appointer string
	Duties                         []schedule.Block
}

// Relationship is how much From trusts To, in [0, 1].
type Relationship struct {
	From, To string
	Trust    float64
}

// TrustOK reports whether t can be a relationship's trust: a number in
// [0, 1] (NaN fails). New refuses a world with any other; loaders refuse
// it with the same test, at the value's line.
func TrustOK(t float64) bool { return t >= 0 && t <= 1 }

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

// Injection kinds: the canonical events a fixture can make happen, and
// the report.
const (
	Theft   = "theft"
	Killing = "killing"
	Report  = "report"
	// Brawl is a fight the actor wins and the victim loses, in front of
	// its witnesses: the loser's grudge (rule 12) grows with the audience.
	Brawl = "brawl"
	// Favour is a service the actor does the recipient: the recipient owes
	// the actor (rule 14 issues the obligation).
	Favour = "favour"
	// Invoke is the actor (a creditor) calling in a favour from the
	// recipient (its debtor), with an Outcome: Fulfilled or Refused.
	Invoke = "invoke"
	// Title is the actor granting the recipient a Title (thane…).
	Title = "title"
	// Secret is something about the actor that its witnesses learn and
	// that Implicates someone: a private claim, told only when the teller
	// has no motive to keep it (rule 15).
	Secret = "secret"
)

// The outcomes of an invocation.
const (
	Fulfilled = "fulfilled"
	Refused   = "refused"
)

// The reputation dimensions (decision 0017): a title is evidence for its
// recipient's standing; an invocation, for or against its debtor's
// reliability.
const (
	Standing    = "standing"
	Reliability = "reliability"
)

// Dimensions lists the reputation dimensions, sorted.
func Dimensions() []string { return []string{Reliability, Standing} }

// EventKinds lists the canonical event kinds a fixture can inject, sorted.
func EventKinds() []string {
	return []string{Brawl, Favour, Invoke, Killing, Secret, Theft, Title}
}

// The event kinds the engine appends of its own accord: a killing's
// death, and the events rules derive (decision 0013) — the social layer's
// escalation, grudge and obligation, Tier 4a's rewrite and restore of a
// schedule, Tier 5's vacancy, lapse and appointment.
const (
	Death       = "death"
	Escalation  = "escalation"
	Grudge      = "grudge"
	Obligation  = "obligation"
	Rewrite     = "rewrite"
	Restore     = "restore"
	Vacancy     = "vacancy"
	Lapse       = "lapse"
	Appointment = "appointment"
)

// derivers is the rule that appends each derived event kind. The engine
// reads it to name the rule in the event it appends (appendEvent), so the
// table cannot say otherwise than the log.
var derivers = map[string]string{
	Escalation:  rules.AccumulationThreshold,
	Grudge:      rules.GrudgeCreation,
	Obligation:  rules.Obligations,
	Rewrite:     rules.ScheduleWriteBack,
	Restore:     rules.ScheduleWriteBack,
	Vacancy:     rules.RoleSuccession,
	Lapse:       rules.RoleSuccession,
	Appointment: rules.RoleSuccession,
}

// DerivedBy returns the rule that appends events of kind, "" for a kind
// no rule derives: one a fixture injects, or a death, which follows its
// killing.
func DerivedBy(kind string) string { return derivers[kind] }

// LoggedEventKinds lists, sorted, every event kind the canonical log can
// hold: those a fixture injects, a killing's death, and those rules derive.
func LoggedEventKinds() []string {
	out := append(EventKinds(), Death)
	for kind := range derivers {
		out = append(out, kind)
	}
	slices.Sort(out)
	return out
}

// Injection is something a fixture makes happen at a tick: a canonical event
// or a Report — one NPC telling another a claim outside any encounter, the
// injection console of Tier 0.
type Injection struct {
	Tick int64
	Kind string
	ID   string // event id, and so claim id (canonical events only)

	// Actor did it; Victim suffered it (theft, killing, brawl); Recipient
	// received it (favour, invoke, title).
	Actor, Victim, Recipient string
	Item, At                 string
	Favour                   string // Invoke: the favour event called in
	Outcome                  string // Invoke: Fulfilled or Refused
	TitleName                string // Title: the title granted
	Implicates               string // Secret: whom it implicates
	Witnesses                []Witness

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
	// Kin are households: every two members of one are kin (fixed for the
	// run). The grudge and tell-decision rules read kinship.
	Kin [][]string
	// Roles are the world's offices (Tier 5). A favour's or an
	// invocation's actor or recipient may be a role reference, role:<id>:
	// the office is the party, its holder at the time acts and witnesses.
	Roles      []Role
	Injections []Injection
	// Items is the vocabulary an item slot can mutate to, besides the items
	// the injections name.
	Items []string
	Sink  trace.Sink
}

// socialKinds are the event kinds that exercise the social layer by
// themselves.
var socialKinds = []string{Brawl, Favour, Invoke, Title, Secret}

// Temple is the location tag mourning looks for in the mourner's hold
// (decision 0020).
const Temple = "temple"

// Layers returns the layers a world built from c uses, from its inputs
// alone (decision 0015): the core always; the social layer when an event
// of a social kind is injected, a household is declared, or a theft's
// victim belongs to a faction (it has peers to warn). A world that does
// not use the social layer never runs the social phase, so nothing a
// retelling mutates can wake a social rule in it: its trace, dense file
// and defines_hash are those of a core-only engine. The later layers
// follow the same principle:
//
//   - schedule (4a): a social world with a location tagged temple, where
//     mourning has somewhere to go;
//   - weighting (4b): a social world whose injections can give one NPC a
//     grudge against another — a brawl or an invocation between two NPCs
//     (a role is an NPC), or a killing by an NPC;
//   - roles (5): a world that declares a role.
func (c Config) Layers() rules.Layers {
	l := rules.CoreOnly
	if len(c.Kin) > 0 {
		l = l.With(rules.Social)
	}
	partisan := map[string]bool{} // looked up, never ranged over
	npc := map[string]bool{}      // looked up, never ranged over
	for _, n := range c.Cast {
		npc[n.ID] = true
		if n.Faction != "" {
			partisan[n.ID] = true
		}
	}
	for _, r := range c.Roles {
		npc[RoleRef(r.ID)] = true
	}
	between := false // an injection that can make an NPC bear a grudge against another
	for _, in := range c.Injections {
		if slices.Contains(socialKinds, in.Kind) || in.Kind == Theft && partisan[in.Victim] {
			l = l.With(rules.Social)
		}
		switch in.Kind {
		case Brawl:
			between = between || npc[in.Actor] && npc[in.Victim]
		case Invoke:
			between = between || npc[in.Actor] && npc[in.Recipient]
		case Killing:
			between = between || npc[in.Actor]
		}
	}
	if l.Has(rules.Social) {
		if slices.ContainsFunc(c.Locations, func(loc Location) bool { return slices.Contains(loc.Tags, Temple) }) {
			l = l.With(rules.Schedule)
		}
		if between {
			l = l.With(rules.Weighting)
		}
	}
	if len(c.Roles) > 0 {
		l = l.With(rules.Roles)
	}
	return l
}

// TraceSocial reports whether a world using layers may write the trace's
// social kinds (decision 0015): every layer after the core does, and its
// trace header names the social layer (trace.Header.Social).
func TraceSocial(l rules.Layers) bool { return l != rules.CoreOnly }
