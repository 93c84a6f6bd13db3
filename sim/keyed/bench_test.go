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

// BenchmarkFill measures the engine's roll: a key built over the caller's
// participants and rolled in place. At one site in one tick every pair's
// encoding starts with the same 64 bytes, and the Roller digests them
// once (shared); a new tick digests them again (new).
func BenchmarkFill(b *testing.B) {
	for _, shared := range []bool{true, false} {
		name := "first-block=new"
		if shared {
			name = "first-block=shared"
		}
		b.Run(name, func(b *testing.B) {
			r, err := keyed.NewRoller("ladder-T2.1", nil)
			if err != nil {
				b.Fatal(err)
			}
			pair := []string{"hulda_217", "saadia_217"}
			roll := keyed.Roll{Key: r.Key("encounter", 12, "bannered_mare_217", pair)}
			names := []string{"saadia_217", "mikael_217", "jon_217", "olfina_217"}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if shared {
					pair[1] = names[i%len(names)]
				} else {
					roll.Key.Tick++
				}
				r.Fill(&roll)
			}
			sink = roll
		})
	}
}

// BenchmarkValue measures a bare roll of the same key shape: the encoding
// and SHA-256 from scratch, the unit BenchmarkCity's x-roll divides by.
func BenchmarkValue(b *testing.B) {
	k := keyed.Key{SeedID: "ladder-T2.1", Purpose: "encounter", Tick: 12, Site: "bannered_mare_217", Participants: []string{"hulda_217", "saadia_217"}}
	var sum float64
	for b.Loop() {
		k.Tick++
		sum += keyed.Value(k)
	}
	sink.Value = sum
}
