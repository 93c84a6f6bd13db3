package coverage_test

import (
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/coverage"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// regimes counts the catalogue's declared regimes.
func regimes() int {
	n := 0
	for _, r := range rules.Catalogue() {
		n += len(r.Regimes)
	}
	return n
}

// required counts the declared regimes a full run must reach: those not
// listed as unreachable.
func required() int {
	n := 0
	for _, r := range rules.Catalogue() {
		for _, g := range r.Regimes {
			if g.Unreachable == "" {
				n++
			}
		}
	}
	return n
}

var _ = Describe("the regime meter", func() {
	It("notes the first tick and the count of each regime a run's records show, and nothing else", func() {
		m := coverage.NewMeter()
		rearm := []trace.Value{{Name: "count", Value: 1}, {Name: "rearmed", Value: 1}}
		m.Emit(trace.Record{Tick: 3, Body: &trace.RuleEval{Rule: rules.AccumulationThreshold, Reason: "below threshold"}})
		m.Emit(trace.Record{Tick: 9, Body: &trace.RuleEval{Rule: rules.AccumulationThreshold, Reason: "below threshold", Values: rearm}})
		m.Emit(trace.Record{Tick: 12, Body: trace.Encounter{Fired: true}})
		m.Emit(trace.Record{Tick: 13, Body: &trace.Event{ID: "theft@13"}}) // no regime reads events
		Expect(m.Reached()).To(Equal([]coverage.Reached{
			{Number: 6, Rule: rules.EncounterSampling, Regime: "met", Hit: coverage.Hit{First: 12, Records: 1}},
			{Number: 11, Rule: rules.AccumulationThreshold, Regime: "below threshold", Hit: coverage.Hit{First: 3, Records: 2}},
			{Number: 11, Rule: rules.AccumulationThreshold, Regime: "re-armed", Hit: coverage.Hit{First: 9, Records: 1}},
		}))
	})

	It("lists the value names a rule wrote that its registry entry does not declare, once each", func() {
		m := coverage.NewMeter()
		for range 2 {
			m.Emit(trace.Record{Body: &trace.RuleEval{Rule: rules.Corroboration, Values: []trace.Value{{Name: "before"}, {Name: "sources"}}}})
		}
		Expect(m.Undeclared()).To(Equal([]string{"corroboration/sources"}))
	})

	It("lists the reasons and the other closed-set values no list of the engine holds, once each", func() {
		m := coverage.NewMeter()
		for range 2 {
			m.Emit(trace.Record{Body: &trace.RuleEval{Rule: rules.AccumulationThreshold, Reason: "threshhold reached"}})
			m.Emit(trace.Record{Body: &trace.RuleEval{Rule: rules.GrudgeCreation, Reason: "kin killed: hroki"}}) // declared as "kin killed: …"
			m.Emit(trace.Record{Body: &trace.Transmission{Rule: rules.Corroboration, Reason: "counted"}})        // a rule record's reason, not a transmission's
			m.Emit(trace.Record{Body: &trace.BeliefChange{Change: "reactivted", Stage: "heard"}})
			m.Emit(trace.Record{Body: trace.Grudge{Change: trace.GrudgeSettled}})
		}
		Expect(m.Unlisted()).To(Equal([]string{
			`reason "threshhold reached" of accumulation-threshold's rule records (sim/rules/registry.go)`,
			`reason "counted" of corroboration's transmission records (sim/rules/registry.go)`,
			`change "reactivted" of a belief record (sim.TraceValues)`,
		}))
	})

	It("allocates nothing per record", func() {
		m := coverage.NewMeter()
		rec := trace.Record{Tick: 1, Body: &trace.Transmission{Rule: rules.TestimonyTransfer, Reason: "both hold"}}
		Expect(testing.AllocsPerRun(100, func() { m.Emit(rec) })).To(BeZero())
	})
})

var _ = Describe("the coverage report", func() {
	all := []string{"T0.1", "T3.1"}
	runs := []coverage.Run{
		{Run: "T3.1", Reached: []coverage.Reached{{Number: 11, Rule: rules.AccumulationThreshold, Regime: "fired", Hit: coverage.Hit{First: 20, Records: 1}}}},
		{Run: "T0.1", Reached: []coverage.Reached{
			{Number: 1, Rule: rules.WitnessCreatesBelief, Regime: "witnessed", Hit: coverage.Hit{First: 2, Records: 1}},
			{Number: 99, Rule: "a-rule-since-removed", Regime: "gone", Hit: coverage.Hit{First: 1, Records: 1}},
		}},
	}

	It("lists every declared regime with the runs that reached it", func() {
		rep := coverage.Build(runs, all)
		Expect(rep.Complete).To(BeTrue())
		Expect(rep.Regimes).To(HaveLen(regimes()))
		Expect(rep.Regimes[0]).To(Equal(coverage.Row{Number: 1, Rule: rules.WitnessCreatesBelief, Regime: "witnessed",
			Sign: `a rule record: fired, reason "witnessed"`, Runs: []coverage.RunHit{{Run: "T0.1", Hit: coverage.Hit{First: 2, Records: 1}}}}))
		Expect(rep.Runs).To(Equal([]string{"T0.1", "T3.1"}))
		Expect(rep.Unreached()).To(HaveLen(required() - 2))
	})

	It("fails a complete report on every regime no run reached, naming rule and regime", func() {
		problems := coverage.Build(runs, all).Problems()
		Expect(problems).To(HaveLen(required() - 2))
		Expect(problems).To(ContainElement(`rule 11 accumulation-threshold: re-armed is reached by no run (its sign: a rule record: values.rearmed = 1.0)`))
	})

	It("judges nothing on a partial run, and says so", func() {
		rep := coverage.Build(runs[:1], all)
		Expect(rep.Complete).To(BeFalse())
		Expect(rep.Missing()).To(Equal([]string{"T0.1"}))
		Expect(rep.Problems()).To(BeEmpty())
		Expect(rep.Summary()).To(ContainSubstring("a partial run: 1 of 2 runs; only a full run is judged"))
	})

	It("reports a regime listed unreachable that a run reached: the listed reason is wrong", func() {
		rep := coverage.Build(runs, all)
		for i := range rep.Regimes {
			if rep.Regimes[i].Regime == "fired" && rep.Regimes[i].Number == 11 {
				rep.Regimes[i].Unreachable = "no world escalates"
			}
		}
		Expect(rep.Contradicted()).To(HaveLen(1))
		Expect(rep.Problems()).To(ContainElement(`rule 11 accumulation-threshold: fired is listed as unreachable (no world escalates) but T3.1 reached it at tick 20: the reason is wrong`))
	})

	It("reads back what runs wrote, and merges shards as one run", func() {
		dir := GinkgoT().TempDir()
		for _, r := range runs {
			Expect(os.MkdirAll(filepath.Join(dir, r.Run), 0o755)).To(Succeed())
			Expect(coverage.WriteRun(filepath.Join(dir, r.Run), r.Run, r.Reached)).To(Succeed())
		}
		read, err := coverage.ReadRuns(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(read).To(Equal([]coverage.Run{runs[1], runs[0]}))

		whole := coverage.Build(runs, all)
		Expect(whole.Write(dir)).To(Succeed())
		back, err := coverage.Read(filepath.Join(dir, coverage.ReportFile))
		Expect(err).NotTo(HaveOccurred())
		Expect(back).To(Equal(whole))

		merged, err := coverage.Merge([]coverage.Report{coverage.Build(runs[:1], all), coverage.Build(runs[1:], all)})
		Expect(err).NotTo(HaveOccurred())
		Expect(merged).To(Equal(whole))
		_, err = coverage.Merge([]coverage.Report{whole, coverage.Build(runs[1:], all)})
		Expect(err).To(MatchError("merge coverage: run T0.1 was metered by two shards (1 and 2)"))
	})
})
