package report_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/report"
	"github.com/chronicle/ladder/ladder/verdict"
)

// root is an absolute repository root for the synthetic reports.
const root = "/repo"

// spec makes a spec report: a rung when labels carry a tier.
func spec(text, file string, line int, state types.SpecState, labels ...string) types.SpecReport {
	return types.SpecReport{
		LeafNodeType: types.NodeTypeIt, LeafNodeText: text, LeafNodeLabels: labels,
		LeafNodeLocation: types.CodeLocation{FileName: file, LineNumber: line},
		State:            state, RunTime: 2 * time.Millisecond,
	}
}

func failed(s types.SpecReport, message string, problems ...verdict.Problem) types.SpecReport {
	s.Failure = types.Failure{Message: message, Location: types.CodeLocation{FileName: root + "/ladder/ladder_suite_test.go", LineNumber: 90}}
	for _, p := range problems {
		s.ReportEntries = append(s.ReportEntries, types.ReportEntry{Name: report.FailureEntry, Value: types.WrapEntryValue(p)})
	}
	return s
}

// run is a synthetic run: two tier-2 rungs (one failing with two
// problems), a tier-0 rung, a failing harness spec, and a spec a label
// filter left out.
func run() types.Report {
	p1 := verdict.Problem{Rung: "T2.3", Case: "swapped", Check: "dense.csv", Tick: 12, Column: "a/b/confidence", Golden: "0.72", Actual: "0.7",
		File: "fixtures/T2.3-conflicting-variants.yaml", Line: 92, Message: "T2.3/swapped dense.csv: first divergence at tick 12, …\n"}
	p2 := verdict.Problem{Rung: "T2.3", Case: "swapped", Check: "expect", Tick: 30, Column: "expect[1]", File: p1.File, Line: 110, Message: "T2.3/swapped expect[1] …"}
	return types.Report{SuiteDescription: "Chronicle ladder", SpecReports: []types.SpecReport{
		failed(spec("T2.3/swapped Conflicting", "fixtures/T2.3-conflicting-variants.yaml", 92, types.SpecStateFailed, "tier2", "T2.3"),
			"T2.3/swapped dense.csv: first divergence at tick 12, …\nT2.3/swapped expect[1] …", p1, p2),
		spec("T2.1 Spread", "fixtures/T2.1-spread.yaml", 1, types.SpecStatePassed, "tier2", "T2.1"),
		spec("T0.1 Witness", "fixtures/T0.1-witness.yaml", 1, types.SpecStatePassed, "tier0", "T0.1"),
		failed(spec("goldens/ holds no obsolete directory", root+"/ladder/ladder_suite_test.go", 77, types.SpecStateFailed, "goldens"),
			"goldens/T9.9-gone is obsolete"),
		spec("T1.1 Tell", "fixtures/T1.1-tell.yaml", 1, types.SpecStateSkipped, "tier1", "T1.1"),
	}}
}

var _ = Describe("NewJUnit", func() {
	It("groups the specs that ran by tier, harness last, located on their fixtures", func() {
		j := report.NewJUnit(run(), root)
		Expect(j.Tests).To(Equal(4), "the filtered-out spec did not run and is not listed")
		Expect(j.Failures).To(Equal(2))
		var names []string
		for _, s := range j.Suites {
			names = append(names, s.Name)
		}
		Expect(names).To(Equal([]string{"tier0", "tier2", "harness"}))
		tier2 := j.Suites[1]
		Expect(tier2.Cases).To(HaveLen(2))
		Expect(tier2.Cases[0].Name).To(Equal("T2.1 Spread"), "testcases by name")
		c := tier2.Cases[1]
		Expect(c.File).To(Equal("fixtures/T2.3-conflicting-variants.yaml"))
		Expect(c.Line).To(Equal(110), "the line of its first problem inside the fixture (expect[1]), not the case's own (92)")
		Expect(c.Classname).To(Equal("tier2"))
		Expect(c.Failure.Message).To(Equal("T2.3/swapped dense.csv: first divergence at tick 12, …"), "the first line")
		Expect(c.Failure.Text).To(HaveSuffix("\nladder/ladder_suite_test.go:90"))
		Expect(j.Suites[2].Cases[0].File).To(Equal("ladder/ladder_suite_test.go"), "Go locations relative to the root")
	})

	It("writes XML a JUnit reader takes, and reads back", func() {
		b, err := report.NewJUnit(run(), root).Marshal()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(HavePrefix(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<testsuites name=\"Chronicle ladder\" tests=\"4\" failures=\"2\""))
		Expect(string(b)).To(ContainSubstring(`<testcase name="T2.3/swapped Conflicting" classname="tier2" file="fixtures/T2.3-conflicting-variants.yaml" line="110"`))
		j, err := report.ParseJUnit(b)
		Expect(err).NotTo(HaveOccurred())
		Expect(j).To(Equal(report.NewJUnit(run(), root)))
	})
})

var _ = Describe("the closing report's failed steps", func() {
	// A step after the specs (the triage page) that failed while every
	// rung passed: junit.xml and failures.json must fail with it, not
	// show green beside an exit status of 2.
	green := func() types.Report {
		return types.Report{SuiteDescription: "Chronicle ladder", SpecReports: []types.SpecReport{
			spec("T0.1 Witness", "fixtures/T0.1-witness.yaml", 1, types.SpecStatePassed, "tier0", "T0.1"),
		}}
	}
	step := verdict.Problem{Check: verdict.HarnessCheck, Tick: -1, Message: "triage page: T0.1: embedded data: json: unsupported value: +Inf\nmore"}

	It("fail one harness testcase of junit.xml", func() {
		j := report.NewJUnit(green(), root, step)
		Expect(j.Tests).To(Equal(2))
		Expect(j.Failures).To(Equal(1))
		h := j.Suites[len(j.Suites)-1]
		Expect(h.Name).To(Equal("harness"))
		Expect(h.Cases).To(ConsistOf(HaveField("Name", report.ClosingNode)))
		Expect(h.Cases[0].Failure).To(Equal(&report.JUnitProblem{Message: "triage page: T0.1: embedded data: json: unsupported value: +Inf",
			Type: "failed", Text: step.Message}))
		Expect(report.NewJUnit(green(), root).Failures).To(Equal(0), "without the step, green")
	})

	It("are listed in failures.json, under no rung", func() {
		dir := GinkgoT().TempDir()
		Expect(report.Write(dir, root, green(), step)).To(Succeed())
		b, err := os.ReadFile(filepath.Join(dir, report.FailuresFile))
		Expect(err).NotTo(HaveOccurred())
		var doc report.Failures
		Expect(json.Unmarshal(b, &doc)).To(Succeed())
		Expect(doc.Failures).To(Equal([]verdict.Problem{step}))
	})
})

var _ = Describe("NewFailures", func() {
	It("lists every failure as data, rung problems in their order, harness specs with their name", func() {
		f, err := report.NewFailures(run(), root)
		Expect(err).NotTo(HaveOccurred())
		Expect(f.Failures).To(HaveLen(3))
		Expect(f.Failures[0]).To(Equal(verdict.Problem{Check: "spec", Tick: -1, File: "ladder/ladder_suite_test.go", Line: 77,
			Message: "goldens/ holds no obsolete directory: goldens/T9.9-gone is obsolete"}))
		Expect(f.Failures[1].Check).To(Equal("dense.csv"))
		Expect(f.Failures[1].Tick).To(Equal(int64(12)))
		Expect(f.Failures[2].Check).To(Equal("expect"))
	})

	It("writes the structured fields CI reads", func() {
		dir := GinkgoT().TempDir()
		Expect(report.Write(dir, root, run())).To(Succeed())
		b, err := os.ReadFile(filepath.Join(dir, report.FailuresFile))
		Expect(err).NotTo(HaveOccurred())
		var doc struct {
			Failures []map[string]any `json:"failures"`
		}
		Expect(json.Unmarshal(b, &doc)).To(Succeed())
		Expect(doc.Failures[1]).To(Equal(map[string]any{
			"rung": "T2.3", "case": "swapped", "check": "dense.csv", "tick": 12.0, "column": "a/b/confidence", "golden": "0.72", "actual": "0.7",
			"file": "fixtures/T2.3-conflicting-variants.yaml", "line": 92.0, "message": "T2.3/swapped dense.csv: first divergence at tick 12, …\n",
		}))
		Expect(filepath.Join(dir, report.JUnitFile)).To(BeAnExistingFile())
	})
})

var _ = Describe("MergeGinkgo", func() {
	shardOf := func(ran ...string) []types.Report {
		r := types.Report{SuiteDescription: "Chronicle ladder", SuiteSucceeded: true, RunTime: time.Second}
		for _, name := range []string{"T0.1 Witness", "T2.1 Spread"} {
			s := spec(name, "fixtures/"+name[:4]+".yaml", 1, types.SpecStateSkipped, "tier0", name[:4])
			if slices.Contains(ran, name) {
				s.State = types.SpecStatePassed
			}
			r.SpecReports = append(r.SpecReports, s)
		}
		r.SpecReports = append(r.SpecReports, types.SpecReport{LeafNodeType: types.NodeTypeReportAfterSuite, LeafNodeText: "ladder summary", State: types.SpecStatePassed})
		return []types.Report{r}
	}

	It("takes each spec from the shard that ran it, once, and keeps one suite-level node", func() {
		m, err := report.MergeGinkgo([][]types.Report{shardOf("T2.1 Spread"), shardOf("T0.1 Witness")}, []string{"a", "b"})
		Expect(err).NotTo(HaveOccurred())
		Expect(m).To(HaveLen(1))
		Expect(m[0].RunTime).To(Equal(2 * time.Second))
		var states []string
		for _, s := range m[0].SpecReports {
			states = append(states, s.LeafNodeText+"="+s.State.String())
		}
		Expect(states).To(Equal([]string{"T0.1 Witness=passed", "T2.1 Spread=passed", "ladder summary=passed"}))
	})

	It("refuses a spec that ran in two shards", func() {
		_, err := report.MergeGinkgo([][]types.Report{shardOf("T2.1 Spread"), shardOf("T2.1 Spread")}, []string{"a", "b"})
		Expect(err).To(MatchError(`merge: "T2.1 Spread" ran in two shards (a and b)`))
	})

	It("fails the merged suite when a shard failed", func() {
		b := shardOf("T0.1 Witness")
		b[0].SuiteSucceeded = false
		m, err := report.MergeGinkgo([][]types.Report{shardOf("T2.1 Spread"), b}, []string{"a", "b"})
		Expect(err).NotTo(HaveOccurred())
		Expect(m[0].SuiteSucceeded).To(BeFalse())
	})
})
