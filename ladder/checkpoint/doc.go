// Package checkpoint reads, writes and compares checkpoints.json, the
// tolerance-bounded golden of a rung: a few named values sampled at a few
// ticks, the run's outcome, and the inputs that produced them.
//
//	{
//	  "case": "",
//	  "checkpoints": [
//	    {"tick": 0, "values": {"witness_confidence": 0.9}},
//	    ...
//	  ],
//	  "defines": {"contested_dent": 0.1, …, "retell_decay": 0.8, "ticks_per_day": 24, …},
//	  "defines_hash": "1c365e6efa6e2c4a",
//	  "fixture_hash": "…",
//	  "outcome": {"beliefs": 1, "claims": 1, "events": 1, "log_head": "…", "ticks": 48, "variants": 1},
//	  "rung": "T0.1",
//	  "seed_id": "ladder-T0.1"
//	}
//
// Keys are sorted; floats are written in Python repr form; a value that does
// not exist at a sampled tick (a belief not yet formed) is null.
//
// defines records every define's value beside defines_hash (which digests
// them), so drift can name what moved; fixture_hash digests the fixture's
// text with its line ends normalised (its parent's too, when it extends
// one), so a CRLF copy is the same fixture.
//
// Compare keeps input drift and behavioural drift apart. A define that
// changed (named, golden → actual), a different fixture_hash or seed_id
// means an input moved: a Drift, a warning, never a failure — if the values
// still match, behaviour did not change. A golden without recorded define
// values drifts by its defines_hash alone.
// A value beyond the regime's tolerance, a value that appeared or vanished,
// or a different outcome is behavioural drift: a failure.
package checkpoint
