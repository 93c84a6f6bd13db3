// Package audit is tolerance regime 2: an audit of the engine's state,
// graded ok / warn / alarm, that every rung of the ladder runs at every
// tick. It checks what no single rung asserts but every correct state
// satisfies — one claim per canonical event, one belief per (holder,
// claim), intact variant lineage, confidences and grudge strengths in
// [0, 1], believers within the living cast, obligations that only move
// forward between their favour's parties, reputation rows equal to their
// prior plus their counted evidence; and, in worlds of Tiers 4 and 5,
// roles held by the living or vacant with every reference resolving to
// the holder, schedule overrides each placed by something that still
// holds, pair weights in [0, 1]. Each invariant's derivation (the
// statement, the bound as a function of size, where the arithmetic is
// exact, the failure it guards against) is written in package tolerances
// (tolerances.Invariants) and docs/tolerances.md; this package holds the
// checks, one function each, in the list in invariants.go.
//
// # Grades
//
// A structural invariant (a duplicate, an orphan, a state moving back)
// holds or it does not: broken, it is an alarm. A float invariant has a
// residual — how far the value is from what must hold — graded by
// tolerances.Audit.Grade against the bound rounding can explain: within
// it, ok; beyond it but at most 1e-6, warn (the arithmetic changed: a
// reordered sum, an unguarded product); beyond 1e-6 or NaN, alarm. In
// strict mode a warn fails a run too; the ladder is strict.
//
// # Incremental, with full audits at keyframes
//
// A full audit reads every record, which at city scale costs about as
// much as a tick of the engine (docs/performance.md). So between full
// audits the Auditor examines only what changed: it is a trace.Sink, and
// the trace — which records every state delta (belief changes, tellings,
// supersessions, grudges, obligations, reputation) — names the holders,
// claims and social records a tick touched; the canonical log names the
// events appended (and so their claims). Tallies kept between audits
// (claims matched to events, beliefs listed, variants per claim, evidence
// counted) catch a record the trace did not name: the store's own count
// no longer matches.
// A full audit runs at tick 0, at every keyframe (ticks_per_day, when the
// trace writes its keyframe too) and at the end of a run. The invariants
// of Tiers 4 and 5 (layers.go) read all of their few records at every
// audit, in a world of their layer, and nothing elsewhere.
//
// The incremental audit is equivalent to a full one at every tick: the
// specs hold its findings to a full audit's, tick by tick, on random
// worlds with planted faults, and check on every rung of the ladder that
// the records the trace names cover every record that changed (a
// snapshot of the state before and after each tick, compared). A finding
// is reported once, the tick its record first breaks the invariant.
//
// # Use
//
//	a := audit.New(world, audit.Options{})
//	// the world's trace sink also hands every record to a.Emit
//	for ... {
//		world.Step()
//		rep, err := a.Tick() // err: ErrUnfed if no keyframe reached Emit at a keyframe tick
//		for _, f := range rep.Failing(true) { ... f.String() ... }
//	}
//	a.Full() // the end
//
// A finding reads
//
//	regime 2 alarm at tick 14: one-belief-per-holder-claim: belief carlotta/theft@10: listed 2 times under carlotta: the store allows one belief per holder and claim
//
// # Adding state
//
// State the engine gains adds one entry to the invariants list and one to
// tolerances.Invariants, with its accessor in World, as schedule
// overrides, pair weights and roles did (layers.go: each check returns at
// once in a world without its layer). A check that reads every record at
// every audit needs nothing more; one that is to be audited incrementally
// also adds the trace record that announces its changes as one more case
// in changes.note.
package audit
