// Package benchmeter holds the yardsticks the city benchmarks share —
// sim's BenchmarkCity and the ladder's BenchmarkCityRun — so that their
// x-roll, peak heap and CPU figures mean the same thing in both and can be
// set side by side in docs/performance.md. Test packages cannot import one
// another, so the yardsticks live here; nothing else uses them.
package benchmeter

import (
	"runtime/metrics"
	"slices"
	"syscall"
	"time"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/keyed"
)

// BareRoller times keyed rolls of the city's encounter key shape —
// encoding and SHA-256, nothing else — in small batches taken beside the
// run, so that they run under the same load as it does. A run's cost per
// record divided by the median batch is its x-roll, which makes the
// figure comparable across machines.
type BareRoller struct {
	key     keyed.Key
	batches []float64
	sum     float64
}

// NewBareRoller rolls the key shape of the city's encounters for seedID.
func NewBareRoller(seedID string) *BareRoller {
	return &BareRoller{key: keyed.Key{SeedID: seedID, Purpose: sim.PurposeEncounter, Site: "bannered_mare_217", Participants: []string{"hulda_217", "saadia_217"}}}
}

// Batch times one batch of 256 rolls.
func (r *BareRoller) Batch() {
	const n = 256
	start := time.Now()
	for range n {
		r.key.Tick++
		r.sum += keyed.Value(r.key)
	}
	r.batches = append(r.batches, float64(time.Since(start).Nanoseconds())/n)
}

// Median is the median batch's nanoseconds per roll.
func (r *BareRoller) Median() float64 {
	slices.Sort(r.batches)
	return r.batches[len(r.batches)/2]
}

// HeapPeak samples the bytes of live and not-yet-swept heap objects and
// keeps the most it saw (Peak): what issue 23's "peak heap" means. That
// figure sits near the collector's goal, about twice the live heap, and
// how far past the goal it runs depends on how much the run allocates
// while the collector marks, so it moves with the host's speed. Beside it
// HeapPeak keeps the largest live heap a collection found (Live: the
// bytes the last mark kept), which hardly moves with the host's speed: a
// change meant to cut the peak should show as a cut in Live or in the
// bytes allocated (Allocated), or it is noise.
type HeapPeak struct {
	s    []metrics.Sample
	Peak uint64
	Live uint64
}

func NewHeapPeak() *HeapPeak {
	return &HeapPeak{s: []metrics.Sample{
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/gc/heap/live:bytes"},
	}}
}

// Sample reads the heap once.
func (h *HeapPeak) Sample() {
	metrics.Read(h.s)
	h.Peak = max(h.Peak, h.s[0].Value.Uint64())
	h.Live = max(h.Live, h.s[1].Value.Uint64())
}

// Allocated returns the bytes this process has allocated on the heap so
// far; the difference across a run is the run's allocation, garbage and
// all, which sets how often the collector runs.
func Allocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// CPUTime returns the CPU time this process has used, every thread
// counted (the garbage collector's included). On a machine shared with
// other work a run's wall time stretches with the load; its CPU time
// hardly does.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
