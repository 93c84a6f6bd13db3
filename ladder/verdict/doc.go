// Package verdict judges a run: how its artifacts compare with the
// goldens (Verify: the first divergent dense cell, trace record and
// checkpoint value, input drift), everything wrong with it as located
// problems ordered cause first (Problems: rung, check, tick, column,
// golden, actual, fixture line; a red run's first line is its root cause,
// the earliest trace record that moved, and its second the drift class),
// the links from a problem to its row on the triage page (PageLink), the
// seal check of the goldens before a run compares anything (CheckSeals),
// the goldens no fixture owns any more (ObsoleteGoldens), and the
// failure message's fixed suffix (Commands: how to reproduce, review and
// accept; never "regenerate").
//
// Look here for "why did the first line say X". The dense-golden message
// has a fixed shape that CI and the tools parse (docs/triage.md):
//
//	T0.2 dense.csv: first divergence at tick 4, column "w1/theft@2/verbatim": golden 0.5, actual 999.0 (reproduce: make ladder RUNG=T0.2; if intended: `go run ./tools/ladder review T0.2`, then `accept -reason "…" T0.2`)
//
// It reads a finished ladder.Result and the files its run wrote; it may
// import package ladder, record and the packages below them, never the
// reports and instruments that read its verdicts (report, pageinput,
// runfiles, regen, …).
package verdict
