package trace

import (
	"slices"

	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/events"
)

// Schema and the version identify the file format; both are in every
// header. Version3 is the one this package writes: it spells each fact
// once (decision 0040). Versions 1 and 2 are what files were before it;
// a reader still reads them (Facts), and ConvertV2 turns one into
// version 3. In those versions the header's version said which layers
// the world used (decision 0015: 1 the core alone, 2 the social layer
// as well); version 3 says it in the header's layers.
const (
	Schema   = "chronicle.trace"
	Version1 = 1
	Version2 = 2
	Version3 = 3
)

// The layers a version-3 header names: the core's record kinds, and the
// social layer's (grudge, obligation, reputation, schedule, role, and the
// keyframe's social sections), which a world past the core may write.
const (
	LayerCore   = "core"
	LayerSocial = "social"
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

// The record kinds schema v2 adds: the social layer's state deltas, and
// Tiers 4a and 5's changes of schedules and roles.
const (
	KindGrudge     Kind = "grudge"
	KindObligation Kind = "obligation"
	KindReputation Kind = "reputation"
	KindSchedule   Kind = "schedule"
	KindRole       Kind = "role"
)

// Kinds lists every record kind of the schema, header excluded.
func Kinds() []Kind {
	return []Kind{KindEncounter, KindTransmission, KindRule, KindEvent, KindBelief, KindKeyframe, KindSupersession,
		KindGrudge, KindObligation, KindReputation, KindSchedule, KindRole, KindVariant}
}

// Evaluations lists the record kinds that record one decision of the rule
// their rule field names: a rule evaluation, fired or not, and a
// transmission, told or declined. The other kinds that name a rule (a
// grudge, an event it derived…) only follow one of these, so the records
// of these kinds that name a rule are the trace's account of every time
// the engine evaluated it.
func Evaluations() []Kind { return []Kind{KindRule, KindTransmission} }

// Body is a record's kind-specific content: one of this package's record
// types (Encounter, Transmission, …), as a value or a pointer. Only this
// package defines kinds, because each kind's encoder is part of the frozen
// file format.
type Body interface {
	Kind() Kind
	// Clone returns a pointer to a deep copy of the body, for a sink that
	// keeps records: the engine reuses a record's storage once Emit
	// returns.
	Clone() Body
	// encode writes the record's canonical JSON object, envelope fields
	// included, in sorted key order.
	encode(l *line)
}

// Record is one line of the trace.
type Record struct {
	Seq  int64
	Tick int64
	Body Body
}

// Clone returns a copy of r that its holder may keep (see Sink).
func (r Record) Clone() Record {
	r.Body = r.Body.Clone()
	return r
}

// Header is the first line of every trace file.
type Header struct {
	SeedID        string
	Branch        events.Branch
	KeyframeEvery int64
	// Social is set for a world that uses a layer past the core: its file
	// may hold the social layer's kinds and keyframe sections, and its
	// header's layers name the social layer.
	Social bool
}

// Layers returns the layers the header names: the core, and the social
// layer when the world uses it.
func (h Header) Layers() []string {
	if h.Social {
		return []string{LayerCore, LayerSocial}
	}
	return []string{LayerCore}
}

// Object returns the header line's canonical object. The run's one
// branch is the first (index 0) of the header's branches, which every
// record names by its index.
func (h Header) Object() canon.Object {
	return canon.Object{
		{Key: "branches", Value: []canon.Object{branchObject(h.Branch)}},
		{Key: "keyframe_every", Value: h.KeyframeEvery},
		{Key: "kind", Value: "header"},
		{Key: "layers", Value: h.Layers()},
		{Key: "schema", Value: Schema},
		{Key: "seed_id", Value: h.SeedID},
		{Key: "version", Value: Version3},
	}
}

func branchObject(b events.Branch) canon.Object {
	return canon.Object{{Key: "generation", Value: b.Generation}, {Key: "save_uuid", Value: b.SaveUUID}}
}

// Sink receives every record the engine derives, in order.
//
// The engine builds a record in storage it reuses: a record, its body and
// anything the body points to are valid only until Emit returns. A sink
// that keeps a record keeps r.Clone(); a sink that encodes or counts
// records needs no copy, which is what makes a trace cost no allocation
// per record.
type Sink interface {
	Emit(r Record)
}

// Discard is the Sink of a world whose trace nobody reads.
var Discard Sink = discard{}

type discard struct{}

func (discard) Emit(Record) {}

// Buffer is a Sink that keeps every record in memory, for specs and tools
// that look at records as values, and for runs short enough to hold.
type Buffer struct {
	Header  Header
	Records []Record
}

var _ Sink = (*Buffer)(nil)

// Emit keeps a copy of the record.
func (b *Buffer) Emit(r Record) { b.Records = append(b.Records, r.Clone()) }

// AppendJSONL appends the whole trace, header first, as JSON Lines. On
// error it returns nil and the error of the first record (or the header)
// that has no canonical spelling.
//
// It encodes every record twice: once to measure the file, then into a
// buffer grown once to that size. Encoding is cheap next to growing a
// buffer of hundreds of megabytes by doubling, which copies and clears
// it again at every step.
func (b *Buffer) AppendJSONL(dst []byte) ([]byte, error) {
	enc, err := NewEncoder(b.Header)
	if err != nil {
		return nil, err
	}
	size := len(enc.AppendHeader(nil))
	var line []byte
	for _, r := range b.Records {
		if line, err = enc.AppendRecord(line[:0], r); err != nil {
			return nil, err
		}
		size += len(line)
	}
	dst = enc.AppendHeader(slices.Grow(dst, size))
	for _, r := range b.Records {
		dst, _ = enc.AppendRecord(dst, r) // encoded without error above
	}
	return dst, nil
}
