package sim

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/trace"
)

// Rule 17, schedule write-back (decision 0020): an NPC who comes to
// believe the killing of kin mourns at the temple of its home hold for
// mourning_ticks from the next tick. The mourning is an override laid
// over the mourner's schedule, never an edit of it; a rewrite event caused
// by the killing places it, and a restore event citing the rewrite lifts
// it in the social phase of the tick it ends. It runs in a world that
// uses the schedule layer (a social world with a temple).

// mourning is one override the restore calendar will lift.
type mourning struct {
	npc     int
	rewrite string // the rewrite event's id, which is also the override's
	cause   string // the killing
}

// effective is NPC i's schedule as the engine follows it: the base with
// every block that meets a vacant role left out, and the overrides rules
// have laid over it.
func (w *World) effective(i int) schedule.Schedule {
	n := &w.npcs[i]
	s := schedule.Schedule{Home: n.schedule.Home, Overrides: slices.Clone(n.overrides)}
	if !n.meets {
		s.Blocks = n.schedule.Blocks
		return s
	}
	for k, b := range n.schedule.Blocks {
		if b.Meets == "" || w.partner[blockRef{i, k}] != "" {
			s.Blocks = append(s.Blocks, b)
		}
	}
	return s
}

// reschedule gives NPC i its effective schedule and re-places it at t.
func (w *World) reschedule(i int, t int64) error {
	return w.occupancy.Reschedule(i, w.effective(i), t)
}

// temple returns the location tagged temple in a hold, the first by id
// when there are several ("" when there is none).
func (w *World) temple(hold string) string {
	for _, loc := range w.locations {
		if w.holds[loc] == hold && hold != "" && slices.Contains(w.tags[loc], Temple) {
			return loc
		}
	}
	return ""
}

// mourn is rule 17 for a holder who came to believe a killing whose
// victim has kin in the world: kin of the victim mourn; anyone else in
// scope is evaluated and declined.
func (w *World) mourn(b *claims.Belief, subject, victim string, t int64) error {
	if !w.rules.Enabled(rules.ScheduleWriteBack) {
		w.ruleEval(rules.ScheduleWriteBack, subject, false, "disabled")
		return nil
	}
	holder := b.Holder
	key := [2]string{holder, b.Claim}
	hold := w.Hold(w.Home(holder))
	temple := w.temple(hold)
	switch {
	case !w.kin.Related(holder, victim):
		w.ruleEval(rules.ScheduleWriteBack, subject, false, "not kin of the deceased")
		return nil
	case w.mourned[key]:
		w.ruleEval(rules.ScheduleWriteBack, subject, false, "already mourned this death")
		return nil
	case hold == "":
		w.ruleEval(rules.ScheduleWriteBack, subject, false, "no home hold: nowhere to mourn")
		return nil
	case temple == "":
		w.ruleEval(rules.ScheduleWriteBack, subject, false, "no temple in "+hold)
		return nil
	}
	w.mourned[key] = true
	from := t + 1
	to := from + w.defines.MourningTicks
	w.ruleEval(rules.ScheduleWriteBack, subject, true, "kin killed: "+victim+": mourns at "+temple,
		trace.Value{Name: "from", Value: float64(from)}, trace.Value{Name: "to", Value: float64(to)})
	id := "rewrite@" + strconv.FormatInt(t, 10) + ":" + holder + ":" + b.Claim
	attrs := map[string]string{"npc": holder, "at": temple, "from": strconv.FormatInt(from, 10), "to": strconv.FormatInt(to, 10)}
	if err := w.appendEvent(events.Event{ID: id, Kind: Rewrite, Tick: t, Attrs: attrs}, b.Claim); err != nil {
		return err
	}
	i := w.index[holder]
	w.npcs[i].overrides = append(w.npcs[i].overrides, schedule.Override{ID: id, Block: schedule.Block{At: temple, From: from, To: to, Until: schedule.Forever}})
	if err := w.reschedule(i, t); err != nil {
		return err
	}
	w.emit(&trace.Schedule{NPC: holder, Change: trace.ScheduleOverridden, Override: id, At: temple, From: from, To: to, Rule: rules.ScheduleWriteBack, Cause: b.Claim})
	w.restoring[to] = append(w.restoring[to], mourning{npc: i, rewrite: id, cause: b.Claim})
	return nil
}

// restore lifts the mournings that end at t, by mourner then rewrite: the
// override is taken off (the NPC is where its base puts it), a restore
// event citing the rewrite is appended, and the schedule record says so.
func (w *World) restore(t int64) error {
	due := w.restoring[t]
	if len(due) == 0 {
		return nil
	}
	delete(w.restoring, t)
	slices.SortFunc(due, func(a, b mourning) int { return cmp.Or(cmp.Compare(a.npc, b.npc), cmp.Compare(a.rewrite, b.rewrite)) })
	for _, m := range due {
		n := &w.npcs[m.npc]
		k := slices.IndexFunc(n.overrides, func(o schedule.Override) bool { return o.ID == m.rewrite })
		if k < 0 {
			continue
		}
		at := n.overrides[k].Block.At
		n.overrides = slices.Delete(n.overrides, k, k+1)
		if err := w.reschedule(m.npc, t); err != nil {
			return err
		}
		holder := w.ids[m.npc]
		w.ruleEval(rules.ScheduleWriteBack, holder+"/"+m.cause, true, "mourning over: schedule restored")
		id := "restore@" + strconv.FormatInt(t, 10) + ":" + holder + ":" + m.cause
		if err := w.appendEvent(events.Event{ID: id, Kind: Restore, Tick: t, Attrs: map[string]string{"npc": holder, "override": m.rewrite}}, m.rewrite); err != nil {
			return err
		}
		w.emit(&trace.Schedule{NPC: holder, Change: trace.ScheduleRestored, Override: m.rewrite, At: at, From: t, Rule: rules.ScheduleWriteBack, Cause: m.rewrite})
	}
	return nil
}

// Placement is where an NPC is at the current tick and why: where its
// base schedule — the fixture's, never edited — would put it, where it is,
// and the override that put it there ("" when the base decides, or the
// NPC is dead: the dead are nowhere).
type Placement struct {
	Base, At, Override string
}

// Placement returns where NPC id is now, base and effective.
func (w *World) Placement(id string) Placement {
	i, ok := w.index[id]
	if !ok || w.now < 0 {
		return Placement{}
	}
	p := Placement{Base: w.npcs[i].schedule.At(w.now), At: w.at(i)}
	if o, ok := w.occupancy.Schedule(i).InForce(w.now); ok && w.npcs[i].alive {
		p.Override = o.ID
	}
	return p
}

// Rescheduled reports whether a rule has changed the schedule of NPC
// number i (its place in NPCs): an override laid over it, or a block of a
// vacant role suspended — what Schedules shows, without looking the id up
// or copying either schedule.
func (w *World) Rescheduled(i int) bool {
	eff := w.occupancy.Schedule(i)
	return len(eff.Overrides) > 0 || len(eff.Blocks) != len(w.npcs[i].schedule.Blocks)
}

// Schedules returns NPC id's base schedule and the schedule it follows
// now (the base less the blocks of vacant roles it meets, with the
// overrides rules have laid over it).
func (w *World) Schedules(id string) (base, effective schedule.Schedule, ok bool) {
	i, ok := w.index[id]
	if !ok {
		return schedule.Schedule{}, schedule.Schedule{}, false
	}
	return w.npcs[i].schedule, w.occupancy.Schedule(i), true
}
