// Package events keeps the canonical event log: the append-only record of
// what happened in the world (a theft, a killing, a death, a favour, a
// thaneship, a schedule rewrite), in the order it happened, on one timeline
// branch. How the engine came to each event is a separate stream, the
// derivation trace, built elsewhere; this log holds only outcomes.
//
// # Model
//
// A [Log] belongs to one [Branch]: the save a timeline grew from and the
// generation counting reloads from it. Every [Record] carries that branch,
// so records from two branches can never be spliced into one chain
// unnoticed. [Log.Append] gives each event the next sequence number,
// counting from 0, so a record's Seq is also its index in [Log.Records].
// Ticks never go backwards; events in one tick keep their append order.
//
// Each record's Hash covers its own content and the previous record's Hash
// (its Prev; the first record's Prev is 64 zeros). Changing, dropping or
// reordering any record therefore breaks the link at that record, and
// [Verify] names the first break with a [*ChainError]. The chain proves
// integrity, not authorship: whoever rewrites a record can recompute every
// later hash, and a log cut short at the end is still a valid chain. A
// caller that needs either guarantee keeps [Log.Head] somewhere the writer
// cannot reach and compares it.
//
// # Encoding v1
//
// A record's Hash is the lowercase hex of the SHA-256 of this encoding.
// Strings are a uint32 big-endian byte length followed by the bytes; int64
// values are eight bytes big-endian two's complement; counts are uint32
// big-endian:
//
//   - the domain tag "chronicle.events.v1" and one 0x00 byte (20 bytes);
//   - Seq (int64);
//   - Branch.SaveUUID (string), then Branch.Generation (int64);
//   - Prev as its raw 32 bytes, not as hex;
//   - Event.ID, then Event.Kind (strings);
//   - Event.Tick (int64);
//   - the number of attributes, then each key and value (strings), with
//     keys in ascending byte order;
//   - the number of witnesses, then each witness (string) in the given
//     order.
//
// The length prefixes make the encoding injective: no two different
// records share one, so a hash stands for exactly one record. Sorting the
// attribute keys makes the hash independent of Go's map iteration order.
// A nil and an empty map, or a nil and an empty witness list, encode alike.
// The domain tag keeps these digests apart from any other SHA-256 input in
// the engine and names the version; a v2 would change the tag.
//
// # Worked example
//
// The first record of a log on branch {SaveUUID: "s1", Generation: 0},
// holding Event{ID: "theft@2", Kind: "theft", Tick: 2, Attrs: {"item":
// "ring", "actor": "thief"}, Witnesses: ["guard"]}, encodes to these 153
// bytes (hex):
//
//	63 68 72 6f 6e 69 63 6c 65 2e 65 76 65 6e 74 73 2e 76 31 00   "chronicle.events.v1" 0x00
//	00 00 00 00 00 00 00 00                                        seq 0
//	00 00 00 02 73 31                                              save_uuid "s1"
//	00 00 00 00 00 00 00 00                                        generation 0
//	00 (32 times)                                                  prev: none yet
//	00 00 00 07 74 68 65 66 74 40 32                               id "theft@2"
//	00 00 00 05 74 68 65 66 74                                     kind "theft"
//	00 00 00 00 00 00 00 02                                        tick 2
//	00 00 00 02                                                    two attributes
//	00 00 00 05 61 63 74 6f 72 00 00 00 05 74 68 69 65 66          "actor" "thief"
//	00 00 00 04 69 74 65 6d 00 00 00 04 72 69 6e 67                "item" "ring"
//	00 00 00 01                                                    one witness
//	00 00 00 05 67 75 61 72 64                                     "guard"
//
// and its Hash is
// 90d0d479eb013d9370d954ddd6dd5f06a5cc8e82e75c0e9e03b95dbd8634663c. The
// package tests assert these bytes and this hash, and a golden three-record
// log.
package events
