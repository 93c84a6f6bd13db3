package report_test

import (
	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/report"
	"github.com/chronicle/ladder/ladder/verdict"
)

// prob is a synthetic problem of run rung[/case] at tick.
func prob(rung, cas, check string, tick int64, msg string) verdict.Problem {
	name := rung
	if cas != "" {
		name += "/" + cas
	}
	return verdict.Problem{Rung: rung, Case: cas, Check: check, Tick: tick, File: "fixtures/x.yaml", Line: 3,
		Message: name + " " + check + ": " + msg + " (reproduce: make ladder RUNG=" + name + ")", Link: "reports/index.html#" + name}
}

var _ = Describe("FailedRuns", func() {
	It("orders runs by tier (numerically, then by letter), then earliest tick (none last), then name — never by the order they ran", func() {
		in := []verdict.Problem{
			prob("T4b.1", "", "root", 19, "b"),
			prob("T10.1", "", "root", 0, "ten"),
			prob("T3.2", "settles", "expect", -1, "no tick"),
			prob("T3.2", "settles", "dense.csv", 40, "later"),
			prob("T4a.1", "", "root", 30, "a"),
			prob("T3.2", "", "root", 40, "c"),
			prob("T3.2", "private", "root", 8, "d"),
			prob("T3.3", "", "determinism", -1, "rerun"),
			func() verdict.Problem {
				p := prob("T4a.1", "", "expect", 0, "a count over ticks [0, 19]")
				p.Ranged = true
				return p
			}(),
			{Check: "spec", Tick: -1, Message: "a harness spec"},
		}
		runs := report.FailedRuns(in)
		var names []string
		for _, r := range runs {
			names = append(names, r.Name)
		}
		Expect(names).To(Equal([]string{"T3.2/private", "T3.2", "T3.2/settles", "T3.3", "T4a.1", "T4b.1", "T10.1"}))
		Expect(runs[2].Tick).To(BeEquivalentTo(40), "a run's earliest tick is its earliest problem's")
		Expect(runs[2].Problems).To(HaveLen(2), "a run keeps its problems in its own order")
		Expect(runs[2].Problems[0].Check).To(Equal("expect"))
		Expect(runs[3].Tick).To(BeEquivalentTo(-1))
		Expect(runs[4].Tier).To(Equal("4a"))
		Expect(runs[4].Tick).To(BeEquivalentTo(30), "a count judged over a range from tick 0 is not where the run diverged")
	})

	It("keeps a run's drift class from its drift line", func() {
		d := prob("T1.1", "", "drift", 12, "control-flow drift: …")
		d.Class = "control-flow drift"
		runs := report.FailedRuns([]verdict.Problem{prob("T1.1", "", "root", 12, "r"), d})
		Expect(runs).To(HaveLen(1))
		Expect(runs[0].Class).To(Equal("control-flow drift"))
	})
})

var _ = Describe("ClosingLines", func() {
	It("starts with the first run's first problem, commands and page link included, then one line per run without them", func() {
		a := prob("T3.2", "", "root", 0, "tick 0, trace line 55: grudge …")
		a.Class = "value drift"
		lines := report.ClosingLines(report.FailedRuns([]verdict.Problem{prob("T4b.1", "partial", "root", 19, "x"), a}))
		Expect(lines).To(Equal([]string{
			"start here: T3.2 at tick 0: root: tick 0, trace line 55: grudge … (reproduce: make ladder RUNG=T3.2) (page: reports/index.html#T3.2)",
			"failed runs (2), by tier, then earliest divergent tick:",
			"  T3.2           tick 0      value drift         root: tick 0, trace line 55: grudge …",
			"  T4b.1/partial  tick 19     -                   root: x",
		}))
	})

	It("says nothing when nothing failed", func() {
		Expect(report.ClosingLines(nil)).To(BeEmpty())
	})
})

var _ = Describe("NewJUnit's placement and late problems", func() {
	It("puts a failed rung on the fixture line of its first problem located inside it, as failures.json has it", func() {
		rootLine := verdict.Problem{Rung: "T2.3", Check: "root", Tick: 4, File: "fixtures/T2.3-x.yaml", Line: 1, Message: "T2.3 root: …"}
		p := verdict.Problem{Rung: "T2.3", Check: "expect", Tick: 4, File: "fixtures/T2.3-x.yaml", Line: 57, Message: "T2.3 expect[1] …"}
		r := types.Report{SpecReports: []types.SpecReport{
			failed(spec("T2.3 Conflicting", "fixtures/T2.3-x.yaml", 1, types.SpecStateFailed, "tier2", "T2.3"), "T2.3 root: …", rootLine, p),
		}}
		c := report.NewJUnit(r, root).Suites[0].Cases[0]
		Expect(c.File).To(Equal("fixtures/T2.3-x.yaml"))
		Expect(c.Line).To(Equal(57))
	})

	It("fails the testcase of a run a late problem (the determinism rerun) names, a passing one included, and counts it", func() {
		late := prob("T2.1", "", "determinism", -1, "a second run in the same process wrote a different trace.jsonl")
		late.Line = 1
		j := report.NewJUnit(run(), root, late)
		Expect(j.Failures).To(Equal(3))
		var spread report.JUnitCase
		for _, s := range j.Suites {
			for _, c := range s.Cases {
				if c.Name == "T2.1 Spread" {
					spread = c
				}
			}
		}
		Expect(spread.Failure).NotTo(BeNil())
		Expect(spread.Failure.Message).To(HavePrefix("T2.1 determinism: a second run"))

		fs, err := report.NewFailures(run(), root, late)
		Expect(err).NotTo(HaveOccurred())
		Expect(fs.Failures).To(ContainElement(late))
	})
})

var _ = Describe("ClosingLines of a fixture that does not load", func() {
	It("keeps each run on one line", func() {
		p := verdict.Problem{Rung: "T9.1", Check: "fixture", Tick: -1, Link: "reports/index.html#T9.1",
			Message: "fixtures/T9.1-tell.yaml:1:7: rung: \"T9.1\" is not a rung id\n(reproduce: go run ./tools/ladder check fixtures/T9.1-tell.yaml)"}
		Expect(report.ClosingLines(report.FailedRuns([]verdict.Problem{p}))).To(Equal([]string{
			`start here: T9.1 at no tick: fixtures/T9.1-tell.yaml:1:7: rung: "T9.1" is not a rung id; (reproduce: go run ./tools/ladder check fixtures/T9.1-tell.yaml) (page: reports/index.html#T9.1)`,
			"failed runs (1), by tier, then earliest divergent tick:",
			`  T9.1  tick -      -                   fixtures/T9.1-tell.yaml:1:7: rung: "T9.1" is not a rung id`,
		}))
	})
})
