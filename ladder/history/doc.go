// Package history keeps, beside each golden set, why its goldens changed,
// and reads it back with git to say when: the seal (package seal) says
// that a set's files are what `make goldens` or `ladder accept` wrote, not
// which change moved a cell or why.
//
// goldens/<rung>-<slug>[/<case>]/history.jsonl holds one entry per change
// a writer of goldens made to the set, oldest first, each its canonical
// JSON (sim/canon: keys sorted, no spaces) on a line, appended:
//
//	{"by":"accept","cells":3621,"code_hash":"84c961a10bb41b5a","drift":"value drift","first":{"after":"0.5062500000000001","artifact":"dense.csv","before":"0.54","column":"maurice/theft@10/confidence","tick":14},"fixture":"fixtures/T2.1-spread.yaml","fixture_hash":"98ab43607ce0ad48","reason":"retell decay 0.8 → 0.75","records":146,"state":"changed"}
//
// An entry holds who wrote the set (accept, goldens), the fixture's and the
// code's hashes, and for a changed set the first divergence (a dense cell,
// a trace record, a checkpoint), the drift class as the ladder names a
// failing run's, the inputs that moved, how many dense cells and trace
// records changed (Measure: the comparisons review makes) and the reason,
// which a changed set must have and a new one may. It holds no date:
// nothing that writes a golden byte reads the clock, and the commit that
// carries the entry says when.
//
// The history is sealed with its set — the set's manifest names it like
// the goldens, so an edit to it breaks the seal — but it is no artifact: no
// run renders it, so the determinism proof, the plan of a regeneration, the
// ladder's comparisons and review never see it, and a run's manifest is
// compared with a golden one by what they seal, the history aside
// (SameSeal). The writers append an entry and reseal (Seal) in the same
// workspace switch as the goldens (regen.Workspace.Chronicle), and only to
// a history its seal vouches for (Prior). A set without a history is
// valid: its changes from before histories are in git's log.
//
// Blame answers "which commit last changed this cell, and why" from git
// and the committed files alone: it walks the commits that touched the
// file, reads the one cell or record in each version, and stops where it
// differs, naming the commit and the entries it appended.
package history
