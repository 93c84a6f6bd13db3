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
// in constant memory; a Buffer keeps every record for specs and tools; a
// Pipe shows another sink the records on a goroutine of its own, so that
// spelling and writing them runs on a second core beside the engine, in
// the same order and to the same bytes.
// The engine builds its commonest records in storage it reuses, so a
// record reaches a sink only for the length of Emit; a sink that keeps one
// keeps its Clone. An Encoder is the single spelling of the format: it
// appends a record's line to a buffer without allocating, and is held to
// a canon.Marshal oracle of every kind by the package's tests.
//
// # File format (schema version 3)
//
// A trace file is JSON Lines: one canonical JSON object per line (keys
// sorted, no whitespace, floats in Python repr form, no NaN), "\n" after
// every line. The first line is the header, which lists the run's branch
// and the layers whose kinds the file may hold:
//
//	{"branches":[{"generation":0,"save_uuid":"…"}],"keyframe_every":24,"kind":"header","layers":["core"],"schema":"chronicle.trace","seed_id":"ladder-T1.1","version":3}
//
// Every following line is a record carrying its branch (an index into the
// header's branches), its sequence number (0-based, dense), the tick and
// the kind, plus the kind's own fields:
//
//	{"branch":0,"fired":false,"id":"encounter@12/market/[neighbor,witness]","kind":"encounter","roll":{"threshold":0.02,"value":0.73},"seq":41,"tick":12}
//
// Version 3 spells each fact once (decision 0040): a record leaves out
// what another of its fields spells — an encounter's pair, site and roll
// key in its id, a claim in its variant — and Facts puts it back for a
// reader, so every reader sees the facts versions 1 and 2 spelt out.
// ConvertV2 and ExpandV3 convert between the two without loss.
//
// docs/trace-schema.md is the frozen reference for every kind and field.
// Adding an optional field is compatible; renaming or removing one, or
// changing a meaning, requires a new version.
package trace
