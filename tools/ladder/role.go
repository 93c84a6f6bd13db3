package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/runfiles"
	"github.com/chronicle/ladder/sim/roles"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// The role inspector Tier 5 forces (seed spec, Tier 5 tooling): every
// role as of a tick — its holder or its vacancy, its duties, every
// reference to it and what each resolves to now — and the role events
// of the run up to that tick, each with its rule and its cause.

// roleView prints the roles of a run as of a tick, from the files the
// run wrote (runfiles.Roles), or from a fresh run with -rerun.
func roleView(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("role", flag.ContinueOnError)
	fl.SetOutput(stderr)
	name := fl.String("rung", "", "rung, or rung/case")
	at := fl.Int64("at", -1, "the tick to show the roles as of (default: the last tick)")
	only := fl.String("role", "", "only this role")
	rf := addRunFlags(fl)
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *name == "" {
		return errors.New("role: -rung is required")
	}
	f, err := find(*name)
	if err != nil {
		return err
	}
	run, err := rf.locate(f)
	if err != nil {
		return fmt.Errorf("role: %w", err)
	}
	tr := &trace.Buffer{}
	w, err := ladder.Build(f, tr)
	if err != nil {
		return err
	}
	if w.Roles().Len() == 0 {
		return fmt.Errorf("role: %s declares no roles", f.Name())
	}
	if _, ok := w.Roles().Get(*only); *only != "" && !ok {
		var ids []string
		for _, r := range w.Roles().All() {
			ids = append(ids, r.ID)
		}
		return fmt.Errorf("role: %s has no role %q (roles: %s)", f.Name(), *only, strings.Join(ids, ", "))
	}
	tick := *at
	if run == nil {
		_, tick, err = findAt("role", *name, *at)
	} else {
		tick, err = run.At("role", *at)
	}
	if err != nil {
		return err
	}
	var book []runfiles.Role
	var recs []trace.Record
	if run == nil {
		for w.Now() < tick {
			if err := w.Step(); err != nil {
				return f.Locate(err)
			}
		}
		for _, r := range w.Roles().All() {
			book = append(book, runfiles.Role{Role: r, References: w.References(r.ID)})
		}
		recs = tr.Records
	} else {
		if recs, err = records("role", run, tick); err != nil {
			return err
		}
		book = runfiles.Roles(w, recs)
	}
	out := bufio.NewWriter(stdout)
	fmt.Fprintf(out, "%s: roles as of tick %d\n", f.Name(), tick)
	for _, r := range book {
		if *only != "" && r.ID != *only {
			continue
		}
		appointer := "appointed by nobody"
		if r.Appointer != "" {
			appointer = "appointed by " + roles.Ref(r.Appointer)
		}
		state := fmt.Sprintf("held by %s since tick %d", r.Holder, r.Since)
		if r.Vacant() {
			state = fmt.Sprintf("vacant since tick %d", r.Since)
			if r.Previous != "" {
				state += ", last held by " + r.Previous
			}
		}
		lapses := fmt.Sprintf("%d duty lapses", r.Lapses)
		if r.Lapses == 1 {
			lapses = "1 duty lapse"
		}
		fmt.Fprintf(out, "%s (faction %s, %s): %s; %s\n", roles.Ref(r.ID), r.Faction, appointer, state, lapses)
		for n, b := range r.Duties {
			fmt.Fprintf(out, "  duty %s: %s, %s\n", roles.DutyID(r.ID, n), place(b.At), blockTimes(b.From, b.To, b.Every))
		}
		for _, ref := range r.References {
			fmt.Fprintf(out, "  reference %s names %s, resolves to %s\n", ref.Where, ref.Names, nobody(ref.Resolved))
		}
	}
	n := 0
	for _, rec := range recs {
		line := roleChange(rec.Body)
		if line == "" || *only != "" && !strings.Contains(line, " "+*only) && !strings.Contains(line, ":"+*only) {
			continue
		}
		if n == 0 {
			fmt.Fprintln(out, "events:")
		}
		n++
		fmt.Fprintf(out, "tick %d  %s\n", rec.Tick, line)
	}
	fmt.Fprintf(out, "%d role events up to tick %d\n", n, tick)
	return out.Flush()
}

// roleChange describes a record of rule 19 as a line of the role view:
// a role's change of holder, or an event the rule derived.
func roleChange(b trace.Body) string {
	switch r := b.(type) {
	case *trace.Role:
		what := "vacant (last held by " + r.Previous + ")"
		if r.Change == "appointed" {
			what = "appointed " + r.Holder
		}
		return fmt.Sprintf("role %s %s  (rule %s, cause %s)", r.Role, what, r.Rule, r.Cause)
	case *trace.Event:
		if r.Rule != rules.RoleSuccession {
			return ""
		}
		return fmt.Sprintf("event %s (%s)  (rule %s, cause %s)", r.ID, r.EventKind, r.Rule, r.Cause)
	}
	return ""
}

// blockTimes spells a block's hours: "ticks 8–17" once, or "8–17 every 24".
func blockTimes(from, to, every int64) string {
	if every == 0 {
		return "ticks " + ticks(from, to-1)
	}
	return fmt.Sprintf("%s every %d ticks", ticks(from, to-1), every)
}

func nobody(s string) string {
	if s == "" {
		return "nobody"
	}
	return s
}
