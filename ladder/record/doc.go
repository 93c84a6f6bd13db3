// Package record holds what a run writes while the engine steps: the
// streams of trace.jsonl and dense.csv (Streams: each trace record encoded
// once, written, compared line by line with its golden and shown to the
// trace expectations; each dense row spilled and compared in the golden's
// layout, the file assembled once the header is known), the dense column
// contract (Recorder: which columns exist and what each holds at a tick,
// docs/dense-columns.md; ColumnGroup names a column's family), the world
// as expectations read it (View), the watch kept beside the artifacts
// (Watch: regime 2's audit, the exported canonical log events.jsonl, state
// digests, the rule-regime meter), the clock of a timed run (Stages) and
// the progress a watched run reports (Progress).
//
// Look here for "where is a dense row written" or "how is a trace line
// compared as it is written". Package ladder's Run drives these pieces a
// tick at a time and gathers what they produce into its Result; record
// itself neither runs a world nor judges a run (package verdict does).
//
// It may import the fixture and file-format packages under ladder/
// (fixture, expect, artifact, seal, coverage, checkpoint) and the engine;
// never package ladder, verdict, or the reports and instruments above
// them (the import-direction spec in ladder/harness holds this).
package record
