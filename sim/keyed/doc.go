// Package keyed gives the simulation its randomness as a pure function of
// a key rather than of a position in a stream.
//
// # Model
//
// A stream generator makes every roll depend on how many rolls came before
// it. Adding one roll anywhere, say a new "gossip" check in one tavern,
// shifts every later roll in the run, and an A/B comparison between two
// engine versions then differs everywhere instead of only where the change
// matters. Here a roll is named by a [Key]: the run family (SeedID), what
// the roll decides (Purpose), when (Tick), where (Site) and who
// (Participants). [Value] hashes the key, so two runs that share a seed get
// the same roll at every site whose key did not change, and an extra roll
// changes nothing but itself.
//
// Participants are kept in the order given, because many rolls are not
// symmetric ("a tells b" is not "b tells a"). A symmetric roll passes its
// participants through [Canonical] so that either order gives one key.
//
// A [Roller] binds a seed and applies a fixture's pins. A [Pin] forces the
// roll with its exact key to a chosen value; the [Roll] it returns still
// carries the natural value for triage. [Roller.Unused] lists pins that no
// roll matched, which means the fixture names a key the run never rolls.
// [Roller.Fill] rolls a key the caller has built, in place and without
// allocating: the engine's path, which rolls every co-present pair every
// tick.
//
// A Roller also spares SHA-256 work between consecutive rolls. The first
// 64-byte block of an encoding holds the tag, seed, purpose, tick and the
// start of the site, so every pair rolled at one site in one tick shares
// it; the Roller keeps the digest's state after the last first block it
// hashed (crypto/sha256 saves and restores its state) and digests only the
// rest when the next encoding starts the same. The digest is the SHA-256
// of the same bytes — the tests hold Fill to Value over tens of thousands
// of keys — so no value changes; about half the hashing does.
//
// # Encoding v1
//
// [Key.AppendEncoding] writes, in order:
//
//   - the domain tag "chronicle.keyed.v1" and one 0x00 byte (19 bytes);
//   - SeedID and Purpose, each as a uint32 big-endian byte length followed
//     by the string's bytes (UTF-8 as stored, no normalisation);
//   - Tick as an int64 in big-endian two's complement;
//   - Site, length-prefixed as above;
//   - the participant count as a uint32 big-endian, then each participant
//     length-prefixed.
//
// Every variable-length part carries its length, so no two distinct keys
// share an encoding: Site "ab" with participant "c" and Site "a" with
// participant "bc" encode differently although their bytes concatenate to
// the same text. A nil and an empty participant list both encode as count
// zero and are the same key. The domain tag separates these digests from
// any other SHA-256 input in the engine and names the version: a v2 would
// change the tag, never reinterpret v1 bytes.
//
// [Value] takes the SHA-256 digest of the encoding, reads its first eight
// bytes as a big-endian uint64 u and returns float64(u>>11) * 2**-53. The
// shift keeps 53 bits, which float64 holds exactly, and scaling by a power
// of two is exact, so the value lies in [0,1) and has the same bits on every
// platform and compiler; no floating-point rounding happens at all.
//
// # Worked example
//
// The key {SeedID: "s", Purpose: "p", Tick: 2, Site: "", Participants:
// ["a"]} encodes to these 50 bytes (hex):
//
//	63 68 72 6f 6e 69 63 6c 65 2e 6b 65 79 65 64 2e 76 31 00   "chronicle.keyed.v1" 0x00
//	00 00 00 01 73                                             SeedID "s"
//	00 00 00 01 70                                             Purpose "p"
//	00 00 00 00 00 00 00 02                                    Tick 2
//	00 00 00 00                                                Site ""
//	00 00 00 01                                                one participant
//	00 00 00 01 61                                             "a"
//
// Its SHA-256 digest begins 56 4b bb c5 e4 53 25 69, so u is
// 0x564bbbc5e4532569 and the value is 0.3370931013235574 (float64 bits
// 0x3fd592eef17914c8). The package tests assert this example byte for byte.
//
// # Human form
//
// [Key.String] prints Purpose@Tick/Site/[p1,p2,...], for example
// "encounter@12/whiterun_market/[neighbor,witness]". The seed is omitted
// because a trace or fixture already belongs to one run family and
// repeating it on every line hides the part that varies. The form is for
// people: a site containing "/" can make two keys print alike, so code
// compares keys by their encoding, never by String.
package keyed
