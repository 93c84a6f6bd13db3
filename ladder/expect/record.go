package expect

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/chronicle/ladder/sim/trace"
)

// DecodeRecord decodes one trace line into a Record: the values
// encoding/json's Unmarshal into a map gives (objects as map[string]any,
// arrays as []any, numbers as float64, strings, bools, nil), without its
// reflection — a long run's trace expectations decode a record per tick
// or more, and encoding/json spent about 6 µs on each of T3.4's. It reads
// any JSON text, not only the canonical spelling the encoder writes; a
// spec holds it to encoding/json on every committed trace line and under
// fuzzing.
func DecodeRecord(line []byte) (Record, error) {
	d := recordDecoder{b: line}
	d.space()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.space()
	if d.i != len(d.b) {
		return nil, d.fail("data after the record")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("decode record: not a JSON object")
	}
	return Record(m), nil
}

// DecodeKeys decodes only the named top-level keys of a trace line (and
// skips the rest, checking only that it is well formed): what a check
// that reads a few fields of a record needs, without building the whole
// record. A key the line lacks is absent from the result.
func DecodeKeys(line []byte, keys []string) (Record, error) {
	d := recordDecoder{b: line}
	d.space()
	if d.i >= len(d.b) || d.b[d.i] != '{' {
		return nil, d.fail("not a JSON object")
	}
	out := Record{}
	err := d.members(func(k string) error {
		if !slices.Contains(keys, k) {
			return d.skip(1)
		}
		v, err := d.value(1)
		out[k] = v
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, d.end()
}

// end checks that nothing but space follows the record.
func (d *recordDecoder) end() error {
	d.space()
	if d.i != len(d.b) {
		return d.fail("data after the record")
	}
	return nil
}

// skip passes over one value without building it: strings and literals
// are checked as value reads them, numbers by their grammar.
func (d *recordDecoder) skip(depth int) error {
	if depth > maxRecordDepth {
		return d.fail("nesting too deep")
	}
	if d.i >= len(d.b) {
		return d.fail("unexpected end")
	}
	switch c := d.b[d.i]; {
	case c == '"':
		return d.skipString()
	case c == '{':
		return d.members(func(string) error { return d.skip(depth + 1) })
	case c == '[':
		return d.elements(func() error { return d.skip(depth + 1) })
	}
	_, err := d.value(depth) // a number or a literal: nothing to build
	return err
}

// skipString passes over a string, with the checks string makes.
func (d *recordDecoder) skipString() error {
	d.i++ // "
	for d.i < len(d.b) {
		switch c := d.b[d.i]; {
		case c == '"':
			d.i++
			return nil
		case c < 0x20:
			return d.fail("control character in a string")
		case c == '\\':
			if d.i+1 >= len(d.b) {
				return d.fail("unterminated string")
			}
			switch d.b[d.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				d.i += 2
			case 'u':
				d.i += 2
				if _, ok := d.hex4(); !ok {
					return d.fail("invalid \\u escape")
				}
			default:
				return d.fail("invalid escape")
			}
		default:
			d.i++
		}
	}
	return d.fail("unterminated string")
}

// maxRecordDepth bounds nesting, as encoding/json does (10,000).
const maxRecordDepth = 10000

type recordDecoder struct {
	b []byte
	i int
}

func (d *recordDecoder) fail(what string) error {
	return fmt.Errorf("decode record: %s at byte %d", what, d.i)
}

func (d *recordDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *recordDecoder) value(depth int) (any, error) {
	if depth > maxRecordDepth {
		return nil, d.fail("nesting too deep")
	}
	if d.i >= len(d.b) {
		return nil, d.fail("unexpected end")
	}
	switch c := d.b[d.i]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		return d.string()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return nil, d.fail(fmt.Sprintf("unexpected %q", d.b[d.i]))
}

func (d *recordDecoder) literal(word string) error {
	if len(d.b)-d.i < len(word) || string(d.b[d.i:d.i+len(word)]) != word {
		return d.fail("invalid literal")
	}
	d.i += len(word)
	return nil
}

func (d *recordDecoder) object(depth int) (any, error) {
	m := map[string]any{}
	err := d.members(func(k string) error {
		v, err := d.value(depth + 1)
		m[k] = v
		return err
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

func (d *recordDecoder) array(depth int) (any, error) {
	l := []any{}
	err := d.elements(func() error {
		v, err := d.value(depth + 1)
		l = append(l, v)
		return err
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// members reads an object from its opening brace, calling each with every
// key and the decoder at its value, which each must read (or skip).
func (d *recordDecoder) members(each func(k string) error) error {
	d.i++ // {
	d.space()
	if d.i < len(d.b) && d.b[d.i] == '}' {
		d.i++
		return nil
	}
	for {
		d.space()
		if d.i >= len(d.b) || d.b[d.i] != '"' {
			return d.fail("want a key")
		}
		k, err := d.key()
		if err != nil {
			return err
		}
		d.space()
		if d.i >= len(d.b) || d.b[d.i] != ':' {
			return d.fail("want ':'")
		}
		d.i++
		d.space()
		if err := each(k); err != nil {
			return err
		}
		if done, err := d.next('}'); done || err != nil {
			return err
		}
	}
}

// elements reads an array from its opening bracket, calling each with the
// decoder at every element, which each must read (or skip).
func (d *recordDecoder) elements(each func() error) error {
	d.i++ // [
	d.space()
	if d.i < len(d.b) && d.b[d.i] == ']' {
		d.i++
		return nil
	}
	for {
		d.space()
		if err := each(); err != nil {
			return err
		}
		if done, err := d.next(']'); done || err != nil {
			return err
		}
	}
}

// next reads what follows a member or an element: a comma (more follow)
// or the closing bracket (done).
func (d *recordDecoder) next(closing byte) (bool, error) {
	d.space()
	if d.i >= len(d.b) {
		return false, d.fail("unexpected end")
	}
	switch d.b[d.i] {
	case ',':
		d.i++
		return false, nil
	case closing:
		d.i++
		return true, nil
	}
	return false, d.fail(fmt.Sprintf("want ',' or %q", closing))
}

// number reads a number in JSON's grammar and converts it as
// encoding/json does (strconv.ParseFloat, 64 bits; out of range is an
// error).
func (d *recordDecoder) number() (any, error) {
	start := d.i
	digits := func() int {
		n := 0
		for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
			d.i++
			n++
		}
		return n
	}
	if d.b[d.i] == '-' {
		d.i++
	}
	switch {
	case d.i < len(d.b) && d.b[d.i] == '0':
		d.i++
	case digits() == 0:
		return nil, d.fail("invalid number")
	}
	if d.i < len(d.b) && d.b[d.i] == '.' {
		d.i++
		if digits() == 0 {
			return nil, d.fail("invalid number")
		}
	}
	if d.i < len(d.b) && (d.b[d.i] == 'e' || d.b[d.i] == 'E') {
		d.i++
		if d.i < len(d.b) && (d.b[d.i] == '+' || d.b[d.i] == '-') {
			d.i++
		}
		if digits() == 0 {
			return nil, d.fail("invalid number")
		}
	}
	f, err := strconv.ParseFloat(string(d.b[start:d.i]), 64)
	if err != nil {
		return nil, fmt.Errorf("decode record: number %s: %w", d.b[start:d.i], err)
	}
	return f, nil
}

// key reads an object's key, taking the keys trace records use from
// knownKeys rather than allocating each anew.
func (d *recordDecoder) key() (string, error) {
	if end := d.i + 1; end < len(d.b) {
		for j := end; j < len(d.b) && j-end <= maxKnownKey; j++ {
			if c := d.b[j]; c == '"' {
				if k, ok := knownKeys[string(d.b[end:j])]; ok {
					d.i = j + 1
					return k, nil
				}
				break
			} else if c == '\\' || c < 0x20 || c >= 0x80 {
				break
			}
		}
	}
	return d.string()
}

// knownKeys are the field names of every trace record kind (and of their
// nested objects), the keys DecodeRecord meets on every line.
var knownKeys, maxKnownKey = func() (map[string]string, int) {
	m, longest := map[string]string{}, 0
	add := func(k string) {
		m[k] = k
		longest = max(longest, len(k))
	}
	for _, k := range []string{"branch", "generation", "save_uuid", "seq", "tick", "kind"} {
		add(k)
	}
	for _, kind := range trace.Kinds() {
		for _, f := range trace.Fields(kind) {
			for _, part := range strings.Split(f.Path, ".") {
				add(part)
			}
		}
	}
	return m, longest
}()

// string reads a string, replacing invalid UTF-8 and unpaired surrogates
// with U+FFFD as encoding/json does.
func (d *recordDecoder) string() (string, error) {
	d.i++ // "
	start := d.i
	for d.i < len(d.b) {
		c := d.b[d.i]
		if c == '"' {
			s := d.b[start:d.i]
			d.i++
			if utf8.Valid(s) {
				return string(s), nil
			}
			return string([]rune(string(s))), nil // each invalid byte becomes U+FFFD
		}
		if c == '\\' || c < 0x20 {
			break
		}
		d.i++
	}
	// The slow path: escapes (or an error).
	out := make([]byte, 0, d.i-start+16)
	out = append(out, d.b[start:d.i]...)
	for d.i < len(d.b) {
		c := d.b[d.i]
		switch {
		case c == '"':
			d.i++
			if utf8.Valid(out) {
				return string(out), nil
			}
			return string([]rune(string(out))), nil
		case c < 0x20:
			return "", d.fail("control character in a string")
		case c != '\\':
			out = append(out, c)
			d.i++
			continue
		}
		d.i++ // backslash
		if d.i >= len(d.b) {
			break
		}
		e := d.b[d.i]
		d.i++
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return "", d.fail("invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				// A pair, when a low surrogate's escape follows.
				save := d.i
				if d.i+1 < len(d.b) && d.b[d.i] == '\\' && d.b[d.i+1] == 'u' {
					d.i += 2
					if r2, ok := d.hex4(); ok {
						if p := utf16.DecodeRune(r, r2); p != utf8.RuneError {
							out = utf8.AppendRune(out, p)
							continue
						}
					}
				}
				d.i = save
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", d.fail("invalid escape")
		}
	}
	return "", d.fail("unterminated string")
}

func (d *recordDecoder) hex4() (rune, bool) {
	if len(d.b)-d.i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range d.b[d.i : d.i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	d.i += 4
	return r, true
}
