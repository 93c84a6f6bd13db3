// Package triage reads a failing run's trace against its golden, record
// by record, and says how the run drifted and where it started: the
// instrument behind the lines a red ladder prints first.
//
// The trace is emitted in causal order — within a tick an encounter
// before the transmission it carries, a rule's evaluation before the
// grudge or event it makes, a keyframe after the records it sums up — and
// the two files agree up to their first difference. So the earliest record
// that differs is the earliest divergent cause: every later difference,
// every dense cell and every failing assertion after it descends from it
// or from something the trace does not record at all (a value derived at
// read time, such as decay, which then first shows in a keyframe).
//
// Align reads both traces as streams, a tick at a time, pairs each tick's
// records by kind and key (trace.RecordKey: an encounter's id, a rule and
// its subject, a holder and claim…; the n-th record of a key with the n-th
// of the other file) and sorts every difference into one of five changes:
//
//   - Moved: the same record with a value changed — value drift;
//   - Flipped: the same record with a decision changed (fired, reason);
//   - Appeared, Vanished: a record only the run, or only the golden, has;
//   - Renamed: the same record under another id (trace.IDChanged), the
//     signature of an order or a counter leaking into ids.
//
// The run's drift is read off its earliest change that is not a value:
// identity drift when that is a renamed record, control-flow drift when it
// is a decision that flipped or a record that appeared or vanished; value
// drift when only values moved; the ladder calls a run whose defines or
// fixture moved input drift before any of these. Memory holds one tick of
// each file and the first difference of each change.
package triage
