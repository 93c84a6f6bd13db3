package page_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/page"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/trace"
)

// longDense is a run of n ticks: a at the market, b moving every tick
// from 40 on, and theft@1's believers 1 except a spike to 3 at tick 57.
func longDense(n int) string {
	var b strings.Builder
	b.WriteString("tick,a/alive,a/at,b/alive,b/at,theft@1/believers,theft@1/variants,a/theft@1/variant,a/theft@1/confidence,a/theft@1/verbatim,a/theft@1/gist,a/theft@1/stage,a/theft@1/sources\n")
	for t := range n {
		at, believers := "home", 1
		if t >= 40 {
			at = fmt.Sprintf("road%d", t%2)
		}
		if t == 57 {
			believers = 3
		}
		fmt.Fprintf(&b, "%d,True,market,True,%s,%d,1,theft@1#v0,0.9,1.0,1.0,heard,1\n", t, at, believers)
	}
	return b.String()
}

// longTrace has two encounters at every tick.
func longTrace(n int) []byte {
	buf := &trace.Buffer{Header: trace.Header{SeedID: "synth", Branch: events.Branch{SaveUUID: "s"}, KeyframeEvery: 24}}
	for t := range int64(n) {
		for _, v := range []float64{0.25, 0.75} {
			buf.Emit(trace.Record{Seq: int64(len(buf.Records)), Tick: t, Body: trace.Encounter{Site: "market", Pair: [2]string{"a", "b"}, Roll: roll(t, v), Fired: v < 0.5}})
		}
	}
	out, err := buf.AppendJSONL(nil)
	Expect(err).NotTo(HaveOccurred())
	return out
}

var _ = Describe("a long run's section", func() {
	const n = 100
	long := func(failures ...string) page.Input {
		return page.Input{Name: "T9.9", Title: "Long", Source: "fixtures/T9.9-long.yaml:1", Failures: failures,
			Dense: page.Data(longDense(n)), Trace: page.Data(longTrace(n)), TraceFile: "reports/T9.9/trace.jsonl"}
	}
	opt := page.Options{MaxRows: 20, CurvePoints: 10, MaxRecords: 10}

	It("embeds a window of rows around the first divergence and says so", func() {
		s := build(long("T9.9 expect[0] at tick 60: want 2"), opt)
		Expect(s.Rows).To(Equal(page.Rows{First: 0, Last: 99, N: 100, From: 50, To: 69, Capped: true, Sample: 10}))
		Expect(s.Notes).To(ContainElement("The run has 100 rows: the belief table and the feed cover ticks 50–69; the curves cover the whole run, each point the most believers in 10 ticks."))
		b := s.Actual.NPCs[1]
		Expect(b.ID).To(Equal("b"))
		Expect(b.Changes[0]).To(Equal(page.Presence{Tick: 50, Alive: true, At: "road0"}), "the window starts with the state at its first tick")
		Expect(b.Changes).To(HaveLen(20), "b moves every tick, and only the window's moves are kept")
		Expect(rows(s, 60)[0].Holder).To(Equal("a"))
	})

	It("samples the believer curve over the whole run, keeping a brief peak", func() {
		s := build(long(), opt)
		Expect(s.Actual.Believers["theft@1"]).To(Equal([]page.Point{{Tick: 0, Count: 1}, {Tick: 50, Count: 3}, {Tick: 60, Count: 1}}))
	})

	It("counts and embeds trace records only inside the window", func() {
		s := build(long("T9.9 expect[0] at tick 60: want 2"), opt)
		Expect(s.Window).To(Equal(page.Window{From: 58, To: 62, Capped: true, Dropped: 30}))
		Expect(s.Counts).To(HaveLen(20))
		Expect(s.Counts).To(HaveKey(int64(50)))
		Expect(s.Counts).NotTo(HaveKey(int64(49)))
		Expect(s.Feed).To(HaveLen(10))
	})

	It("keeps a run that fits whole, point for point", func() {
		s := build(long(), page.Options{})
		Expect(s.Rows).To(Equal(page.Rows{First: 0, Last: 99, N: 100, From: 0, To: 99, Sample: 1}))
		Expect(s.Actual.Believers["theft@1"]).To(Equal([]page.Point{{Tick: 0, Count: 1}, {Tick: 57, Count: 3}, {Tick: 58, Count: 1}}))
		Expect(s.Feed).To(HaveLen(200))
	})
})
