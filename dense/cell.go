package dense

import (
	"math"
	"unsafe"
)

type cellKind uint8

const (
	kindEmpty cellKind = iota
	kindInt
	kindFloat
	kindBool
	kindStr
)

// Cell is one typed field of a dense row. The zero Cell is Empty.
//
// A city's recorder holds two rows of cells all run, a hundred thousand
// columns each, so a Cell is two words, not four: p is a Str's bytes
// (unsafe.StringData) and bits its length; for any other kind p points at
// that kind's byte of tags (nil for Empty) and bits holds the Int value,
// the Float's IEEE bits, or 1 for a true Bool. No string's bytes can lie
// inside tags, so the pointer alone tells the kind, and the garbage
// collector sees p as the pointer to the string it is.
type Cell struct {
	p    unsafe.Pointer
	bits uint64
}

// tags holds a byte for each kind a cell's pointer can name besides a
// string's bytes: Int, Float, Bool, and the empty Str, which has no bytes
// of its own to point at. Its Empty byte is unused: an Empty cell's p is nil.
var tags [kindStr + 1]byte

func tagged(k cellKind, bits uint64) Cell { return Cell{p: unsafe.Pointer(&tags[k]), bits: bits} }

// kind is the cell's kind, from its pointer.
func (c *Cell) kind() cellKind {
	if c.p == nil {
		return kindEmpty
	}
	if d := uintptr(c.p) - uintptr(unsafe.Pointer(&tags[0])); d < uintptr(len(tags)) {
		return cellKind(d)
	}
	return kindStr
}

// str is a Str cell's string.
func (c *Cell) str() string {
	if c.bits == 0 {
		return ""
	}
	return unsafe.String((*byte)(c.p), int(c.bits))
}

// Int returns a cell written in plain decimal.
func Int(v int64) Cell { return tagged(kindInt, uint64(v)) }

// Float returns a cell written as CPython's repr(float) writes v. A NaN
// cannot be written: a golden must never contain NaN.
func Float(v float64) Cell { return tagged(kindFloat, math.Float64bits(v)) }

// Bool returns a cell written as True or False.
func Bool(v bool) Cell {
	if v {
		return tagged(kindBool, 1)
	}
	return tagged(kindBool, 0)
}

// Str returns a cell holding s, quoted only when it must be.
func Str(s string) Cell {
	if s == "" {
		return tagged(kindStr, 0)
	}
	return Cell{p: unsafe.Pointer(unsafe.StringData(s)), bits: uint64(len(s))}
}

// Empty returns a cell written as an empty field. Callers use it for a value
// that is not held at that tick.
func Empty() Cell { return Cell{} }
