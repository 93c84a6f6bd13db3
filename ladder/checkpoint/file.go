package checkpoint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/chronicle/ladder/sim/canon"
)

// Outcome summarises how a run ended. Any difference is behavioural drift.
type Outcome struct {
	Ticks    int64  `json:"ticks"`
	Events   int64  `json:"events"`
	Claims   int64  `json:"claims"`
	Variants int64  `json:"variants"`
	Beliefs  int64  `json:"beliefs"`
	LogHead  string `json:"log_head"` // hash of the last canonical event
	// StateDigest is the digest of the engine's whole state at the end
	// (sim/digest); "" in a golden written before digests were.
	StateDigest string `json:"state_digest"`
}

// Sample is the checkpoint values at one tick, by name. A nil value did not
// exist at that tick.
type Sample struct {
	Tick   int64               `json:"tick"`
	Values map[string]*float64 `json:"values"`
	// StateDigest is the digest of the engine's whole state at this tick
	// (sim/digest); "" in a golden written before digests were.
	StateDigest string `json:"state_digest"`
}

// File is a checkpoints.json.
type File struct {
	Rung        string `json:"rung"`
	Case        string `json:"case"`
	SeedID      string `json:"seed_id"`
	DefinesHash string `json:"defines_hash"`
	// Defines are the values DefinesHash digests, by name, each as its
	// canonical JSON number ("0.8", "24"): a drift warning can then say
	// which define moved and from what to what, not only that the hash did.
	Defines     map[string]json.Number `json:"defines"`
	FixtureHash string                 `json:"fixture_hash"`
	Outcome     Outcome                `json:"outcome"`
	Samples     []Sample               `json:"checkpoints"`
}

// Marshal writes the file: canonical JSON (sorted keys, repr floats)
// indented one value per line so a changed value is a one-line diff.
func (f File) Marshal() ([]byte, error) {
	samples := make([]any, len(f.Samples))
	for i, s := range f.Samples {
		names := make([]string, 0, len(s.Values))
		for n := range s.Values {
			names = append(names, n)
		}
		slices.Sort(names)
		vals := make(canon.Object, len(names))
		for j, n := range names {
			var v any
			if p := s.Values[n]; p != nil {
				v = *p
			}
			vals[j] = canon.Field{Key: n, Value: v}
		}
		sample := canon.Object{{Key: "tick", Value: s.Tick}, {Key: "values", Value: vals}}
		if s.StateDigest != "" {
			sample = append(sample, canon.Field{Key: "state_digest", Value: s.StateDigest})
		}
		samples[i] = sample
	}
	defines, err := canonDefines(f.Defines)
	if err != nil {
		return nil, fmt.Errorf("marshal checkpoints: %w", err)
	}
	o := f.Outcome
	outcome := canon.Object{
		{Key: "beliefs", Value: o.Beliefs}, {Key: "claims", Value: o.Claims}, {Key: "events", Value: o.Events},
		{Key: "log_head", Value: o.LogHead}, {Key: "ticks", Value: o.Ticks}, {Key: "variants", Value: o.Variants},
	}
	if o.StateDigest != "" {
		outcome = append(outcome, canon.Field{Key: "state_digest", Value: o.StateDigest})
	}
	obj := canon.Object{
		{Key: "case", Value: f.Case},
		{Key: "checkpoints", Value: samples},
		{Key: "defines_hash", Value: f.DefinesHash},
		{Key: "fixture_hash", Value: f.FixtureHash},
		{Key: "outcome", Value: outcome},
		{Key: "rung", Value: f.Rung},
		{Key: "seed_id", Value: f.SeedID},
	}
	if f.Defines != nil { // nil: not recorded (a golden written before defines were)
		obj = append(obj, canon.Field{Key: "defines", Value: defines})
	}
	compact, err := canon.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("marshal checkpoints: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", "  "); err != nil {
		return nil, fmt.Errorf("indent checkpoints: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// canonDefines turns define literals back into the numbers canon writes
// them as: an integer literal stays an integer, anything else is a float
// whose repr is the literal again.
func canonDefines(d map[string]json.Number) (canon.Object, error) {
	out := make(canon.Object, 0, len(d))
	for _, name := range slices.Sorted(maps.Keys(d)) {
		n := d[name]
		var v any
		var err error
		if strings.ContainsAny(string(n), ".eE") {
			v, err = n.Float64()
		} else {
			v, err = n.Int64()
		}
		if err != nil {
			return nil, fmt.Errorf("define %s: %q is not a number", name, n)
		}
		out = append(out, canon.Field{Key: name, Value: v})
	}
	return out, nil
}

// ParseError is a malformed checkpoints file, located by 1-based line and
// column (in bytes).
type ParseError struct {
	File         string
	Line, Column int
	Err          error
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Column, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// Parse reads a checkpoints file. Unknown, misspelt (JSON keys are
// case-sensitive here) or repeated keys, wrong types, non-numbers such as
// NaN, truncation and trailing data are errors located by line and column.
func Parse(name string, data []byte) (File, error) {
	fail := func(off int64, err error) (File, error) {
		line, col := position(data, off)
		return File{}, &ParseError{File: name, Line: line, Column: col, Err: err}
	}
	// Syntax first, with the full-document scanner, whose offsets are exact
	// (the token stream's are relative to its buffer).
	var syntax any
	if err := json.Unmarshal(data, &syntax); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off := se.Offset - 1
			if se.Offset >= int64(len(data)) {
				off = int64(len(data)) // the file ends too early
			}
			if strings.Contains(se.Error(), "after top-level value") {
				err = fmt.Errorf("trailing data after the checkpoints object: %w", err)
			}
			return fail(off, err)
		}
	}
	if off, err := strict(data); err != nil {
		return fail(off, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fail(valueStart(data, te.Offset), err)
		}
		return fail(0, err)
	}
	for _, s := range f.Samples {
		// By name, so that a file with two such values names the same
		// one every time.
		for _, n := range slices.Sorted(maps.Keys(s.Values)) {
			if v := s.Values[n]; v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0)) {
				return File{}, &ParseError{File: name, Line: 1, Column: 1, Err: fmt.Errorf("checkpoint %q at tick %d is not finite", n, s.Tick)}
			}
		}
	}
	// json.Number also takes a string holding a number; a define is a
	// number, so the raw values are checked too.
	var raw struct {
		Defines map[string]json.RawMessage `json:"defines"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return fail(0, err)
	}
	for _, n := range slices.Sorted(maps.Keys(raw.Defines)) {
		if v := raw.Defines[n]; len(v) == 0 || v[0] != '-' && (v[0] < '0' || v[0] > '9') {
			return fail(int64(bytes.Index(data, v)), fmt.Errorf("define %q: %s is not a number", n, raw.Defines[n]))
		}
	}
	if _, err := canonDefines(f.Defines); err != nil {
		return File{}, &ParseError{File: name, Line: 1, Column: 1, Err: err}
	}
	return f, nil
}

// The keys each object of the file may hold, spelt exactly. Sample values
// are keyed by checkpoint name, so any key goes there (once).
var (
	rootKeys    = []string{"case", "checkpoints", "defines", "defines_hash", "fixture_hash", "outcome", "rung", "seed_id"}
	outcomeKeys = []string{"beliefs", "claims", "events", "log_head", "state_digest", "ticks", "variants"}
	sampleKeys  = []string{"state_digest", "tick", "values"}
)

// strict walks the JSON tokens before decoding, because encoding/json
// matches keys case-insensitively and keeps the last of repeated keys: a
// golden must say exactly one thing. It returns the offset of a problem.
func strict(data []byte) (int64, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var walk func(keys []string, child func(key string) []string) (int64, error)
	// The document is known to be valid JSON here; a token error can only
	// be trailing data after the object, which Parse reports itself.
	token := func() (json.Token, int64, error) {
		tok, err := dec.Token()
		return tok, dec.InputOffset(), err
	}
	// value consumes one value; objects use keys (nil: any key) and child
	// to pick the keys of nested objects.
	var value func(keys []string, child func(string) []string) (int64, error)
	value = func(keys []string, child func(string) []string) (int64, error) {
		tok, off, err := token()
		if err != nil {
			return off, err
		}
		switch tok {
		case json.Delim('{'):
			return walk(keys, child)
		case json.Delim('['):
			for dec.More() {
				if off, err := value(keys, child); err != nil {
					return off, err
				}
			}
			_, off, err := token()
			return off, err
		}
		return 0, nil
	}
	walk = func(keys []string, child func(string) []string) (int64, error) {
		seen := map[string]bool{}
		for dec.More() {
			tok, end, err := token()
			if err != nil {
				return end, err
			}
			key, _ := tok.(string)
			start := end - int64(len(key)) - 2
			switch {
			case seen[key]:
				return start, fmt.Errorf("key %q appears twice", key)
			case keys != nil && !slices.Contains(keys, key):
				return start, fmt.Errorf("unknown key %q (allowed: %s)", key, strings.Join(keys, ", "))
			}
			seen[key] = true
			var nested []string
			var grand func(string) []string
			if child != nil {
				nested, grand = child(key), childOf(key)
			}
			if off, err := value(nested, grand); err != nil {
				return off, err
			}
		}
		_, off, err := token()
		return off, err
	}
	off, err := value(rootKeys, childOf(""))
	if err != nil {
		return off, err
	}
	return 0, nil
}

// childOf returns the key set function for the objects inside key.
func childOf(key string) func(string) []string {
	switch key {
	case "":
		return func(k string) []string {
			switch k {
			case "outcome":
				return outcomeKeys
			case "checkpoints":
				return sampleKeys
			}
			return nil
		}
	case "checkpoints":
		return func(string) []string { return nil }
	}
	return nil
}

// valueStart finds where the value ending at end begins: just after the
// colon before it, past any whitespace.
func valueStart(data []byte, end int64) int64 {
	end = min(max(end, 0), int64(len(data)))
	i := bytes.LastIndexByte(data[:end], ':')
	if i < 0 {
		return end
	}
	j := int64(i + 1)
	for j < end && bytes.IndexByte([]byte(" \t\r\n"), data[j]) >= 0 {
		j++
	}
	return j
}

func position(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	prefix := data[:off]
	line = bytes.Count(prefix, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(prefix, '\n') + 1) + 1
	return line, col
}
