package ladder_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chronicle/ladder/internal/benchmeter"
	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/page"
	"github.com/chronicle/ladder/ladder/pageinput"
	"github.com/chronicle/ladder/ladder/rerun"
	"github.com/chronicle/ladder/ladder/sweep"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/audit"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/trace"
)

// countSink receives every trace record the engine builds — the trace is
// always on — and keeps only a count, so a benchmark measures the engine
// and the records it derives, not the memory to hold them.
type countSink struct{ n int }

func (c *countSink) Emit(trace.Record) { c.n++ }

// scaled returns T2.1's world with its cast copied k times. In "towns"
// mode every copy gets its own copy of the locations (k towns side by
// side, groups as large as T2.1's); in "crowded" mode all copies share
// T2.1's locations (one town k times as crowded, so co-present pairs grow
// with k²). The theft and its witnesses stay in copy 0.
func scaled(b *testing.B, k int, towns bool) sim.Config {
	b.Helper()
	fs, err := fixture.Load(filepath.Join(root, "fixtures", "T2.1-spread.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	f := fs[0]
	rename := func(id string, copy int) string {
		if copy == 0 {
			return id
		}
		return id + "_" + strconv.Itoa(copy)
	}
	place := func(loc string, copy int) string {
		if towns {
			return rename(loc, copy)
		}
		return loc
	}
	var locations []sim.Location
	var cast []sim.NPC
	for c := range k {
		if towns || c == 0 {
			for _, l := range f.Locations {
				locations = append(locations, sim.Location{ID: place(l.ID, c), Hold: l.Hold})
			}
		}
		for _, n := range f.Cast {
			s := schedule.Schedule{Home: place(n.Schedule.Home, c)}
			for _, blk := range n.Schedule.Blocks {
				blk.At = place(blk.At, c)
				s.Blocks = append(s.Blocks, blk)
			}
			cast = append(cast, sim.NPC{ID: rename(n.ID, c), Schedule: s, Faction: n.Faction})
		}
	}
	set, err := rules.NewSet(f.Disabled)
	if err != nil {
		b.Fatal(err)
	}
	return sim.Config{
		SeedID: f.SeedID, Branch: f.Branch, Defines: f.Defines, Rules: set,
		Locations: locations, Cast: cast, Injections: f.Injections, Items: f.Items,
	}
}

// BenchmarkEngine runs T2.1's first two days at 1×, 10× and 100× its cast
// and reports ns per NPC-tick alongside the usual per-run figures.
func BenchmarkEngine(b *testing.B) {
	const ticks = 48
	for _, mode := range []struct {
		name  string
		towns bool
		ks    []int
	}{
		{"towns", true, []int{1, 10, 100}},
		// Crowding is quadratic by construction — everyone present meets
		// everyone, so the work per NPC grows with the crowd — and 100×
		// crowded would take minutes a run; 30× shows the trend.
		{"crowded", false, []int{1, 10, 30}},
	} {
		for _, k := range mode.ks {
			b.Run(fmt.Sprintf("%s/cast=%dx", mode.name, k), func(b *testing.B) {
				cfg := scaled(b, k, mode.towns)
				npcs := len(cfg.Cast)
				var records int
				b.ReportAllocs()
				for b.Loop() {
					sink := &countSink{}
					cfg.Sink = sink
					w, err := sim.New(cfg)
					if err != nil {
						b.Fatal(err)
					}
					for range ticks {
						if err := w.Step(); err != nil {
							b.Fatal(err)
						}
					}
					records = sink.n
				}
				perRun := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
				b.ReportMetric(perRun/float64(npcs*ticks), "ns/NPC-tick")
				b.ReportMetric(float64(records)/float64(npcs*ticks), "records/NPC-tick")
			})
		}
	}
}

// BenchmarkRungAudit runs whole rungs as the ladder does but without
// artifacts: the engine alone (audit=none), with regime 2 as the ladder
// runs it (incremental, a full audit at keyframes and the end) and with a
// full audit every tick. T2.1 is the town of the city benchmark; T5.3
// has every Tier 5 invariant in play. The difference between the rows is
// the audit's cost.
func BenchmarkRungAudit(b *testing.B) {
	for _, rung := range []string{"T2.1-spread.yaml", "T5.3-no-orphans.yaml"} {
		fs, err := fixture.Load(filepath.Join(root, "fixtures", rung))
		if err != nil {
			b.Fatal(err)
		}
		f := fs[0]
		b.Run(f.Rung+"/audit=none", func(b *testing.B) {
			for b.Loop() {
				w, err := ladder.Build(f, &countSink{})
				if err != nil {
					b.Fatal(err)
				}
				for range f.Ticks {
					if err := w.Step(); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		for _, mode := range []struct {
			name string
			opt  audit.Options
		}{{"incremental", audit.Options{}}, {"full", audit.Options{FullEvery: 1}}} {
			b.Run(f.Rung+"/audit="+mode.name, func(b *testing.B) {
				for b.Loop() {
					if _, fs, err := rerun.AuditRun(f, mode.opt); err != nil || len(fs) > 0 {
						b.Fatal(err, fs)
					}
				}
			})
		}
	}
}

// BenchmarkPageStep is the triage page's step for a city-sized rung: T2.1's
// town copied into 40 towns (1,000 NPCs, sweep.Towns) run for 720 ticks
// as an ordinary rung, then its page built from what the run wrote
// (report.PageInputs' path: pageinput.ReportedPageInputs, page.Page,
// page.Write). It reports the run's and the page step's wall time, the
// page step as a share of the run (docs/performance.md holds it to at most
// half) in wall time and in CPU time (which other work on a shared machine
// disturbs far less), and the sizes of the trace and of the page.
//
//	go test -run '^$' -bench BenchmarkPageStep -benchtime 1x -count 5 ./ladder/
func BenchmarkPageStep(b *testing.B) {
	fs, err := fixture.Load(filepath.Join(root, "fixtures", "T2.1-spread.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	f := *fs[0]
	cfg, err := sweep.Towns(sim.Config{Locations: f.Locations, Cast: f.Cast, Injections: f.Injections}, 40)
	if err != nil {
		b.Fatal(err)
	}
	f.Rung, f.Slug = "T2.9", "city"
	f.Locations, f.Cast, f.Injections = cfg.Locations, cfg.Cast, cfg.Injections
	f.InjectionPos = make([]fixture.Pos, len(f.Injections))
	f.Ticks, f.Expect, f.Checkpoints = 720, nil, fixture.Checkpoints{}
	var run, step, runCPU, stepCPU time.Duration
	var pageBytes, traceBytes int64
	for b.Loop() {
		reports := b.TempDir()
		start, cpu := time.Now(), benchmeter.CPUTime()
		res, err := ladder.Run(&f, ladder.Options{Dir: filepath.Join(reports, f.Name())})
		if err != nil {
			b.Fatal(err)
		}
		run, runCPU = run+time.Since(start), runCPU+benchmeter.CPUTime()-cpu
		start, cpu = time.Now(), benchmeter.CPUTime()
		html, err := page.Page(pageinput.ReportedPageInputs(root, reports, &f, nil), page.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := page.Write(filepath.Join(reports, "index.html"), html); err != nil {
			b.Fatal(err)
		}
		step, stepCPU = step+time.Since(start), stepCPU+benchmeter.CPUTime()-cpu
		fi, err := os.Stat(res.Path(artifact.TraceFile))
		if err != nil {
			b.Fatal(err)
		}
		pageBytes, traceBytes = int64(len(html)), fi.Size()
	}
	b.ReportMetric(run.Seconds()/float64(b.N), "run-s")
	b.ReportMetric(step.Seconds()/float64(b.N), "page-s")
	b.ReportMetric(step.Seconds()/run.Seconds(), "page/run")
	b.ReportMetric(stepCPU.Seconds()/runCPU.Seconds(), "cpu-page/run")
	b.ReportMetric(float64(pageBytes)/(1<<20), "page-MB")
	b.ReportMetric(float64(traceBytes)/(1<<20), "trace-MB")
}
