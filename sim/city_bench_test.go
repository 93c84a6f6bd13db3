package sim_test

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/internal/benchmeter"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/trace"
)

// The city benchmark runs T2.1's town copied into a city of separate towns
// for thirty game days (720 ticks) and reports what a tick costs.
//
// The town is read from fixtures/T2.1-spread.yaml with a reader that knows
// only the parts of the fixture format that rung uses — the engine's tests
// must not import the ladder — and refuses anything else, so a change to
// the rung that this reader cannot follow fails here instead of being
// silently dropped.

const cityTicks = 720

// townFile is the shape of the fixture fields the city is built from.
type townFile struct {
	Rung        string              `yaml:"rung"`
	Title       string              `yaml:"title"`
	Tier        int                 `yaml:"tier"`
	SeedID      string              `yaml:"seed_id"`
	Ticks       int64               `yaml:"ticks"`
	Summary     string              `yaml:"summary"`
	Defines     map[string]float64  `yaml:"defines"`
	Items       []string            `yaml:"items"`
	Locations   map[string]townHold `yaml:"locations"`
	Cast        map[string]townNPC  `yaml:"cast"`
	Events      []townEvent         `yaml:"events"`
	Expect      yaml.Node           `yaml:"expect"`
	Checkpoints yaml.Node           `yaml:"checkpoints"`
}

type townHold struct {
	Hold string `yaml:"hold"`
}

type townNPC struct {
	Home     string      `yaml:"home"`
	Schedule []townBlock `yaml:"schedule"`
}

type townBlock struct {
	At    string `yaml:"at"`
	From  int64  `yaml:"from"`
	To    int64  `yaml:"to"`
	Daily bool   `yaml:"daily"`
}

type townEvent struct {
	Tick      int64    `yaml:"tick"`
	Kind      string   `yaml:"kind"`
	Actor     string   `yaml:"actor"`
	Victim    string   `yaml:"victim"`
	Item      string   `yaml:"item"`
	At        string   `yaml:"at"`
	Witnesses []string `yaml:"witnesses"`
}

// town is T2.1's world as sim values, in sorted id order.
type town struct {
	seedID    string
	defines   rules.Defines
	items     []string
	locations []sim.Location
	cast      []sim.NPC
	theft     sim.Injection
}

// fatal is what loading the town needs of a benchmark or a spec
// (*testing.B, GinkgoT()).
type fatal interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

func loadTown(b fatal) town {
	b.Helper()
	f, err := os.Open(filepath.Join("..", "fixtures", "T2.1-spread.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	dec := yaml.NewDecoder(f)
	dec.KnownFields(true)
	var tf townFile
	if err := dec.Decode(&tf); err != nil {
		b.Fatalf("T2.1 as a city template: %v", err)
	}
	d := rules.Default()
	for _, name := range slices.Sorted(maps.Keys(tf.Defines)) {
		field, ok := rules.Lookup(name)
		if !ok || field.Kind != rules.FloatDefine {
			b.Fatalf("T2.1 as a city template: define %q is not a float define", name)
		}
		if err := d.SetFloat(name, tf.Defines[name]); err != nil {
			b.Fatal(err)
		}
	}
	t := town{seedID: tf.SeedID, defines: d, items: tf.Items}
	for _, id := range slices.Sorted(maps.Keys(tf.Locations)) {
		t.locations = append(t.locations, sim.Location{ID: id, Hold: tf.Locations[id].Hold})
	}
	for _, id := range slices.Sorted(maps.Keys(tf.Cast)) {
		n := tf.Cast[id]
		s := schedule.Schedule{Home: n.Home}
		for _, blk := range n.Schedule {
			if !blk.Daily {
				b.Fatalf("T2.1 as a city template: %s has a block that is not daily", id)
			}
			s.Blocks = append(s.Blocks, schedule.Block{At: blk.At, From: blk.From, To: blk.To, Every: d.TicksPerDay, Until: schedule.Forever})
		}
		t.cast = append(t.cast, sim.NPC{ID: id, Schedule: s})
	}
	if len(tf.Events) != 1 || tf.Events[0].Kind != sim.Theft {
		b.Fatalf("T2.1 as a city template: want one theft, have %d events", len(tf.Events))
	}
	e := tf.Events[0]
	t.theft = sim.Injection{Tick: e.Tick, Kind: sim.Theft, ID: e.Kind + "@" + strconv.FormatInt(e.Tick, 10),
		Actor: e.Actor, Victim: e.Victim, Item: e.Item, At: e.At}
	for _, w := range e.Witnesses {
		t.theft.Witnesses = append(t.theft.Witnesses, sim.Witness{NPC: w})
	}
	return t
}

// city copies the town until it has npcs NPCs: copy c suffixes every NPC,
// location and event id with _c (copy 0 keeps T2.1's own ids), so the
// towns never meet. With everyTown the theft happens in every copy (a
// rumour in every town); otherwise in copy 0 only.
func (t town) city(npcs int, everyTown bool) sim.Config {
	copies := npcs / len(t.cast)
	suffix := func(id string, c int) string {
		if c == 0 || id == "" || id == sim.Player {
			return id
		}
		return id + "_" + strconv.Itoa(c)
	}
	set, err := rules.NewSet(nil)
	if err != nil {
		panic(err)
	}
	cfg := sim.Config{SeedID: t.seedID, Branch: events.Branch{SaveUUID: "city"}, Defines: t.defines, Rules: set, Items: t.items}
	for c := range copies {
		for _, l := range t.locations {
			cfg.Locations = append(cfg.Locations, sim.Location{ID: suffix(l.ID, c), Hold: suffix(l.Hold, c)})
		}
		for _, n := range t.cast {
			s := schedule.Schedule{Home: suffix(n.Schedule.Home, c)}
			for _, blk := range n.Schedule.Blocks {
				blk.At = suffix(blk.At, c)
				s.Blocks = append(s.Blocks, blk)
			}
			cfg.Cast = append(cfg.Cast, sim.NPC{ID: suffix(n.ID, c), Schedule: s})
		}
		if c == 0 || everyTown {
			in := t.theft
			in.ID, in.Actor, in.Victim, in.At = suffix(in.ID, c), suffix(in.Actor, c), suffix(in.Victim, c), suffix(in.At, c)
			in.Witnesses = nil
			for _, w := range t.theft.Witnesses {
				in.Witnesses = append(in.Witnesses, sim.Witness{NPC: suffix(w.NPC, c)})
			}
			cfg.Injections = append(cfg.Injections, in)
		}
	}
	return cfg
}

// countSink keeps only a count: the engine builds every record (the trace
// is always on) and nothing stores it.
type countSink struct{ n int }

func (c *countSink) Emit(trace.Record) { c.n++ }

// fileSink streams every record as a JSON line to a file, or, with no
// file, encodes every line and throws it away: the streamed file without
// the filesystem's cost, which on a virtual machine can exceed the
// engine's.
type fileSink struct {
	*trace.Writer
	out *countingWriter
	f   *os.File // nil: io.Discard
}

// countingWriter counts the bytes of trace a sink writes, for
// bytes/record.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func header(cfg sim.Config) trace.Header {
	return trace.Header{SeedID: cfg.SeedID, Branch: cfg.Branch, KeyframeEvery: cfg.Defines.TicksPerDay}
}

// cityRun is one run of the city through one kind of sink.
type cityRun interface {
	trace.Sink
	records() int
	// written is how many bytes of trace the sink spelled (0: none).
	written() int64
	// finish ends the run: flushes, closes or encodes what the sink holds.
	finish(h *benchmeter.HeapPeak) error
}

func (c *countSink) records() int                        { return c.n }
func (c *countSink) written() int64                      { return 0 }
func (c *countSink) finish(h *benchmeter.HeapPeak) error { return nil }

// pipedSink is the file sink behind a trace.Pipe: each record is copied
// on the engine's goroutine and spelled and written on the pipe's, beside
// the engine.
type pipedSink struct {
	*trace.Pipe
	file *fileSink
}

func (p *pipedSink) records() int   { return p.file.records() }
func (p *pipedSink) written() int64 { return p.file.written() }
func (p *pipedSink) finish(h *benchmeter.HeapPeak) error {
	if err := p.Close(); err != nil {
		return err
	}
	return p.file.finish(h)
}

func (f *fileSink) records() int   { return int(f.Records()) }
func (f *fileSink) written() int64 { return f.out.n }
func (f *fileSink) finish(h *benchmeter.HeapPeak) error {
	if err := f.Flush(); err != nil {
		return err
	}
	if f.f == nil {
		return nil
	}
	return f.f.Close()
}

// ladderSink is the ladder's path before it streamed, kept as the
// in-memory baseline: every record kept in a trace.Buffer, then the whole
// file encoded at the end.
type ladderSink struct {
	trace.Buffer
	n int64 // the encoded file's bytes, once finished
}

func (l *ladderSink) records() int   { return len(l.Records) }
func (l *ladderSink) written() int64 { return l.n }
func (l *ladderSink) finish(h *benchmeter.HeapPeak) error {
	out, err := l.AppendJSONL(nil)
	h.Sample()
	l.n = int64(len(out))
	if len(out) == 0 {
		return fmt.Errorf("empty trace")
	}
	return err
}

// BenchmarkCity runs 1,000 and 10,000 NPCs for 720 ticks, with a rumour in
// every town and with one rumour in one town (a lower bound: most towns
// only roll encounters), through five sinks: counting; JSONL encoded and
// discarded; JSONL streamed to a file; the same file spelled and written
// on a second goroutine behind a trace.Pipe (file-pipe: on two cores, the
// spelling runs beside the engine); and the ladder's in-memory path (a
// trace.Buffer, encoded at the end).
//
// Besides the wall-clock figures it reports cpu-ns/NPC-tick and cpu-x-roll,
// the same ratios over the process's CPU time, which a busy machine
// disturbs far less, and, for the sinks that spell the trace, bytes/record
// (the trace's bytes, header included, ÷ its records), and beside the
// peak heap the largest live heap a collection found and the bytes
// allocated a run (live-heap-MB, alloc-MB/run: benchmeter.HeapPeak says
// why). The ladder's own path, ladder.Run on the same city, is
// BenchmarkCityRun in ladder/.
func BenchmarkCity(b *testing.B) {
	t := loadTown(b)
	for _, npcs := range []int{1_000, 10_000} {
		for _, every := range []bool{true, false} {
			rumours := "one"
			if every {
				rumours = "every-town"
			}
			for _, sinkName := range []string{"count", "discard", "file", "file-pipe", "ladder"} {
				b.Run(fmt.Sprintf("npcs=%d/rumours=%s/sink=%s", npcs, rumours, sinkName), func(b *testing.B) {
					if sinkName == "ladder" && npcs > 1_000 {
						b.Skip("the ladder's in-memory path holds the whole trace, and then the whole file: several GB at 10,000 NPCs")
					}
					runCity(b, t, t.city(npcs, every), sinkName)
				})
			}
		}
	}
}

func runCity(b *testing.B, t town, cfg sim.Config, sinkName string) {
	npcs := len(cfg.Cast)
	dir := b.TempDir()
	var records int
	var written int64
	var mallocs, allocated uint64
	var cpu, measuring time.Duration
	peak := benchmeter.NewHeapPeak()
	bare := benchmeter.NewBareRoller(t.seedID)
	for b.Loop() {
		var sink cityRun
		switch sinkName {
		case "count":
			sink = &countSink{}
		case "discard":
			out := &countingWriter{w: io.Discard}
			w, err := trace.NewWriter(out, header(cfg))
			if err != nil {
				b.Fatal(err)
			}
			sink = &fileSink{Writer: w, out: out}
		case "file", "file-pipe":
			f, err := os.Create(filepath.Join(dir, "trace.jsonl"))
			if err != nil {
				b.Fatal(err)
			}
			out := &countingWriter{w: f}
			w, err := trace.NewWriter(out, header(cfg))
			if err != nil {
				b.Fatal(err)
			}
			sink = &fileSink{Writer: w, out: out, f: f}
			if sinkName == "file-pipe" {
				sink = &pipedSink{Pipe: trace.NewPipe(w, w.Err), file: sink.(*fileSink)}
			}
		case "ladder":
			sink = &ladderSink{Buffer: trace.Buffer{Header: header(cfg)}}
		}
		cfg.Sink = sink
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before, cpuBefore, allocBefore := ms.Mallocs, benchmeter.CPUTime(), benchmeter.Allocated()
		w, err := sim.New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		for tick := range cityTicks {
			if err := w.Step(); err != nil {
				b.Fatal(err)
			}
			// Measuring is left out of the figures below; stopping the
			// benchmark's timer would cost two stop-the-world pauses a tick.
			start := time.Now()
			peak.Sample()
			if tick%8 == 0 {
				bare.Batch()
			}
			measuring += time.Since(start)
		}
		if err := sink.finish(peak); err != nil {
			b.Fatal(err)
		}
		cpu += benchmeter.CPUTime() - cpuBefore
		runtime.ReadMemStats(&ms)
		mallocs += ms.Mallocs - before
		allocated += benchmeter.Allocated() - allocBefore
		records += sink.records()
		written += sink.written()
	}
	npcTicks := float64(npcs*cityTicks) * float64(b.N)
	ns := float64((b.Elapsed() - measuring).Nanoseconds())
	cpuNs := float64((cpu - measuring).Nanoseconds())
	b.ReportMetric(ns/npcTicks, "ns/NPC-tick")
	b.ReportMetric(cpuNs/npcTicks, "cpu-ns/NPC-tick")
	b.ReportMetric(float64(records)/npcTicks, "records/NPC-tick")
	b.ReportMetric(float64(mallocs)/float64(records), "allocs/record")
	b.ReportMetric(float64(peak.Peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(peak.Live)/(1<<20), "live-heap-MB")
	b.ReportMetric(float64(allocated)/(1<<20)/float64(b.N), "alloc-MB/run")
	if sinkName != "count" {
		b.ReportMetric(float64(written)/float64(records), "bytes/record")
	}
	b.ReportMetric(bare.Median(), "ns/bare-roll")
	b.ReportMetric(ns/float64(records)/bare.Median(), "x-roll")
	b.ReportMetric(cpuNs/float64(records)/bare.Median(), "cpu-x-roll")
}
