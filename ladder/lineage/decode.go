package lineage

import "fmt"

// decoder reads fields of one decoded JSON object, collecting every field
// of the wrong type; a field left out is its zero value.
type decoder struct {
	f   map[string]any
	bad []string
}

func (d *decoder) wrong(k string, v any, want string) {
	d.bad = append(d.bad, fmt.Sprintf("%s is %T, want %s", k, v, want))
}

func field[T any](d *decoder, k, want string) T {
	var x T
	v, ok := d.f[k]
	if !ok {
		return x
	}
	x, ok = v.(T)
	if !ok {
		d.wrong(k, v, want)
	}
	return x
}

func (d *decoder) str(k string) string     { return field[string](d, k, "a string") }
func (d *decoder) boolean(k string) bool   { return field[bool](d, k, "a bool") }
func (d *decoder) number(k string) float64 { return field[float64](d, k, "a number") }

// strs reads a list of strings.
func (d *decoder) strs(k string) []string {
	var out []string
	for i, v := range field[[]any](d, k, "a list") {
		s, ok := v.(string)
		if !ok {
			d.wrong(fmt.Sprintf("%s[%d]", k, i), v, "a string")
		}
		out = append(out, s)
	}
	return out
}

// table reads a list of objects.
func (d *decoder) table(k string) []map[string]any {
	var out []map[string]any
	for i, v := range field[[]any](d, k, "a list") {
		m, ok := v.(map[string]any)
		if !ok {
			d.wrong(fmt.Sprintf("%s[%d]", k, i), v, "an object")
			continue
		}
		out = append(out, m)
	}
	return out
}
