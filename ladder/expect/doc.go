// Package expect holds the expectation kinds a fixture's expect list can
// use — belief, holders, trace, … — and runs them against a world as it
// steps.
//
// Each kind lives in its own file and owns everything about itself: its
// schema (the keys its body accepts), its decoding (with the positions of
// every field, so a failure points at the line of `confidence:`, not of the
// list item), and its check. The fixture loader knows kinds only through
// the Kind interface and the registry in registry.go, one explicit list;
// adding a kind is one new file plus one line there.
//
// A decoded expectation is a Check, and which observer interface it
// implements says when it runs:
//
//   - TickCheck: once per tick of its When range, against a read-only World
//     (belief, holders, curve, claims, variant, value, npc,
//     duplicate_rejected, supersession, and the social layer's grudge,
//     reputation, obligation, provenance);
//   - TraceCheck: once per trace record whose tick is in the range, one
//     record at a time as the run streams its trace, so the runner never
//     holds the trace (trace, logged_first, comparison); one that reads a
//     single record kind says so (KindedTraceCheck) and the runner decodes
//     no record of another kind for it;
//   - EventCheck: once per canonical event in the range (events).
//
// A comparison compares its run with another run of the fixture's file,
// roll key by roll key (package ladder/compare): before the run the runner
// hands it that run's rolls as an index (Run.Compare), and a run that
// others compare with indexes its own as its trace passes (Run.Index).
//
// Every check counts what it examined (ticks, candidate records, NPCs in
// scope, evidence records…). A check that examined nothing fails as
// "checked nothing" even when its condition holds: a negative assertion
// over an empty set proves nothing, and the gate must not pass by accident.
//
// A bad fixture is refused by the loader with a positioned error (misuse of
// the harness); an expectation that does not hold is a Result with Passed
// false (a failed assertion). The two never mix.
package expect
