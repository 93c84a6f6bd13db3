package keyed

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"hash"
)

// hasher computes valueOf for the keys a Roller rolls, one after another,
// reusing work between them. SHA-256 digests its input in 64-byte blocks,
// and the first block of a v1 encoding holds the domain tag, seed,
// purpose, tick and the start of the site: every pair rolled at one site
// in one tick shares it. The hasher keeps the digest's state after the
// last first block it saw (crypto/sha256 can save and restore its state,
// encoding.BinaryAppender and BinaryUnmarshaler) and, when the next
// encoding begins with the same 64 bytes, restores that state and digests
// only the rest. The digest is the same SHA-256 of the same bytes; only
// the first block's work is shared.
type hasher struct {
	digest  hash.Hash
	save    encoding.BinaryAppender
	restore encoding.BinaryUnmarshaler
	first   [sha256.BlockSize]byte // the first block the state follows
	state   []byte                 // the digest's state after first; nil before any
	sum     [sha256.Size]byte
}

func newHasher() hasher {
	d := sha256.New()
	return hasher{digest: d, save: d.(encoding.BinaryAppender), restore: d.(encoding.BinaryUnmarshaler)}
}

// value returns valueOf(encoding).
func (h *hasher) value(encoding []byte) float64 {
	if len(encoding) <= sha256.BlockSize {
		return valueOf(encoding)
	}
	first, rest := encoding[:sha256.BlockSize], encoding[sha256.BlockSize:]
	// crypto/sha256 saves and restores its state without fail; were it
	// ever to refuse, the value is still right, computed from scratch.
	if h.state != nil && bytes.Equal(first, h.first[:]) {
		if err := h.restore.UnmarshalBinary(h.state); err != nil {
			h.state = nil
			return valueOf(encoding)
		}
	} else {
		h.digest.Reset()
		h.digest.Write(first)
		state, err := h.save.AppendBinary(h.state[:0])
		if err != nil {
			h.state = nil
			return valueOf(encoding)
		}
		h.state = state
		copy(h.first[:], first)
	}
	h.digest.Write(rest)
	return fraction(h.digest.Sum(h.sum[:0]))
}
