// Package sim is the Chronicle engine's top level: a World composes the
// mechanism packages (claims, schedule, keyed rolls, the canonical event log,
// the rule set and the derivation trace) into a tick loop.
//
// Each call to Step runs one tick — one game hour — in three phases:
//
//  1. injected events for the tick, in the order given: canonical events
//     (theft, killing) are appended to the log, their claim is minted, and
//     each living witness forms a belief; injected reports deliver one
//     telling from one NPC to another;
//  2. encounters: every co-present pair of living NPCs gets one keyed roll
//     and meets when it is below the encounter probability; on a meeting, a
//     holder tells a non-holder each claim it can pass on;
//  3. a keyframe of the social state when the tick starts a game day.
//
// A belief learnt in a tick's encounter phase cannot be passed on until the
// next tick, so the order in which pairs are visited never decides how far a
// rumour travels within one tick.
//
// The package does no I/O and reads no clock: everything it derives goes to
// the trace sink, and everything it rolls is keyed by (seed, purpose, tick,
// site, participants).
package sim
