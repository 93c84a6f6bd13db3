// Package rules holds the engine's named mechanisms and the coefficients
// they read.
//
// The registry (Catalogue) lists every rule by its stable name and its
// number in the seed's rule budget — at most Ceiling (20) rules, numbered
// uniquely, which a spec enforces. A fixture disables rules by name
// (NewSet); an invariant cannot be disabled. Every evaluation of a rule,
// fired or not, is the engine's to trace.
//
// Each rule also declares what its trace records carry and what they can
// show. Values are the names of the numbers in its rule records (a
// fixture's trace pattern may match only those). Regimes are its outcomes
// and branches — fired, each reason it declines for, latched, re-armed, a
// weight strictly between its bounds, disabled — each with the Sign, a
// trace record, that shows a run reached it (regimes.go). The ladder
// meters every run against the signs and fails a full run when a declared
// regime is reached by none: a branch no rung sets up is one no golden
// guards. Adding a rule, or a branch to one, means declaring its regimes
// here, beside its number and name, and a rung that reaches each; a
// regime no world can reach carries its reason (Regime.Unreachable).
//
// Defines is the one typed structure of coefficients, in a declared field
// order. Each field carries its YAML name, a one-line doc and its Layer:
// the core of Tiers 0–2 or the social layer of Tier 3. A world's
// defines_hash digests the defines of the layers it uses and no other
// (decision 0015), so a Tier 0–2 world's fingerprint is the one it had
// before Tier 3 existed:
//
//	h, _ := rules.Default().Hash(rules.CoreOnly)                 // "601ae21a005b2554"
//	h, _ = rules.Default().Hash(rules.CoreOnly.With(rules.Social)) // "b404ebb157744942"
package rules
