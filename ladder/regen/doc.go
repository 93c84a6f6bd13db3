// Package regen regenerates goldens safely, and owns the workspace that
// every writer of goldens (regeneration, `ladder accept`) goes through.
//
// Regeneration is an explicit act with four guarantees:
//
//  1. Determinism is proved first, in a way that catches order: every
//     selected fixture is rendered twice — run 1 renders them all in one
//     process, in file order; run 2 renders each alone in a fresh process
//     — each writing a rung's artifacts as the run produces them — and the
//     two renderings are byte-compared in chunks. State that leaks from one
//     rung into the next (a package-level counter, a cache) makes a rung's
//     output depend on what ran before it, so the two runs differ. Any
//     difference refuses the whole regeneration with a *NondeterminismError
//     naming the first divergence in the runs' own names (run 1, run 2) —
//     the trace's first divergent record, else the dense file's first
//     cell, and in words any file only one run wrote (failures.txt, when
//     the expectations failed in one run only) — and every other fixture
//     that differs.
//  2. A rung whose own expectations fail is not regenerated: a golden must
//     never record behaviour its fixture says is wrong.
//  3. The selected rungs' goldens switch all at once (Workspace.Commit):
//     the changed files are copied, in chunks, into a stage in
//     goldens/.regen and synced, a journal naming them
//     is written atomically (the commit point), then each is renamed into
//     place. A run killed at any point leaves the goldens all old or, once
//     the next Open has replayed the journal, all new — never a mix — and
//     files whose bytes did not change are not touched, so regenerating
//     unchanged code leaves `git status` clean.
//     Abandon puts a committed switch back instead; it can be killed too,
//     and run again it finishes (it records that it is under way, so that
//     nothing rolls a half-abandoned switch forward, and skips each step
//     already done).
//  4. Nothing temporary outlives the next run: renderings, staged files and
//     the journal live only in goldens/.regen (ignored by git), which Open
//     clears under an flock that a killed process releases.
//  5. Nothing is written through a symlink: a goldens/, workspace, golden
//     set or golden file that is one is refused (package confine) before
//     anything is staged or cleared.
//
// Selection: a name "T2.3" selects the rung and its cases, "T2.3/swapped"
// one case; Extenders finds the rungs whose fixture extends a selected rung
// (T2.2 extends T2.1), which `make goldens RUNG=T2.1` regenerates too.
//
// Every rendering carries its set's seal (manifest.json, package seal),
// written by the run; it is planned and switched like any golden file,
// in the same commit as the files it seals, so a set's goldens and its
// seal are never out of step. A set whose goldens are unchanged but whose
// seal was missing or stale gets only the new manifest.
//
// Every writer also keeps each set's history (package history): a set
// that is new or changed gets an entry — who wrote it, why (Note; a
// changed set without a reason is refused, a *ReasonError, and nothing is
// written), its first divergence, drift class and size — appended to
// history.jsonl and sealed by the set's manifest, both made in the
// workspace and switched in the same commit as the goldens
// (Workspace.Chronicle). The history is no artifact: no rendering has
// one, so Prove, Plan and Changes never see it, and Changes compares a
// rendered manifest with the golden one by what they seal, the history
// aside. Regenerating what did not change appends nothing.
//
// The summary prints, per rung: unchanged, new, changed at the first
// divergence from the old golden, sealed (only the manifest written), or
// refused.
package regen
