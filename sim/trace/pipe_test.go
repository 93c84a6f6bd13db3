package trace_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/trace"
)

// reusing emits every record as the engine does: its body in storage
// that is overwritten (scribbled) as soon as Emit returns.
func reusing(s trace.Sink, recs []trace.Record) {
	for _, r := range recs {
		body := r.Clone().Body
		s.Emit(trace.Record{Seq: r.Seq, Tick: r.Tick, Body: body})
		scribble(body)
	}
}

// keeper keeps every record it is shown, in order, as its line (or the
// error of a record with none).
type keeper struct {
	enc   *trace.Encoder
	lines []string
}

func (k *keeper) Emit(r trace.Record) {
	line, err := k.enc.AppendRecord(nil, r)
	if err != nil {
		line = []byte(err.Error())
	}
	k.lines = append(k.lines, string(line))
}

var _ = Describe("Pipe", func() {
	records := func(n int) []trace.Record {
		g := recordGen{next: rand.New(rand.NewPCG(11, 12)).Uint64, text: []string{"market", "neighbor", "witness", "theft@2"}}
		var out []trace.Record
		for i := range n {
			k := trace.KindEncounter // mostly encounters, as in a run
			if i%5 == 0 {
				k = trace.Kinds()[i%len(trace.Kinds())]
			}
			out = append(out, trace.Record{Seq: int64(i), Tick: int64(i / 10), Body: g.body(k)})
		}
		return out
	}

	It("shows the sink behind it every record, in order, as it was when emitted, though the engine reuses its storage", func() {
		recs := records(3*trace.PipeBatch + 100) // batches in flight, and one part full at Close
		direct, piped := keeper{enc: freshEncoder()}, keeper{enc: freshEncoder()}
		reusing(&direct, recs)
		p := trace.NewPipe(&piped, nil)
		reusing(p, recs)
		Expect(p.Close()).To(Succeed())
		Expect(piped.lines).To(HaveLen(len(recs)))
		Expect(cmp.Diff(direct.lines, piped.lines)).To(BeEmpty())
	})

	It("makes a Writer behind it write the bytes the Writer writes shown the records directly", func() {
		var ok []trace.Record
		for _, r := range records(3*trace.PipeBatch + 100) {
			if _, err := oracleLine(r, header.Branch); err == nil {
				ok = append(ok, r)
			}
		}
		Expect(len(ok)).To(BeNumerically(">", 2*trace.PipeBatch))
		var want, got bytes.Buffer
		w, err := trace.NewWriter(&want, header)
		Expect(err).NotTo(HaveOccurred())
		reusing(w, ok)
		Expect(w.Flush()).To(Succeed())
		pw, err := trace.NewWriter(&got, header)
		Expect(err).NotTo(HaveOccurred())
		p := trace.NewPipe(pw, pw.Err)
		reusing(p, ok)
		Expect(p.Close()).To(Succeed())
		Expect(pw.Flush()).To(Succeed())
		Expect(bytes.Equal(want.Bytes(), got.Bytes())).To(BeTrue(), "first divergence: %v", trace.Compare(want.Bytes(), got.Bytes()))
	})

	It("reports the sink's first error, late from Err and for certain from Close, and keeps going", func() {
		var out bytes.Buffer
		w, err := trace.NewWriter(&out, header)
		Expect(err).NotTo(HaveOccurred())
		p := trace.NewPipe(w, w.Err)
		p.Emit(trace.Record{Seq: 0, Tick: 9, Body: &trace.BeliefChange{Holder: "h", Confidence: math.NaN()}})
		for i := range 3 * trace.PipeBatch { // several batches: Emit must not wait on a sink that has failed
			p.Emit(trace.Record{Seq: int64(i + 1), Tick: 9, Body: &trace.Event{ID: "y"}})
		}
		const want = "trace record 0 (tick 9, belief): canon: $.confidence: NaN is not allowed"
		Eventually(p.Err).Should(MatchError(want))
		Expect(p.Close()).To(MatchError(want))
		Expect(p.Close()).To(MatchError(want), "a second Close says the same")
		Expect(w.Records()).To(BeZero())
	})

	It("keeps a panic in the sink as its error, naming the record, and never leaves Emit waiting", func() {
		n, at := 0, trace.PipeBatch+188 // in the second batch
		p := trace.NewPipe(sinkFunc(func(r trace.Record) {
			if n++; n == at {
				panic("the sink's own bug")
			}
		}), nil)
		for i := range 5 * trace.PipeBatch {
			p.Emit(trace.Record{Seq: int64(i), Tick: int64(i / 10), Body: &trace.Event{ID: "y"}})
		}
		err := p.Close()
		Expect(err).To(MatchError(ContainSubstring(fmt.Sprintf("trace pipe: the sink panicked at record %d (tick %d): the sink's own bug", trace.PipeBatch, trace.PipeBatch/10))))
		Expect(n).To(Equal(at), "nothing after the panic reached the sink")
	})

	It("hands a keyframe over uncopied, returning from Emit once the sink has been shown it", func() {
		kf := &trace.Keyframe{NPCs: []trace.NPCState{{ID: "a"}}}
		var seen trace.Body
		p := trace.NewPipe(sinkFunc(func(r trace.Record) {
			if r.Body.Kind() == trace.KindKeyframe {
				seen = r.Body
			}
		}), nil)
		p.Emit(trace.Record{Seq: 0, Tick: 1, Body: &trace.Event{ID: "x"}})
		p.Emit(trace.Record{Seq: 1, Tick: 1, Body: kf})
		Expect(seen).To(BeIdenticalTo(kf), "shown before Emit returned, and not a copy")
		p.Emit(trace.Record{Seq: 2, Tick: 2, Body: &trace.Event{ID: "y"}})
		Expect(p.Close()).To(Succeed())
	})

	It("copies an encounter over its own pair with no allocation, once its batches are warm", func() {
		e := &trace.Encounter{Site: "market", Pair: [2]string{"a", "b"}}
		e.Roll = trace.Roll{Roll: keyed.Roll{Key: keyed.Key{SeedID: "s", Purpose: "encounter", Tick: 3, Site: "market", Participants: e.Pair[:]}, Value: 0.5, Natural: 0.5}, Threshold: 0.02}
		p := trace.NewPipe(sinkFunc(func(trace.Record) {}), nil)
		defer p.Close()
		r := trace.Record{Tick: 3, Body: e}
		for range 2 * trace.PipeBatch * trace.PipeBatches { // every batch grown to its full size
			r.Seq++
			p.Emit(r)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 20000 {
			r.Seq++
			p.Emit(r)
		}
		runtime.ReadMemStats(&after)
		Expect(after.Mallocs - before.Mallocs).To(BeZero())
	})
})

type sinkFunc func(trace.Record)

func (f sinkFunc) Emit(r trace.Record) { f(r) }
