package sim_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/audit"
	"github.com/chronicle/ladder/sim/digest"
	"github.com/chronicle/ladder/sim/trace"
)

// auditSink counts records and hands each to the auditor: the engine with
// regime 2 watching, and no trace kept.
type auditSink struct {
	n int
	a *audit.Auditor
}

func (s *auditSink) Emit(r trace.Record) {
	s.n++
	if s.a != nil {
		s.a.Emit(r)
	}
}

// BenchmarkCityAudit runs BenchmarkCity's shape (T2.1's town copied to
// 1,000 and 10,000 NPCs, a rumour in every town, 720 ticks, the counting
// sink) with regime 2's audit after every tick: none (the engine alone),
// incremental (what the ladder runs: what each tick changed, in full at
// every keyframe) and full (every record every tick). It reports the
// audit's own time per NPC-tick and as a share of the engine's, measured
// around each Tick call, and the records the audit examined per tick.
func BenchmarkCityAudit(b *testing.B) {
	t := loadTown(b)
	for _, npcs := range []int{1_000, 10_000} {
		for _, mode := range []string{"none", "incremental", "full"} {
			b.Run(fmt.Sprintf("npcs=%d/audit=%s", npcs, mode), func(b *testing.B) {
				cfg := t.city(npcs, true)
				var auditing time.Duration
				var examined int64
				for b.Loop() {
					sink := &auditSink{}
					cfg.Sink = sink
					w, err := sim.New(cfg)
					if err != nil {
						b.Fatal(err)
					}
					switch mode {
					case "incremental":
						sink.a = audit.New(w, audit.Options{})
					case "full":
						sink.a = audit.New(w, audit.Options{FullEvery: 1})
					}
					for range cityTicks {
						if err := w.Step(); err != nil {
							b.Fatal(err)
						}
						if sink.a == nil {
							continue
						}
						start := time.Now()
						rep, err := sink.a.Tick()
						auditing += time.Since(start)
						if err != nil || len(rep.Findings) > 0 {
							b.Fatalf("audit at tick %d: %v %v", w.Now(), err, rep.Findings)
						}
					}
					if sink.a != nil {
						for _, e := range sink.a.Examined() {
							examined += e.Records
						}
					}
				}
				npcTicks := float64(npcs*cityTicks) * float64(b.N)
				engine := float64((b.Elapsed() - auditing).Nanoseconds())
				b.ReportMetric(engine/npcTicks, "engine-ns/NPC-tick")
				b.ReportMetric(float64(auditing.Nanoseconds())/npcTicks, "audit-ns/NPC-tick")
				b.ReportMetric(100*float64(auditing.Nanoseconds())/engine, "audit-%-of-engine")
				b.ReportMetric(float64(examined)/float64(cityTicks*b.N), "examined/tick")
			})
		}
	}
}

// BenchmarkCityDigest measures one state digest of the city after 30 days
// (1,000 and 10,000 NPCs, a rumour in every town): what a checkpoint
// sample costs.
func BenchmarkCityDigest(b *testing.B) {
	t := loadTown(b)
	for _, npcs := range []int{1_000, 10_000} {
		b.Run(fmt.Sprintf("npcs=%d", npcs), func(b *testing.B) {
			cfg := t.city(npcs, true)
			cfg.Sink = &countSink{}
			w, err := sim.New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			for range cityTicks {
				if err := w.Step(); err != nil {
					b.Fatal(err)
				}
			}
			text, err := digest.Canonical(w)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := digest.Of(w); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
