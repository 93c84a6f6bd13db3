package trace_test

import (
	"testing"

	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/trace"
)

// BenchmarkAppendRecord measures the encoding of the commonest record, an
// unfired encounter of the city benchmark's shape, into a buffer with room.
func BenchmarkAppendRecord(b *testing.B) {
	enc, err := trace.NewEncoder(header)
	if err != nil {
		b.Fatal(err)
	}
	e := &trace.Encounter{Site: "bannered_mare_217", Pair: [2]string{"hulda_217", "saadia_217"}}
	e.Roll = trace.Roll{Roll: keyed.Roll{Key: keyed.Key{SeedID: "ladder-T2.1", Purpose: "encounter", Tick: 12, Site: e.Site, Participants: e.Pair[:]}, Value: 0.7293441237796957, Natural: 0.7293441237796957}, Threshold: 0.02}
	buf := make([]byte, 0, 4096)
	r := trace.Record{Seq: 123456, Tick: 12, Body: e}
	b.ReportAllocs()
	for b.Loop() {
		r.Seq++
		if buf, err = enc.AppendRecord(buf[:0], r); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}
