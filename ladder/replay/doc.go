// Package replay verifies a run from what it left behind: the canonical
// event log it exported (events.jsonl, one hash-chained record a line,
// package sim/events) and its checkpoints (the state digest at every
// sample and at the end, the log head).
//
// ReadLog reads the log strictly: every line must be the one canonical
// spelling of its record (so a changed byte is never read as the same
// record) and the records must form one chain (events.Verify). Verify then
// re-runs the world from its fixture and, tick by tick, requires the
// engine to append exactly the logged records — same sequence, branch,
// id, kind, tick, attributes, witnesses, prev and hash — and, at every
// checkpoint sample and at the end, to reach the recorded state digest
// (sim/digest); at the end nothing logged may be left over and the log
// head must be the recorded one. The first disagreement is a *Mismatch
// naming the record (sequence number and id), the events.jsonl line and
// the tick:
//
//	record: record seq 3 (theft@12), events.jsonl line 4, tick 12: event.attrs.item: logged "ring", replayed "sweetroll"
//
// What a passing verification proves, and what it cannot, is in
// docs/determinism.md ("Replay"): it proves that this code and this
// fixture produce this log and these states; it cannot prove that the
// code is right, and a log and checkpoints both rewritten by other code
// verify under that code.
package replay
