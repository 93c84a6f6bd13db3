package keyed_test

import (
	"testing"

	"github.com/chronicle/ladder/sim/keyed"
)

// sink keeps the compiler from discarding benchmarked rolls.
var sink keyed.Roll

// BenchmarkRoll measures one unpinned roll with two participants.
func BenchmarkRoll(b *testing.B) {
	r, err := keyed.NewRoller("bench", nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		sink = r.Roll("encounter", 12, "whiterun_market", "neighbor", "witness")
	}
}

// BenchmarkRollPinned measures one roll that a pin forces; it also pays
// for the natural value, which the roll reports for triage.
func BenchmarkRollPinned(b *testing.B) {
	r, err := keyed.NewRoller("bench", []keyed.Pin{
		{Purpose: "encounter", Tick: 12, Site: "whiterun_market", Participants: []string{"neighbor", "witness"}, Value: 0.25},
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		sink = r.Roll("encounter", 12, "whiterun_market", "neighbor", "witness")
	}
	if !sink.Pinned {
		b.Fatal("benchmarked roll was not pinned")
	}
}
