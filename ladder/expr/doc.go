// Package expr is the small arithmetic language fixtures use to state exact
// expected values in terms of the run itself, so an assertion reads like the
// rule it checks:
//
//	belief(witness, theft@2).confidence * defines.retell_decay
//	noisy_or(0.72, 0.72)
//	exp2(-(tick - 2) / defines.verbatim_half_life_ticks)
//
// Grammar (whitespace is free between tokens):
//
//	expr    = term { ("+" | "-") term }
//	term    = unary { ("*" | "/") unary }
//	unary   = "-" unary | postfix
//	postfix = primary [ "." field ]            (only after belief, grudge, reputation)
//	primary = number | "tick" | "defines" "." name | call | "(" expr ")"
//	call    = name "(" [ arg { "," arg } ] ")"
//
// Functions: belief(npc, claim) with fields .confidence .verbatim .gist
// .sources .formed (the tick the holder first held it); grudge(holder, target) with .emotional .evidentiary (as of the
// tick); reputation(observer, subject, dimension) with .alpha .beta .mean;
// believers(claim) (living holders whose rumour is not
// forgotten); holders(claim) (every NPC with a stored belief); noisy_or(x,
// y, …), the pairwise rule 1 − (1−a)(1−b) folded left — the value a belief
// reaches when reports of confidence x, y, … arrive in that order; exp2(x)
// and exp(x), the engine's own platform-independent implementations. Ids (npc, claim, a target or
// subject that may be the player, a dimension) are bare words and may
// contain the characters fixtures allow in ids, such as theft@2.
//
// Evaluation is float64 throughout, one IEEE operation per node, each result
// explicitly rounded so no compiler can fuse a multiply into an add: an
// expression computes the same bits on every platform, which is what lets a
// fixture demand equality to the last bit.
package expr
