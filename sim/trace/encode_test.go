package trace_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/trace"
)

// recordGen builds records of every kind from a source of choices, so
// that one generator serves a seeded spec and the fuzz target.
type recordGen struct {
	next func() uint64
	text []string // strings to draw from: ids, and some that need escaping or are invalid
}

func (g recordGen) str() string { return g.text[g.next()%uint64(len(g.text))] }

func (g recordGen) flag() bool { return g.next()%2 == 0 }

// num draws a float: mostly ordinary, sometimes one with no JSON spelling.
func (g recordGen) num() float64 {
	switch g.next() % 16 {
	case 0:
		return math.NaN()
	case 1:
		return math.Inf(1 - 2*int(g.next()%2))
	case 2:
		return math.Float64frombits(g.next())
	case 3:
		return 0.02 // the city's encounter probability, which the encoder caches
	default:
		return float64(g.next()>>11) * 0x1p-53 * math.Pow(10, float64(int(g.next()%40)-20))
	}
}

func (g recordGen) roll(site string, pair []string) trace.Roll {
	natural := float64(g.next()>>11) * 0x1p-53
	r := trace.Roll{Roll: keyed.Roll{Key: keyed.Key{SeedID: "s", Purpose: g.str(), Tick: int64(g.next() % 1000), Site: site, Participants: pair}, Value: natural, Natural: natural}, Threshold: g.num()}
	if g.flag() {
		r.Roll.Value, r.Roll.Pinned = g.num(), true
	}
	return r
}

func (g recordGen) body(k trace.Kind) trace.Body {
	switch k {
	case trace.KindEncounter:
		e := &trace.Encounter{Site: g.str(), Pair: [2]string{g.str(), g.str()}, Fired: g.flag()}
		e.Roll = g.roll(e.Site, e.Pair[:])
		if g.flag() {
			e.Weighted, e.Weight = true, g.num()
		}
		return e
	case trace.KindTransmission:
		return &trace.Transmission{Via: g.str(), Claim: g.str(), Variant: g.str(), Teller: g.str(), Listener: g.str(), Fired: g.flag(), Rule: g.str(), Reason: g.str(), Confidence: g.num()}
	case trace.KindRule:
		r := &trace.RuleEval{Rule: g.str(), Subject: g.str(), Fired: g.flag(), Reason: g.str()}
		for range g.next() % 8 {
			r.Values = append(r.Values, trace.Value{Name: g.str(), Value: g.num()})
		}
		if g.flag() {
			roll := g.roll(g.str(), []string{g.str(), g.str()}[:g.next()%3])
			r.Roll = &roll
		}
		return r
	case trace.KindEvent:
		e := &trace.Event{ID: g.str(), EventKind: g.str(), LogSeq: int64(g.next() % 100), Hash: g.str()}
		if g.flag() {
			e.Rule, e.Cause = g.str(), g.str()
		}
		return e
	case trace.KindBelief:
		b := &trace.BeliefChange{Holder: g.str(), Claim: g.str(), Variant: g.str(), Change: g.str(), Confidence: g.num(), Stage: g.str()}
		if g.flag() {
			b.Evidence = &trace.Evidence{Type: g.str(), Variant: g.str(), Via: g.str(), Confidence: g.num(), Counted: g.flag()}
			for range g.next() % 4 {
				b.Evidence.Chain = append(b.Evidence.Chain, g.str())
			}
		}
		return b
	case trace.KindVariant:
		v := &trace.Variant{ID: g.str(), Claim: g.str(), Predecessor: g.str(), Reason: g.str(), By: g.str()}
		for range g.next() % 3 {
			v.Diff = append(v.Diff, trace.SlotChange{Slot: g.str(), From: g.str(), To: g.str()})
		}
		for range g.next() % 4 {
			v.Slots = append(v.Slots, trace.Slot{Name: g.str(), Type: g.str(), Value: g.str()})
		}
		return v
	case trace.KindKeyframe:
		k := &trace.Keyframe{}
		for range g.next() % 4 {
			k.NPCs = append(k.NPCs, trace.NPCState{ID: g.str(), Alive: g.flag(), At: g.str()})
		}
		for range g.next() % 4 {
			k.Beliefs = append(k.Beliefs, trace.BeliefState{Holder: g.str(), Claim: g.str(), Variant: g.str(), Confidence: g.num(), Verbatim: g.num(), Gist: g.num(), Stage: g.str()})
		}
		for range g.next() % 3 {
			k.Accumulators = append(k.Accumulators, trace.AccumulatorState{Victim: g.str(), Offender: g.str(), Count: int64(g.next() % 10), Armed: g.flag()})
		}
		for range g.next() % 3 {
			k.Grudges = append(k.Grudges, trace.GrudgeState{Holder: g.str(), Target: g.str(), Emotional: g.num(), Evidentiary: g.num(), Settled: g.flag()})
		}
		for range g.next() % 3 {
			k.Obligations = append(k.Obligations, trace.ObligationState{ID: g.str(), Favour: g.str(), Creditor: g.str(), Debtor: g.str(), State: g.str()})
		}
		for range g.next() % 3 {
			k.Reputation = append(k.Reputation, trace.OpinionState{Observer: g.str(), Subject: g.str(), Dimension: g.str(), Alpha: g.num(), Beta: g.num(), Mean: g.num()})
		}
		for range g.next() % 3 {
			k.Roles = append(k.Roles, trace.RoleState{ID: g.str(), Holder: g.str(), Since: int64(g.next() % 100)})
		}
		return k
	case trace.KindSupersession:
		return &trace.Supersession{Holder: g.str(), Claim: g.str(), Loser: g.str(), Winner: g.str(), Via: g.str(), Kept: g.flag()}
	case trace.KindGrudge:
		return &trace.Grudge{Holder: g.str(), Target: g.str(), Change: g.str(), Emotional: g.num(), Evidentiary: g.num(), Rule: g.str(), Cause: g.str()}
	case trace.KindObligation:
		return &trace.Obligation{ID: g.str(), Favour: g.str(), Creditor: g.str(), Debtor: g.str(), State: g.str(), Rule: g.str(), Cause: g.str()}
	case trace.KindReputation:
		return &trace.Reputation{Observer: g.str(), Subject: g.str(), Dimension: g.str(), Alpha: g.num(), Beta: g.num(), Mean: g.num(), Rule: g.str(), Cause: g.str()}
	case trace.KindSchedule:
		s := &trace.Schedule{NPC: g.str(), Change: g.str(), Override: g.str(), At: g.str(), From: int64(g.next() % 100), Rule: g.str(), Cause: g.str()}
		if g.flag() {
			s.To = s.From + 1 + int64(g.next()%100)
		}
		return s
	case trace.KindRole:
		return &trace.Role{Role: g.str(), Change: g.str(), Holder: g.str(), Previous: g.str(), Rule: g.str(), Cause: g.str()}
	}
	return nil
}

var genText = []string{"", "market", "neighbor", "witness", "theft@2#v0", "encounter@12/market/[a,b]", "a\"quote", "back\\slash", "tab\there", "ørn 🐺", "x\xffy", "values", "a", "b"}

// sameAsOracle encodes r both ways and reports the first difference.
func sameAsOracle(enc *trace.Encoder, r trace.Record, branch events.Branch) string {
	want, wantErr := oracleLine(r, branch)
	got, err := enc.AppendRecord([]byte("prefix"), r)
	switch {
	case wantErr != nil && err == nil:
		return "oracle fails with " + wantErr.Error() + ", encoder writes " + string(got)
	case wantErr == nil && err != nil:
		return "encoder fails with " + err.Error() + ", oracle writes " + string(want)
	case wantErr != nil:
		if err.Error() != wantErr.Error() {
			return "errors differ: encoder " + err.Error() + ", oracle " + wantErr.Error()
		}
		if string(got) != "prefix" {
			return "on error the encoder changed dst: " + string(got)
		}
		return ""
	}
	return cmp.Diff(string(want), strings.TrimPrefix(string(got), "prefix"))
}

var _ = Describe("Encoder", func() {
	enc, err := trace.NewEncoder(header)
	if err != nil {
		panic(err)
	}

	It("writes every record of every kind as the canon.Marshal oracle does, errors included", func() {
		rng := rand.New(rand.NewPCG(1, 2))
		g := recordGen{next: rng.Uint64, text: genText}
		examined, failing := map[trace.Kind]int{}, 0
		for i := range 20_000 {
			k := trace.Kinds()[i%len(trace.Kinds())]
			r := trace.Record{Seq: int64(i), Tick: int64(rng.IntN(1 << 20)), Body: g.body(k)}
			Expect(sameAsOracle(enc, r, header.Branch)).To(BeEmpty(), "record %d (%s)", i, k)
			if _, err := oracleLine(r, header.Branch); err != nil {
				failing++
			}
			examined[k]++
		}
		Expect(examined).To(HaveLen(len(trace.Kinds())), "every kind examined")
		Expect(failing).To(BeNumerically(">", 1000), "records with no spelling examined too")
	})

	It("matches the oracle for the hand-written cases of every kind", func() {
		for _, c := range kindCases {
			Expect(sameAsOracle(enc, trace.Record{Seq: 7, Tick: 12, Body: c.body}, header.Branch)).To(BeEmpty(), c.name)
		}
	})

	It("spells runs of sequence numbers and ticks as the oracle does, across every carry", func() {
		g := recordGen{next: rand.New(rand.NewPCG(11, 12)).Uint64, text: []string{"market", "a", "b"}}
		examined := 0
		for _, from := range []int64{0, 95, 990, 99_990, 9_999_999_990, math.MaxInt64 - 20, -15} {
			for seq := from; seq < from+20 && seq >= from; seq++ {
				tick := seq / 3 // ticks repeat, then step
				if seq%7 == 0 {
					tick = seq * 5 // and sometimes jump
				}
				r := trace.Record{Seq: seq, Tick: tick, Body: g.body(trace.KindEncounter)}
				Expect(sameAsOracle(enc, r, header.Branch)).To(BeEmpty(), "seq %d", seq)
				examined++
			}
		}
		Expect(examined).To(BeNumerically(">", 130))
	})

	It("spells numbers that count down by one afresh, as the oracle does", func() {
		enc := freshEncoder()
		g := recordGen{next: rand.New(rand.NewPCG(13, 14)).Uint64, text: []string{"market", "a", "b"}}
		examined := 0
		for seq := int64(20); seq >= -3; seq-- {
			r := trace.Record{Seq: seq, Tick: seq + 90, Body: g.body(trace.KindEvent)} // 110 down to 87: a carry the other way
			Expect(sameAsOracle(enc, r, header.Branch)).To(BeEmpty(), "seq %d", seq)
			examined++
		}
		Expect(examined).To(Equal(24))
	})

	It("spells the first roll of a fresh encoder in full, even one whose members are all zero values", func() {
		// A fresh encoder has no roll spelled yet; an unpinned roll with
		// no purpose and threshold 0 must not pass for the one it last
		// spelled.
		enc := freshEncoder()
		for seq := range int64(2) {
			Expect(sameAsOracle(enc, trace.Record{Seq: seq, Tick: 4, Body: trace.Encounter{}}, header.Branch)).To(BeEmpty(), "record %d", seq)
		}
	})

	It("names the pair member a fresh encoder cannot spell in its first record", func() {
		enc := freshEncoder()
		r := trace.Record{Seq: 0, Tick: 3, Body: trace.Encounter{Site: "market", Pair: [2]string{"neighbor", "x\xffy"}, Roll: encounterRoll()}}
		Expect(sameAsOracle(enc, r, header.Branch)).To(BeEmpty())
		_, err := freshEncoder().AppendRecord(nil, r)
		Expect(err).To(MatchError("trace record 0 (tick 3, encounter): canon: $.pair[1]: invalid UTF-8"))
	})

	It("has an oracle for every kind, so no kind goes unchecked", func() {
		g := recordGen{next: rand.New(rand.NewPCG(3, 4)).Uint64, text: genText}
		for _, k := range trace.Kinds() {
			body := g.body(k)
			Expect(body).NotTo(BeNil(), "the generator has no %s record", k)
			Expect(body.Kind()).To(Equal(k))
			_, err := oracleFields(body)
			Expect(err).NotTo(HaveOccurred())
		}
	})

	It("allocates nothing per record once its buffer has room", func() {
		g := recordGen{next: rand.New(rand.NewPCG(5, 6)).Uint64, text: []string{"market", "neighbor", "witness", "theft@2"}}
		buf := make([]byte, 0, 1<<16)
		var recs []trace.Record
		for _, k := range trace.Kinds() {
			recs = append(recs, trace.Record{Seq: 1, Tick: 2, Body: g.body(k)})
		}
		// And the hand-written encounters: one whose roll is pinned spells
		// the members an unpinned one leaves out (version 3), and so does
		// one whose id does not give its purpose back.
		for _, c := range kindCases {
			if c.kind == trace.KindEncounter {
				recs = append(recs, trace.Record{Seq: 1, Tick: 2, Body: c.body})
			}
		}
		odd := trace.Encounter{Site: "market", Pair: [2]string{"a", "b"}, Roll: trace.Roll{Roll: keyed.Roll{Key: keyed.Key{Purpose: "a@b", Tick: 2, Site: "market", Participants: []string{"a", "b"}}}}}
		recs = append(recs, trace.Record{Seq: 1, Tick: 2, Body: odd})
		for _, r := range recs {
			if _, err := oracleLine(r, header.Branch); err != nil {
				continue // the allocation of an error is not the steady state
			}
			allocs := testing.AllocsPerRun(50, func() {
				var err error
				if buf, err = enc.AppendRecord(buf[:0], r); err != nil {
					panic(err)
				}
			})
			Expect(allocs).To(BeZero(), "%s", buf)
		}
	})

	It("sorts up to 16 rule values without allocating, as many as it keeps room for on the stack", func() {
		buf := make([]byte, 0, 1<<12)
		for _, n := range []int{3, 16} {
			r := trace.RuleEval{Rule: "r", Subject: "s"}
			for i := range n {
				r.Values = append(r.Values, trace.Value{Name: fmt.Sprintf("v%02d", n-i), Value: float64(i)}) // reversed: every value moves
			}
			rec := trace.Record{Seq: 1, Tick: 2, Body: r}
			Expect(sameAsOracle(enc, rec, header.Branch)).To(BeEmpty(), "%d values", n)
			allocs := testing.AllocsPerRun(50, func() {
				var err error
				if buf, err = enc.AppendRecord(buf[:0], rec); err != nil {
					panic(err)
				}
			})
			Expect(allocs).To(BeZero(), "%d values", n)
		}
	})
})

// freshEncoder returns an encoder that has spelled nothing yet: no roll,
// no number, no error path, whatever specs ran before.
func freshEncoder() *trace.Encoder {
	GinkgoHelper()
	enc, err := trace.NewEncoder(header)
	Expect(err).NotTo(HaveOccurred())
	return enc
}

var _ = Describe("Writer", func() {
	records := func() []trace.Record {
		g := recordGen{next: rand.New(rand.NewPCG(7, 8)).Uint64, text: []string{"market", "neighbor", "witness", "theft@2"}}
		var out []trace.Record
		for i := range 3000 {
			out = append(out, trace.Record{Seq: int64(i), Tick: int64(i / 10), Body: g.body(trace.Kinds()[i%len(trace.Kinds())])})
		}
		return out
	}

	It("streams the bytes Buffer.AppendJSONL writes, in writes no larger than needed", func() {
		recs := records()
		var ok []trace.Record
		for _, r := range recs {
			if _, err := oracleLine(r, header.Branch); err == nil {
				ok = append(ok, r)
			}
		}
		Expect(len(ok)).To(BeNumerically(">", 1000))
		var out countingWriter
		w, err := trace.NewWriter(&out, header)
		Expect(err).NotTo(HaveOccurred())
		b := &trace.Buffer{Header: header}
		for _, r := range ok {
			w.Emit(r)
			b.Emit(r)
		}
		Expect(w.Flush()).To(Succeed())
		want, err := b.AppendJSONL(nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(bytes.Equal(out.Bytes(), want)).To(BeTrue(), "first divergence: %v", trace.Compare(want, out.Bytes()))
		Expect(w.Records()).To(Equal(int64(len(ok))))
		Expect(out.writes).To(BeNumerically(">", 1), "it writes as it goes")
		Expect(out.writes).To(BeNumerically("<", len(ok)/100), "it gathers many records per write")
	})

	It("keeps the first error, drops every later record and reports it", func() {
		var out bytes.Buffer
		w, err := trace.NewWriter(&out, header)
		Expect(err).NotTo(HaveOccurred())
		w.Emit(trace.Record{Seq: 0, Tick: 1, Body: trace.Event{ID: "x"}})
		Expect(w.Err()).NotTo(HaveOccurred())
		w.Emit(trace.Record{Seq: 1, Tick: 9, Body: trace.BeliefChange{Holder: "h", Confidence: math.NaN()}})
		w.Emit(trace.Record{Seq: 2, Tick: 9, Body: trace.Event{ID: "y"}})
		Expect(w.Err()).To(MatchError("trace record 1 (tick 9, belief): canon: $.confidence: NaN is not allowed"))
		Expect(w.Flush()).To(MatchError(w.Err()))
		Expect(w.Records()).To(Equal(int64(1)))
	})

	It("reports a failed write", func() {
		w, err := trace.NewWriter(failingWriter{}, header)
		Expect(err).NotTo(HaveOccurred())
		w.Emit(trace.Record{Seq: 0, Tick: 1, Body: trace.Event{ID: "x"}})
		Expect(w.Flush()).To(MatchError(errDiskFull))
		Expect(w.Flush()).To(MatchError("write trace: disk full"))
	})

	It("writes what it gathered as soon as it reaches FlushAt bytes, and Flush with nothing gathered writes nothing", func() {
		// Events whose lines fill the header's first write to FlushAt
		// exactly: the last one's id takes up what is left.
		event := func(seq int64, idLen int) trace.Record {
			return trace.Record{Seq: seq, Tick: 1, Body: trace.Event{ID: strings.Repeat("x", idLen), EventKind: "theft", Hash: "ab"}}
		}
		lineLen := func(r trace.Record) int {
			line, err := freshEncoder().AppendRecord(nil, r)
			Expect(err).NotTo(HaveOccurred())
			return len(line)
		}
		var recs []trace.Record
		total := len(headerLine) + 1
		for seq := int64(0); total < trace.FlushAt; seq++ {
			r := event(seq, 1000)
			if room := trace.FlushAt - total; lineLen(r)+lineLen(event(seq, 0)) > room {
				r = event(seq, room-lineLen(event(seq, 0)))
			}
			recs = append(recs, r)
			total += lineLen(r)
		}
		Expect(total).To(Equal(trace.FlushAt))

		var out countingWriter
		w, err := trace.NewWriter(&out, header)
		Expect(err).NotTo(HaveOccurred())
		for _, r := range recs[:len(recs)-1] {
			w.Emit(r)
		}
		Expect(out.writes).To(BeZero(), "one byte short of FlushAt")
		w.Emit(recs[len(recs)-1])
		Expect(out.writes).To(Equal(1), "FlushAt reached")
		Expect(out.Len()).To(Equal(trace.FlushAt))
		Expect(w.Flush()).To(Succeed())
		Expect(out.writes).To(Equal(1), "nothing was left to write")

		w.Emit(event(int64(len(recs)), 3))
		Expect(w.Flush()).To(Succeed())
		Expect(w.Flush()).To(Succeed())
		Expect(out.writes).To(Equal(2), "the second Flush had nothing to write")
		Expect(out.Len()).To(Equal(trace.FlushAt + lineLen(event(int64(len(recs)), 3))))
	})

	It("gathers its first write in the buffer it starts with, allocating nothing before it", func() {
		var out discardCounter
		w, err := trace.NewWriter(&out, header)
		Expect(err).NotTo(HaveOccurred())
		r := trace.Record{Seq: 0, Tick: 1, Body: trace.Event{ID: "theft@2", EventKind: "theft", Hash: "ab12"}}
		w.Emit(r) // the encoder's first record sets up its spelling of seq and tick
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for r.Seq = 1; out.writes == 0; r.Seq++ {
			w.Emit(r)
		}
		runtime.ReadMemStats(&after)
		Expect(w.Err()).NotTo(HaveOccurred())
		Expect(r.Seq).To(BeNumerically(">", 400), "records gathered")
		Expect(after.Mallocs - before.Mallocs).To(BeZero())
	})

	It("refuses a header with no canonical form", func() {
		_, err := trace.NewWriter(&bytes.Buffer{}, trace.Header{SeedID: "bad\xff"})
		Expect(err).To(MatchError(ContainSubstring("trace header: canon: $.seed_id: invalid UTF-8")))
	})
})

var _ = Describe("Clone", func() {
	It("copies every kind deeply, so the engine may reuse what it emitted", func() {
		g := recordGen{next: rand.New(rand.NewPCG(9, 10)).Uint64, text: []string{"market", "neighbor", "witness"}}
		for _, k := range trace.Kinds() {
			for range 20 {
				body := g.body(k)
				want, _ := oracleFields(body)
				kept := trace.Record{Body: body}.Clone().Body
				scribble(body)
				got, _ := oracleFields(kept)
				Expect(cmp.Diff(want, got, cmpopts.EquateNaNs())).To(BeEmpty(), "%s", k)
			}
		}
	})

	It("keeps an encounter built over its own pair in one allocation", func() {
		e := &trace.Encounter{Site: "market", Pair: [2]string{"a", "b"}}
		e.Roll.Roll.Key.Participants = e.Pair[:]
		Expect(testing.AllocsPerRun(50, func() { _ = e.Clone() })).To(Equal(1.0))
		c := e.Clone().(*trace.Encounter)
		e.Pair[0] = "z"
		Expect(c.Roll.Roll.Key.Participants).To(Equal([]string{"a", "b"}))
	})
})

// scribble overwrites what a body's slices and pointers share, as the
// engine does when it reuses a record's storage.
func scribble(b trace.Body) {
	switch b := b.(type) {
	case *trace.Encounter:
		b.Pair[0] = "scribbled"
		if len(b.Roll.Roll.Key.Participants) > 0 {
			b.Roll.Roll.Key.Participants[0] = "scribbled"
		}
		b.Site = "scribbled"
	case *trace.RuleEval:
		for i := range b.Values {
			b.Values[i].Name = "scribbled"
		}
		if b.Roll != nil {
			b.Roll.Threshold = 7
			if len(b.Roll.Roll.Key.Participants) > 0 {
				b.Roll.Roll.Key.Participants[0] = "scribbled"
			}
		}
	case *trace.Keyframe:
		for i := range b.NPCs {
			b.NPCs[i].ID = "scribbled"
		}
		for i := range b.Beliefs {
			b.Beliefs[i].Gist = 7
		}
		for i := range b.Roles {
			b.Roles[i].Holder = "scribbled"
		}
	case *trace.Transmission:
		b.Claim = "scribbled"
	case *trace.Event:
		b.ID = "scribbled"
	case *trace.BeliefChange:
		b.Holder = "scribbled"
	case *trace.Supersession:
		b.Winner = "scribbled"
	}
}

// discardCounter counts writes and keeps nothing, allocating nothing.
type discardCounter struct{ writes, bytes int }

func (d *discardCounter) Write(p []byte) (int, error) {
	d.writes++
	d.bytes += len(p)
	return len(p), nil
}

type countingWriter struct {
	bytes.Buffer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.Buffer.Write(p)
}

var errDiskFull = errors.New("disk full")

type failingWriter struct{}

func (failingWriter) Write(p []byte) (int, error) { return 0, errDiskFull }

// FuzzEncode holds the encoder to the oracle on records built from
// arbitrary strings and numbers.
func FuzzEncode(f *testing.F) {
	f.Add(uint64(1), "market", "a\"b", 0.5)
	f.Add(uint64(7), "x\xff", "", math.Inf(1))
	f.Add(uint64(99), "ørn", "\x00\x1f", 1e-7)
	enc, err := trace.NewEncoder(header)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, seed uint64, a, b string, x float64) {
		rng := rand.New(rand.NewPCG(seed, seed>>32))
		g := recordGen{next: rng.Uint64, text: []string{a, b, "market", ""}}
		for _, k := range trace.Kinds() {
			body := g.body(k)
			if rt, ok := body.(*trace.BeliefChange); ok {
				rt.Confidence = x
			}
			if diff := sameAsOracle(enc, trace.Record{Seq: int64(seed % 1000), Tick: 3, Body: body}, header.Branch); diff != "" {
				t.Fatalf("%s: %s", k, diff)
			}
		}
	})
}
