package canon

import "math"

// floatSlots is how many spellings a FloatCache holds: a power of two, so
// that a value's slot is the top bits of a multiplicative hash. 4,096
// slots of 32 bytes are 128 KiB, the same for any run.
const (
	floatSlotBits = 12
	floatSlots    = 1 << floatSlotBits
	floatTextMax  = 23 // the longest spelling a slot holds; longer ones are spelt every time
)

// FloatCache remembers how recently spelt floats are spelt, by their bits.
//
// A city's dense rows spell the same few thousand values over and over:
// every belief formed at the same tick, with the same confidence, decays
// along the same curve, so its verbatim and gist weights at a tick are the
// same float for every holder, and the same again for a holder a tick
// later who heard it a tick later. The shortest round-trip spelling was
// half the dense row's cost; copying a remembered one is a hash and a
// copy. (A trace's floats are mostly rolls, which seldom repeat: behind
// the trace encoder the cache missed too often to pay, so it has none.)
//
// The cache is a pure function's memo: Append writes what AppendFloat
// writes, hit or miss, so nothing that reads its output can tell it is
// there. Each slot holds one value (a newer one replaces it), so its size
// is fixed whatever the run's length or cast. The zero FloatCache is
// empty and ready, and a nil one spells every value afresh; it is not
// safe for concurrent use.
type FloatCache struct {
	slot [floatSlots]floatSlot
}

// floatSlot is one remembered spelling; n 0 is an empty slot (no float
// is spelt in no bytes).
type floatSlot struct {
	bits uint64
	n    uint8
	text [floatTextMax]byte
}

// Append appends f as AppendFloat does and returns the extended buffer.
func (c *FloatCache) Append(dst []byte, f float64) []byte {
	if c == nil {
		return AppendFloat(dst, f)
	}
	bits := math.Float64bits(f)
	s := &c.slot[(bits*0x9e3779b97f4a7c15)>>(64-floatSlotBits)]
	if s.n != 0 && s.bits == bits {
		return append(dst, s.text[:s.n]...)
	}
	start := len(dst)
	dst = AppendFloat(dst, f)
	if n := len(dst) - start; n <= floatTextMax {
		s.bits, s.n = bits, uint8(n)
		copy(s.text[:], dst[start:])
	}
	return dst
}
