package page

import (
	"fmt"
	"strconv"
	"strings"
)

// File is where every ladder run writes the page, relative to the
// repository root.
const File = "reports/index.html"

// Link returns the deep link to a rung (or case) scrolled to a tick, e.g.
// "reports/index.html#T2.1@44", for failure messages to end with. A
// negative tick links to the rung alone.
func Link(name string, tick int64) string {
	return File + "#" + Fragment(name, tick)
}

// Fragment returns the URL fragment (without "#") that holds the page's
// state: the rung's name, and "@tick" when tick is not negative. Bytes
// outside [A-Za-z0-9._~/-] are percent-encoded, so a name can never be
// mistaken for the tick separator.
func Fragment(name string, tick int64) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if plain(c) {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	if tick >= 0 {
		b.WriteByte('@')
		b.WriteString(strconv.FormatInt(tick, 10))
	}
	return b.String()
}

func plain(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '.' || c == '_' || c == '~' || c == '/' || c == '-'
}

// State is what a fragment says: which section, and which tick (-1 when
// the fragment names no tick).
type State struct {
	Name string
	Tick int64
}

// ParseFragment reads a fragment written by Fragment, with or without its
// leading "#". The page's script reads fragments by the same rules: the
// tick follows the last "@", and the name is percent-decoded.
func ParseFragment(s string) (State, error) {
	s = strings.TrimPrefix(s, "#")
	st := State{Name: s, Tick: -1}
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		digits := s[i+1:]
		t, err := strconv.ParseInt(digits, 10, 64)
		if err != nil || digits[0] < '0' || digits[0] > '9' {
			return State{}, fmt.Errorf("fragment %q: tick %q is not a non-negative integer", s, digits)
		}
		st.Name, st.Tick = s[:i], t
	}
	name, err := unescape(st.Name)
	if err != nil {
		return State{}, fmt.Errorf("fragment %q: %w", s, err)
	}
	if name == "" {
		return State{}, fmt.Errorf("fragment %q names no rung", s)
	}
	st.Name = name
	return st, nil
}

func unescape(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", fmt.Errorf("truncated escape at byte %d", i)
		}
		v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return "", fmt.Errorf("bad escape %q at byte %d", s[i:i+3], i)
		}
		b.WriteByte(byte(v))
		i += 2
	}
	return b.String(), nil
}
