package sim_test

import (
	"runtime"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
)

// The engine builds its trace in reused storage (trace.Sink); this spec
// keeps it that way, in the city BenchmarkCity measures, small enough for
// every `make unit`.
var _ = Describe("Allocation", func() {
	It("stays far below one object per trace record in a city of 250 with a rumour in every town", func() {
		cfg := loadTown(GinkgoT()).city(250, true)
		sink := &countSink{}
		cfg.Sink = sink
		w, err := sim.New(cfg)
		Expect(err).NotTo(HaveOccurred())
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.Mallocs
		for range 240 {
			Expect(w.Step()).To(Succeed())
		}
		runtime.ReadMemStats(&ms)
		Expect(sink.n).To(BeNumerically(">", 50_000), "records examined")
		perRecord := float64(ms.Mallocs-before) / float64(sink.n)
		Expect(perRecord).To(BeNumerically("<", 0.25), "%d allocations for %d records", ms.Mallocs-before, sink.n)
	})
})
