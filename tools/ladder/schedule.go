package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// The schedule view Tier 4 forces (seed spec, Tier 4 tooling: "schedule
// diff view — before/after lanes, causing rule linked"): an NPC's base
// schedule and the schedule it followed, side by side, tick range by
// tick range, then every change a rule made to it with the rule and the
// event that caused it.

// scheduleView prints an NPC's base and effective schedule over a run.
func scheduleView(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("schedule", flag.ContinueOnError)
	fl.SetOutput(stderr)
	name := fl.String("rung", "", "rung, or rung/case")
	npc := fl.String("npc", "", "the NPC whose schedule to show")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *name == "" || *npc == "" {
		return errors.New("schedule: -rung and -npc are required")
	}
	f, err := find(*name)
	if err != nil {
		return err
	}
	tr := &trace.Buffer{}
	w, err := ladder.Build(f, tr)
	if err != nil {
		return err
	}
	if !slices.Contains(w.NPCs(), *npc) {
		return fmt.Errorf("schedule: %s has no NPC %q (cast: %s)", f.Name(), *npc, strings.Join(w.NPCs(), ", "))
	}
	out := bufio.NewWriter(stdout)
	fmt.Fprintf(out, "%s %s: base and effective schedule, ticks 0–%d\n", f.Name(), *npc, f.Ticks-1)
	row := func(a, b, c, d string) {
		fmt.Fprintln(out, strings.TrimRight(fmt.Sprintf("%-10s  %-22s  %-22s  %s", a, b, c, d), " "))
	}
	row("ticks", "base", "effective", "override")
	type span struct {
		from, to           int64
		base, at, override string
	}
	var cur *span
	flush := func() {
		if cur != nil {
			row(ticks(cur.from, cur.to), place(cur.base), place(cur.at), cur.override)
		}
	}
	for t := int64(0); t < f.Ticks; t++ {
		if err := w.Step(); err != nil {
			return f.Locate(err)
		}
		p := w.Placement(*npc)
		if cur != nil && cur.base == p.Base && cur.at == p.At && cur.override == p.Override {
			cur.to = t
			continue
		}
		flush()
		cur = &span{from: t, to: t, base: p.Base, at: p.At, override: p.Override}
	}
	flush()
	n := 0
	for _, r := range tr.Records {
		s, ok := r.Body.(*trace.Schedule)
		if !ok || s.NPC != *npc {
			continue
		}
		if n == 0 {
			fmt.Fprintln(out, "changes:")
		}
		n++
		window := fmt.Sprintf("from tick %d", s.From)
		if s.To != 0 {
			window = "ticks " + ticks(s.From, s.To-1)
		}
		fmt.Fprintf(out, "tick %d  %s %s: %s, %s  (rule %s, cause %s)\n", r.Tick, s.Change, s.Override, place(s.At), window, s.Rule, s.Cause)
	}
	fmt.Fprintf(out, "%d schedule changes by %s or %s\n", n, rules.ScheduleWriteBack, rules.RoleSuccession)
	return out.Flush()
}

// ticks spells an inclusive tick range.
func ticks(from, to int64) string {
	if from == to {
		return fmt.Sprint(from)
	}
	return fmt.Sprintf("%d–%d", from, to)
}

// place spells a location, nowhere for "".
func place(loc string) string {
	if loc == "" {
		return "(nowhere)"
	}
	return loc
}
