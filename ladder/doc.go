// Package ladder runs rungs: it builds a world from a validated fixture,
// steps it tick by tick, writes the dense CSV row and the trace records of
// each tick and samples checkpoints, evaluates the fixture's exact
// expectations, and compares the artifacts with the committed goldens. The
// expectations themselves are ladder/expect's kinds; Run feeds them the
// world at each tick, the trace one record at a time and the canonical
// events, and keeps each one's verdict and examined count in
// Result.Expectations.
//
// A run streams (stream.go): trace.jsonl and dense.csv are written into
// Options.Dir as they are produced and compared with the goldens under
// Options.Goldens as they are written, so memory does not grow with the
// run's length. Each trace record is encoded once, written, compared line
// by line and shown to the expectations, then dropped; each dense row is
// spilled in a column-stable form and compared in the golden's layout,
// then dropped, and the file is assembled once the header is known
// (docs/dense-columns.md). Verify reads the verdicts the run reached:
//
//	res, err := ladder.Run(f, ladder.Options{Dir: "reports/T1.1", Goldens: "."})
//	v := ladder.Verify(res) // first divergence per artifact, input drift
//
// Every run also seals what it wrote (manifest.json, package seal), and
// before a rung compares anything the suite checks the goldens it compares
// against with their seal (sealcheck.go): a golden edited by anything but
// `make goldens` or `ladder accept` fails, even inside a tolerance.
//
// A sweep rung (fixture sweep:, sweeprun.go) is run differently: its
// world copied into towns, once per seed, its per-seed counts and their
// summary written and compared byte for byte, and each bound on a count's
// mean over the seeds checked as an expectation (package ladder/sweep).
//
// columns.go says which dense columns exist and what each holds at a tick;
// nothing else knows the column contract.
//
// A comparison expectation needs another run of the fixture's file (its
// counterpart): Run hands it the counterpart's roll index, which the
// counterpart's own run leaves behind (counterpart.go), and the suite runs
// a file's runs in Order so that each is made once.
//
// The Ginkgo suite in this directory (ladder_suite_test.go) turns every
// fixture under fixtures/ into one spec per rung and case, labelled with the
// tier and the rung id. tools/ladder uses the same Run and Verify functions
// for regeneration and triage, so a rung behaves identically everywhere.
//
// Failure messages start with the rung id and end with the command that
// reproduces it and, if the change was meant, how to review and accept it
// (never "regenerate": a red line is a bug until read); the dense-golden
// message has a fixed shape that CI and tools parse (docs/triage.md):
//
//	T0.2 dense.csv: first divergence at tick 4, column "w1/theft@2/verbatim": golden 0.5, actual 999.0 (reproduce: make ladder RUNG=T0.2; if intended: `go run ./tools/ladder review T0.2`, then `accept -reason "…" T0.2`)
//
// Verify and Problems return each failure located (Problem: check, tick,
// column, golden, actual, fixture line) and ordered cause first: a failing
// run's first line is its root cause — the earliest trace record that
// moved, read against the golden trace by package triage — and its second
// its drift class (cause.go); then the problems by tick, the trace record
// before what it explains. The suite also records them for
// reports/failures.json (package report), whose FailedRuns and
// ClosingLines make the "start here:" block the ladder ends with. Input drift is data
// too (RungDrift), printed once per run by DriftLines.
package ladder
