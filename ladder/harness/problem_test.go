package harness_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/coverage"
	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/verdict"
	"github.com/chronicle/ladder/sim"
)

// These unit specs build on synthetic fixtures and edited copies of a
// run's own artifacts, so they pin the harness's messages, not the engine.

const abortWorld = `rung: T0.9
title: Unit — a run that aborts
tier: 0
seed_id: unit-T0.9
ticks: 8
locations:
  market: {hold: whiterun}
cast:
  merchant: {home: market}
  witness: {home: market}
  listener: {}
events:
  - {tick: 1, kind: theft, actor: player, victim: merchant, item: sweetroll, at: market, witnesses: [witness]}
  - {tick: 4, kind: report, from: listener, to: merchant, claim: theft@1}
`

func parse(name, src string) *fixture.Fixture {
	GinkgoHelper()
	fs, err := fixture.Parse(name, []byte(src))
	Expect(err).NotTo(HaveOccurred())
	return fs[0]
}

var _ = Describe("Problems", Label("unit"), func() {
	f := &fixture.Fixture{Rung: "T1.9", Slug: "unit", File: "fixtures/T1.9-unit.yaml", Pos: fixture.Pos{Line: 1, Column: 1}}
	at := func(check string, tick int64) verdict.Problem {
		return verdict.Problem{Rung: "T1.9", Check: check, Tick: tick, Message: check + " " + string(rune('a'+tick%26))}
	}

	failed := func(index int, line int, tick int64, msg string) expect.Result {
		return expect.Result{Index: index, Kind: "belief", At: expect.Pos{Line: line, Column: 5}, Tick: tick, Message: msg}
	}

	It("puts the earliest divergence first, across expectations, dense, trace and checkpoints, and problems without a tick last", func() {
		res := &ladder.Result{Fixture: f, Expectations: []expect.Result{
			failed(2, 30, 30, "belief(a, t).confidence = 0.9, want 0.5"),
			{Index: 3, Kind: "npc", Passed: true, Tick: -1},
			failed(4, 41, -1, "trace has no record matching {kind: encounter}"),
			func() expect.Result { r := failed(0, 20, 3, "holders of t: got [a], want [a b]"); r.More = 4; return r }(),
		}}
		v := verdict.Verdict{Problems: []verdict.Problem{at("trace.jsonl", 12), at("checkpoints.json", 24), at("goldens", -1), at("dense.csv", 12)}}
		ps := verdict.Problems(res, nil, v)
		var order []string
		for _, p := range ps {
			order = append(order, p.Check+"@"+itoa(p.Tick)+":"+p.Column)
		}
		Expect(order).To(Equal([]string{
			"expect@3:expect[0]", "trace.jsonl@12:", "dense.csv@12:", "checkpoints.json@24:", "expect@30:expect[2]",
			"expect@-1:expect[4]", "goldens@-1:",
		}))
		Expect(ps[0]).To(Equal(verdict.Problem{Rung: "T1.9", Check: "expect", Tick: 3, Column: "expect[0]", File: "fixtures/T1.9-unit.yaml", Line: 20,
			Message: "T1.9 expect[0] (fixtures/T1.9-unit.yaml:20:5) at tick 3: holders of t: got [a], want [a b] (and 4 more ticks) " +
				"(reproduce: make ladder RUNG=T1.9; if intended: `go run ./tools/ladder review T1.9`, then `accept -reason \"…\" T1.9`)", Link: "reports/index.html#T1.9@3"}))
	})

	DescribeTable("links each problem to the most specific place on the triage page",
		func(p verdict.Problem, link string) {
			p.Rung, p.Case = "T3.2", "private"
			Expect(p.PageLink()).To(Equal(link))
			Expect(p.FailureLine()).To(Equal(p.Message + " (page: " + link + ")"))
		},
		Entry("a belief's dense column", verdict.Problem{Check: "dense.csv", Tick: 40, Column: "torvar/brawl@0/gist"}, "reports/index.html#T3.2/private@40/belief=torvar:brawl@0"),
		Entry("an NPC's whereabouts", verdict.Problem{Check: "dense.csv", Tick: 7, Column: "o1/at"}, "reports/index.html#T3.2/private@7/npc=o1"),
		Entry("a social column", verdict.Problem{Check: "dense.csv", Tick: 9, Column: "grudge/torvar/player/emotional"}, "reports/index.html#T3.2/private@9/social=grudge%2Ftorvar%2Fplayer"),
		Entry("a believer count: the tick alone", verdict.Problem{Check: "dense.csv", Tick: 9, Column: "brawl@0/believers"}, "reports/index.html#T3.2/private@9"),
		Entry("an expectation on a belief", verdict.Problem{Check: "expect", Tick: 3, Message: "T3.2 expect[1] at tick 3: belief(o6, brawl@0).confidence = 0.9, want 0.5"}, "reports/index.html#T3.2/private@3/belief=o6:brawl@0"),
		Entry("an expectation on a grudge", verdict.Problem{Check: "expect", Tick: 3, Message: "grudge(torvar, player).emotional = 0.5"}, "reports/index.html#T3.2/private@3/social=grudge%2Ftorvar%2Fplayer"),
		Entry("no tick: the rung", verdict.Problem{Check: "dense.csv", Tick: -1, Column: "torvar/brawl@0/gist"}, "reports/index.html#T3.2/private"),
	)

	It("links a trace problem to its record by seq", func() {
		// T1.1 at another retell decay parts from its golden trace at the
		// telling of tick 12; the link names that record of the run.
		dir := GinkgoT().TempDir()
		fs, err := fixture.Load(filepath.Join("..", "..", "fixtures", "T1.1-tell.yaml"))
		Expect(err).NotTo(HaveOccurred())
		fx := *fs[0]
		fx.Defines.RetellDecay = 0.7
		res, err := ladder.Run(&fx, ladder.Options{Dir: dir, Goldens: filepath.Join("..", "..")})
		Expect(err).NotTo(HaveOccurred())
		var trace verdict.Problem
		for _, p := range verdict.Problems(res, nil, verdict.Verify(res)) {
			if p.Check == "trace.jsonl" {
				trace = p
			}
		}
		Expect(trace.Link).To(MatchRegexp(`^reports/index\.html#T1\.1@12/trace=\d+$`))
		seq := strings.TrimPrefix(trace.Link, "reports/index.html#T1.1@12/trace=")
		b, err := os.ReadFile(filepath.Join(dir, "trace.jsonl"))
		Expect(err).NotTo(HaveOccurred())
		n, err := strconv.Atoi(seq)
		Expect(err).NotTo(HaveOccurred())
		line := strings.Split(string(b), "\n")[n+1]
		Expect(line).To(ContainSubstring(`"kind":"transmission"`))
		Expect(line).To(ContainSubstring(`"seq":` + seq + ","))
	})

	It("puts an aborted run first: nothing after it can be trusted", func() {
		res := &ladder.Result{Fixture: f, Expectations: []expect.Result{failed(0, 20, 0, "x")}}
		ps := verdict.Problems(res, os.ErrDeadlineExceeded, verdict.Verdict{})
		Expect(verdict.Lines(ps)[0]).To(Equal("T1.9 run: aborted: i/o timeout (what it produced before that is in reports/T1.9/) " +
			"(reproduce: make ladder RUNG=T1.9; if intended: `go run ./tools/ladder review T1.9`, then `accept -reason \"…\" T1.9`)"))
		Expect(ps).To(HaveLen(2))
	})

	It("places a run the engine broke off with a panic at the panic's tick, and never offers to accept it", func() {
		crash := &sim.PanicError{Tick: 7, Value: "boom", Where: []string{"sim/world.go:1 sim.(*World).step"}}
		ps := verdict.Problems(&ladder.Result{Fixture: f}, fmt.Errorf("fixtures/x.yaml: %w", crash), verdict.Verdict{})
		Expect(ps[0].Tick).To(Equal(int64(7)))
		Expect(verdict.Lines(ps)[0]).To(Equal("T1.9 run: aborted: fixtures/x.yaml: tick 7: the engine panicked: boom (at sim/world.go:1 sim.(*World).step) " +
			"(what it produced before that is in reports/T1.9/) (reproduce: make ladder RUNG=T1.9; a panic is a bug in the engine, never a change to accept)"))
	})

	It("names a case in its commands", func() {
		c := *f
		c.Case = "swapped"
		ps := verdict.Problems(&ladder.Result{Fixture: &c, Expectations: []expect.Result{failed(0, 2, 1, "y")}}, nil, verdict.Verdict{})
		Expect(ps[0].Message).To(HaveSuffix("(reproduce: make ladder RUNG=T1.9/swapped; if intended: `go run ./tools/ladder review T1.9/swapped`, then `accept -reason \"…\" T1.9/swapped`)"))
		Expect(ps[0].Case).To(Equal("swapped"))
	})

	It("reports a checkpoint that sampled NaN at its tick and line", func() {
		src := strings.Replace(abortWorld, "  - {tick: 4, kind: report, from: listener, to: merchant, claim: theft@1}\n", "", 1) +
			"checkpoints:\n  every: 4\n  values:\n    ratio: holders(theft@1) / tick\n"
		res, err := run(parse("fixtures/T0.9-unit.yaml", src))
		Expect(err).NotTo(HaveOccurred())
		ps := verdict.Problems(res, nil, verdict.Verdict{})
		Expect(ps).NotTo(BeEmpty())
		Expect(ps[0].Check).To(Equal("checkpoints.json"))
		Expect(ps[0].Tick).To(Equal(int64(0)), "0/0 at tick 0, the first sample")
		Expect(ps[0].Column).To(Equal("ratio"))
		Expect(ps[0].Line).To(Equal(17), "the line of the checkpoint's expression")
		Expect(ps[0].Message).To(ContainSubstring("a checkpoint must be finite"))
	})
})

var _ = Describe("a run that aborts", Label("unit"), func() {
	It("still returns what it produced up to the abort, with the error", func() {
		res, err := run(parse("fixtures/T0.9-unit.yaml", abortWorld))
		Expect(err).To(MatchError(ContainSubstring("fixtures/T0.9-unit.yaml:14:5: events: report of theft@1")))
		Expect(res).NotTo(BeNil())
		arts := artifacts(res)
		Expect(strings.Count(string(arts[artifact.DenseFile]), "\n")).To(Equal(1+4), "the header and ticks 0-3")
		Expect(string(arts[artifact.TraceFile])).To(ContainSubstring(`"tick":3`))
		Expect(res.Checkpoints.Outcome.Ticks).To(Equal(int64(4)))
		Expect(entries(res.Dir)).To(ConsistOf(append(ladder.Artifacts(res.Fixture), artifact.EventsFile, coverage.RunFile)), "whole files, their seal, the exported log and the regimes reached beside them, and no temporary left")
		log, err := os.ReadFile(res.Path(artifact.EventsFile))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(log)).To(ContainSubstring(`"tick":1`), "the log up to the abort")
	})

	It("returns every tick's artifacts when it ends with an unused pin", func() {
		src := strings.Replace(abortWorld, "  - {tick: 4, kind: report, from: listener, to: merchant, claim: theft@1}\n", "", 1) +
			"pins:\n  - {purpose: encounter, tick: 6, site: market, between: [merchant, nobody], value: 0.1}\n"
		src = strings.Replace(src, "  listener: {}\n", "  listener: {}\n  nobody: {}\n", 1)
		res, err := run(parse("fixtures/T0.9-unit.yaml", src))
		Expect(err).To(MatchError(ContainSubstring("never matched a roll")))
		Expect(res).NotTo(BeNil())
		Expect(res.Checkpoints.Outcome.Ticks).To(Equal(int64(8)))
	})
})

var _ = Describe("an aborted run compared with its goldens", Label("unit"), func() {
	// The goldens are a whole run of a world, edited by edit; the run
	// under test is a world that aborts.
	goldens := func(src string, edit func(trace string) string) string {
		GinkgoHelper()
		f := parse("fixtures/T0.9-unit.yaml", src)
		res, _ := run(f)
		Expect(res).NotTo(BeNil())
		root := GinkgoT().TempDir()
		dir := filepath.Join(root, filepath.FromSlash(f.GoldenDir()))
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
		for name, b := range artifacts(res) {
			if name == artifact.TraceFile {
				b = []byte(edit(string(b)))
			}
			Expect(os.WriteFile(filepath.Join(dir, name), b, 0o644)).To(Succeed())
		}
		return root
	}
	same := func(trace string) string { return trace }
	whole := strings.Replace(abortWorld, "  - {tick: 4, kind: report, from: listener, to: merchant, claim: theft@1}\n", "", 1)
	aborted := func(src, root string) (*ladder.Result, error, []verdict.Problem) {
		GinkgoHelper()
		res, err := ladder.Run(parse("fixtures/T0.9-unit.yaml", src), ladder.Options{Dir: GinkgoT().TempDir(), Goldens: root})
		Expect(err).To(HaveOccurred())
		Expect(res).NotTo(BeNil())
		return res, err, verdict.Problems(res, err, verdict.Verify(res))
	}

	It("names the first record that moved before the abort, at its tick, and the abort second", func() {
		// A pin no roll will use (the listener is never at the market):
		// the run goes to its last tick, then aborts. Its golden trace
		// says the encounter of tick 2 went the other way.
		src := whole + "pins:\n  - {purpose: encounter, tick: 6, site: market, between: [listener, merchant], value: 0.1}\n"
		flipped := func(trace string) string {
			lines := strings.Split(trace, "\n")
			for i, l := range lines {
				if strings.Contains(l, `"kind":"encounter"`) && strings.Contains(l, `"tick":2}`) {
					lines[i] = strings.Replace(strings.Replace(l, `"fired":false`, `"fired":X`, 1), `"fired":true`, `"fired":false`, 1)
					lines[i] = strings.Replace(lines[i], `"fired":X`, `"fired":true`, 1)
					break
				}
			}
			Expect(strings.Join(lines, "\n")).NotTo(Equal(trace), "an encounter at tick 2 to flip")
			return strings.Join(lines, "\n")
		}
		_, err, ps := aborted(src, goldens(src, flipped))
		Expect(err).To(MatchError(ContainSubstring("never matched a roll")))
		var checks []string
		for _, p := range ps {
			checks = append(checks, p.Check)
		}
		Expect(checks).To(HaveLen(4))
		Expect(checks).To(Equal([]string{verdict.RootCheck, verdict.DriftCheck, "run", artifact.TraceFile}))
		Expect(ps[0].Tick).To(Equal(int64(2)), "the flipped encounter's record")
		Expect(ps[0].Link).To(MatchRegexp(`#T0\.9@2/trace=\d+$`))
	})

	It("does not call the golden's ticks after the abort missing", func() {
		res, err, ps := aborted(abortWorld, goldens(whole, same))
		Expect(err).To(MatchError(ContainSubstring("report of theft@1")))
		Expect(res.Checkpoints.Outcome.Ticks).To(Equal(int64(4)))
		Expect(verdict.Verify(res).Problems).To(BeEmpty(), "ticks 0-3 are the golden's, row for row and record for record")
		Expect(ps).To(HaveLen(1))
		Expect(ps[0].Check).To(Equal("run"))
	})

	It("still names a divergence in the ticks it finished", func() {
		moved := func(trace string) string {
			out := strings.Replace(trace, `"tick":3}`, `"tick":3,"extra":1}`, 1)
			Expect(out).NotTo(Equal(trace), "a record of tick 3 to change")
			return out
		}
		_, _, ps := aborted(abortWorld, goldens(whole, moved))
		Expect(ps[0].Check).To(Equal(verdict.RootCheck))
		Expect(ps[0].Tick).To(Equal(int64(3)), "the last tick the run finished")
		Expect(ps[2].Check).To(Equal("run"))
	})
})

var _ = Describe("Verify's messages lead", Label("unit"), func() {
	var (
		res  *ladder.Result
		tmp  string
		dir  string
		arts map[string][]byte
	)
	BeforeEach(func() {
		run, err := t02()
		Expect(err).NotTo(HaveOccurred())
		res, arts = run.res, run.arts
		tmp = GinkgoT().TempDir()
		dir = filepath.Join(tmp, "goldens", "T0.2-decay")
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
		for _, name := range artifact.RungNames {
			Expect(os.WriteFile(filepath.Join(dir, name), arts[name], 0o644)).To(Succeed())
		}
	})
	write := func(name string, b []byte) {
		GinkgoHelper()
		Expect(os.WriteFile(filepath.Join(dir, name), b, 0o644)).To(Succeed())
	}

	It("reports a changed column set by what was added and removed and the first shared column that differs", func() {
		lines := strings.Split(strings.TrimSuffix(string(arts[artifact.DenseFile]), "\n"), "\n")
		header := strings.Split(lines[0], ",")
		drop := -1
		for i, h := range header {
			if h == "theft@0/believers" {
				drop = i
			}
		}
		Expect(drop).To(BeNumerically(">", 0))
		for i, l := range lines {
			cells := strings.Split(l, ",")
			cells = append(cells[:drop], cells[drop+1:]...)
			if i == 41 { // tick 40
				cells = append(cells, "extra")
			}
			lines[i] = strings.Join(cells, ",")
		}
		lines[0] += ",ghost/at"
		for i := 1; i < len(lines); i++ {
			if i != 41 {
				lines[i] += ","
			}
		}
		row := strings.Split(lines[51], ",") // tick 50
		row[1] = "False"
		lines[51] = strings.Join(row, ",")
		write(artifact.DenseFile, []byte(strings.Join(lines, "\n")+"\n"))

		v := verify(res.Fixture, tmp)
		Expect(messages(v)).To(Equal([]string{`T0.2 dense.csv: columns differ: 1 added (theft@0/believers), 1 removed (ghost/at); ` +
			`shared columns first differ at tick 50, column "` + header[1] + `": golden False, actual True ` + t02Commands}))
		Expect(v.Problems[0].Tick).To(Equal(int64(0)), "the earliest change is the added column's first value")
	})

	It("collapses many checkpoint differences to the earliest and a count", func() {
		g, err := checkpoint.Parse("golden", arts[artifact.CheckpointsFile])
		Expect(err).NotTo(HaveOccurred())
		for _, s := range g.Samples[1:] {
			x := *s.Values["gist"] + 0.5
			s.Values["gist"] = &x
		}
		g.Outcome.Beliefs = 7
		b, err := g.Marshal()
		Expect(err).NotTo(HaveOccurred())
		write(artifact.CheckpointsFile, b)
		v := verify(res.Fixture, tmp)
		Expect(messages(v)).To(HaveLen(1))
		Expect(messages(v)[0]).To(MatchRegexp(`^T0\.2 checkpoints\.json: checkpoint "gist" at tick 24: golden \S+, actual \S+ \(\|Δ\| \S+ > 1e-05, regime 1\) ` +
			`\(and \d+ more checkpoint differences\) \(reproduce`))
		Expect(v.Problems[0].Tick).To(Equal(int64(24)))
		Expect(v.Problems[0].Column).To(Equal("gist"))
	})

	It("shows the fields of a trace record that differ, never two look-alike excerpts", func() {
		golden := strings.Replace(string(arts[artifact.TraceFile]), `"confidence":0.9,`, `"confidence":0.8,`, 1)
		Expect(golden).NotTo(Equal(string(arts[artifact.TraceFile])))
		write(artifact.TraceFile, []byte(golden))
		v := verify(res.Fixture, tmp)
		Expect(messages(v)).To(HaveLen(1))
		Expect(messages(v)[0]).To(MatchRegexp(`^T0\.2 trace\.jsonl: first divergent record at line \d+ \(tick 0, \w+ "[^"]+"\): confidence: golden 0\.8, actual 0\.9 \(reproduce`))
		Expect(v.Problems[0].Golden).To(Equal("0.8"))
	})
})

func itoa(n int64) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// subjectWorld is a small social world whose expectations each fail
// about one thing: an NPC, a role, a schedule, a holder, a trace record.
const subjectWorld = `rung: T5.9
title: Unit — failures that name what they are about
tier: 5
seed_id: unit-T0.9-subjects
ticks: 8
locations:
  market: {hold: whiterun}
roles:
  steward:
    faction: court
    holder: proventus
    duties:
      - {at: market, from: 3, to: 4, daily: true}
cast:
  proventus: {faction: court, home: market}
  belethor:
    schedule: [{at: market, from: 2, to: 8}]
  ysolda: {}
events:
  - {tick: 1, kind: killing, actor: player, victim: proventus, at: market, witnesses: [belethor]}
expect:
`

var _ = Describe("a failed expectation's link", Label("unit"), func() {
	DescribeTable("opens the row the failure is about",
		func(item, link string) {
			res, err := run(parse("fixtures/T5.9-unit.yaml", subjectWorld+"  - "+item+"\n"))
			Expect(err).NotTo(HaveOccurred())
			var ps []verdict.Problem
			for _, p := range verdict.Problems(res, nil, verdict.Verdict{}) {
				if p.Check == "expect" {
					ps = append(ps, p)
				}
			}
			Expect(ps).To(HaveLen(1), "the one expectation fails")
			Expect(ps[0].Link).To(MatchRegexp("^reports/index\\.html#" + link + "$"))
		},
		Entry("an NPC", "{at: 2, npc: {id: proventus, alive: true}}", `T5\.9@2/npc=proventus`),
		Entry("a role", "{at: 2, role: {id: steward, holder: proventus}}", `T5\.9@2/social=role%2Fsteward`),
		Entry("a schedule", "{at: 3, schedule: {npc: ysolda, at: market}}", `T5\.9@3/social=schedule%2Fysolda`),
		Entry("a missing holder: why not", "{at: 2, holders: {claim: killing@1, exactly: [belethor, ysolda]}}", `T5\.9@2/whynot=ysolda:killing@1`),
		Entry("an unexpected holder: the belief", "{at: 2, holders: {claim: killing@1, only: [ysolda]}}", `T5\.9@2/belief=belethor:killing@1`),
		Entry("a trace negative: the first record that matched", "{trace: {match: {kind: event, event: killing}, exists: false}}", `T5\.9@1/trace=\d+`),
		Entry("a trace count of 0: the same", "{from: 0, to: 7, trace: {match: {kind: event, event: killing}, count: 0}}", `T5\.9@1/trace=\d+`),
	)

	It("opens a trace negative at the record that matched it", func() {
		res, err := run(parse("fixtures/T5.9-unit.yaml", subjectWorld+"  - {trace: {match: {kind: role, role: steward}, exists: false}}\n"))
		Expect(err).NotTo(HaveOccurred())
		ps := verdict.Problems(res, nil, verdict.Verdict{})
		Expect(ps).To(HaveLen(1))
		Expect(ps[0].Message).To(ContainSubstring(") at tick 1: 1 trace records match"), "placed at the first record that matched")
		seq := strings.TrimPrefix(ps[0].Link, "reports/index.html#T5.9@1/trace=")
		n, err := strconv.Atoi(seq)
		Expect(err).NotTo(HaveOccurred())
		b, err := os.ReadFile(res.Path(artifact.TraceFile))
		Expect(err).NotTo(HaveOccurred())
		line := strings.Split(string(b), "\n")[n+1]
		Expect(line).To(ContainSubstring(`"seq":` + seq + ","))
		Expect(line).To(ContainSubstring(`"kind":"role"`))
		Expect(line).To(ContainSubstring(`"tick":1}`))
	})
})

var _ = Describe("a fear negative, contributors: []", Label("unit"), func() {
	// In the subject world Belethor, at the market from tick 2, believes
	// the killing he saw at tick 1; nobody else is anywhere.
	check := func(item string) []expect.Result {
		GinkgoHelper()
		res, err := run(parse("fixtures/T5.9-unit.yaml", subjectWorld+"  - "+item+"\n"))
		Expect(err).NotTo(HaveOccurred())
		return res.Expectations
	}

	It("examines every belief the view weighed, so it fails where one carries fear", func() {
		r := check("{at: 3, fear: {location: market, contributors: []}}")[0]
		Expect(r.Passed).To(BeFalse())
		Expect(r.Message).To(ContainSubstring("contributors = [belethor], want exactly []"))
	})

	It("holds where the beliefs weighed carry none, having examined them", func() {
		// The killing is forgotten by no tick of this short run; a title
		// carries no fear, so a world whose only belief there is a title
		// is where the negative holds.
		src := strings.Replace(subjectWorld, "kind: killing, actor: player, victim: proventus, at: market, witnesses: [belethor]",
			"kind: title, actor: player, recipient: belethor, title: thane, at: market, witnesses: [belethor]", 1)
		res, err := run(parse("fixtures/T5.9-unit.yaml", src+"  - {at: 3, fear: {location: market, contributors: []}}\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Expectations[0].Passed).To(BeTrue(), res.Expectations[0].Message)
		Expect(res.Expectations[0].Examined).To(BeNumerically(">", 0), "Belethor's belief in the title, weighed")
	})

	It("fails as having checked nothing where nobody is", func() {
		r := check("{at: 0, fear: {location: market, contributors: []}}")[0]
		Expect(r.Passed).To(BeFalse())
		Expect(r.Message).To(HavePrefix("checked nothing: examined 0 beliefs weighed"))
	})
})
