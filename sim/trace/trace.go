package trace

import (
	"fmt"

	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/events"
)

// Schema and Version identify the file format; both are in every header.
const (
	Schema  = "chronicle.trace"
	Version = 1
)

// Kind names a record kind.
type Kind string

// The record kinds of schema v1.
const (
	KindEncounter    Kind = "encounter"
	KindTransmission Kind = "transmission"
	KindRule         Kind = "rule"
	KindEvent        Kind = "event"
	KindBelief       Kind = "belief"
	KindKeyframe     Kind = "keyframe"
	KindSupersession Kind = "supersession"
)

// Kinds lists every record kind of the schema, header excluded.
func Kinds() []Kind {
	return []Kind{KindEncounter, KindTransmission, KindRule, KindEvent, KindBelief, KindKeyframe, KindSupersession}
}

// Body is a record's kind-specific content.
type Body interface {
	Kind() Kind
	// Fields returns the body's fields; the record adds branch, kind, seq
	// and tick.
	Fields() canon.Object
}

// Record is one line of the trace.
type Record struct {
	Seq  int64
	Tick int64
	Body Body
}

// Object returns the record as the canonical object written to the file.
func (r Record) Object(b events.Branch) canon.Object {
	fs := r.Body.Fields()
	out := make(canon.Object, 0, len(fs)+4)
	out = append(out, fs...)
	return append(out,
		canon.Field{Key: "branch", Value: branchObject(b)},
		canon.Field{Key: "kind", Value: string(r.Body.Kind())},
		canon.Field{Key: "seq", Value: r.Seq},
		canon.Field{Key: "tick", Value: r.Tick},
	)
}

func branchObject(b events.Branch) canon.Object {
	return canon.Object{{Key: "generation", Value: b.Generation}, {Key: "save_uuid", Value: b.SaveUUID}}
}

// Header is the first line of every trace file.
type Header struct {
	SeedID        string
	Branch        events.Branch
	KeyframeEvery int64
}

// Object returns the header line's canonical object.
func (h Header) Object() canon.Object {
	return canon.Object{
		{Key: "branch", Value: branchObject(h.Branch)},
		{Key: "keyframe_every", Value: h.KeyframeEvery},
		{Key: "kind", Value: "header"},
		{Key: "schema", Value: Schema},
		{Key: "seed_id", Value: h.SeedID},
		{Key: "version", Value: Version},
	}
}

// Sink receives every record the engine derives, in order.
type Sink interface {
	Emit(Record)
}

// Buffer is a Sink that keeps every record in memory.
type Buffer struct {
	Header  Header
	Records []Record
}

var _ Sink = (*Buffer)(nil)

// Emit appends the record.
func (b *Buffer) Emit(r Record) { b.Records = append(b.Records, r) }

// AppendJSONL appends the whole trace, header first, as JSON Lines.
func (b *Buffer) AppendJSONL(dst []byte) ([]byte, error) {
	var err error
	if dst, err = canon.AppendMarshal(dst, b.Header.Object()); err != nil {
		return nil, fmt.Errorf("trace header: %w", err)
	}
	dst = append(dst, '\n')
	for _, r := range b.Records {
		if dst, err = canon.AppendMarshal(dst, r.Object(b.Header.Branch)); err != nil {
			return nil, fmt.Errorf("trace record %d (tick %d, %s): %w", r.Seq, r.Tick, r.Body.Kind(), err)
		}
		dst = append(dst, '\n')
	}
	return dst, nil
}
