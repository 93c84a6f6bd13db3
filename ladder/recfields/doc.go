// Package recfields reads the fields of one JSON object decoded from a
// run's file (a trace record, a value inside one) into Go values,
// collecting every field of the wrong type instead of stopping at the
// first, so that a malformed record is reported whole. A field the
// object leaves out is its zero value, as the trace encoder leaves out
// empty fields. The triage instruments' decoders (ladder/runfiles,
// ladder/lineage) read records with it.
//
// It imports nothing of the harness: it sits in the bottom layer
// (fixtures and file formats) of ladder/harness/imports_test.go.
package recfields
