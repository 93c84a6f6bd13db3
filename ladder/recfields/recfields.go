package recfields

import (
	"errors"
	"fmt"
	"strings"
)

// Fields reads one decoded object's fields. Its zero value reads an
// object with no fields.
type Fields struct {
	f   map[string]any
	bad []string
}

// Of reads the object m.
func Of(m map[string]any) *Fields { return &Fields{f: m} }

// Wrong notes that field k holds v where want ("a string") was expected.
func (d *Fields) Wrong(k string, v any, want string) {
	d.bad = append(d.bad, fmt.Sprintf("%s is %T, want %s", k, v, want))
}

// Take adds what another reader found wrong, each under prefix ("" for
// none): a nested object's fields named from the outer object.
func (d *Fields) Take(prefix string, o *Fields) {
	for _, b := range o.bad {
		d.bad = append(d.bad, prefix+b)
	}
}

// Err is every field found of the wrong type so far, in the order read,
// as one error; nil when there is none.
func (d *Fields) Err() error {
	if len(d.bad) == 0 {
		return nil
	}
	return errors.New(strings.Join(d.bad, "; "))
}

// field reads field k as a T: the zero T when the object leaves it out,
// and a wrong-type note (want names T) when it holds something else.
func field[T any](d *Fields, k, want string) T {
	var x T
	v, ok := d.f[k]
	if !ok {
		return x
	}
	x, ok = v.(T)
	if !ok {
		d.Wrong(k, v, want)
	}
	return x
}

// Str reads a string.
func (d *Fields) Str(k string) string { return field[string](d, k, "a string") }

// Bool reads a bool.
func (d *Fields) Bool(k string) bool { return field[bool](d, k, "a bool") }

// Number reads a number.
func (d *Fields) Number(k string) float64 { return field[float64](d, k, "a number") }

// Integer reads a number that must be whole.
func (d *Fields) Integer(k string) int64 {
	x := d.Number(k)
	if x != float64(int64(x)) {
		d.Wrong(k, x, "an integer")
	}
	return int64(x)
}

// Object reads a nested object; nil when the object leaves it out (or
// it is of the wrong type, noted).
func (d *Fields) Object(k string) map[string]any {
	return field[map[string]any](d, k, "an object")
}

// Strs reads a list of strings.
func (d *Fields) Strs(k string) []string {
	var out []string
	for i, v := range field[[]any](d, k, "a list") {
		s, ok := v.(string)
		if !ok {
			d.Wrong(fmt.Sprintf("%s[%d]", k, i), v, "a string")
		}
		out = append(out, s)
	}
	return out
}

// Objects reads a list of objects, leaving out (and noting) an element
// that is not one.
func (d *Fields) Objects(k string) []map[string]any {
	var out []map[string]any
	for i, v := range field[[]any](d, k, "a list") {
		m, ok := v.(map[string]any)
		if !ok {
			d.Wrong(fmt.Sprintf("%s[%d]", k, i), v, "an object")
			continue
		}
		out = append(out, m)
	}
	return out
}
