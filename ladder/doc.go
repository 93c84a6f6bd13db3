// Package ladder runs rungs: it builds a world from a validated fixture
// (Build), steps it tick by tick while package record writes the dense
// CSV row and the trace records of each tick and compares them with the
// committed goldens as they are written, samples checkpoints, evaluates
// the fixture's exact expectations (package expect), and returns a Result
// that package verdict judges:
//
//	res, err := ladder.Run(f, ladder.Options{Dir: "reports/T1.1", Goldens: "."})
//	v := verdict.Verify(res) // first divergence per artifact, input drift
//	ps := verdict.Problems(res, err, v) // everything wrong, cause first
//
// The root holds the suite's entry points only: Run and Options
// (run.go, options.go), Result (result.go), the golden files of a set
// (artifacts.go), the counterpart runs a comparison expectation needs
// (counterpart.go) and the watchdog that gives up a hung run (stall.go).
// The rest lives in packages named for their job, each with a doc.go that
// says what it owns and what it may import:
//
//	ladder/fixture     a fixture file, loaded and validated (file:line:column errors)
//	ladder/expect      the expectation kinds and their verdicts
//	ladder/reach       what a fixture's world can reach, for its negatives
//	ladder/record      what a run writes as it steps: trace and dense streams, columns, the watch
//	ladder/sweeprun    a sweep rung's seeds, aggregates and summary
//	ladder/verdict     the judgement: golden comparison, problems cause first, seals, page links
//	ladder/report      failures.json, junit, the summary and the triage page of a ladder run
//	ladder/pageinput   what the page shows of each run, from what the run wrote
//	ladder/runfiles    the instruments' one reader of a run's written files
//	ladder/rerun       the instruments that build the world again (explain, curve, audit)
//
// Imports run one way, fixture → record → ladder → verdict → reports and
// instruments, never back up; a spec in ladder/harness holds it.
//
// A run streams: memory does not grow with the run's length. Each trace
// record is encoded once, written, compared line by line and shown to the
// expectations, then dropped; each dense row is spilled in a
// column-stable form and compared in the golden's layout, then dropped,
// and the file is assembled once the header is known
// (docs/dense-columns.md). Every run also seals what it wrote
// (manifest.json, package seal), and before a rung compares anything the
// suite checks the goldens it compares against with their seal
// (verdict.CheckSeals): a golden edited by anything but `make goldens` or
// `ladder accept` fails, even inside a tolerance.
//
// A comparison expectation needs another run of the fixture's file (its
// counterpart): Run hands it the counterpart's roll index, which the
// counterpart's own run leaves behind (counterpart.go), and the suite runs
// a file's runs in Order so that each is made once.
//
// The Ginkgo suite in this directory (ladder_suite_test.go) turns every
// fixture under fixtures/ into one spec per rung and case, labelled with the
// tier and the rung id. tools/ladder uses the same Run and verdict
// functions for regeneration and triage, so a rung behaves identically
// everywhere.
package ladder
