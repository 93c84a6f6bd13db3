package dense

import "math"

type cellKind uint8

const (
	kindEmpty cellKind = iota
	kindInt
	kindFloat
	kindBool
	kindStr
)

// Cell is one typed field of a dense row. The zero Cell is Empty.
type Cell struct {
	kind cellKind
	bits uint64 // the Int value, the Float's IEEE bits, or 1 for a true Bool
	str  string
}

// Int returns a cell written in plain decimal.
func Int(v int64) Cell { return Cell{kind: kindInt, bits: uint64(v)} }

// Float returns a cell written as CPython's repr(float) writes v. A NaN
// cannot be written: a golden must never contain NaN.
func Float(v float64) Cell { return Cell{kind: kindFloat, bits: math.Float64bits(v)} }

// Bool returns a cell written as True or False.
func Bool(v bool) Cell {
	if v {
		return Cell{kind: kindBool, bits: 1}
	}
	return Cell{kind: kindBool}
}

// Str returns a cell holding s, quoted only when it must be.
func Str(s string) Cell { return Cell{kind: kindStr, str: s} }

// Empty returns a cell written as an empty field. Callers use it for a value
// that is not held at that tick.
func Empty() Cell { return Cell{} }
