// Package trace is the derivation trace: an always-on stream, sibling to
// the canonical event log, that records why the engine did what it did.
//
// The canonical log says what happened in the world (a theft, a death). The
// trace says how the simulation derived everything else: every roll with its
// full key, value and threshold; every co-present pair considered for an
// encounter, fired or not; every transmission, fired or declined with the
// reason and the rule's name; every rule evaluation, fired or not, with what
// it was looking at; every belief formed or changed; and a keyframe of the
// whole social state once per game day. Negative records have the same shape
// and weight as positive ones: "nothing happened, and here is why" is the
// answer most triage needs.
//
// There is no switch that turns the trace off: every record is always
// built and handed to a Sink. A Writer streams the file as it is produced,
// in constant memory; a Buffer keeps every record for specs and tools.
// The engine builds its commonest records in storage it reuses, so a
// record reaches a sink only for the length of Emit; a sink that keeps one
// keeps its Clone. An Encoder is the single spelling of the format: it
// appends a record's line to a buffer without allocating, and is held to
// a canon.Marshal oracle of every kind by the package's tests.
//
// # File format (schemas v1 and v2)
//
// A trace file is JSON Lines: one canonical JSON object per line (keys
// sorted, no whitespace, floats in Python repr form, no NaN), "\n" after
// every line. The first line is the header:
//
//	{"branch":{"generation":0,"save_uuid":"ladder-T1.1"},"keyframe_every":24,"kind":"header","schema":"chronicle.trace","seed_id":"ladder-T1.1","version":1}
//
// Every following line is a record carrying the branch key, its sequence
// number (0-based, dense), the tick and the kind, plus the kind's own fields:
//
//	{"branch":{...},"fired":false,"id":"encounter@12/market/[neighbor,witness]","kind":"encounter","pair":["neighbor","witness"],"roll":{...},"seq":41,"site":"market","tick":12}
//
// The header's version is the lowest that describes the file: Version1 for
// a world of the core layer, Version2 for one that uses the social layer,
// whose kinds (Grudge, Obligation, Reputation), derived events' rule and
// cause, and keyframe sections version 1 lacks; each appears only when it
// carries something, so a core-only file is byte for byte a version 1 file.
//
// docs/trace-schema.md is the frozen reference for every kind and field.
// Adding an optional field is compatible; renaming or removing one, or
// changing a meaning, requires a new version.
package trace
