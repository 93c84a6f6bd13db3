package page

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// head is what the page reads from every trace record: its kind, tick,
// seq, outcome and rule. Most records of a big run are only counted, so
// the page reads these five without decoding the record (peek), and
// decodes in full only the records it shows or keeps.
type head struct {
	Kind, Rule string
	Tick, Seq  int64
	Fired      bool
}

// peek reads a record's head from its JSON line: it walks the object's
// top-level keys, skipping nested values whole, so a key of the same name
// inside a nested object (a rule's values) is never mistaken for the
// record's. It checks only what it walks; a line it accepts may still be
// refused by a full decode.
func peek(raw []byte, names interned) (head, error) {
	var h head
	p := scanner{b: raw}
	p.space()
	if !p.byte('{') {
		return h, errors.New("not a JSON object")
	}
	p.space()
	if p.byte('}') {
		return h, nil
	}
	for {
		p.space()
		ks := p.i
		if err := p.skipString(); err != nil {
			return h, err
		}
		key := raw[ks:p.i]
		if bytes.IndexByte(key, '\\') >= 0 {
			k, err := unquote(key)
			if err != nil {
				return h, err
			}
			key = []byte(strconv.Quote(k))
		}
		p.space()
		if !p.byte(':') {
			return h, fmt.Errorf("key %s: no colon", key)
		}
		p.space()
		start := p.i
		if err := p.value(); err != nil {
			return h, fmt.Errorf("key %s: %w", key, err)
		}
		v := raw[start:p.i]
		var err error
		switch string(key) {
		case `"kind"`:
			h.Kind, err = names.of(v)
		case `"rule"`:
			h.Rule, err = names.of(v)
		case `"tick"`:
			h.Tick, err = strconv.ParseInt(string(v), 10, 64)
		case `"seq"`:
			h.Seq, err = strconv.ParseInt(string(v), 10, 64)
		case `"fired"`:
			h.Fired = string(v) == "true"
		}
		if err != nil {
			return h, fmt.Errorf("key %s: %w", key, err)
		}
		p.space()
		if p.byte('}') {
			return h, nil
		}
		if !p.byte(',') {
			return h, fmt.Errorf("after key %s: want , or }", key)
		}
	}
}

// interned keeps the kinds and rule names a trace spells on every line,
// so reading one allocates nothing; one reader keeps one.
type interned map[string]string

func (in interned) of(v []byte) (string, error) {
	if s, ok := in[string(v)]; ok {
		return s, nil
	}
	s, err := unquote(v)
	if err == nil && len(in) < 1024 {
		in[string(v)] = s
	}
	return s, err
}

// unquote reads a JSON string; the common case, no escapes, without
// allocating more than the result.
func unquote(v []byte) (string, error) {
	if len(v) < 2 || v[0] != '"' {
		return "", errors.New("not a string")
	}
	for _, c := range v[1 : len(v)-1] {
		if c == '\\' {
			var s string
			err := json.Unmarshal(v, &s)
			return s, err
		}
	}
	return string(v[1 : len(v)-1]), nil
}

// scanner walks JSON text a value at a time.
type scanner struct {
	b []byte
	i int
}

func (p *scanner) space() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\n' || p.b[p.i] == '\r') {
		p.i++
	}
}

func (p *scanner) byte(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *scanner) skipString() error {
	if !p.byte('"') {
		return errors.New("want a string")
	}
	for {
		j := bytes.IndexByte(p.b[p.i:], '"')
		if j < 0 {
			return errors.New("unterminated string")
		}
		end := p.i + j
		// The quote ends the string unless an odd run of backslashes
		// escapes it.
		n := 0
		for k := end - 1; k >= p.i && p.b[k] == '\\'; k-- {
			n++
		}
		p.i = end + 1
		if n%2 == 0 {
			return nil
		}
	}
}

// value skips one value of any kind.
func (p *scanner) value() error {
	if p.i >= len(p.b) {
		return errors.New("want a value")
	}
	switch p.b[p.i] {
	case '"':
		return p.skipString()
	case '{', '[':
		depth := 0
		for p.i < len(p.b) {
			switch p.b[p.i] {
			case '"':
				if err := p.skipString(); err != nil {
					return err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					p.i++
					return nil
				}
			}
			p.i++
		}
		return errors.New("unterminated object or array")
	default:
		start := p.i
		for p.i < len(p.b) && p.b[p.i] != ',' && p.b[p.i] != '}' && p.b[p.i] != ']' && p.b[p.i] != ' ' {
			p.i++
		}
		if p.i == start {
			return errors.New("want a value")
		}
		return nil
	}
}
