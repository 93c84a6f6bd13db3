package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/chronicle/ladder/sim/canon"
)

// JSON lines. A log is exported as events.jsonl: one record per line, in
// sequence order, each line the canonical JSON (package canon: sorted
// keys, no white space) of
//
//	{"branch":{"generation":0,"save_uuid":"…"},
//	 "event":{"attrs":{"actor":"thief",…},"id":"theft@2","kind":"theft","tick":2,"witnesses":["guard"]},
//	 "hash":"…","prev":"…","seq":0}
//
// (wrapped here; a record is one line). Every field of the Record is
// there, so a reader can check the chain with Verify and compare each
// record with a replay. A line has exactly one spelling: ParseJSON
// accepts only the bytes AppendJSON writes for the record it holds.

// recordObject is r's canonical JSON object.
func recordObject(r Record) canon.Object {
	attrs := r.Event.Attrs
	if attrs == nil {
		attrs = map[string]string{}
	}
	witnesses := r.Event.Witnesses
	if witnesses == nil {
		witnesses = []string{}
	}
	return canon.Object{
		{Key: "branch", Value: canon.Object{{Key: "generation", Value: r.Branch.Generation}, {Key: "save_uuid", Value: r.Branch.SaveUUID}}},
		{Key: "event", Value: canon.Object{
			{Key: "attrs", Value: attrs}, {Key: "id", Value: r.Event.ID}, {Key: "kind", Value: r.Event.Kind},
			{Key: "tick", Value: r.Event.Tick}, {Key: "witnesses", Value: witnesses},
		}},
		{Key: "hash", Value: r.Hash},
		{Key: "prev", Value: r.Prev},
		{Key: "seq", Value: r.Seq},
	}
}

// AppendJSON appends r's line, without its newline. It fails only for a
// string that is not valid UTF-8, which no line can hold.
func AppendJSON(dst []byte, r Record) ([]byte, error) {
	out, err := canon.AppendMarshal(dst, recordObject(r))
	if err != nil {
		return dst, fmt.Errorf("events: record seq %d (%s): %w", r.Seq, r.Event.ID, err)
	}
	return out, nil
}

// jsonRecord is a line as encoding/json reads it; pointers tell a missing
// field from a zero one.
type jsonRecord struct {
	Branch *struct {
		Generation *int64  `json:"generation"`
		SaveUUID   *string `json:"save_uuid"`
	} `json:"branch"`
	Event *struct {
		Attrs     map[string]string `json:"attrs"`
		ID        *string           `json:"id"`
		Kind      *string           `json:"kind"`
		Tick      *int64            `json:"tick"`
		Witnesses []string          `json:"witnesses"`
	} `json:"event"`
	Hash *string `json:"hash"`
	Prev *string `json:"prev"`
	Seq  *int64  `json:"seq"`
}

// ErrNotCanonical is the cause ParseJSON gives for a line that holds a
// record but is not the one spelling AppendJSON gives it: a key in another
// case or order, white space, a repeated key, an escaped letter.
var ErrNotCanonical = errors.New("not the canonical spelling of its record")

// ParseJSON reads one line (without its newline). It returns an error for
// anything but a line AppendJSON wrote: malformed JSON, a missing,
// unknown or mistyped field, or a line that is not the canonical spelling
// of the record it holds (ErrNotCanonical, with the byte column, counted
// from 1, where the spellings part). So a changed byte is never read as
// the same record: it either fails here or changes the record.
func ParseJSON(line []byte) (Record, error) {
	var j jsonRecord
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return Record{}, fmt.Errorf("events: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Record{}, errors.New("events: data after the record")
	}
	switch {
	case j.Branch == nil || j.Branch.Generation == nil || j.Branch.SaveUUID == nil:
		return Record{}, errors.New("events: no branch, or a branch without generation and save_uuid")
	case j.Event == nil || j.Event.ID == nil || j.Event.Kind == nil || j.Event.Tick == nil || j.Event.Attrs == nil || j.Event.Witnesses == nil:
		return Record{}, errors.New("events: no event, or an event without attrs, id, kind, tick and witnesses")
	case j.Hash == nil || j.Prev == nil || j.Seq == nil:
		return Record{}, errors.New("events: no hash, prev or seq")
	}
	r := Record{
		Seq:    *j.Seq,
		Branch: Branch{SaveUUID: *j.Branch.SaveUUID, Generation: *j.Branch.Generation},
		Event:  Event{ID: *j.Event.ID, Kind: *j.Event.Kind, Tick: *j.Event.Tick, Attrs: j.Event.Attrs, Witnesses: j.Event.Witnesses},
		Prev:   *j.Prev,
		Hash:   *j.Hash,
	}
	if len(r.Event.Attrs) == 0 {
		r.Event.Attrs = nil
	}
	if len(r.Event.Witnesses) == 0 {
		r.Event.Witnesses = nil
	}
	canonical, err := AppendJSON(nil, r)
	if err != nil {
		return Record{}, err
	}
	if !bytes.Equal(canonical, line) {
		return Record{}, fmt.Errorf("events: column %d: %w", firstDifference(canonical, line)+1, ErrNotCanonical)
	}
	return r, nil
}

// firstDifference returns the index of the first byte where a and b part.
func firstDifference(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// Writer streams a log to an io.Writer as JSON lines while the log grows:
// each Follow writes the records appended since the previous one, so the
// file is written as the run goes and is whole after the last Follow.
type Writer struct {
	w       io.Writer
	written int
	buf     []byte
}

// NewWriter returns a Writer that has written nothing yet.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Follow writes the records of l beyond those already written, one line
// each, in one write. l must be the log the Writer has been following.
func (w *Writer) Follow(l *Log) error {
	if l.Len() < w.written {
		return fmt.Errorf("events: the log has %d records, fewer than the %d already written", l.Len(), w.written)
	}
	if l.Len() == w.written {
		return nil
	}
	w.buf = w.buf[:0]
	for _, r := range l.records[w.written:] {
		var err error
		if w.buf, err = AppendJSON(w.buf, r); err != nil {
			return err
		}
		w.buf = append(w.buf, '\n')
	}
	if _, err := w.w.Write(w.buf); err != nil {
		return fmt.Errorf("events: write records from seq %d: %w", w.written, err)
	}
	w.written = l.Len()
	return nil
}

// Written returns how many records have been written.
func (w *Writer) Written() int { return w.written }
