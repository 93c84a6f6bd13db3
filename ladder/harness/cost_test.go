package harness_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/fixture"
)

// linearWorld is a world whose history grows with its length while its
// state does not: one theft at tick 1, seen as two variants (alda's bun,
// cora's bread), and from tick 2 a report every second tick — alda to
// bram, cora to bram, bram to erik in turn — so bram's evidence, erik's
// and the store's supersession records (bram switches variant at every
// report of the other one) grow by one every few ticks, for as long as the
// run lasts. The steward dies at tick 4 and alda succeeds him. One
// expectation of every kind is checked over (nearly) the whole run; the
// case calm is compared with the rung roll by roll.
func linearWorld(ticks int) []*fixture.Fixture {
	GinkgoHelper()
	var events []string
	for t, i := 2, 0; t < ticks; t, i = t+2, i+1 {
		from, to := [3]string{"alda", "cora", "bram"}[i%3], [3]string{"bram", "bram", "erik"}[i%3]
		events = append(events, fmt.Sprintf("  - {tick: %d, kind: report, from: %s, to: %s, claim: theft@1}", t, from, to))
	}
	src := fmt.Sprintf(`rung: T5.9
title: Linear — every kind of check over a run whose history grows with it
tier: 5
seed_id: linear-cost
ticks: %[1]d
defines: {succession_delay_ticks: 2}
rules: {disable: [mutation-policy]}
locations:
  market: {hold: whiterun}
  hall: {hold: whiterun}
  cottage: {hold: whiterun}
  farm: {hold: whiterun}
  mill: {hold: riverwood}
roles:
  steward: {faction: court, holder: proventus, appointer: jarl}
  jarl: {faction: court, holder: dagr}
cast:
  alda: {home: market, faction: court, schedule: [{at: market, from: 0, to: %[1]d}]}
  bram: {home: market, faction: court, schedule: [{at: market, from: 0, to: %[1]d}]}
  cora: {home: cottage}
  dagr: {home: farm, faction: court}
  erik: {home: mill}
  proventus: {home: hall, faction: court}
relationships:
  - {from: dagr, to: alda, trust: 0.9}
events:
  - {tick: 1, kind: theft, actor: player, victim: dagr, item: bun, at: market, witnesses: [alda, {npc: cora, says: {item: bread}}]}
  - {tick: 1, kind: favour, actor: role:steward, recipient: bram, at: market}
  - {tick: 1, kind: brawl, actor: player, victim: bram, at: market, witnesses: [alda]}
  - {tick: 3, kind: invoke, actor: role:steward, recipient: bram, favour: favour@1, outcome: fulfilled, at: market}
  - {tick: 4, kind: killing, actor: player, victim: proventus, at: hall, witnesses: [alda]}
%[2]s
expect:
  - {from: 1, provenance: {claim: theft@1, witnessed: [alda, cora], not_through: erik}}
  - {from: 3, holders: {claim: theft@1, resident: riverwood, through: bram}}
  - {always: true, holders: {claim: theft@1, only: [alda, bram, cora, erik]}}
  - {from: 6, supersession: {holder: bram}}
  - {from: 1, claims: {id: theft@1, variants: 2, lineage: intact}}
  - {from: 1, belief: {holder: alda, claim: theft@1, variant: "theft@1#v0"}}
  - {from: 1, variant: {id: "theft@1#v1", predecessor: "theft@1#v0"}}
  - {from: 6, value: {expr: "believers(theft@1)", equals: 4}}
  - {curve: {claim: theft@1, believers: {0: 0, 1: 3, 6: 4}}}
  - {always: true, npc: {id: alda, alive: true}}
  - {events: {kind: theft, count: 1}}
  - {trace: {match: {kind: transmission, teller: dagr}, exists: false}}
  - {logged_first: {claim: theft@1}}
  - {from: 1, duplicate_rejected: {holder: alda, claim: theft@1}}
  - {from: 2, grudge: {holder: bram, count: 1}}
  - {always: true, reputation: {subject: alda, dimension: reliability, observers: []}}
  - {from: 3, obligation: {favour: favour@1, state: fulfilled}}
  - {always: true, schedule: {npc: alda, at: market}}
  - {from: 7, role: {id: steward, holder: alda}}
  - {no_orphans: {role: steward, old_holder: proventus}}
  - {always: true, fear: {location: market, recompute: size-scaled}}
cases:
  calm:
    counterfactual_of: T5.9
    defines: {encounter_probability: 0.25}
    expect:
      - comparison: {against: T5.9, only_in_one: any}
`, ticks, strings.Join(events, "\n"))
	fs, err := fixture.Parse("fixtures/T5.9-linear.yaml", []byte(src))
	Expect(err).NotTo(HaveOccurred())
	return fs
}

// examinedByKind runs every fixture of a file, counterparts first, and sums
// what each expectation kind examined; every expectation must pass, so no
// count is cut short by a failure.
func examinedByKind(fs []*fixture.Fixture) map[string]int64 {
	GinkgoHelper()
	out := map[string]int64{}
	for _, f := range ladder.Order(fs) {
		res, err := ladder.Run(f, ladder.Options{Dir: GinkgoT().TempDir()})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Failures).To(BeEmpty(), "%s at %d ticks", f.Name(), f.Ticks)
		for _, r := range res.Expectations {
			out[r.Kind] += r.Examined
		}
	}
	return out
}

var _ = Describe("the cost of an expectation", Label("unit"), func() {
	// Not a timed test: what a check examines is what it costs. A check
	// that re-read its whole history every tick (the provenance check did,
	// every evidence record of every holder at every tick) examines about
	// 100 times as much over a run 10 times as long.
	It("grows linearly with the run: every kind examines at most 12 times as much over a run 10 times as long, whose history is 10 times as long", func() {
		short, long := examinedByKind(linearWorld(200)), examinedByKind(linearWorld(2000))
		Expect(short).To(HaveLen(len(expect.Names())), "every expectation kind is in the world: %v", expect.Names())
		for _, kind := range expect.Names() {
			Expect(short[kind]).To(BeNumerically(">", 0), "%s examined nothing", kind)
			Expect(long[kind]).To(BeNumerically("<=", 12*short[kind]), "%s examined %d over 200 ticks and %d over 2,000", kind, short[kind], long[kind])
			GinkgoWriter.Printf("%-20s %8d %8d  ×%.1f\n", kind, short[kind], long[kind], float64(long[kind])/float64(short[kind]))
		}
		// The history the checks read did grow with the run.
		for _, kind := range []string{"provenance", "supersession"} {
			Expect(long[kind]).To(BeNumerically(">=", 8*short[kind]), "%s: the world's history grew with the run", kind)
		}
	})
})

// The trace sieve (expect.SievedTraceCheck) lets the runner skip decoding
// a record whose line its pattern's sieve does not need, and decode only
// the keys a check names. It is sound only if a run that shows every
// check each whole record (expect.Run.Trace) and one that gives them lines
// (expect.Run.TraceLine, as the runner does) come to the same verdicts:
// checked here for every trace pattern of every committed rung over its
// whole trace golden, and record by record for the keys.
var _ = Describe("the trace sieve", Label("unit"), func() {
	It("never changes a verdict: every committed pattern over its golden, read whole or sieved, examines, matches and decides the same", func() {
		patterns, skipped := 0, 0
		for _, f := range ladderFixtures() {
			var items []expect.Expectation
			for _, e := range f.Expect {
				if _, ok := e.Check.(expect.SievedTraceCheck); ok {
					items = append(items, e)
				}
			}
			if len(items) == 0 {
				continue
			}
			patterns += len(items)
			data, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(f.GoldenDir()), artifact.TraceFile))
			Expect(err).NotTo(HaveOccurred())
			whole, sieved := expect.Start(items), expect.Start(items)
			for _, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))[1:] {
				rec, err := expect.DecodeRecord(line)
				Expect(err).NotTo(HaveOccurred())
				kind, _ := rec["kind"].(string)
				whole.Trace(rec)
				Expect(sieved.TraceLine(rec.Tick(), kind, line)).To(Succeed())
				for _, e := range items {
					s := e.Check.(expect.SievedTraceCheck)
					var o, part expect.Outcome
					s.ObserveTrace(rec, &o)
					some, err := expect.DecodeKeys(line, s.Keys())
					Expect(err).NotTo(HaveOccurred())
					s.ObserveTrace(some, &part)
					Expect(part).To(Equal(o), "%s: the record of its keys alone is judged as the whole record is: %s", f.Name(), line)
					if kind == s.TraceKind() && e.When.Has(rec.Tick()) && !s.Sieve().Needed(line) {
						skipped++
					}
				}
			}
			Expect(sieved.Finish()).To(Equal(whole.Finish()), "%s: a trace pattern decides otherwise sieved", f.Name())
		}
		GinkgoWriter.Printf("%d patterns, %d records skipped by the sieve\n", patterns, skipped)
		Expect(patterns).To(BeNumerically(">", 50), "the committed trace patterns")
		Expect(skipped).To(BeNumerically(">", 1000), "the sieve skipped records to check")
	})
})
