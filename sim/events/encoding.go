package events

import (
	"crypto/sha256"
	"encoding/binary"
	"maps"
	"slices"

	"github.com/chronicle/ladder/sim/lenprefix"
)

// domainTag opens every v1 record encoding; it keeps these digests apart
// from other SHA-256 uses and names the encoding version.
const domainTag = "chronicle.events.v1\x00"

// hashSize is the length of a raw SHA-256 digest.
const hashSize = sha256.Size

// recordDigest returns the SHA-256 of r's encoding with prev as the raw
// previous hash. r.Prev and r.Hash are not read: the chain is defined on
// the raw bytes, and the hex fields are only their printed form.
func recordDigest(r Record, prev [hashSize]byte) [hashSize]byte {
	return sha256.Sum256(appendRecord(nil, r, prev))
}

// appendRecord appends the v1 encoding of r to dst; doc.go gives the layout.
func appendRecord(dst []byte, r Record, prev [hashSize]byte) []byte {
	dst = append(dst, domainTag...)
	dst = binary.BigEndian.AppendUint64(dst, uint64(r.Seq))
	dst = lenprefix.AppendString(dst, r.Branch.SaveUUID)
	dst = binary.BigEndian.AppendUint64(dst, uint64(r.Branch.Generation))
	dst = append(dst, prev[:]...)
	e := r.Event
	dst = lenprefix.AppendString(dst, e.ID)
	dst = lenprefix.AppendString(dst, e.Kind)
	dst = binary.BigEndian.AppendUint64(dst, uint64(e.Tick))
	dst = lenprefix.AppendLength(dst, len(e.Attrs))
	for _, k := range slices.Sorted(maps.Keys(e.Attrs)) {
		dst = lenprefix.AppendString(dst, k)
		dst = lenprefix.AppendString(dst, e.Attrs[k])
	}
	dst = lenprefix.AppendLength(dst, len(e.Witnesses))
	for _, w := range e.Witnesses {
		dst = lenprefix.AppendString(dst, w)
	}
	return dst
}
