// Package sim is the Chronicle engine's top level: a World composes the
// mechanism packages (claims, schedule, keyed rolls, the canonical event log,
// the rule set and the derivation trace) into a tick loop.
//
// Each call to Step runs one tick — one game hour — in five phases
// (decision 0012):
//
//  1. injected events for the tick, in the order given: canonical events
//     (theft, killing, brawl, favour, invoke, title, secret) are appended
//     to the log, their claim is minted, and each living witness forms a
//     belief; injected reports deliver one telling from one NPC to another;
//  2. encounters: every co-present pair of living NPCs gets one keyed roll
//     and meets when it is below the encounter probability; on a meeting, a
//     holder tells a non-holder each claim it can pass on — a private claim
//     only if it has no motive to keep it (rule 15);
//  3. the social phase, in a world that uses the social layer: the
//     obligations of the tick's favours and invocations (rule 14), then the
//     social rules for every belief formed or switched in phases 1–2, by
//     holder then claim — escalation (11), grudges (12), reputation (16).
//     They read what each holder believes, never the log, and what they
//     derive is appended to the log as events naming their rule and cause;
//  4. time-driven transitions: rumour stages (rule 9) and settled grudges
//     (rule 13);
//  5. a keyframe of the social state when the tick starts a game day.
//
// A belief learnt in a tick's encounter phase cannot be passed on until the
// next tick, so the order in which pairs are visited never decides how far a
// rumour travels within one tick.
//
// A tick touches only what changes. NPCs and locations are numbered in
// sorted id order, and a schedule.Occupancy keeps every NPC's location and
// every location's sorted group, moving an NPC only at the ticks its
// schedule can move it; encounters walk the groups in number order, which
// is id order. What a holder tells is read as of the phase's start from
// the store's copy-on-write phase, not from a snapshot of every belief;
// stage transitions come from the store's calendar of the ticks gist
// crosses a threshold. The records emitted for nearly every pair or belief
// are built in reused storage (see trace.Sink), and each roll is made in
// the record that traces it, so a run allocates almost nothing per record.
//
// The social state (package social) is kinship, grudges, obligations,
// reputation and the accumulators; Config.Layers says from a world's
// inputs whether it can exercise it at all, and a world that cannot is
// traced, fingerprinted and run exactly as before the social layer existed
// (decision 0015).
//
// The package does no I/O and reads no clock: everything it derives goes to
// the trace sink, and everything it rolls is keyed by (seed, purpose, tick,
// site, participants).
package sim
