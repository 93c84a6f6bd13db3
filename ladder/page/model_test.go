package page_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/page"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/trace"
)

func TestPage(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Triage page")
}

// The synthetic run: a at the market sees theft@1 at tick 1; a and b meet
// at the market on tick 2 (after failing to on tick 1) and a tells b, who
// forms the belief at 0.72 through that encounter; b dies at tick 3; c is
// at the farm throughout and never hears it. a hears it again from b's
// (impossible, but recorded) report at tick 5: the evidence list's second
// entry, which must not show before tick 5.
const synthDense = `tick,a/alive,a/at,b/alive,b/at,c/alive,c/at,theft@1/believers,theft@1/variants,a/theft@1/variant,a/theft@1/confidence,a/theft@1/verbatim,a/theft@1/gist,a/theft@1/stage,a/theft@1/sources,b/theft@1/variant,b/theft@1/confidence,b/theft@1/verbatim,b/theft@1/gist,b/theft@1/stage,b/theft@1/sources
0,True,market,True,market,True,farm,,,,,,,,,,,,,,
1,True,market,True,market,True,farm,1,1,theft@1#v0,0.9,1.0,1.0,heard,1,,,,,,
2,True,market,True,market,True,farm,2,1,theft@1#v0,0.9,0.99,0.999,repeated,1,theft@1#v0,0.72,1.0,1.0,heard,1
3,True,market,False,,True,farm,1,1,theft@1#v0,0.9,0.98,0.998,repeated,1,theft@1#v0,0.72,0.99,0.999,heard,1
4,True,market,False,,True,farm,1,1,theft@1#v0,0.9,0.97,0.997,repeated,1,theft@1#v0,0.72,0.98,0.998,heard,1
5,True,market,False,,True,farm,1,1,theft@1#v0,0.9,1.0,1.0,repeated,1,theft@1#v0,0.72,0.97,0.997,heard,1
`

const enc1 = "encounter@1/market/[a,b]"
const enc2 = "encounter@2/market/[a,b]"

func roll(tick int64, value float64) trace.Roll {
	return trace.Roll{Roll: keyed.Roll{
		Key:   keyed.Key{SeedID: "synth", Purpose: "encounter", Tick: tick, Site: "market", Participants: []string{"a", "b"}},
		Value: value, Natural: value,
	}, Threshold: 0.5}
}

// synthTrace writes the run's trace with the engine's own writer, so the
// page reads exactly the schema the engine writes.
func synthTrace() []byte {
	buf := &trace.Buffer{Header: trace.Header{SeedID: "synth", Branch: events.Branch{SaveUUID: "s", Generation: 0}, KeyframeEvery: 24}}
	add := func(tick int64, b trace.Body) {
		buf.Emit(trace.Record{Seq: int64(len(buf.Records)), Tick: tick, Body: b})
	}
	add(0, trace.Keyframe{NPCs: []trace.NPCState{{ID: "a", Alive: true, At: "market"}}})
	add(1, trace.Event{ID: "theft@1", EventKind: "theft", LogSeq: 0, Hash: strings.Repeat("0", 64)})
	add(1, trace.Variant{ID: "theft@1#v0", Claim: "theft@1", Reason: "event", Slots: []trace.Slot{{Name: "actor", Value: "player"}, {Name: "item", Value: "sweetroll"}}})
	add(1, trace.RuleEval{Rule: "witness-creates-belief", Subject: "a/theft@1", Fired: true, Reason: "witnessed", Values: []trace.Value{{Name: "confidence", Value: 0.9}}})
	add(1, trace.BeliefChange{Holder: "a", Claim: "theft@1", Variant: "theft@1#v0", Change: "formed", Confidence: 0.9, Stage: "heard",
		Evidence: &trace.Evidence{Type: "witnessed", Variant: "theft@1#v0", Via: "theft@1", Confidence: 0.9, Counted: true}})
	add(1, trace.Encounter{Site: "market", Pair: [2]string{"a", "b"}, Roll: roll(1, 0.75), Fired: false})
	add(2, trace.Encounter{Site: "market", Pair: [2]string{"a", "b"}, Roll: roll(2, 0.125), Fired: true})
	add(2, trace.Transmission{Via: enc2, Claim: "theft@1", Variant: "theft@1#v0", Teller: "a", Listener: "b", Fired: true, Rule: "testimony-transfer", Reason: "listener did not hold it", Confidence: 0.72})
	add(2, trace.Transmission{Via: enc2, Claim: "theft@1", Variant: "theft@1#v0", Teller: "b", Listener: "a", Fired: false, Rule: "testimony-transfer", Reason: "teller heard it this tick"})
	add(2, trace.RuleEval{Rule: "trust-discounted-retelling", Subject: "b<-a", Fired: false, Reason: "disabled"})
	add(2, trace.BeliefChange{Holder: "b", Claim: "theft@1", Variant: "theft@1#v0", Change: "formed", Confidence: 0.72, Stage: "heard",
		Evidence: &trace.Evidence{Type: "reported", Variant: "theft@1#v0", Chain: []string{"a"}, Via: enc2, Confidence: 0.72, Counted: true}})
	add(3, trace.Event{ID: "death@3", EventKind: "death", LogSeq: 1, Hash: strings.Repeat("1", 64)})
	// A variant at tick 4, for the tree as of a tick (a record the feed
	// does not show).
	add(4, trace.Variant{ID: "theft@1#v1", Claim: "theft@1", Predecessor: "theft@1#v0", Diff: []trace.SlotChange{{Slot: "item", From: "sweetroll", To: "apple"}},
		Slots: []trace.Slot{{Name: "actor", Value: "player"}, {Name: "item", Value: "apple"}}, Reason: "mutation:memory", By: "a"})
	add(5, trace.BeliefChange{Holder: "a", Claim: "theft@1", Variant: "theft@1#v0", Change: "reinforced", Confidence: 0.9, Stage: "repeated",
		Evidence: &trace.Evidence{Type: "reported", Variant: "theft@1#v0", Chain: []string{"a", "b"}, Via: "injected", Confidence: 0.5}})
	out, err := buf.AppendJSONL(nil)
	Expect(err).NotTo(HaveOccurred())
	return out
}

func synthInput() page.Input {
	return page.Input{Name: "T9.1", Title: "Synthetic", Source: "fixtures/T9.1-synth.yaml:1",
		Dense: page.Data(synthDense), Trace: page.Data(synthTrace()), TraceFile: "reports/T9.1/trace.jsonl"}
}

func build(in page.Input, opt page.Options) *page.Section {
	GinkgoHelper()
	s, err := page.Build(in, opt)
	Expect(err).NotTo(HaveOccurred())
	return s
}

// row is the part of a belief-table row these specs pin.
type row struct {
	Holder, At, Claim          string
	Alive, Held                bool
	Variant, Confidence, Stage string
	Evidence                   []string // "tick type chain via"
	Golden                     string   // the golden's confidence when it differs
}

func rows(s *page.Section, tick int64) []row {
	var out []row
	for _, r := range s.BeliefsAt(tick) {
		x := row{Holder: r.Holder, At: r.At, Claim: r.Claim, Alive: r.Alive, Held: r.Held, Variant: r.Variant, Confidence: r.Confidence, Stage: r.Stage}
		for _, e := range r.Evidence {
			x.Evidence = append(x.Evidence, strings.Join([]string{strconv.FormatInt(e.Tick, 10), e.Type, strings.Join(e.Chain, ">"), e.Via, e.Confidence}, " "))
		}
		if r.Golden != nil {
			x.Golden = r.Golden.Confidence
		}
		out = append(out, x)
	}
	return out
}

type feedLine struct {
	Kind   page.Kind
	Fired  bool
	Fields string
}

func feed(s *page.Section, tick int64) ([]feedLine, bool) {
	recs, ok := s.FeedAt(tick)
	var out []feedLine
	for _, r := range recs {
		out = append(out, feedLine{r.Kind, r.Fired, strings.Join(r.Fields, "|")})
	}
	return out, ok
}

var _ = Describe("the as-of-tick belief table", func() {
	s := func() *page.Section { return build(synthInput(), page.Options{}) }

	It("shows every NPC unheard before the event, where it was", func() {
		Expect(cmp.Diff([]row{
			{Holder: "a", At: "market", Alive: true, Stage: "unheard"},
			{Holder: "b", At: "market", Alive: true, Stage: "unheard"},
			{Holder: "c", At: "farm", Alive: true, Stage: "unheard"},
		}, rows(s(), 0))).To(BeEmpty())
	})

	It("shows the witness's belief from the tick it formed, with its evidence", func() {
		Expect(cmp.Diff([]row{
			{Holder: "a", At: "market", Alive: true, Claim: "theft@1", Held: true, Variant: "theft@1#v0", Confidence: "0.9", Stage: "heard",
				Evidence: []string{"1 witnessed  theft@1 0.9"}},
			{Holder: "b", At: "market", Alive: true, Stage: "unheard"},
			{Holder: "c", At: "farm", Alive: true, Stage: "unheard"},
		}, rows(s(), 1))).To(BeEmpty())
	})

	It("shows the hop: who told whom, through which encounter, when; and the teller's stage moving on", func() {
		got := rows(s(), 2)
		Expect(cmp.Diff([]row{
			{Holder: "a", At: "market", Alive: true, Claim: "theft@1", Held: true, Variant: "theft@1#v0", Confidence: "0.9", Stage: "repeated",
				Evidence: []string{"1 witnessed  theft@1 0.9"}},
			{Holder: "b", At: "market", Alive: true, Claim: "theft@1", Held: true, Variant: "theft@1#v0", Confidence: "0.72", Stage: "heard",
				Evidence: []string{"2 reported a " + enc2 + " 0.72"}},
			{Holder: "c", At: "farm", Alive: true, Stage: "unheard"},
		}, got)).To(BeEmpty())
	})

	It("keeps a dead holder's belief and says it is dead and nowhere", func() {
		got := rows(s(), 3)
		Expect(got[1]).To(Equal(row{Holder: "b", At: "", Alive: false, Claim: "theft@1", Held: true, Variant: "theft@1#v0", Confidence: "0.72", Stage: "heard",
			Evidence: []string{"2 reported a " + enc2 + " 0.72"}}))
	})

	It("shows evidence only from the tick it arrived", func() {
		Expect(rows(s(), 4)[0].Evidence).To(HaveLen(1))
		Expect(rows(s(), 5)[0].Evidence).To(Equal([]string{"1 witnessed  theft@1 0.9", "5 reported a>b injected 0.5"}))
	})
})

var _ = Describe("the feed", func() {
	s := func() *page.Section { return build(synthInput(), page.Options{}) }

	It("lists a tick's records in derivation order, the declined encounter like the others", func() {
		got, ok := feed(s(), 1)
		Expect(ok).To(BeTrue())
		Expect(cmp.Diff([]feedLine{
			{page.KindEvent, true, "theft@1|theft"},
			{page.KindRule, true, "witness-creates-belief|a/theft@1|witnessed||||confidence|0.9"},
			{page.KindBelief, true, "a|theft@1|theft@1#v0|formed|0.9|heard"},
			{page.KindEncounter, false, "market|a|b|0.75|0.5|"},
		}, got)).To(BeEmpty())
	})

	It("shows fired and declined transmissions with their rule and reason", func() {
		got, _ := feed(s(), 2)
		Expect(cmp.Diff([]feedLine{
			{page.KindEncounter, true, "market|a|b|0.125|0.5|"},
			{page.KindTransmission, true, "a|b|theft@1|theft@1#v0|testimony-transfer|listener did not hold it|" + enc2 + "|0.72"},
			{page.KindTransmission, false, "b|a|theft@1|theft@1#v0|testimony-transfer|teller heard it this tick|" + enc2 + "|"},
			{page.KindRule, false, "trust-discounted-retelling|b<-a|disabled|||"},
			{page.KindBelief, true, "b|theft@1|theft@1#v0|formed|0.72|heard"},
		}, got)).To(BeEmpty())
	})

	It("leaves keyframes out and says a quiet tick is empty, not missing", func() {
		got, ok := feed(s(), 0)
		Expect(ok).To(BeTrue())
		Expect(got).To(BeEmpty())
		got, ok = feed(s(), 4)
		Expect(ok).To(BeTrue())
		Expect(got).To(BeEmpty())
	})
})

var _ = Describe("the cap on what a section embeds", func() {
	It("keeps whole ticks around the first divergence and counts the rest", func() {
		in := synthInput()
		in.Failures = []string{"T9.1 expect[0] at tick 2: want 0.8"}
		s := build(in, page.Options{MaxRecords: 6})
		Expect(s.Window).To(Equal(page.Window{From: 2, To: 3, Capped: true, Dropped: 5}))
		_, ok := feed(s, 1)
		Expect(ok).To(BeFalse())
		got, ok := feed(s, 2)
		Expect(ok).To(BeTrue())
		Expect(got).To(HaveLen(5))
		Expect(s.Counts[1]).To(Equal([5]int{0, 1, 0, 0, 3}))
		Expect(s.Counts[2]).To(Equal([5]int{1, 0, 1, 1, 2}))
		Expect(s.Notes).To(ContainElement("The feed is capped at 6 records: it embeds ticks 2–3 (6 of 11 records); other ticks show counts only. The full trace is reports/T9.1/trace.jsonl."))
	})

	It("grows the window backwards from a late divergence", func() {
		in := synthInput()
		in.Failures = []string{"T9.1 expect[0] at tick 5: want 0.8"}
		s := build(in, page.Options{MaxRecords: 6})
		Expect(s.Window).To(Equal(page.Window{From: 3, To: 5, Capped: true, Dropped: 9}))
		_, ok := feed(s, 2)
		Expect(ok).To(BeFalse())
		got, ok := feed(s, 3)
		Expect(ok).To(BeTrue())
		Expect(got).To(Equal([]feedLine{{page.KindEvent, true, "death@3|death"}}))
	})

	It("truncates a single tick that alone exceeds the cap, and says so", func() {
		s := build(synthInput(), page.Options{MaxRecords: 2})
		Expect(s.Window).To(Equal(page.Window{From: 1, To: 1, Capped: true, Truncated: true, Dropped: 9}))
		Expect(s.Feed).To(HaveLen(2))
		Expect(s.Notes[0]).To(ContainSubstring("Tick 1 alone has more: only its first 2 records are embedded."))
	})

	It("embeds everything when the run fits", func() {
		s := build(synthInput(), page.Options{})
		Expect(s.Window).To(Equal(page.Window{From: 0, To: 5}))
		Expect(s.Feed).To(HaveLen(11))
		Expect(s.Notes).To(BeEmpty())
	})
})

var _ = Describe("a failing rung against its golden", func() {
	// The golden had b at 0.8 from tick 2 and c holding nothing in a
	// column the run no longer writes.
	golden := strings.NewReplacer(",0.72,", ",0.8,").Replace(synthDense)
	golden = strings.Replace(golden, "tick,", "tick,c/theft@1/variant,", 1)
	golden = strings.Replace(golden, "\n0,", "\n0,,", 1)
	for t := 1; t <= 5; t++ {
		golden = strings.Replace(golden, "\n"+strconv.Itoa(t)+",", "\n"+strconv.Itoa(t)+",,", 1)
	}
	failing := func() page.Input {
		in := synthInput()
		in.GoldenDense = page.Data(golden)
		in.Failures = []string{
			`T9.1 dense.csv: first divergence at tick 2, column "b/theft@1/confidence": golden 0.8, actual 0.72`,
			`T9.1 something without a tick`,
		}
		return in
	}

	It("links each failure line to the tick it names", func() {
		s := build(failing(), page.Options{})
		Expect(s.Failures).To(Equal([]page.Failure{
			{Text: failing().Failures[0], Tick: 2, Link: page.State{Name: "T9.1", Tick: 2}},
			{Text: failing().Failures[1], Tick: -1, Link: page.State{Name: "T9.1", Tick: -1}},
		}))
	})

	It("shows a line without the commands and the page link it ends with, linked where that link goes", func() {
		in := failing()
		in.Commands = "(reproduce: make ladder RUNG=T9.1; if intended: `go run ./tools/ladder review T9.1`, then `accept T9.1`)"
		in.Failures = []string{
			in.Failures[0] + " " + in.Commands + " (page: " + page.LinkTo("T9.1", 2, page.BeliefTarget("b", "theft@1")) + ")",
			in.Failures[1] + " " + in.Commands + " (page: " + page.Link("T9.1", -1) + ")",
		}
		s := build(in, page.Options{})
		Expect(s.Failures).To(Equal([]page.Failure{
			{Text: failing().Failures[0], Tick: 2, Link: page.State{Name: "T9.1", Tick: 2, Target: page.BeliefTarget("b", "theft@1")}},
			{Text: failing().Failures[1], Tick: -1, Link: page.State{Name: "T9.1", Tick: -1}},
		}))
		Expect(s.Commands).To(Equal(in.Commands))
	})

	It("finds the first divergence and how far the change goes, column by column", func() {
		s := build(failing(), page.Options{})
		Expect(s.Divergence).To(Equal(int64(2)))
		Expect(s.DivergenceWhat).To(Equal(`dense.csv: column "b/theft@1/confidence"`))
		Expect(*s.Diff).To(Equal(page.DenseDiff{
			FirstTick: 2, FirstColumn: "b/theft@1/confidence", Cells: 4, Columns: 1, FromTick: 2, ToTick: 5,
			Removed: []string{"c/theft@1/variant"}, Top: []page.ColumnChange{{Column: "b/theft@1/confidence", Cells: 4}},
		}))
	})

	It("shows the golden's value beside the run's where they differ", func() {
		got := rows(build(failing(), page.Options{}), 2)
		Expect(got[0].Golden).To(BeEmpty())
		Expect(got[1].Golden).To(Equal("0.8"))
	})

	It("counts a column only one side has from its first value", func() {
		in := failing()
		in.GoldenDense = page.Data(strings.Replace(golden, "\n0,,", "\n0,theft@1#v9,", 1))
		s := build(in, page.Options{})
		Expect(s.Diff.FirstTick).To(Equal(int64(0)))
		Expect(s.Diff.FirstColumn).To(Equal("c/theft@1/variant"))
		Expect(s.Divergence).To(Equal(int64(0)))
	})

	It("leaves a passing rung's golden alone", func() {
		in := failing()
		in.Failures = nil
		s := build(in, page.Options{})
		Expect(s.Golden).To(BeNil())
		Expect(s.Diff).To(BeNil())
		Expect(s.Divergence).To(Equal(int64(-1)))
	})
})

var _ = Describe("bad artifacts", func() {
	It("refuses a malformed actual dense CSV, naming it", func() {
		in := synthInput()
		in.Dense = page.Data("tock,a/alive\n0,True\n")
		_, err := page.Build(in, page.Options{})
		Expect(err).To(MatchError(`T9.1: dense.csv: header: first column is "tock", not "tick"`))
		in.Dense = page.Data("tick,a/alive\nx,True\n")
		_, err = page.Build(in, page.Options{})
		Expect(err).To(MatchError(`T9.1: dense.csv: line 2: tick "x" is not an integer`))
	})

	It("refuses a trace that is not schema v1 to v3", func() {
		in := synthInput()
		in.Trace = page.Data(`{"kind":"header","schema":"chronicle.trace","version":4}` + "\n")
		_, err := page.Build(in, page.Options{})
		Expect(err).To(MatchError("T9.1: trace.jsonl: line 1: not a chronicle.trace header of version 1 to 3"))
		in.Trace = page.Data(append(synthTrace(), '\n'))
		_, err = page.Build(in, page.Options{})
		Expect(err).To(MatchError("T9.1: trace.jsonl: line 16: empty line"))
	})

	It("shows a malformed golden as a note, not an error", func() {
		in := synthInput()
		in.Failures = []string{"T9.1 x"}
		in.GoldenDense = page.Data("tick,a\n0,\"\n")
		s := build(in, page.Options{})
		Expect(s.Golden).To(BeNil())
		Expect(s.Notes).To(ConsistOf(HavePrefix("The golden dense.csv is not shown: ")))
	})
})
