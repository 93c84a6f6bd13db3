// Package report writes the ladder's reports for CI and merges the reports
// of shards.
//
// After every run the suite writes, beside Ginkgo's own JSON report
// (reports/ladder.json, which the suite writes too, so that everything a
// run writes is in its own reports directory, LADDER_REPORTS):
//
//   - reports/junit.xml: one <testsuite> per tier (tier0, tier1, …, and
//     "harness" for the suite's own specs), one <testcase> per rung or case
//     that ran, whose file is the fixture and whose line that of its
//     first problem inside it (the failing expectation) — so CI annotations
//     land on the YAML, not on the Go harness — and whose <failure> message
//     is the rung's first line, its root cause; a run the determinism
//     rerun found different fails its testcase too:
//
//     <testcase name="T2.1 Spread — …" classname="tier2" file="fixtures/T2.1-spread.yaml" line="1" time="0.041">
//     <failure message="T2.1 dense.csv: first divergence at tick 14, …" type="failed">…</failure>
//     </testcase>
//
//   - reports/failures.json: every failure as data, one object each —
//     {"rung", "case", "check", "tick", "column", "golden", "actual", "file",
//     "line", "message"} — in rung order; a spec that failed without
//     located problems (a harness spec) appears with check "spec".
//
// The closing summary (FailedRuns, ClosingLines) orders failed runs by
// tier, then earliest divergent tick, then name — never by the order the
// specs ran in — and opens with one "start here:" line.
//
// A reports directory is a run's alone (Lock, Clear): taken under an
// flock, refused when it is a symlink or holds files without the Marker
// (.ladder-reports) that every directory the ladder made carries, so
// that clearing it can never delete someone's files; readers take it
// shared (LockShared).
//
// Specs a label filter or shard left out are not listed: a report lists
// what ran. Merge joins the reports of shards (each a directory holding
// the three files) into one, refusing a spec that ran in two shards, so the
// merged lists equal a full run's.
package report
