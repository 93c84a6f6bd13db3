// Package regen regenerates goldens safely.
//
// Regeneration is an explicit act with three guarantees:
//
//  1. Determinism is proved first: every selected rung is rendered twice, in
//     two separate processes, and the two renderings are byte-compared. Any
//     difference refuses the whole regeneration, naming the first divergence
//     (tick and column for dense.csv, record for trace.jsonl).
//  2. A rung whose own expectations fail is not regenerated: a golden must
//     never record behaviour its fixture says is wrong.
//  3. Writes are atomic per file (temporary file in the same directory, then
//     rename), so an interrupted run leaves each golden entirely old or
//     entirely new, never torn; files whose bytes did not change are not
//     touched, so regenerating unchanged code leaves `git status` clean.
//
// The summary prints, per rung: unchanged, new, or changed at the first
// divergence from the old golden.
package regen
