package history

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/sim/canon"
)

// File is a set's history, in its directory beside the goldens.
const File = artifact.HistoryFile

// The states an entry records: the set was written for the first time, or
// its goldens changed.
const (
	New     = "new"
	Changed = "changed"
)

// Entry is one change that a writer of goldens made to a set.
type Entry struct {
	State string // New or Changed
	// By is the writer: "accept" or "goldens".
	By string
	// Fixture is the fixture's path, FixtureHash its hash and CodeHash the
	// hash of the code that produced the goldens (pending.CodeHash), as a
	// pending change records them.
	Fixture, FixtureHash, CodeHash string
	// Reason is why the goldens moved, in the words of whoever moved
	// them: required of a changed set, optional for a new one.
	Reason string

	// The rest describes a changed set (Measure).

	// First is the change's first divergence; nil when only a file the
	// set did not have was added.
	First *First
	// Drift is the change's drift class, as the ladder names a failing
	// run's (triage): "value drift", "control-flow drift", "identity
	// drift", or "input drift" when a define, the fixture or the seed
	// moved, and Inputs says which; "" for a set without a trace (a sweep).
	Drift  string
	Inputs []string
	// Cells counts the dense cells that changed in the ticks both
	// versions have, as review counts them (a row one version lacks is
	// not a cell changed); Records the trace records changed, added,
	// removed or renamed.
	Cells, Records int
}

// First is where a change first shows: a dense cell, a trace record, a
// checkpoint, or a line of another file.
type First struct {
	Artifact string
	// Tick is -1 when the divergence is not at a tick (an outcome, a line
	// of a sweep's file, a change of a dense file's columns).
	Tick int64
	// Column is a dense column or a checkpoint's name.
	Column string
	// Line is a trace record's line (the header is line 1), or the line
	// of another file; 0 when none.
	Line int
	// Kind and Key name a trace record, Field its first field that
	// differs.
	Kind, Key, Field string
	// Before and After are the values on each side, as written.
	Before, After string
}

// Encode is the entry as a line of the history: its canonical JSON (sim/canon:
// keys sorted, no spaces) and a newline, so that there is one spelling of
// each entry, which the set's seal covers. It holds no date: nothing that
// writes a golden byte reads the clock, and the commit that carries the
// entry says when.
func (e Entry) Encode() ([]byte, error) {
	o := canon.Object{{Key: "by", Value: e.By}, {Key: "code_hash", Value: e.CodeHash}, {Key: "fixture", Value: e.Fixture},
		{Key: "fixture_hash", Value: e.FixtureHash}, {Key: "state", Value: e.State}}
	if e.Reason != "" {
		o = append(o, canon.Field{Key: "reason", Value: e.Reason})
	}
	if e.State == Changed {
		o = append(o, canon.Field{Key: "cells", Value: e.Cells}, canon.Field{Key: "records", Value: e.Records})
		if e.Drift != "" {
			o = append(o, canon.Field{Key: "drift", Value: e.Drift})
		}
		if len(e.Inputs) > 0 {
			o = append(o, canon.Field{Key: "inputs", Value: e.Inputs})
		}
		if f := e.First; f != nil {
			first := canon.Object{{Key: "artifact", Value: f.Artifact}, {Key: "before", Value: f.Before}, {Key: "after", Value: f.After}}
			for _, s := range []canon.Field{{Key: "column", Value: f.Column}, {Key: "kind", Value: f.Kind}, {Key: "key", Value: f.Key}, {Key: "field", Value: f.Field}} {
				if s.Value != "" {
					first = append(first, s)
				}
			}
			if f.Tick >= 0 {
				first = append(first, canon.Field{Key: "tick", Value: f.Tick})
			}
			if f.Line > 0 {
				first = append(first, canon.Field{Key: "line", Value: f.Line})
			}
			o = append(o, canon.Field{Key: "first", Value: first})
		}
	}
	b, err := canon.Marshal(o)
	if err != nil {
		return nil, fmt.Errorf("history entry: %w", err)
	}
	return append(b, '\n'), nil
}

// Read parses a history, oldest entry first. A line that is not an entry
// is an error naming it.
func Read(data []byte) ([]Entry, error) {
	var out []Entry
	for i, line := range bytes.SplitAfter(data, []byte("\n")) {
		if len(line) == 0 {
			break // after the final newline
		}
		e, err := parse(line)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %w", File, i+1, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// parse reads one line Encode wrote.
func parse(line []byte) (Entry, error) {
	var raw struct {
		By          string   `json:"by"`
		CodeHash    string   `json:"code_hash"`
		Fixture     string   `json:"fixture"`
		FixtureHash string   `json:"fixture_hash"`
		State       string   `json:"state"`
		Reason      string   `json:"reason"`
		Cells       int      `json:"cells"`
		Records     int      `json:"records"`
		Drift       string   `json:"drift"`
		Inputs      []string `json:"inputs"`
		First       *struct {
			Artifact string `json:"artifact"`
			Before   string `json:"before"`
			After    string `json:"after"`
			Column   string `json:"column"`
			Kind     string `json:"kind"`
			Key      string `json:"key"`
			Field    string `json:"field"`
			Tick     *int64 `json:"tick"`
			Line     int    `json:"line"`
		} `json:"first"`
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return Entry{}, fmt.Errorf("not a history entry: %w", err)
	}
	if raw.State != New && raw.State != Changed {
		return Entry{}, fmt.Errorf("not a history entry: state %q is neither %q nor %q", raw.State, New, Changed)
	}
	e := Entry{State: raw.State, By: raw.By, Fixture: raw.Fixture, FixtureHash: raw.FixtureHash, CodeHash: raw.CodeHash,
		Reason: raw.Reason, Drift: raw.Drift, Inputs: raw.Inputs, Cells: raw.Cells, Records: raw.Records}
	if f := raw.First; f != nil {
		e.First = &First{Artifact: f.Artifact, Tick: -1, Column: f.Column, Line: f.Line, Kind: f.Kind, Key: f.Key, Field: f.Field, Before: f.Before, After: f.After}
		if f.Tick != nil {
			e.First.Tick = *f.Tick
		}
	}
	return e, nil
}

// String is the entry in one line, as accept and blame print it:
//
//	changed by accept (value drift): first dense.csv at tick 14, column "maurice/theft@10/confidence": 0.54 → 0.50625; 3621 cells, 146 records changed; why: "retell decay 0.8 → 0.75"
func (e Entry) String() string {
	s := e.State + " by " + e.By
	if e.State == Changed {
		if e.Drift != "" {
			s += " (" + e.Drift
			if len(e.Inputs) > 0 {
				s += ": " + strings.Join(e.Inputs, ", ")
			}
			s += ")"
		}
		if e.First != nil {
			s += ": first " + e.First.String()
		}
		s += fmt.Sprintf("; %s, %s changed", count(e.Cells, "cell"), count(e.Records, "record"))
	}
	if e.Reason != "" {
		s += fmt.Sprintf("; why: %q", e.Reason)
	}
	return s
}

func count(n int, noun string) string {
	if n != 1 {
		noun += "s"
	}
	return fmt.Sprintf("%d %s", n, noun)
}

// String says where the divergence is and what moved.
func (f First) String() string {
	var where []string
	if f.Tick >= 0 {
		where = append(where, fmt.Sprintf("tick %d", f.Tick))
	}
	switch {
	case f.Kind != "":
		rec := fmt.Sprintf("line %d (%s", f.Line, f.Kind)
		if f.Key != "" {
			rec += " " + f.Key
		}
		where = append(where, rec+")")
	case f.Column != "":
		where = append(where, fmt.Sprintf("column %q", f.Column))
	case f.Line > 0:
		where = append(where, fmt.Sprintf("line %d", f.Line))
	}
	s := f.Artifact
	if len(where) > 0 {
		s += " at " + strings.Join(where, ", ")
	}
	if f.Field != "" {
		s += ": " + f.Field
	}
	if f.Before != "" || f.After != "" {
		if f.Field == "" {
			s += ":"
		}
		s += fmt.Sprintf(" %s → %s", f.Before, f.After)
	}
	return s
}
