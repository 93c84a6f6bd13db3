package checkpoint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

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
}

// Sample is the checkpoint values at one tick, by name. A nil value did not
// exist at that tick.
type Sample struct {
	Tick   int64               `json:"tick"`
	Values map[string]*float64 `json:"values"`
}

// File is a checkpoints.json.
type File struct {
	Rung        string   `json:"rung"`
	Case        string   `json:"case"`
	SeedID      string   `json:"seed_id"`
	DefinesHash string   `json:"defines_hash"`
	FixtureHash string   `json:"fixture_hash"`
	Outcome     Outcome  `json:"outcome"`
	Samples     []Sample `json:"checkpoints"`
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
		samples[i] = canon.Object{{Key: "tick", Value: s.Tick}, {Key: "values", Value: vals}}
	}
	o := f.Outcome
	obj := canon.Object{
		{Key: "case", Value: f.Case},
		{Key: "checkpoints", Value: samples},
		{Key: "defines_hash", Value: f.DefinesHash},
		{Key: "fixture_hash", Value: f.FixtureHash},
		{Key: "outcome", Value: canon.Object{
			{Key: "beliefs", Value: o.Beliefs}, {Key: "claims", Value: o.Claims}, {Key: "events", Value: o.Events},
			{Key: "log_head", Value: o.LogHead}, {Key: "ticks", Value: o.Ticks}, {Key: "variants", Value: o.Variants},
		}},
		{Key: "rung", Value: f.Rung},
		{Key: "seed_id", Value: f.SeedID},
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

// Parse reads a checkpoints file. Unknown fields, wrong types, non-numbers
// such as NaN and trailing data are errors with a position.
func Parse(name string, data []byte) (File, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f File
	err := dec.Decode(&f)
	if err == nil && dec.More() {
		err = errors.New("trailing data after the checkpoints object")
	}
	if err != nil {
		off := dec.InputOffset()
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			off = se.Offset
		case errors.As(err, &te):
			off = te.Offset
		}
		line, col := position(data, off)
		return File{}, &ParseError{File: name, Line: line, Column: col, Err: err}
	}
	for _, s := range f.Samples {
		for n, v := range s.Values {
			if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0)) {
				return File{}, &ParseError{File: name, Line: 1, Column: 1, Err: fmt.Errorf("checkpoint %q at tick %d is not finite", n, s.Tick)}
			}
		}
	}
	return f, nil
}

func position(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	prefix := data[:off]
	line = bytes.Count(prefix, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(prefix, '\n') + 1) + 1
	return line, col
}
