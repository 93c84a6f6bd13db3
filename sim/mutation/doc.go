// Package mutation decides whether a retelling changes what is told.
//
// A Policy looks at one retelling — who tells whom, when and where, the
// variant the teller holds, how well the teller remembers it — and either
// leaves it alone or returns the slot changes to make. The engine turns a
// change into a new immutable variant naming its predecessor and the diff,
// so every mutation has a lineage. Policies are tried in order and the first
// that acts decides; a later policy (an LLM gossip hub, say) slots in behind
// the same interface.
//
// Two policies exist:
//
//   - Allegiance (rule-based): a teller with a faction, retelling a misdeed
//     whose actor belongs to that faction, shifts the blame to a member of
//     another faction. It always acts when it applies; which rival is chosen
//     is a keyed roll (purpose "mutation-value").
//   - Memory: with probability mutation_max × (1 − verbatim), where verbatim
//     is the teller's verbatim strength now, one slot changes — weaker
//     surface memory, more mutation. One keyed roll (purpose "mutation")
//     decides whether, a second ("mutation-slot") which slot among those
//     with alternatives, a third ("mutation-value") which alternative.
//
// Every roll is keyed by (tick, site, [teller, listener]) in that order —
// telling is directed — and is returned with its threshold so the engine can
// trace it.
//
// What a slot can become is a Choices: the engine's sorted pool for the
// slot's type (the cast and the player, the locations, the items) with the
// slot's own value left out, read in place, so that a slot naming anyone in
// a city costs nothing to ask about.
package mutation
