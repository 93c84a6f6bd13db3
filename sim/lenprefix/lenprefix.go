// Package lenprefix writes the length-prefixed fields of the v1 encodings
// that are hashed: roll keys (sim/keyed) and event-log records
// (sim/events). A string is its uint32 big-endian byte length, then its
// bytes; a list is its uint32 big-endian count, then its items. The
// prefix is what keeps two different field sequences from spelling the
// same bytes.
package lenprefix

import (
	"encoding/binary"
	"math"
)

// AppendString appends s with its uint32 big-endian byte-length prefix.
func AppendString(dst []byte, s string) []byte {
	dst = AppendLength(dst, len(s))
	return append(dst, s...)
}

// AppendLength appends n as a uint32 big-endian count. Lengths that do not
// fit cannot be encoded without ambiguity, so they panic rather than wrap.
func AppendLength(dst []byte, n int) []byte {
	if uint64(n) > math.MaxUint32 {
		panic("lenprefix: string or list longer than the v1 encoding allows")
	}
	return binary.BigEndian.AppendUint32(dst, uint32(n))
}
