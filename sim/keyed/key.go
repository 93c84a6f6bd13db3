package keyed

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"strconv"

	"github.com/chronicle/ladder/sim/lenprefix"
)

// domainTag opens every v1 key encoding. It keeps keyed digests apart from
// any other SHA-256 use in the engine and names the encoding version.
const domainTag = "chronicle.keyed.v1\x00"

// Key names one roll. Two rolls with equal keys always get the same value,
// whatever else the engine rolled before them.
type Key struct {
	SeedID       string   // names the run family; A/B comparison runs share it
	Purpose      string   // roll-kind discriminator: "encounter", "mutation", "tell-decision", ...
	Tick         int64    // simulation tick the roll belongs to
	Site         string   // usually a location id; "" is allowed
	Participants []string // order as given; symmetric rolls pass Canonical(...)
}

// AppendEncoding appends the v1 byte encoding of k to dst and returns the
// extended slice. The layout is described in the package documentation; it
// is the identity of the key, so it must never change once vectors exist.
func (k Key) AppendEncoding(dst []byte) []byte { return appendEncoding(dst, &k) }

func appendEncoding(dst []byte, k *Key) []byte {
	dst = append(dst, domainTag...)
	dst = lenprefix.AppendString(dst, k.SeedID)
	dst = lenprefix.AppendString(dst, k.Purpose)
	dst = binary.BigEndian.AppendUint64(dst, uint64(k.Tick))
	dst = lenprefix.AppendString(dst, k.Site)
	dst = lenprefix.AppendLength(dst, len(k.Participants))
	for _, p := range k.Participants {
		dst = lenprefix.AppendString(dst, p)
	}
	return dst
}

// String returns the human form used in traces and error messages, such as
// "encounter@12/whiterun_market/[neighbor,witness]". The seed is left out
// because a trace belongs to one run family already. The form is for
// reading only: it is not injective, and the encoding is the key's identity.
func (k Key) String() string {
	var buf [96]byte
	return string(k.AppendString(buf[:0]))
}

// AppendString appends the human form of String to dst. Trace encoders
// call it to write a roll's key without building a string per record.
func (k Key) AppendString(dst []byte) []byte {
	dst = append(dst, k.Purpose...)
	dst = append(dst, '@')
	dst = strconv.AppendInt(dst, k.Tick, 10)
	dst = append(dst, '/')
	dst = append(dst, k.Site...)
	dst = append(dst, '/', '[')
	for i, p := range k.Participants {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, p...)
	}
	return append(dst, ']')
}

// Value returns the roll for k, a float64 in [0,1) that depends on nothing
// but k's v1 encoding.
func Value(k Key) float64 {
	var buf [128]byte
	return valueOf(appendEncoding(buf[:0], &k))
}

// Canonical returns a sorted copy of participants, leaving the argument
// untouched. Symmetric rolls pass it so that "a meets b" and "b meets a"
// share one key. Sorting is by byte order of the strings.
func Canonical(participants ...string) []string {
	sorted := slices.Clone(participants)
	slices.Sort(sorted)
	return sorted
}

// valueOf maps an encoding to [0,1): the top 53 bits of the first eight
// digest bytes, scaled by 2**-53. Both steps are exact in float64, so the
// result has the same bits on every platform.
func valueOf(encoding []byte) float64 {
	sum := sha256.Sum256(encoding)
	return fraction(sum[:])
}

// fraction is the last step of valueOf, from a digest.
func fraction(sum []byte) float64 {
	return float64(binary.BigEndian.Uint64(sum[:8])>>11) * 0x1p-53
}
