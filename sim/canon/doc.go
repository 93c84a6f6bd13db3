// Package canon defines the canonical text encodings that the engine and the
// golden writers share: how a float64 is spelled, and how a value becomes
// JSON for content hashes, the derivation trace (JSON Lines) and checkpoint
// files. Everything here is pure: no I/O, no clock, and no map order reaches
// the output, so the same value gives the same bytes on every platform.
//
// # Floats
//
// FormatFloat and AppendFloat spell a float64 exactly as CPython's
// repr(float) does, because the analysis tools that read our files are
// written in Python and a golden must survive a round trip through them
// unchanged. The digits are the shortest ones that parse back to the same
// bits; the layout follows CPython: with the value written as 0.d1..dn ×
// 10^decpt, exponent notation d1[.d2..dn]e±XX is used when decpt <= -4 or
// decpt > 16, fixed notation otherwise, and a fixed value always shows a
// point and at least one digit after it:
//
//	0.1      → 0.1            1e15 → 1000000000000000.0
//	1e16     → 1e+16          1e-5 → 1e-05
//	0.0001   → 0.0001         -0.0 → -0.0
//	NaN      → nan            +Inf → inf
//
// # JSON
//
// Marshal and AppendMarshal write compact JSON (no insignificant white
// space) in UTF-8. Two writers that hold the same value must produce the same
// bytes, so each construct has exactly one spelling:
//
//   - Numbers: integers in plain decimal; float64 as AppendFloat spells it
//     (NaN and infinities are errors: JSON has no spelling for them).
//   - Strings: '"' and '\' escaped, \n \r \t \b \f as two-character escapes,
//     other control characters as \u00xx (lowercase hex), everything else,
//     including non-ASCII and <>&, as raw UTF-8. Invalid UTF-8 is an error.
//   - Objects: an Object, a map[string]any or a map[string]string is written
//     with its keys sorted bytewise, so building order cannot change a hash.
//     An Ordered is written in declaration order, for files whose field order
//     carries meaning for the reader (a trace record that starts with its
//     kind, a checkpoint whose parameters read top to bottom). A repeated key
//     is an error in both, as a hash over ambiguous input would be.
//   - A nil slice or map is written as [] or {}: Go's nil/empty distinction is
//     not content. Only an untyped nil is written as null.
//
// The supported types are nil, bool, string, int, int8..int64,
// uint, uint8..uint64, float64, map[string]any, map[string]string, Object,
// Ordered, []any, []string, []float64, []int, []int64, []Object and any type
// implementing Marshaler. Anything else is an error. Every error is a
// *MarshalError naming the JSON path of the offending value, such as
// "canon: $.records[3].value: NaN is not allowed".
//
// For example,
//
//	canon.Marshal(canon.Ordered{{"gravity", 9.8}, {"friction", 0.5}})
//
// returns {"gravity":9.8,"friction":0.5}, while the same fields as an Object
// give {"friction":0.5,"gravity":9.8}.
package canon
