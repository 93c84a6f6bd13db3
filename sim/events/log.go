package events

import (
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
)

// ErrEmptyID is the cause Append reports for an event without an id.
var ErrEmptyID = errors.New("event id is empty")

// ErrEmptyKind is the cause Append reports for an event without a kind.
var ErrEmptyKind = errors.New("event kind is empty")

// ErrDuplicateID is the cause Append reports for an id already in the log.
var ErrDuplicateID = errors.New("event id already in the log")

// ErrTickBackwards is the cause Append reports for an event whose tick is
// earlier than the previous record's.
var ErrTickBackwards = errors.New("event tick is earlier than the previous record's")

// Branch is the timeline branch key every record carries: SaveUUID names
// the save a timeline grew from and Generation tells apart the timelines
// grown from that save.
type Branch struct {
	SaveUUID   string
	Generation int64
}

// Event is something that happened in the world.
type Event struct {
	ID        string            // unique in the log, e.g. "theft@2"
	Kind      string            // "theft", "kill", "death", ...
	Tick      int64             // when it happened; never earlier than the previous event's
	Attrs     map[string]string // actor, victim, item, location, cause, ...; hashed in sorted key order
	Witnesses []string          // order preserved as given
}

// Record is an event as the log stored it: its position, its branch and its
// link in the hash chain. Prev and Hash are 64 lowercase hex digits.
type Record struct {
	Seq    int64  // position in the log, counting from 0
	Branch Branch // the log's branch
	Event  Event
	Prev   string // Hash of the record before; 64 zeros for the first
	Hash   string // SHA-256 of this record's encoding, which includes Prev
}

// Log is an append-only, hash-chained log of one branch's canonical events.
// It is not safe for concurrent use.
type Log struct {
	branch  Branch
	records []Record
	byID    map[string]int // event id to index in records; looked up, never ranged over
	head    [hashSize]byte // raw digest of the last record, zero when empty
}

// NewLog returns an empty log whose records will all carry b.
func NewLog(b Branch) *Log {
	return &Log{branch: b, byID: make(map[string]int)}
}

// Append adds e as the next record and returns a copy of that record. It
// rejects an empty id or kind, an id already in the log and a tick earlier
// than the previous record's (equal ticks are fine) with an error that
// names the event and wraps ErrEmptyID, ErrEmptyKind, ErrDuplicateID or
// ErrTickBackwards. The log keeps its own copy of e's attributes and
// witnesses.
func (l *Log) Append(e Event) (Record, error) {
	if err := l.check(e); err != nil {
		return Record{}, fmt.Errorf("events: append %q at tick %d: %w", e.ID, e.Tick, err)
	}
	r := Record{
		Seq:    int64(len(l.records)),
		Branch: l.branch,
		Event:  cloneEvent(e),
		Prev:   hex.EncodeToString(l.head[:]),
	}
	l.head = recordDigest(r, l.head)
	r.Hash = hex.EncodeToString(l.head[:])
	l.byID[e.ID] = len(l.records)
	l.records = append(l.records, r)
	return cloneRecord(r), nil
}

// check reports why e cannot be appended, or nil.
func (l *Log) check(e Event) error {
	switch {
	case e.ID == "":
		return ErrEmptyID
	case e.Kind == "":
		return ErrEmptyKind
	}
	if i, dup := l.byID[e.ID]; dup {
		return fmt.Errorf("%w at seq %d", ErrDuplicateID, i)
	}
	if n := len(l.records); n > 0 {
		if last := l.records[n-1].Event.Tick; e.Tick < last {
			return fmt.Errorf("%w (tick %d)", ErrTickBackwards, last)
		}
	}
	return nil
}

// Records returns a copy of every record in append order. Changing the copy
// does not change the log.
func (l *Log) Records() []Record {
	out := make([]Record, len(l.records))
	for i, r := range l.records {
		out[i] = cloneRecord(r)
	}
	return out
}

// Since returns a copy of the records from index n on, in append order:
// what an observer that has seen n records has not seen yet. It is nil
// when n is at least Len.
func (l *Log) Since(n int) []Record {
	if n < 0 {
		n = 0
	}
	if n >= len(l.records) {
		return nil
	}
	out := make([]Record, len(l.records)-n)
	for i, r := range l.records[n:] {
		out[i] = cloneRecord(r)
	}
	return out
}

// Lookup returns a copy of the record of the event with the given id.
func (l *Log) Lookup(id string) (Record, bool) {
	i, ok := l.byID[id]
	if !ok {
		return Record{}, false
	}
	return cloneRecord(l.records[i]), true
}

// Head returns the hash of the last record, or 64 zeros when the log is
// empty. Keeping the head elsewhere is what lets a reader notice a log that
// was cut short, which Verify alone cannot.
func (l *Log) Head() string {
	return hex.EncodeToString(l.head[:])
}

// Len returns the number of records.
func (l *Log) Len() int { return len(l.records) }

// cloneRecord copies r deeply enough that no map or slice is shared.
func cloneRecord(r Record) Record {
	r.Event = cloneEvent(r.Event)
	return r
}

// cloneEvent copies e's attributes and witnesses.
func cloneEvent(e Event) Event {
	e.Attrs = maps.Clone(e.Attrs)
	e.Witnesses = slices.Clone(e.Witnesses)
	return e
}
