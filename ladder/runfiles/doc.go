// Package runfiles is the one reader of a run's written files for the
// triage instruments: it finds trace.jsonl, events.jsonl, dense.csv and
// checkpoints.json where a run left them and decodes what the instruments
// show from them, so that an instrument describes the run that was
// written — the failing CI run a person downloaded, the committed
// goldens, the goldens of an older commit — and not a fresh run of the
// code in the checkout, which after a fix is a different run.
//
// It owns where a run's files are (Source: reports/<run>/, any directory
// laid out like reports/, goldens/<rung>-<slug>[/<case>]/, or those
// goldens as a commit had them, read with `git show`), the errors a
// person gets when one is missing (the path, and the command that writes
// it) or when a tick lies outside the run (the run's range), and the
// decoding of trace records into the engine's own record types
// (sim/trace), so that an instrument formats a record read from a file
// with the code it formats a live one with. Records are read with the
// repository's trace reader (ladder/compare), which puts back what a
// version-3 line leaves out. A belief's provenance and the variant
// lineage are read by ladder/lineage (Run.Lineage, Run.Explain).
package runfiles
