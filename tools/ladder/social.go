package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/runfiles"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/social"
	"github.com/chronicle/ladder/sim/trace"
)

// The two commands Tier 3 forces (seed spec, Tier 3 tooling): the rule
// firing log, negatives at equal weight, and the diff panel's
// social-state deltas between two ticks, each with the rule and the cause.

// firedFilter is -fired: unset (every evaluation), true or false. It is a
// bool flag, so -fired alone means -fired=true.
type firedFilter struct{ set, want bool }

func (f *firedFilter) String() string {
	if !f.set {
		return ""
	}
	return strconv.FormatBool(f.want)
}

func (f *firedFilter) Set(v string) error {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return fmt.Errorf("want true or false")
	}
	f.set, f.want = true, b
	return nil
}

func (f *firedFilter) IsBoolFlag() bool { return true }

// stepped runs a rung (or case) to its last tick, or to tick until when
// until ≥ 0, and returns the world and its trace.
func stepped(f *fixture.Fixture, until int64) (*sim.World, []trace.Record, error) {
	tr := &trace.Buffer{}
	w, err := ladder.Build(f, tr)
	if err != nil {
		return nil, nil, err
	}
	last := f.Ticks - 1
	if until >= 0 {
		last = until
	}
	for w.Now() < last {
		if err := w.Step(); err != nil {
			return nil, nil, f.Locate(err)
		}
	}
	return w, tr.Records, nil
}

// rulesLog prints every rule evaluation of a run — one line each, fired
// and declined alike, with the values the rule looked at (an accumulator
// at 3 of 4 is as visible as the one that fired) — from the trace the run
// wrote, or from a fresh run with -rerun.
func rulesLog(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("rules", flag.ContinueOnError)
	fl.SetOutput(stderr)
	name := fl.String("rung", "", "rung, or rung/case")
	only := fl.String("rule", "", "only this rule's evaluations")
	var fired firedFilter
	fl.Var(&fired, "fired", "only the evaluations that fired (true) or were declined (false); default both")
	rf := addRunFlags(fl)
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *name == "" {
		return errors.New("rules: -rung is required")
	}
	if _, ok := rules.Find(*only); *only != "" && !ok {
		return fmt.Errorf("rules: unknown rule %q (rules: %s)", *only, strings.Join(rules.Names(), ", "))
	}
	f, err := find(*name)
	if err != nil {
		return err
	}
	run, err := rf.locate(f)
	if err != nil {
		return fmt.Errorf("rules: %w", err)
	}
	var recs []trace.Record
	if run == nil {
		_, recs, err = stepped(f, -1)
	} else {
		recs, err = records("rules", run, -1)
	}
	if err != nil {
		return err
	}
	out := bufio.NewWriter(stdout)
	var n, yes int
	for _, r := range recs {
		e, ok := r.Body.(*trace.RuleEval)
		if !ok || (*only != "" && e.Rule != *only) || (fired.set && e.Fired != fired.want) {
			continue
		}
		n++
		verdict := "declined"
		if e.Fired {
			verdict, yes = "fired", yes+1
		}
		fmt.Fprintf(out, "tick %d  %s  %s  %s: %s%s\n", r.Tick, e.Rule, e.Subject, verdict, e.Reason, showValues(e.Values))
	}
	fmt.Fprintf(out, "%s: %d rule evaluations, %d fired, %d declined\n", f.Name(), n, yes, n-yes)
	return out.Flush()
}

// showValues spells a rule's values as " {name: value, …}", sorted by
// name, or "" when there are none.
func showValues(vs []trace.Value) string {
	if len(vs) == 0 {
		return ""
	}
	sorted := slices.Clone(vs)
	slices.SortFunc(sorted, func(a, b trace.Value) int { return strings.Compare(a.Name, b.Name) })
	parts := make([]string, len(sorted))
	for i, v := range sorted {
		parts[i] = v.Name + ": " + canon.FormatFloat(v.Value)
	}
	return "  {" + strings.Join(parts, ", ") + "}"
}

// socialDiff prints every social-state change in the ticks (from, to]:
// each grudge, obligation and reputation record and each event the engine
// derived, with its before and after where the state had one, and each
// accumulator evaluation's count; from Tier 4 on, each pair weight rule 18
// set, each change of a schedule and of a role's holder; then how every
// grudge decayed since the later of the earlier tick and its last
// formation or reinforcement. Every line names the rule that made the
// change and the event that caused it.
func socialDiff(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("diff", flag.ContinueOnError)
	fl.SetOutput(stderr)
	name := fl.String("rung", "", "rung, or rung/case")
	from := fl.Int64("from", -1, "the earlier tick (changes after it are listed)")
	to := fl.Int64("to", -1, "the later tick (changes up to it are listed; default the last tick)")
	rf := addRunFlags(fl)
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *name == "" || *from < 0 {
		return errors.New("diff: -rung and -from are required")
	}
	f, err := find(*name)
	if err != nil {
		return err
	}
	run, err := rf.locate(f)
	if err != nil {
		return fmt.Errorf("diff: %w", err)
	}
	end, bound, where := *to, f.Ticks, f.Name()+"'s run"
	if run != nil {
		_, last, err := run.Ticks()
		if err != nil {
			return fmt.Errorf("diff: %w", err)
		}
		bound, where = last+1, "the run in "+run.Where
	}
	if end < 0 {
		end = bound - 1
	}
	if end >= bound || *from >= end {
		return fmt.Errorf("diff: want 0 ≤ from < to < %d (%s), got from %d, to %d", bound, where, *from, end)
	}
	var recs []trace.Record
	var grudges []*social.Grudge
	var curves social.Curves
	if run == nil {
		var w *sim.World
		if w, recs, err = stepped(f, end); err != nil {
			return err
		}
		grudges, curves = w.Grudges().All(), w.Grudges().Curves()
	} else {
		if recs, err = records("diff", run, end); err != nil {
			return err
		}
		// The curves are the fixture's parameters: building the world
		// reads them, and steps nothing.
		w, err := ladder.Build(f, nil)
		if err != nil {
			return err
		}
		grudges, curves = runfiles.Grudges(recs), w.Grudges().Curves()
	}
	out := bufio.NewWriter(stdout)
	fmt.Fprintf(out, "%s: social-state changes after tick %d, up to tick %d\n", f.Name(), *from, end)
	last := map[string]string{} // a piece of state's key → its last spelling
	n := 0
	for _, r := range recs {
		if r.Tick > end {
			break
		}
		key, state, line := change(r.Body)
		if line == "" {
			continue
		}
		was, seen := last[key]
		last[key] = state
		if r.Tick <= *from {
			continue
		}
		n++
		if seen && was != state {
			line = strings.Replace(line, "{state}", was+" → "+state, 1)
		} else {
			line = strings.Replace(line, "{state}", state, 1)
		}
		fmt.Fprintf(out, "tick %d  %s\n", r.Tick, line)
	}
	for _, g := range grudges {
		// Strengths derive on read from the last anchor, so the state at
		// the later of from and the anchor (the last formed or reinforced
		// record above) is exact.
		start := max(*from, g.Anchor)
		b, a := strengths(g, start, curves), strengths(g, end, curves)
		if b == a {
			continue
		}
		n++
		fmt.Fprintf(out, "ticks %d–%d  grudge %s->%s decayed: %s → %s  (rule %s, cause %s)\n", start, end, g.Holder, g.Target, b, a, rules.GrudgeDecay, g.Causes[len(g.Causes)-1])
	}
	fmt.Fprintf(out, "%d changes\n", n)
	return out.Flush()
}

// change describes one trace record as a social-state change: the key of
// the state it changed, the state after it, and its line with "{state}"
// where the before → after goes. Records of other kinds give no line.
func change(b trace.Body) (key, state, line string) {
	cite := func(rule, cause string) string { return fmt.Sprintf("  (rule %s, cause %s)", rule, cause) }
	switch r := b.(type) {
	case *trace.Grudge:
		state = fmt.Sprintf("emotional %s, evidentiary %s", canon.FormatFloat(r.Emotional), canon.FormatFloat(r.Evidentiary))
		return "grudge " + r.Holder + "->" + r.Target, state,
			fmt.Sprintf("grudge %s->%s %s: {state}%s", r.Holder, r.Target, r.Change, cite(r.Rule, r.Cause))
	case *trace.Obligation:
		return "obligation " + r.ID, r.State,
			fmt.Sprintf("obligation %s (%s owes %s): {state}%s", r.ID, r.Debtor, r.Creditor, cite(r.Rule, r.Cause))
	case *trace.Reputation:
		state = fmt.Sprintf("alpha %s, beta %s, mean %s", canon.FormatFloat(r.Alpha), canon.FormatFloat(r.Beta), canon.FormatFloat(r.Mean))
		return "reputation " + r.Observer + "/" + r.Subject + "/" + r.Dimension, state,
			fmt.Sprintf("reputation %s of %s's %s: {state}%s", r.Observer, r.Subject, r.Dimension, cite(r.Rule, r.Cause))
	case *trace.Event:
		if r.Rule == "" {
			return "", "", ""
		}
		return "event " + r.ID, "appended", fmt.Sprintf("event %s (%s) {state}%s", r.ID, r.EventKind, cite(r.Rule, r.Cause))
	case *trace.Schedule:
		window := fmt.Sprintf("from tick %d", r.From)
		if r.To != 0 {
			window = "ticks " + ticks(r.From, r.To-1)
		}
		return "schedule " + r.NPC + " " + r.Override, r.Change,
			fmt.Sprintf("schedule %s %s: {state}, at %s %s%s", r.NPC, r.Override, place(r.At), window, cite(r.Rule, r.Cause))
	case *trace.Role:
		// The record says who held it before: a role is vacant between
		// its holders.
		change := "held by " + r.Previous + " → vacant"
		if r.Holder != "" {
			change = "vacant → held by " + r.Holder
		}
		return "role " + r.Role, r.Change, fmt.Sprintf("role %s: %s%s", r.Role, change, cite(r.Rule, r.Cause))
	case *trace.RuleEval:
		if r.Rule == rules.PairWeighting && r.Fired {
			// subject: holder->target/cause; the record gives the weight
			// before and after and the grudge's strength.
			grudge, cause, _ := strings.Cut(r.Subject, "/")
			weights := map[string]string{} // looked up, never ranged over
			for _, v := range r.Values {
				weights[v.Name] = canon.FormatFloat(v.Value)
			}
			a, b, _ := strings.Cut(grudge, "->")
			pair := min(a, b) + "~" + max(a, b)
			return "weight " + pair, "weight " + weights["after"],
				fmt.Sprintf("pair weight %s: %s → %s (grudge %s at %s)%s", pair, weights["before"], weights["after"], grudge, weights["grudge"], cite(r.Rule, cause))
		}
		if r.Rule != rules.AccumulationThreshold || r.Reason == "disabled" {
			return "", "", ""
		}
		holder, claim, _ := strings.Cut(r.Subject, "/")
		count := ""
		for _, v := range r.Values {
			if v.Name == "count" {
				count = canon.FormatFloat(v.Value)
			}
		}
		verdict := "declined"
		if r.Fired {
			verdict = "fired"
		}
		return "accumulator " + holder, "count " + count,
			fmt.Sprintf("accumulator of %s: {state}, %s: %s%s", holder, verdict, r.Reason, cite(r.Rule, claim))
	}
	return "", "", ""
}

// strengths spells a grudge's strengths at tick t.
func strengths(g *social.Grudge, t int64, c social.Curves) string {
	return fmt.Sprintf("emotional %s, evidentiary %s", canon.FormatFloat(g.EmotionalAt(t, c)), canon.FormatFloat(g.EvidentiaryAt(t, c)))
}
