// Package claims holds what NPCs believe and why: claims about canonical
// events, the immutable variants of those claims that witnesses and retellers
// produce, and each NPC's single belief per claim with its evidence chain.
//
// The model, in the order a rumour lives it:
//
//   - A Claim is minted once per canonical event (the store refuses a second
//     one). Its slots are typed (actor, victim, item, location…).
//   - A Variant is one version of a claim's slots. The first, v0, is what
//     happened; every later variant names its predecessor and the slot diff
//     that separates them, and is never rewritten. A witness who disagrees
//     about a slot produces a variant, never a second claim.
//   - A Belief is one holder's stance on one claim: the variant they hold,
//     a confidence, verbatim and gist memory strengths, a stored stage (heard
//     or repeated) and the evidence that formed and reinforced it. The store
//     holds at most one belief per (holder, claim) and every path that would
//     create a second returns ErrDuplicateBelief.
//
// Memory strengths decay on exact deterministic curves: both start at 1 when
// a belief is formed or reinforced and halve every half-life,
//
//	verbatim(t) = 2^(-(t - anchor) / verbatim_half_life)
//	gist(t)     = 2^(-(t - anchor) / gist_half_life)
//
// computed with detmath.Exp2, so the values are the same bits on every
// platform. Dormant and forgotten are not stored: StageAt derives them at
// read time from gist, which is why any view can render a belief as of any
// tick without replaying history.
//
// Corroboration combines independent reports by noisy-or,
// c' = 1 − (1 − c)(1 − r), counting each origin (the eyewitness at the root
// of a report's source chain) once, and ignoring reports about events older
// than the corroboration window.
//
// # Indexes
//
// A city holds tens of thousands of beliefs, and a tick changes a handful,
// so the store keeps two indexes that let a tick touch only those:
//
//   - The stage calendar. Gist depends only on the ticks elapsed since a
//     belief's anchor and never rises with them, so a belief's derived
//     stage can change only where gist first falls below dormant_gist and
//     below forgotten_gist — two elapsed-tick counts the store finds once,
//     by bisection on GistAt itself. Whenever an anchor is set (a belief
//     formed, corroborated or contested), the belief is entered at those
//     two ticks; Transitions(t) answers from the entries for t, checking
//     each with StageAt exactly as a scan would, and ignores entries whose
//     anchor has moved since. The package tests hold it to a scan of every
//     belief in random stores.
//   - Phases. BeginPhase starts a stretch in which beliefs change but are
//     read as they stood at its start (AsOfPhase): the engine's encounter
//     phase, where what a holder tells is fixed when the phase begins. The
//     store copies a belief the first time the phase changes it, instead
//     of copying every belief when the phase begins.
package claims
