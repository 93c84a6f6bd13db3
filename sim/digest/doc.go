// Package digest computes the state digest: one SHA-256 over the canonical
// JSON of an engine's whole state at a tick, so two runs (a run and its
// replay, a run here and a run on another machine) can be told to hold the
// same state without comparing it field by field. The ladder records it
// at every checkpoint sample and at the end of every run
// (checkpoints.json, "state_digest"), and `ladder verify` replays a run
// to it. Decision record 0027 says why it is built this way.
//
// # What it covers
//
// The canonical state is one JSON object with a member per Section, keys
// sorted:
//
//   - accumulators: every (victim, offender) accumulator, its noted
//     offences and whether it is disarmed;
//   - beliefs: every belief — variant, confidence, formed and anchor ticks,
//     the stage as stored (heard or repeated: dormant and forgotten are
//     derived from the anchor, so they are not state), the counted origins
//     and the whole evidence chain — holders in sorted order, each
//     holder's beliefs in claim order;
//   - claims, and variants (each claim's in creation order, with
//     predecessor, diff, slots and origin);
//   - grudges (strengths as stored at the anchor, causes in order);
//   - log: the canonical log's head and length (the head chains every
//     record; the records themselves are exported beside, events.jsonl);
//   - npcs: every cast member and whether alive;
//   - obligations; reputation (every row with its evidence counts, and
//     the (observer, claim) pairs already counted); supersessions;
//   - tick;
//   - in a world of the weighting layer (Tier 4b), pair_weights: every
//     pair rule 18 has weighed and its weight now;
//   - in a world of the roles layer (Tier 5), roles: every role with its
//     holder ("" while vacant), since when, the previous holder, its
//     lapses, and its declared faction, appointer and duties;
//   - in a world of the schedule or roles layer (Tiers 4a, 5), schedules:
//     every cast member's overrides (mournings, duties), oldest first.
//
// A section with In set exists only in a world of its layer, so a world
// without the state has no member for it and its digest did not move
// when the section was added.
//
// It leaves out what is derived from the above (memory strengths and
// stages as of a tick, the stage and settling calendars, the co-present
// groups, which a schedule gives), the inputs (the fixture, the defines,
// the seed: checkpoints.json records their hashes) and the trace.
//
// # Encoding
//
// The object is written by package canon: keys sorted bytewise at every
// depth, no white space, UTF-8, integers in decimal. Following the
// content-addressing rule that a hashed payload holds no float, every
// float is a string: its Python repr (Num), the shortest decimal that
// reads back to the same float64, so the string names exactly one double
// and -0.0 stays apart from 0.0. NaN and the infinities have no spelling:
// a state holding one has no digest (ErrNotFinite, naming where). The
// digest is the lowercase hex SHA-256 of the text; Canonical returns the
// text itself, which `ladder state` prints for a person comparing two
// states.
//
// # Worked example
//
// A guard sees a thief take a ring at tick 2 (one logged event, one claim,
// one belief at the witness baseline 0.9); the state as of tick 3 is, on
// one line,
//
//	{"accumulators":[],"beliefs":[{"anchor":2,"claim":"theft@2","confidence":"0.9","evidence":[{"chain":[],
//	"confidence":"0.9","counted":true,"source":"","tick":2,"type":"witnessed","variant":"theft@2#v0",
//	"via":"theft@2"}],"formed_at":2,"holder":"guard","origins":["guard"],"stage":"heard","variant":"theft@2#v0"}],
//	"claims":[{"id":"theft@2","kind":"theft","slots":[{"name":"actor","type":"entity","value":"thief"},
//	{"name":"item","type":"item","value":"ring"}],"tick":2,"variant":"theft@2#v0"}],"grudges":[],
//	"log":{"head":"90d0d479eb013d9370d954ddd6dd5f06a5cc8e82e75c0e9e03b95dbd8634663c","length":1},
//	"npcs":[{"alive":true,"id":"guard"},{"alive":true,"id":"thief"}],"obligations":[],
//	"reputation":{"counted":[],"rows":[]},"supersessions":[],"tick":3,"variants":[{"claim":"theft@2",
//	"diff":[],"id":"theft@2#v0","origin":{"holder":"","reason":"event","tick":2},"predecessor":"",
//	"slots":[{"name":"actor","type":"entity","value":"thief"},{"name":"item","type":"item","value":"ring"}]}]}
//
// (974 bytes, wrapped here), and its digest is
// f24d7d4042385480a65bd1761e4d4c5b5e49a7066b8e541cc7b1e8122f21ee3b.
// Python's json.dumps(…, sort_keys=True, separators=(",", ":")) writes
// the same bytes from the parsed text; the package tests pin both.
//
// # Adding state
//
// State the engine gains is one more entry in Sections, with its
// accessor in State and In naming the layer that brings it (as
// pair_weights, roles and schedules were added for Tiers 4 and 5); its
// records listed in a sorted, documented order and its floats through
// Num. The digests of the rungs of that layer then change once, and their
// goldens are regenerated in a commit that says so; no other rung's moves.
package digest
