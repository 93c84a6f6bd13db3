// Package schedule says where each NPC is at each tick and which NPCs are
// together.
//
// A schedule is an ordered list of blocks plus a home. At tick t an NPC is at
// the location of the first block that covers t, or at home when none does
// (or nowhere, when it has no home). Location ids are bare strings and
// co-presence is string equality: there is no geometry, which is what makes
// carriers pure fixtures — a traveller is just an NPC whose blocks name
// locations in two holds, with explicit road locations between.
//
// A block covers a half-open tick range [From, To). With Every > 0 the range
// repeats: the block covers t when (t − Since) mod Every falls in [From, To)
// and Since ≤ t < Until. A daily market block is {At: market, From: 8,
// To: 18, Every: 24}; a caravan that spends two days of every four on the
// road is {At: road, From: 48, To: 96, Every: 96}.
//
// # Overrides
//
// Rules rewrite schedules at run time (decision 0020) without editing
// them: an Override is a block with an id laid over the base, and while
// it covers a tick it wins — the newest covering override first, then the
// first covering base block, then home. Lifting an override leaves the
// base exactly as the fixture wrote it, so "restored after" needs no copy
// to compare with, and Schedule.Base and Schedule.InForce tell the
// schedule view what was hidden and by what. A mourning is one override
// ({At: temple, From: t+1, To: t+1+72}); a role's duties are overrides
// owned by the role, moved from holder to holder. A base block may name a
// role it Meets: the engine keeps it only while the role has a holder.
//
// # Moves and co-presence
//
// An NPC can only move where one of its blocks starts or stops covering,
// so Schedule.Next(t) — the first such tick after t — says how long At(t)
// holds. An Occupancy uses it to keep a whole cast placed: every NPC's
// location and every location's group, sorted, touched only when someone
// moves. A town of 25 on daily routines moves each NPC a few times a day,
// so keeping a city of 10,000 placed costs a few thousand moves a day
// rather than 10,000 placements and a sort every hour. When a rule lays an
// override on or lifts one, Occupancy.Reschedule gives the NPC its new
// schedule and re-places it at once, the specs holding it to Schedule.At
// tick by tick on random casts rescheduled at random ticks.
package schedule
