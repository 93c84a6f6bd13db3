// Package artifact reads and writes a run's artifact files (dense.csv,
// trace.jsonl, checkpoints.json) in memory that does not grow with the
// run.
//
// A file is written as it is produced, to a temporary file beside its
// final name (".<name>.tmp-N"), and renamed into place only when whole
// (File.Commit), so a reader sees the old file or the new one, never a
// torn one. A file expected to be its golden's bytes (CreateTwin) writes
// nothing while it is, and is put in place as a link to the golden. Whoever owns the directory removes what a killed run left:
// the suite clears reports/ before every run, regeneration clears its
// workspace.
//
// Traces are compared with their goldens a line at a time, as they are
// produced (TraceFollower) or afterwards from two files (CompareTraceFiles),
// and the first divergence is named exactly as trace.Compare names it for
// two whole files. Files are compared for equality (Same) in chunks,
// never read whole.
package artifact
