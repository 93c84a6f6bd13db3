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
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// The schedule view Tier 4 forces (seed spec, Tier 4 tooling: "schedule
// diff view — before/after lanes, causing rule linked"): an NPC's base
// schedule and the schedule it followed, side by side, tick range by
// tick range, then every change a rule made to it with the rule and the
// event that caused it.

// scheduleView prints an NPC's base and effective schedule over a run:
// where it was and the override in force from the run's dense file, its
// base from the fixture, the changes from its trace — or all of it from a
// fresh run with -rerun.
func scheduleView(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("schedule", flag.ContinueOnError)
	fl.SetOutput(stderr)
	name := fl.String("rung", "", "rung, or rung/case")
	npc := fl.String("npc", "", "the NPC whose schedule to show")
	rf := addRunFlags(fl)
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
	run, err := rf.locate(f)
	if err != nil {
		return fmt.Errorf("schedule: %w", err)
	}
	tr := &trace.Buffer{}
	w, err := ladder.Build(f, tr)
	if err != nil {
		return err
	}
	if !slices.Contains(w.NPCs(), *npc) {
		return fmt.Errorf("schedule: %s has no NPC %q (cast: %s)", f.Name(), *npc, strings.Join(w.NPCs(), ", "))
	}
	type span struct {
		from, to           int64
		base, at, override string
	}
	var spans []span
	add := func(t int64, p sim.Placement) {
		if n := len(spans); n > 0 && spans[n-1].base == p.Base && spans[n-1].at == p.At && spans[n-1].override == p.Override {
			spans[n-1].to = t
			return
		}
		spans = append(spans, span{from: t, to: t, base: p.Base, at: p.At, override: p.Override})
	}
	var recs []trace.Record
	if run == nil {
		for t := int64(0); t < f.Ticks; t++ {
			if err := w.Step(); err != nil {
				return f.Locate(err)
			}
			add(t, w.Placement(*npc))
		}
		recs = tr.Records
	} else {
		d, err := run.Dense()
		if err != nil {
			return fmt.Errorf("schedule: %w", err)
		}
		// The base is the fixture's, never edited; where the NPC was and
		// the override in force are the run's.
		base, _, _ := w.Schedules(*npc)
		for i, t := range d.Ticks {
			add(t, sim.Placement{Base: base.At(t), At: d.Cell(i, *npc+"/at"), Override: d.Cell(i, "schedule/"+*npc+"/override")})
		}
		if recs, err = records("schedule", run, -1); err != nil {
			return err
		}
	}
	out := bufio.NewWriter(stdout)
	fmt.Fprintf(out, "%s %s: base and effective schedule, ticks %d–%d\n", f.Name(), *npc, spans[0].from, spans[len(spans)-1].to)
	row := func(a, b, c, d string) {
		fmt.Fprintln(out, strings.TrimRight(fmt.Sprintf("%-10s  %-22s  %-22s  %s", a, b, c, d), " "))
	}
	row("ticks", "base", "effective", "override")
	for _, s := range spans {
		row(ticks(s.from, s.to), place(s.base), place(s.at), s.override)
	}
	n := 0
	for _, r := range recs {
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
