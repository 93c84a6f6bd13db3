// Package seal writes and verifies the manifest that seals a golden set:
// goldens/<rung>-<slug>[/<case>]/manifest.json, one per rung and one per
// case. The manifest holds the SHA-256 of every golden file of its set, by
// name — the set's history.jsonl too, which the writers of goldens seal
// beside what a run wrote (package history) — and its own SHA-256, computed over itself with that field blank
// (self-sealing, as content-addressed reports are in the seeds):
//
//	{"files":{"checkpoints.json":"9f2c…","dense.csv":"04be…","trace.jsonl":"c1d7…"},"format":"chronicle.golden-seal.v1","manifest_sha256":"5a0e…","set":"T2.3/swapped"}
//
// The payload is canonical JSON (sim/canon: keys sorted bytewise, no
// insignificant white space, UTF-8) with no floats in it: names and hex
// digests are strings. The file is that payload and one newline, nothing
// else, so there is one spelling of each manifest: re-indenting it is an
// edit.
//
// To compute manifest_sha256, encode the manifest with manifest_sha256
// set to "" and hash those bytes; to verify, reverse the process: read
// the field, blank it, encode, hash and compare.
//
// Only the writers of goldens make manifests: every run seals the
// artifacts it writes (Write; WriteDigested when it digested them as it
// wrote them, through a Digester, rather than reading them back), and `make goldens` and `ladder accept` copy
// that manifest into goldens/ in the same workspace switch as the files
// it seals. Check, run by the ladder before it compares anything, finds
// every way a set can differ from its seal: a sealed file edited or
// missing, a file in the set that the seal does not name, a manifest that
// is missing, not canonical, edited (its own hash no longer matches), or
// copied from another set.
//
// A seal is a checksum, not a signature: there is no secret in it, so it
// proves that nobody changed a golden by hand since the last regeneration
// or accept, not who regenerated it. A deliberate regenerate-and-commit
// reseals; reviewing that commit is the protection against it.
package seal
