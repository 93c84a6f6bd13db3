package canon

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// maxDepth bounds nesting so that a cyclic []any or a Marshaler that returns
// itself fails with ErrTooDeep instead of exhausting the stack.
const maxDepth = 1000

// Field is one member of an Object or Ordered.
type Field struct {
	Key   string
	Value any
}

// Object is a JSON object written with its keys sorted bytewise, whatever
// the order of its fields. A repeated key is an error.
type Object []Field

// Ordered is a JSON object written in the order of its fields (declaration
// order). A repeated key is an error.
type Ordered []Field

// Raw is a value already spelt as canonical JSON, written as it is: a
// caller that keeps the spelling of what does not change between two
// encodings (sim/digest's Memo keeps each belief's evidence) splices it in
// rather than spelling it again. Marshal does not check it: whoever makes
// one spells it with Marshal.
type Raw []byte

// Marshaler is implemented by types that have a canonical JSON form: the
// encoder writes the value CanonJSON returns in their place.
type Marshaler interface {
	CanonJSON() any
}

// Marshal returns the canonical JSON encoding of v. See the package
// documentation for the supported types. Errors are of type *MarshalError.
func Marshal(v any) ([]byte, error) {
	return AppendMarshal(nil, v)
}

// AppendMarshal appends the canonical JSON encoding of v to dst and returns
// the extended buffer. On error it returns dst with its original length and
// an error of type *MarshalError.
func AppendMarshal(dst []byte, v any) ([]byte, error) {
	out, perr := appendValue(dst, v, 0)
	if perr != nil {
		return dst, perr.export()
	}
	return out, nil
}

func appendValue(dst []byte, v any, depth int) ([]byte, *pathError) {
	if depth > maxDepth {
		return dst, failure(ErrTooDeep)
	}
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case string:
		return appendString(dst, x)
	case int:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case int8:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case int16:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case int32:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(dst, x, 10), nil
	case uint:
		return strconv.AppendUint(dst, uint64(x), 10), nil
	case uint8:
		return strconv.AppendUint(dst, uint64(x), 10), nil
	case uint16:
		return strconv.AppendUint(dst, uint64(x), 10), nil
	case uint32:
		return strconv.AppendUint(dst, uint64(x), 10), nil
	case uint64:
		return strconv.AppendUint(dst, x, 10), nil
	case float64:
		return appendNumber(dst, x)
	case Raw:
		return append(dst, x...), nil
	case Object:
		return appendObject(dst, x, depth)
	case Ordered:
		return appendOrdered(dst, x, depth)
	case map[string]any:
		return appendMap(dst, x, depth)
	case map[string]string:
		return appendStringMap(dst, x, depth)
	case []any:
		return appendArray(dst, x, func(dst []byte, v any) ([]byte, *pathError) {
			return appendValue(dst, v, depth+1)
		})
	case []string:
		return appendArray(dst, x, appendString)
	case []float64:
		return appendArray(dst, x, appendNumber)
	case []int:
		return appendArray(dst, x, func(dst []byte, v int) ([]byte, *pathError) {
			return strconv.AppendInt(dst, int64(v), 10), nil
		})
	case []int64:
		return appendArray(dst, x, func(dst []byte, v int64) ([]byte, *pathError) {
			return strconv.AppendInt(dst, v, 10), nil
		})
	case []Object:
		return appendArray(dst, x, func(dst []byte, v Object) ([]byte, *pathError) {
			return appendObject(dst, v, depth+1)
		})
	case Marshaler:
		return appendValue(dst, x.CanonJSON(), depth+1)
	default:
		return dst, failure(fmt.Errorf("%w %T", ErrUnsupportedType, v))
	}
}

func appendNumber(dst []byte, f float64) ([]byte, *pathError) {
	switch {
	case math.IsNaN(f):
		return dst, failure(ErrNaN)
	case math.IsInf(f, 0):
		return dst, failure(ErrInf)
	}
	return AppendFloat(dst, f), nil
}

func appendArray[T any](dst []byte, xs []T, elem func([]byte, T) ([]byte, *pathError)) ([]byte, *pathError) {
	dst = append(dst, '[')
	for i, x := range xs {
		if i > 0 {
			dst = append(dst, ',')
		}
		var perr *pathError
		if dst, perr = elem(dst, x); perr != nil {
			return dst, perr.inIndex(i)
		}
	}
	return append(dst, ']'), nil
}

// appendMember appends "key":value, preceded by a comma unless it is the
// first member.
func appendMember(dst []byte, first bool, key string, value any, depth int) ([]byte, *pathError) {
	if !first {
		dst = append(dst, ',')
	}
	dst, perr := appendString(dst, key)
	if perr != nil {
		return dst, failure(fmt.Errorf("%w in key", ErrInvalidUTF8)).inKey(key)
	}
	dst = append(dst, ':')
	if dst, perr = appendValue(dst, value, depth+1); perr != nil {
		return dst, perr.inKey(key)
	}
	return dst, nil
}

// sortedOrder returns the indexes of fields sorted bytewise by key, in
// buf's array when it is large enough, or an error naming the smallest
// repeated key. Its callers hand it an array of their own: an object of
// a few members is spelt for every record of a digest, and an order
// allocated for each was a tenth of all a city's run allocated.
func sortedOrder(fields []Field, buf []int) ([]int, *pathError) {
	order := buf[:0]
	for i := range fields {
		order = append(order, i)
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(fields[a].Key, fields[b].Key) })
	for i := 1; i < len(order); i++ {
		if key := fields[order[i]].Key; key == fields[order[i-1]].Key {
			return nil, failure(fmt.Errorf("%w %q", ErrDuplicateKey, key))
		}
	}
	return order, nil
}

// smallObject is how many members an object may have for its order to
// be sorted in an array on the stack (sortedOrder).
const smallObject = 16

func appendObject(dst []byte, o Object, depth int) ([]byte, *pathError) {
	var small [smallObject]int
	order, perr := sortedOrder(o, small[:])
	if perr != nil {
		return dst, perr
	}
	dst = append(dst, '{')
	for n, i := range order {
		if dst, perr = appendMember(dst, n == 0, o[i].Key, o[i].Value, depth); perr != nil {
			return dst, perr
		}
	}
	return append(dst, '}'), nil
}

func appendOrdered(dst []byte, o Ordered, depth int) ([]byte, *pathError) {
	var small [smallObject]int
	if _, perr := sortedOrder(o, small[:]); perr != nil {
		return dst, perr
	}
	dst = append(dst, '{')
	for i, f := range o {
		var perr *pathError
		if dst, perr = appendMember(dst, i == 0, f.Key, f.Value, depth); perr != nil {
			return dst, perr
		}
	}
	return append(dst, '}'), nil
}

func appendMap(dst []byte, m map[string]any, depth int) ([]byte, *pathError) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		var perr *pathError
		if dst, perr = appendMember(dst, i == 0, k, m[k], depth); perr != nil {
			return dst, perr
		}
	}
	return append(dst, '}'), nil
}

func appendStringMap(dst []byte, m map[string]string, depth int) ([]byte, *pathError) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		var perr *pathError
		if dst, perr = appendMember(dst, i == 0, k, m[k], depth); perr != nil {
			return dst, perr
		}
	}
	return append(dst, '}'), nil
}
