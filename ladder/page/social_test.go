package page_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/goldenset"
	"github.com/chronicle/ladder/ladder/page"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/trace"
)

// The panel on the ladder's own social rungs: at every tick it must show
// exactly the engine's state (a fresh world stepped to that tick), and
// every row's last record must be a record of the trace at or before the
// tick whose rule evaluation, when linked, is the rule that wrote it.
var _ = Describe("the social-state panel on the ladder's rungs", func() {
	for _, file := range []string{"T3.1-serial-theft.yaml", "T3.3-favor-ledger.yaml", "T4b.1-avoidance.yaml", "T5.1-vacancy.yaml"} {
		It("shows the engine's social state at every tick of "+file+", each row linked to what last changed it", func() {
			f := loadRung(GinkgoT(), file)[0]
			s := build(passingRun(GinkgoT(), f), page.Options{})
			Expect(s.HasSocial()).To(BeTrue())
			engine := engineSocial(GinkgoT(), f)
			cells, links := 0, 0
			for tick := range f.Ticks {
				Expect(cmp.Diff(engine[tick], modelSocial(s, tick))).To(BeEmpty(), "tick %d (-engine +page)", tick)
				for _, r := range s.SocialAt(tick) {
					cells += len(r.Values)
					if r.Last == nil {
						continue
					}
					Expect(r.Last.Tick).To(BeNumerically("<=", tick))
					Expect(r.Last.Block + "/" + r.Last.Key).To(Equal(r.Block + "/" + r.Key))
					if r.Last.RuleSeq < 0 {
						continue
					}
					i := indexOfSeq(s, r.Last.RuleSeq)
					Expect(i).To(BeNumerically(">=", 0), "%s: rule record seq %d is not in the feed", r.Last.Text(), r.Last.RuleSeq)
					Expect(s.Feed[i].Kind).To(Equal(page.KindRule))
					Expect(s.Feed[i].Tick).To(Equal(r.Last.Tick))
					Expect(s.Feed[i].Fields[0]).To(Equal(r.Last.Rule), "%s links to another rule's evaluation", r.Last.Text())
					subject := s.Feed[i].Fields[1]
					Expect(slices.ContainsFunc(subjectsOf(r.Last), func(p string) bool { return strings.HasPrefix(subject, p) })).To(BeTrue(),
						"%s links to an evaluation for %s, want one starting with one of %q", r.Last.Text(), subject, subjectsOf(r.Last))
					links++
				}
			}
			GinkgoWriter.Printf("%s: %d cells and %d links checked over %d ticks\n", f.Name(), cells, links, f.Ticks)
			Expect(cells).To(BeNumerically(">", 0), "the check examined no social cell")
			Expect(links).To(BeNumerically(">", 0), "the check examined no link")
		})
	}

	at := func(s *page.Section, tick int64, block, key string) page.SocialRow {
		GinkgoHelper()
		for _, r := range s.SocialAt(tick) {
			if r.Block == block && r.Key == key {
				return r
			}
		}
		Fail("no " + block + " " + key)
		return page.SocialRow{}
	}
	ruleOf := func(s *page.Section, c *page.SocialChange) string {
		GinkgoHelper()
		Expect(c).NotTo(BeNil())
		i := indexOfSeq(s, c.RuleSeq)
		Expect(i).To(BeNumerically(">=", 0))
		return strings.Join(s.Feed[i].Fields[:3], " ")
	}

	// The rows below are checked against the run's committed trace: the
	// records they must show, and the rule evaluation each must link to,
	// are found there, never written here, so an intended change to a
	// rung leaves these specs green.
	golden := func(f *fixture.Fixture) []goldenset.Record {
		GinkgoHelper()
		recs, err := goldenset.Trace(root, f)
		Expect(err).NotTo(HaveOccurred())
		return recs
	}
	// find returns the first record of the golden trace ok accepts.
	find := func(recs []goldenset.Record, what string, ok func(goldenset.Record) bool) goldenset.Record {
		GinkgoHelper()
		i := slices.IndexFunc(recs, ok)
		Expect(i).To(BeNumerically(">=", 0), "the golden trace has no %s: the spec examines nothing", what)
		return recs[i]
	}
	// ruleBefore is the rule evaluation a delta links to: the last one of
	// its rule that fired earlier in the same tick.
	ruleBefore := func(recs []goldenset.Record, d goldenset.Record) string {
		GinkgoHelper()
		var last goldenset.Record
		for _, r := range recs {
			if r.Seq() >= d.Seq() {
				break
			}
			if r.S("kind") == "rule" && r.S("rule") == d.S("rule") && r.Tick() == d.Tick() && r["fired"] == true {
				last = r
			}
		}
		Expect(last).NotTo(BeNil(), "no evaluation of %s before seq %d", d.S("rule"), d.Seq())
		return last.S("rule") + " " + last.S("subject") + " " + last.S("reason")
	}
	kind := func(k string) func(goldenset.Record) bool {
		return func(r goldenset.Record) bool { return r.S("kind") == k }
	}
	seqOf := func(r goldenset.Record) string { return r.S("seq") }

	It("names the refusal behind T3.3's grudge and the parties of each favour", func() {
		f := loadRung(GinkgoT(), "T3.3-favor-ledger.yaml")[0]
		recs := golden(f)
		s := build(passingRun(GinkgoT(), f), page.Options{})
		g := find(recs, "grudge formed", func(r goldenset.Record) bool { return r.S("kind") == "grudge" && r.S("change") == "formed" })
		later := min(g.Tick()+5, f.Ticks-1)
		Expect(s.SocialAt(g.Tick() - 1)).NotTo(ContainElement(HaveField("Block", "grudge")))
		row := at(s, later, "grudge", g.S("holder")+"/"+g.S("target"))
		Expect(row.Last.Text()).To(Equal(fmt.Sprintf("t%d formed — %s ← %s (trace seq %s)", g.Tick(), g.S("rule"), g.S("cause"), seqOf(g))))
		Expect(ruleOf(s, row.Last)).To(Equal(ruleBefore(recs, g)))

		v := find(recs, "violated obligation", func(r goldenset.Record) bool { return r.S("kind") == "obligation" && r.S("state") == "violated" })
		issued := find(recs, "issued obligation", func(r goldenset.Record) bool {
			return r.S("kind") == "obligation" && r.S("id") == v.S("id") && r.S("state") == "issued"
		})
		o := at(s, max(later, v.Tick()), "obligation", v.S("favour"))
		Expect(o.Values).To(Equal([]string{"violated"}))
		Expect(o.Last.Detail).To(Equal([]string{v.S("creditor"), v.S("debtor")}))
		Expect(at(s, v.Tick()-1, "obligation", v.S("favour")).Values).To(Equal([]string{issued.S("state")}))

		rep := find(recs, "reputation row", kind("reputation"))
		key := rep.S("observer") + "/" + rep.S("subject") + "/" + rep.S("dimension")
		again := slices.ContainsFunc(recs, func(r goldenset.Record) bool {
			return r.S("kind") == "reputation" && r.Seq() > rep.Seq() && r.S("observer")+"/"+r.S("subject")+"/"+r.S("dimension") == key
		})
		Expect(again).To(BeFalse(), "the spec reads %s's row after its only change", key)
		r := at(s, f.Ticks-1, "reputation", key)
		Expect(r.Values).To(Equal([]string{rep.S("alpha"), rep.S("beta"), rep.S("mean")}))
		Expect(r.Last.Text()).To(Equal(fmt.Sprintf("t%d moved to α %s, β %s — %s ← %s (trace seq %s)", rep.Tick(), rep.S("alpha"), rep.S("beta"), rep.S("rule"), rep.S("cause"), seqOf(rep))))
		Expect(ruleOf(s, r.Last)).To(Equal(ruleBefore(recs, rep)))
	})

	It("follows T5.1's steward from holder to vacancy and the successor, each change linked to its record", func() {
		f := loadRung(GinkgoT(), "T5.1-vacancy.yaml")[0]
		recs := golden(f)
		s := build(passingRun(GinkgoT(), f), page.Options{})
		roles := slices.DeleteFunc(slices.Clone(recs), func(r goldenset.Record) bool { return r.S("kind") != "role" })
		Expect(len(roles)).To(BeNumerically(">=", 2), "the golden run changes no role twice: the spec examines nothing")
		first, appointed := roles[0], find(roles, "appointment", func(r goldenset.Record) bool { return r.S("change") == "appointed" })
		role := first.S("role")
		before := at(s, first.Tick()-1, "role", role)
		Expect(before.Values[0]).To(Equal(first.S("previous")), "held by its first holder before it first changed")
		Expect(before.Last).To(BeNil())
		for _, c := range roles {
			r := at(s, c.Tick(), "role", c.S("role"))
			Expect(r.Last.Tick).To(Equal(c.Tick()))
			Expect(r.Last.Seq).To(Equal(c.Seq()))
			Expect(r.Last.Cause).To(Equal(c.S("cause")))
			Expect(r.Last.Rule).To(Equal(c.S("rule")))
			Expect(r.Values[0]).To(Equal(c.S("holder")))
		}
		r := at(s, appointed.Tick(), "role", role)
		Expect(r.Last.Text()).To(Equal(fmt.Sprintf("t%d appointed: %s (was %s) — %s ← %s (trace seq %s)",
			appointed.Tick(), appointed.S("holder"), appointed.S("previous"), appointed.S("rule"), appointed.S("cause"), seqOf(appointed))))
		Expect(ruleOf(s, r.Last)).To(Equal(ruleBefore(recs, appointed)))
	})

	It("ties T3.1's accumulator to the victim's evaluations of the thief's thefts", func() {
		f := loadRung(GinkgoT(), "T3.1-serial-theft.yaml")[0]
		recs := golden(f)
		s := build(passingRun(GinkgoT(), f), page.Options{})
		e := find(recs, "escalation", func(r goldenset.Record) bool {
			return r.S("kind") == "rule" && r.S("rule") == "accumulation-threshold" && r["fired"] == true
		})
		victim, _, _ := strings.Cut(e.S("subject"), "/")
		var key string
		for _, r := range s.SocialAt(e.Tick()) {
			if r.Block == "accumulator" && strings.HasPrefix(r.Key, victim+"/") {
				key = r.Key
			}
		}
		Expect(key).NotTo(BeEmpty(), "no accumulator of %s at tick %d", victim, e.Tick())
		a := at(s, e.Tick(), "accumulator", key)
		Expect(a.Last.Text()).To(Equal(fmt.Sprintf("t%d %s — %s ← %s (trace seq %s)", e.Tick(), e.S("reason"), e.S("rule"), strings.TrimPrefix(e.S("subject"), victim+"/"), seqOf(e))))
		Expect(a.Values[1]).To(Equal("False"), "disarmed once it fired")
		Expect(at(s, e.Tick()-1, "accumulator", key).Values[1]).To(Equal("True"), "armed before")
	})

	It("gives a Tier 0–2 rung no panel at all", func() {
		in := passingRun(GinkgoT(), loadRung(GinkgoT(), "T0.1-witness.yaml")[0])
		s := build(in, page.Options{})
		Expect(s.HasSocial()).To(BeFalse())
		Expect(s.SocialAt(5)).To(BeEmpty())
		Expect(s.Social).To(BeEmpty())
		Expect(string(render(in))).NotTo(ContainSubstring(`class="panel social"`))
		social := passingRun(GinkgoT(), loadRung(GinkgoT(), "T3.3-favor-ledger.yaml")[0])
		Expect(strings.Count(string(render(in, social)), `class="panel social"`)).To(Equal(1))
	})
})

// subjectsOf are how the subject of the rule evaluation behind a social
// change may start (docs/trace-schema.md, "The rules that write
// records"): with the holder, observer or victim ("holder/claim"), with
// either NPC of a pair ("holder->target/cause"), with the role
// ("steward", "steward<-irileth", "steward/duties:…"), also for a duty
// moved by role succession (the role is the cause's last part), with the
// NPC for a mourning, and with the invocation or favour that changed an
// obligation.
func subjectsOf(c *page.SocialChange) []string {
	parts := strings.Split(c.Key, "/")
	switch {
	case c.Block == "obligation":
		return []string{c.Cause}
	case c.Block == "schedule" && c.Rule == "role-succession":
		return []string{c.Cause[strings.LastIndex(c.Cause, ":")+1:]}
	case c.Block == "pair":
		return []string{parts[0] + "->", parts[1] + "->"}
	}
	return []string{parts[0]}
}

// indexOfSeq returns the index in the section's feed of the record with
// the given seq, -1 when it is not embedded.
func indexOfSeq(s *page.Section, seq int64) int {
	for i, r := range s.Feed {
		if r.Seq == seq {
			return i
		}
	}
	return -1
}

// A synthetic social run: a bears b a grudge from tick 1; b, the jarl,
// dies at tick 2 and a mourns at the temple until tick 4; the jarl's duty
// lapses at tick 3 and a is appointed at tick 4.
const socialDense = `tick,a/alive,a/at,b/alive,b/at,grudge/a/b/emotional,grudge/a/b/evidentiary,grudge/a/b/settled,role/jarl/holder,role/jarl/vacant,role/jarl/lapses,schedule/a/base,schedule/a/override
0,True,hall,True,hall,,,,b,False,0,,
1,True,hall,True,hall,0.5,0.4,False,b,False,0,,
2,True,temple,False,,0.45,0.38,False,,True,0,hall,rewrite@2:a:killing@2
3,True,temple,False,,0.4,0.36,False,,True,1,hall,rewrite@2:a:killing@2
4,True,hall,False,,0.35,0.34,False,a,False,1,hall,
`

func socialTrace(reinforced bool) []byte {
	out, err := socialTraceJSONL(reinforced)
	Expect(err).NotTo(HaveOccurred())
	return out
}

// socialTraceJSONL writes the synthetic run's trace with the engine's own
// writer.
func socialTraceJSONL(reinforced bool) ([]byte, error) {
	buf := &trace.Buffer{Header: trace.Header{SeedID: "synth", Branch: events.Branch{SaveUUID: "s"}, KeyframeEvery: 24, Social: true}}
	add := func(tick int64, b trace.Body) {
		buf.Emit(trace.Record{Seq: int64(len(buf.Records)), Tick: tick, Body: b})
	}
	add(1, trace.RuleEval{Rule: "grudge-creation", Subject: "a/brawl@1", Fired: true, Reason: "brawl lost in public"})
	add(1, trace.Grudge{Holder: "a", Target: "b", Change: "formed", Emotional: 0.5, Evidentiary: 0.4, Rule: "grudge-creation", Cause: "brawl@1"})
	add(2, trace.RuleEval{Rule: "role-succession", Subject: "jarl", Fired: true, Reason: "vacant: b died"})
	add(2, trace.Role{Role: "jarl", Change: "vacant", Previous: "b", Rule: "role-succession", Cause: "death@killing@2"})
	add(2, trace.RuleEval{Rule: "schedule-write-back", Subject: "a/killing@2", Fired: true, Reason: "kin killed: b: mourns at temple"})
	add(2, trace.Schedule{NPC: "a", Change: "overridden", Override: "rewrite@2:a:killing@2", At: "temple", From: 2, To: 4, Rule: "schedule-write-back", Cause: "killing@2"})
	if reinforced {
		add(2, trace.Grudge{Holder: "a", Target: "b", Change: "reinforced", Emotional: 0.6, Evidentiary: 0.5, Rule: "grudge-creation", Cause: "killing@2"})
	}
	add(3, trace.RuleEval{Rule: "role-succession", Subject: "jarl/duties:jarl:0", Fired: true, Reason: "duty lapsed: the role is vacant"})
	add(4, trace.Schedule{NPC: "a", Change: "restored", Override: "rewrite@2:a:killing@2", At: "temple", From: 4, Rule: "schedule-write-back", Cause: "rewrite@2:a:killing@2"})
	add(4, trace.RuleEval{Rule: "role-succession", Subject: "jarl<-a", Fired: true, Reason: "appointed: the highest score"})
	add(4, trace.Role{Role: "jarl", Change: "appointed", Holder: "a", Previous: "b", Rule: "role-succession", Cause: "vacancy@2:jarl"})
	return buf.AppendJSONL(nil)
}

func socialInput() page.Input { return socialInputWith(socialTrace(false)) }

func socialInputWith(trace []byte) page.Input {
	return page.Input{Name: "T9.3", Title: "Synthetic social", Source: "fixtures/T9.3-synth.yaml:1",
		Dense: page.Data(socialDense), Trace: page.Data(trace)}
}

// panel is the part of a panel row these specs pin.
type panel struct {
	Block, Key, Values, Golden, Last, Where string
}

func panelAt(s *page.Section, tick int64) []panel {
	var out []panel
	for _, r := range s.SocialAt(tick) {
		p := panel{Block: r.Block, Key: r.Key, Values: strings.Join(r.Values, "|"), Golden: strings.Join(r.Golden, "|"), Where: r.Where}
		if r.Last != nil {
			p.Last = r.Last.Text()
		}
		out = append(out, p)
	}
	return out
}

var _ = Describe("the social-state panel's model", func() {
	It("shows each record only once it exists, with the values of that very tick", func() {
		s := build(socialInput(), page.Options{})
		Expect(cmp.Diff([]panel{
			{Block: "role", Key: "jarl", Values: "b|False|0"},
		}, panelAt(s, 0))).To(BeEmpty())
		Expect(cmp.Diff([]panel{
			{Block: "grudge", Key: "a/b", Values: "0.45|0.38|False", Last: "t1 formed — grudge-creation ← brawl@1 (trace seq 1)"},
			{Block: "role", Key: "jarl", Values: "|True|0", Last: "t2 vacant: vacant (was b) — role-succession ← death@killing@2 (trace seq 3)"},
			{Block: "schedule", Key: "a", Values: "hall|rewrite@2:a:killing@2", Where: "temple",
				Last: "t2 overridden rewrite@2:a:killing@2 at temple — schedule-write-back ← killing@2 (trace seq 5)"},
		}, panelAt(s, 2))).To(BeEmpty())
		Expect(cmp.Diff([]panel{
			{Block: "grudge", Key: "a/b", Values: "0.35|0.34|False", Last: "t1 formed — grudge-creation ← brawl@1 (trace seq 1)"},
			{Block: "role", Key: "jarl", Values: "a|False|1", Last: "t4 appointed: a (was b) — role-succession ← vacancy@2:jarl (trace seq 9)"},
			{Block: "schedule", Key: "a", Values: "hall|",
				Last: "t4 restored rewrite@2:a:killing@2 at temple — schedule-write-back ← rewrite@2:a:killing@2 (trace seq 7)"},
		}, panelAt(s, 4))).To(BeEmpty())
	})

	It("links a delta to its rule's evaluation just before it, and an evaluation to itself", func() {
		s := build(socialInput(), page.Options{})
		seqs := map[string]int64{}
		for _, c := range s.Social {
			seqs[c.Text()] = c.RuleSeq
		}
		Expect(seqs).To(Equal(map[string]int64{
			"t1 formed — grudge-creation ← brawl@1 (trace seq 1)":                                                     0,
			"t2 vacant: vacant (was b) — role-succession ← death@killing@2 (trace seq 3)":                             2,
			"t2 overridden rewrite@2:a:killing@2 at temple — schedule-write-back ← killing@2 (trace seq 5)":           4,
			"t3 duty lapsed: the role is vacant — role-succession ← duties:jarl:0 (trace seq 6)":                      6,
			"t4 restored rewrite@2:a:killing@2 at temple — schedule-write-back ← rewrite@2:a:killing@2 (trace seq 7)": -1,
			"t4 appointed: a (was b) — role-succession ← vacancy@2:jarl (trace seq 9)":                                8,
		}))
	})

	It("keeps what last touched a row before a capped window, and only that", func() {
		in := socialInput()
		in.Trace = page.Data(socialTrace(true))
		in.Failures = []string{"T9.3 something at tick 4"}
		s := build(in, page.Options{MaxRows: 2})
		Expect(s.Rows.From).To(Equal(int64(3)))
		Expect(panelAt(s, 3)).To(ContainElement(panel{Block: "grudge", Key: "a/b", Values: "0.4|0.36|False",
			Last: "t2 reinforced — grudge-creation ← killing@2 (trace seq 6)"}))
		var texts []string
		for _, c := range s.Social {
			texts = append(texts, c.Text())
		}
		Expect(texts).To(Equal([]string{
			"t2 vacant: vacant (was b) — role-succession ← death@killing@2 (trace seq 3)",
			"t2 overridden rewrite@2:a:killing@2 at temple — schedule-write-back ← killing@2 (trace seq 5)",
			"t2 reinforced — grudge-creation ← killing@2 (trace seq 6)",
			"t3 duty lapsed: the role is vacant — role-succession ← duties:jarl:0 (trace seq 7)",
			"t4 restored rewrite@2:a:killing@2 at temple — schedule-write-back ← rewrite@2:a:killing@2 (trace seq 8)",
			"t4 appointed: a (was b) — role-succession ← vacancy@2:jarl (trace seq 10)",
		}), "before the window only the last record of each row, in derivation order")
	})

	It("shows the golden's cells beneath a failing run's where they differ", func() {
		in := socialInput()
		in.Failures = []string{"T9.3 role at tick 4"}
		in.GoldenDense = page.Data(strings.Replace(socialDense, "\n4,True,hall,False,,0.35,0.34,False,a,", "\n4,True,hall,False,,0.35,0.34,False,b,", 1))
		s := build(in, page.Options{})
		rows := panelAt(s, 4)
		Expect(rows[0].Golden).To(BeEmpty())
		Expect(rows[1].Golden).To(Equal("b|False|1"))
		Expect(panelAt(s, 3)[1].Golden).To(BeEmpty())
	})
})

// FuzzSocialTrace checks that no trace line — a social delta with
// missing or odd fields, an evaluation with a malformed subject — makes
// Build or SocialAt panic, and that every row's last record is at or
// before the tick it is shown at, for the row it is shown on.
func FuzzSocialTrace(f *testing.F) {
	full, err := socialTraceJSONL(true)
	if err != nil {
		f.Fatal(err)
	}
	lines := strings.SplitAfter(string(full), "\n")
	header := lines[0]
	for _, l := range lines[1:] {
		if l != "" {
			f.Add(l)
		}
	}
	f.Add(`{"kind":"rule","rule":"pairwise-encounter-weighting","subject":"a->","fired":true,"tick":2,"seq":1}` + "\n")
	f.Add(`{"kind":"rule","rule":"accumulation-threshold","subject":"a","tick":1,"seq":1}` + "\n")
	f.Add(`{"kind":"schedule","tick":3,"seq":1}` + "\n")
	f.Fuzz(func(t *testing.T, line string) {
		s, err := page.Build(socialInputWith([]byte(header+line)), page.Options{})
		if err != nil {
			return
		}
		for tick := range int64(6) {
			for _, r := range s.SocialAt(tick) {
				if r.Last == nil {
					continue
				}
				_ = r.Last.Text()
				if r.Last.Tick > tick || r.Last.Block != r.Block || r.Last.Key != r.Key {
					t.Fatalf("at tick %d the %s row %s shows %+v", tick, r.Block, r.Key, *r.Last)
				}
			}
		}
	})
}
