// Package social holds the state NPCs accumulate about each other beyond
// what they believe: kinship, grudges, obligations, observer-local
// reputation and the accumulators of repeated offences. It is pure data with
// exact arithmetic: the rules that decide *when* these change live in the
// engine's tick loop (package sim); this package only says *how*.
//
// The model:
//
//   - Kin is an undirected graph declared by the world (households); it
//     never changes during a run.
//
//   - A Grudge is held by one NPC against one target, one per (holder,
//     target), with an emotional and an evidentiary strength that decay on
//     their own half-lives, derived on read like belief memory:
//
//     emotional(t)   = e₀ · 2^(−(t − anchor) / emotional_half_life)
//     evidentiary(t) = v₀ · 2^(−(t − anchor) / evidentiary_half_life)
//
//     computed with detmath.Exp2, so every platform gets the same bits.
//
//   - An Obligation is owed by a debtor to a creditor for a favour; it is
//     issued, then fulfilled or violated, never reopened.
//
//   - An Opinion is one observer's Beta(α, β) view of one subject on one
//     dimension (standing, reliability…). Each (observer, claim) counts
//     once.
//
//   - An Accumulator counts the offences one victim believes one offender
//     committed within a window, and fires once per series: it disarms when
//     it fires and re-arms only when the count falls back to the re-arm
//     level (hysteresis).
//
// Every listing method returns its items in a documented sorted order, so
// nothing downstream depends on map iteration. A grudge can also say the
// first tick it is settled (SettlesAt), so the engine traces settling from
// a calendar instead of looking at every grudge every tick.
package social
