// Package rerun holds the instruments that build a fixture's world again
// with the code in the checkout and step it: a belief's evidence chain
// (Explain), a claim's spread at every tick (Curve, and Steps to write
// `curve:` expectations from it), and regime 2's audit alone (AuditRun,
// AuditSummary). They describe today's code, which after a fix is not the
// run that failed: the instruments that describe a written run read its
// files (package runfiles), and re-run only when asked (`-rerun`).
//
// It may import package ladder (Build) and everything below it.
package rerun
