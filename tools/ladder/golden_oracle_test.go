package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/goldenset"
)

// The tools' specs run the ladder's own rungs, but never write a rung's
// values into the spec: they read what a run must print from the rung's
// committed goldens, so an intended change to a rung, accepted or
// regenerated, leaves them green (and a tool that misreads a run still
// fails). This file is that oracle: golden trace records and dense cells,
// and what the tools print of them, spelt as docs/trace-schema.md and the
// commands' doc comments say.

// traceRecord is one golden trace record.
type traceRecord = goldenset.Record

// fixtureRun is the fixture of a rung or case (T3.3, T3.1/no-peers) in file.
func fixtureRun(file, name string) *fixture.Fixture {
	GinkgoHelper()
	for _, f := range runsOf(file) {
		if f.Name() == name {
			return f
		}
	}
	Fail(fmt.Sprintf("%s has no run %s", file, name))
	return nil
}

// goldenTrace reads a run's committed trace.jsonl, once per run: the
// specs read the same goldens many times.
func goldenTrace(f *fixture.Fixture) []traceRecord {
	GinkgoHelper()
	oracle.Lock()
	defer oracle.Unlock()
	if recs, ok := oracle.traces[f.GoldenDir()]; ok {
		return recs
	}
	recs, err := goldenset.Trace(repo, f)
	Expect(err).NotTo(HaveOccurred())
	oracle.traces[f.GoldenDir()] = recs
	return recs
}

// goldenDense reads a run's committed dense.csv, once per run.
func goldenDense(f *fixture.Fixture) *goldenset.Dense {
	GinkgoHelper()
	oracle.Lock()
	defer oracle.Unlock()
	if d, ok := oracle.dense[f.GoldenDir()]; ok {
		return d
	}
	d, err := goldenset.ReadDense(repo, f)
	Expect(err).NotTo(HaveOccurred())
	oracle.dense[f.GoldenDir()] = d
	return d
}

// goldenCell is one cell of a run's committed dense.csv.
func goldenCell(f *fixture.Fixture, tick int64, column string) string {
	GinkgoHelper()
	c, err := goldenDense(f).Cell(tick, column)
	Expect(err).NotTo(HaveOccurred())
	return c
}

// oracle holds what the specs read of the goldens, which do not change
// while they run.
var oracle = struct {
	sync.Mutex
	traces map[string][]traceRecord
	dense  map[string]*goldenset.Dense
}{traces: map[string][]traceRecord{}, dense: map[string]*goldenset.Dense{}}

// values spells a rule record's values as `rules` prints them: " {name:
// value, …}" sorted by name, or "" when there are none.
func values(r traceRecord) string {
	vs, _ := r["values"].(map[string]any)
	if len(vs) == 0 {
		return ""
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(vs)) {
		parts = append(parts, k+": "+string(vs[k].(json.Number)))
	}
	return "  {" + strings.Join(parts, ", ") + "}"
}

// wantRules is what `rules -rung <f> -rule <rule>` prints, fired keeping
// only the evaluations that fired (true) or were declined (false), nil
// both: one line per rule record of the golden trace, then the count.
func wantRules(f *fixture.Fixture, rule string, fired *bool) (lines []string, n, yes int) {
	GinkgoHelper()
	for _, r := range goldenTrace(f) {
		if r.S("kind") != "rule" || r.S("rule") != rule || (fired != nil && r["fired"] != *fired) {
			continue
		}
		n++
		verdict := "declined"
		if r["fired"] == true {
			verdict, yes = "fired", yes+1
		}
		lines = append(lines, fmt.Sprintf("tick %d  %s  %s  %s: %s%s", r.Tick(), rule, r.S("subject"), verdict, r.S("reason"), values(r)))
	}
	lines = append(lines, fmt.Sprintf("%s: %d rule evaluations, %d fired, %d declined", f.Name(), n, yes, n-yes))
	return lines, n, yes
}

// wantDiff is what `diff -rung <f> -from <from> -to <to>` prints of the
// golden trace — each grudge, obligation, reputation row and derived
// event, each accumulator evaluation, pair weight rule 18 set, schedule
// change and role change — each with its state before → after, and then each grudge's decay since the later of from and its
// last formation or reinforcement, its strengths read from the golden
// dense file.
func wantDiff(f *fixture.Fixture, from, to int64) string {
	GinkgoHelper()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: social-state changes after tick %d, up to tick %d\n", f.Name(), from, to)
	last := map[string]string{}
	// Each grudge's last formation or reinforcement: the anchor its
	// strengths decay from, and the cause the decay line names.
	type grudge struct {
		holder, target, cause string
		anchor                int64
	}
	grudges := map[string]*grudge{}
	n := 0
	for _, r := range goldenTrace(f) {
		if r.Tick() < 0 || r.Tick() > to {
			continue
		}
		cite := fmt.Sprintf("  (rule %s, cause %s)", r.S("rule"), r.S("cause"))
		var key, state, line string
		switch r.S("kind") {
		case "grudge":
			key = "grudge " + r.S("holder") + "->" + r.S("target")
			state = fmt.Sprintf("emotional %s, evidentiary %s", r.S("emotional"), r.S("evidentiary"))
			line = fmt.Sprintf("grudge %s->%s %s: {state}%s", r.S("holder"), r.S("target"), r.S("change"), cite)
			if c := r.S("change"); c == "formed" || c == "reinforced" {
				grudges[r.S("holder")+"\x00"+r.S("target")] = &grudge{r.S("holder"), r.S("target"), r.S("cause"), r.Tick()}
			}
		case "obligation":
			key, state = "obligation "+r.S("id"), r.S("state")
			line = fmt.Sprintf("obligation %s (%s owes %s): {state}%s", r.S("id"), r.S("debtor"), r.S("creditor"), cite)
		case "reputation":
			key = "reputation " + r.S("observer") + "/" + r.S("subject") + "/" + r.S("dimension")
			state = fmt.Sprintf("alpha %s, beta %s, mean %s", r.S("alpha"), r.S("beta"), r.S("mean"))
			line = fmt.Sprintf("reputation %s of %s's %s: {state}%s", r.S("observer"), r.S("subject"), r.S("dimension"), cite)
		case "event":
			if r.S("rule") == "" {
				continue
			}
			key, state = "event "+r.S("id"), "appended"
			line = fmt.Sprintf("event %s (%s) {state}%s", r.S("id"), r.S("event"), cite)
		case "schedule":
			window := "from tick " + r.S("from")
			if to := r.S("to"); to != "" && to != "0" {
				window = "ticks " + span(r.S("from"), to)
			}
			at := r.S("at")
			if at == "" {
				at = "(nowhere)"
			}
			key, state = "schedule "+r.S("npc")+" "+r.S("override"), r.S("change")
			line = fmt.Sprintf("schedule %s %s: {state}, at %s %s%s", r.S("npc"), r.S("override"), at, window, cite)
		case "role":
			change := "held by " + r.S("previous") + " → vacant"
			if r.S("holder") != "" {
				change = "vacant → held by " + r.S("holder")
			}
			key, state = "role "+r.S("role"), r.S("change")
			line = fmt.Sprintf("role %s: %s%s", r.S("role"), change, cite)
		case "rule":
			vs, _ := r["values"].(map[string]any)
			v := func(name string) string { n, _ := vs[name].(json.Number); return string(n) }
			switch {
			case r.S("rule") == "pairwise-encounter-weighting" && r["fired"] == true:
				grudge, cause, _ := strings.Cut(r.S("subject"), "/")
				a, b, _ := strings.Cut(grudge, "->")
				pair := min(a, b) + "~" + max(a, b)
				key, state = "weight "+pair, "weight "+v("after")
				line = fmt.Sprintf("pair weight %s: %s → %s (grudge %s at %s)  (rule %s, cause %s)", pair, v("before"), v("after"), grudge, v("grudge"), r.S("rule"), cause)
			case r.S("rule") == "accumulation-threshold" && r.S("reason") != "disabled":
				holder, claim, _ := strings.Cut(r.S("subject"), "/")
				verdict := "declined"
				if r["fired"] == true {
					verdict = "fired"
				}
				key, state = "accumulator "+holder, "count "+v("count")
				line = fmt.Sprintf("accumulator of %s: {state}, %s: %s  (rule %s, cause %s)", holder, verdict, r.S("reason"), r.S("rule"), claim)
			default:
				continue
			}
		default:
			continue
		}
		was, seen := last[key]
		last[key] = state
		if r.Tick() <= from {
			continue
		}
		n++
		if seen && was != state {
			state = was + " → " + state
		}
		fmt.Fprintf(&b, "tick %d  %s\n", r.Tick(), strings.Replace(line, "{state}", state, 1))
	}
	strength := func(g *grudge, t int64) string {
		col := "grudge/" + g.holder + "/" + g.target + "/"
		return fmt.Sprintf("emotional %s, evidentiary %s", goldenCell(f, t, col+"emotional"), goldenCell(f, t, col+"evidentiary"))
	}
	for _, k := range slices.Sorted(maps.Keys(grudges)) { // by holder, then target, as the engine lists them
		g := grudges[k]
		start := max(from, g.anchor)
		before, after := strength(g, start), strength(g, to)
		if before == after {
			continue
		}
		n++
		fmt.Fprintf(&b, "ticks %d–%d  grudge %s->%s decayed: %s → %s  (rule grudge-decay, cause %s)\n", start, to, g.holder, g.target, before, after, g.cause)
	}
	fmt.Fprintf(&b, "%d changes\n", n)
	return b.String()
}

// span spells ticks from through to-1 as diff does: "11–82", or one tick.
func span(from, to string) string {
	GinkgoHelper()
	f, errF := strconv.ParseInt(from, 10, 64)
	t, errT := strconv.ParseInt(to, 10, 64)
	Expect(errors.Join(errF, errT)).NotTo(HaveOccurred())
	if f == t-1 {
		return from
	}
	return fmt.Sprintf("%d–%d", f, t-1)
}

// ticksOf returns the first and last tick of the golden trace's records
// that ok accepts; it fails when there is none: the spec would examine
// nothing.
func ticksOf(f *fixture.Fixture, what string, ok func(traceRecord) bool) (first, last int64) {
	GinkgoHelper()
	first = -1
	for _, r := range goldenTrace(f) {
		if ok(r) {
			if first < 0 {
				first = r.Tick()
			}
			last = r.Tick()
		}
	}
	if first < 0 {
		Fail(f.Name() + "'s golden run has no " + what + ": the spec examines nothing")
	}
	return first, last
}

// kindIs accepts the records of a kind.
func kindIs(kind string) func(traceRecord) bool {
	return func(r traceRecord) bool { return r.S("kind") == kind }
}
