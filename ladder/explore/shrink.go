package explore

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
)

// Shrunk is a failing world made as small as the shrinker could make it
// with the same property still failing.
type Shrunk struct {
	Case    *Case
	Finding *Finding
	Tries   int // candidate worlds run
	Kept    int // candidates that still failed and were kept
	// CutShort is set when the time budget stopped the shrinking before
	// the tries did or no cut helped: another machine may shrink further.
	CutShort bool
}

// Shrink reduces a failing case: fewer ticks, events, NPCs, locations,
// roles, households, relationships, schedule blocks, disabled rules and
// overridden defines, keeping each cut under which the same property
// still fails, until no cut helps or maxTries candidates have run (0: no
// bound), so that it ends on the same world on any machine; budget is a
// safety net on its wall time. Every candidate is written as YAML and
// loaded like any fixture, so what it keeps is a fixture the loader
// accepts.
func Shrink(c *Checker, cs *Case, first *Finding, maxTries int, budget time.Duration, now func() time.Time) Shrunk {
	deadline := now().Add(budget)
	only := *c
	only.Only = first.Property
	best := Shrunk{Case: cs, Finding: first}
	try := func(edit func(f *fixture.Fixture) bool) bool {
		if maxTries > 0 && best.Tries >= maxTries {
			return false
		}
		if now().After(deadline) {
			best.CutShort = true
			return false
		}
		g, err := reparse(best.Case.Loaded)
		if err != nil || !edit(g) {
			return false
		}
		g.Summary, g.Title = best.Case.Loaded.Summary, best.Case.Loaded.Title
		cand, err := Load(best.Case.World, g)
		if err != nil {
			return false
		}
		best.Tries++
		out := only.Check(cand)
		for _, x := range out.Findings {
			if x.Property == first.Property {
				best.Case, best.Finding = cand, x
				best.Kept++
				return true
			}
		}
		return false
	}
	for progress := true; progress && !best.CutShort && (maxTries <= 0 || best.Tries < maxTries); {
		// A round has made progress only if it ends on another world than
		// it began with. Resetting an integer define to its default and
		// then halving it are both kept when the failure needs neither, so
		// counting kept cuts alone went round that pair until the deadline
		// (a minute of the package's specs), returning whichever half of
		// the cycle the clock stopped at.
		start := best.Case.YAML
		progress = false
		// The run need not go past the failure.
		if t := best.Finding.Tick; t >= 0 && t+1 < best.Case.Loaded.Ticks {
			progress = try(func(f *fixture.Fixture) bool { return cutTicks(f, t+1) }) || progress
		}
		for _, n := range []int64{2, 4, 8} {
			if ticks := best.Case.Loaded.Ticks / n; ticks >= 1 {
				progress = try(func(f *fixture.Fixture) bool { return cutTicks(f, ticks) }) || progress
			}
		}
		progress = shrinkList(try, func(f *fixture.Fixture) int { return len(f.Injections) }, dropInjections) || progress
		// Quiet stretches: start the events at tick 0, then halve the
		// gaps between them (and shorten the run by what they saved).
		progress = try(func(f *fixture.Fixture) bool { return shiftTicks(f, 1) }) || progress
		progress = try(func(f *fixture.Fixture) bool { return shiftTicks(f, 2) }) || progress
		progress = shrinkList(try, func(f *fixture.Fixture) int { return len(f.Cast) }, dropNPCs) || progress
		progress = shrinkList(try, func(f *fixture.Fixture) int { return len(f.Locations) }, dropLocations) || progress
		progress = shrinkList(try, func(f *fixture.Fixture) int { return len(f.Roles) }, dropRoles) || progress
		progress = shrinkList(try, func(f *fixture.Fixture) int { return len(f.Kin) }, func(f *fixture.Fixture, lo, hi int) bool {
			f.Kin = slices.Delete(f.Kin, lo, hi)
			return true
		}) || progress
		progress = shrinkList(try, func(f *fixture.Fixture) int { return len(f.Relationships) }, func(f *fixture.Fixture, lo, hi int) bool {
			f.Relationships = slices.Delete(f.Relationships, lo, hi)
			return true
		}) || progress
		progress = shrinkList(try, func(f *fixture.Fixture) int { return len(f.Disabled) }, func(f *fixture.Fixture, lo, hi int) bool {
			f.Disabled = slices.Delete(f.Disabled, lo, hi)
			return true
		}) || progress
		for i := range best.Case.Loaded.Cast {
			for range best.Case.Loaded.Cast[i].Schedule.Blocks {
				progress = try(func(f *fixture.Fixture) bool { return dropBlock(f, i) }) || progress
			}
		}
		for _, d := range rules.Fields() {
			progress = try(func(f *fixture.Fixture) bool { return resetDefine(f, d.Name) }) || progress
			if d.Kind == rules.IntDefine {
				// A window or a delay halved lets the events move closer.
				progress = try(func(f *fixture.Fixture) bool { return halveDefine(f, d.Name) }) || progress
			}
		}
		progress = try(func(f *fixture.Fixture) bool { had := len(f.Items) > 0; f.Items = nil; return had }) || progress
		progress = progress && !bytes.Equal(start, best.Case.YAML)
	}
	return best
}

// shrinkList tries to drop halves, then quarters … then single entries of
// a list, keeping every drop under which the property still fails.
func shrinkList(try func(func(*fixture.Fixture) bool) bool, size func(*fixture.Fixture) int, drop func(f *fixture.Fixture, lo, hi int) bool) bool {
	progress := false
	var n int
	probe := func(f *fixture.Fixture) bool { n = size(f); return false }
	try(probe)
	for chunk := max(1, n/2); chunk >= 1; chunk /= 2 {
		for lo := 0; ; {
			kept := try(func(f *fixture.Fixture) bool {
				if lo >= size(f) {
					return false
				}
				return drop(f, lo, min(size(f), lo+chunk))
			})
			if kept {
				progress = true
				continue // the next chunk now starts at lo
			}
			lo += chunk
			ok := false
			try(func(f *fixture.Fixture) bool { ok = lo < size(f); return false })
			if !ok {
				break
			}
		}
		if chunk == 1 {
			break
		}
	}
	return progress
}

// cutTicks shortens the run, dropping what happens after it.
func cutTicks(f *fixture.Fixture, ticks int64) bool {
	if ticks >= f.Ticks || ticks < 1 {
		return false
	}
	f.Ticks = ticks
	f.Injections = slices.DeleteFunc(f.Injections, func(in sim.Injection) bool { return in.Tick >= ticks })
	return true
}

func dropInjections(f *fixture.Fixture, lo, hi int) bool {
	gone := map[string]bool{}
	for _, in := range f.Injections[lo:hi] {
		gone[in.ID] = true
	}
	f.Injections = slices.Delete(f.Injections, lo, hi)
	// What names a dropped event goes too: its reports and invocations.
	f.Injections = slices.DeleteFunc(f.Injections, func(in sim.Injection) bool { return gone[in.Claim] || gone[in.Favour] })
	return true
}

// dropNPCs removes NPCs and everything that names them.
func dropNPCs(f *fixture.Fixture, lo, hi int) bool {
	gone := map[string]bool{}
	for _, n := range f.Cast[lo:hi] {
		gone[n.ID] = true
	}
	f.Cast = slices.Delete(f.Cast, lo, hi)
	forget(f, gone)
	return true
}

// forget removes every reference to the NPCs in gone.
func forget(f *fixture.Fixture, gone map[string]bool) {
	f.Relationships = slices.DeleteFunc(f.Relationships, func(r sim.Relationship) bool { return gone[r.From] || gone[r.To] })
	var kin [][]string
	for _, h := range f.Kin {
		h = slices.DeleteFunc(slices.Clone(h), func(m string) bool { return gone[m] })
		if len(h) >= 2 {
			kin = append(kin, h)
		}
	}
	f.Kin = kin
	for i := range f.Roles {
		if gone[f.Roles[i].Holder] {
			f.Roles[i].Holder = ""
		}
	}
	dropped := map[string]bool{}
	var ins []sim.Injection
	for _, in := range f.Injections {
		if gone[in.Actor] || gone[in.Victim] || gone[in.Recipient] || gone[in.Implicates] || gone[in.From] || gone[in.To] || dropped[in.Claim] || dropped[in.Favour] {
			dropped[in.ID] = true
			continue
		}
		in.Witnesses = slices.DeleteFunc(slices.Clone(in.Witnesses), func(w sim.Witness) bool { return gone[w.NPC] })
		for i, w := range in.Witnesses {
			in.Witnesses[i].Says = slices.DeleteFunc(slices.Clone(w.Says), func(r sim.Recollection) bool { return gone[r.Value] })
		}
		ins = append(ins, in)
	}
	f.Injections = ins
}

// dropLocations removes places and what happens or stays at them.
func dropLocations(f *fixture.Fixture, lo, hi int) bool {
	gone := map[string]bool{}
	for _, l := range f.Locations[lo:hi] {
		gone[l.ID] = true
	}
	f.Locations = slices.Delete(f.Locations, lo, hi)
	keep := func(bs []schedule.Block) []schedule.Block {
		return slices.DeleteFunc(slices.Clone(bs), func(b schedule.Block) bool { return gone[b.At] })
	}
	for i := range f.Cast {
		s := &f.Cast[i].Schedule
		if gone[s.Home] {
			s.Home = ""
		}
		s.Blocks = keep(s.Blocks)
	}
	for i := range f.Roles {
		f.Roles[i].Duties = keep(f.Roles[i].Duties)
	}
	dropped := map[string]bool{}
	var ins []sim.Injection
	for _, in := range f.Injections {
		if gone[in.At] || dropped[in.Claim] || dropped[in.Favour] {
			dropped[in.ID] = true
			continue
		}
		for i, w := range in.Witnesses {
			in.Witnesses[i].Says = slices.DeleteFunc(slices.Clone(w.Says), func(r sim.Recollection) bool { return gone[r.Value] })
		}
		ins = append(ins, in)
	}
	f.Injections = ins
	return len(f.Locations) > 0
}

// dropRoles removes offices and what names them.
func dropRoles(f *fixture.Fixture, lo, hi int) bool {
	gone := map[string]bool{}
	for _, r := range f.Roles[lo:hi] {
		gone["role:"+r.ID] = true
		gone[r.ID] = true
	}
	f.Roles = slices.Delete(f.Roles, lo, hi)
	for i := range f.Roles {
		if gone[f.Roles[i].Appointer] {
			f.Roles[i].Appointer = ""
		}
	}
	for i := range f.Cast {
		f.Cast[i].Schedule.Blocks = slices.DeleteFunc(slices.Clone(f.Cast[i].Schedule.Blocks), func(b schedule.Block) bool { return gone[b.Meets] })
	}
	forget(f, gone)
	return true
}

func dropBlock(f *fixture.Fixture, npc int) bool {
	if npc >= len(f.Cast) || len(f.Cast[npc].Schedule.Blocks) == 0 {
		return false
	}
	bs := f.Cast[npc].Schedule.Blocks
	f.Cast[npc].Schedule.Blocks = bs[:len(bs)-1]
	return true
}

func resetDefine(f *fixture.Fixture, name string) bool {
	def := rules.Default()
	v, _ := f.Defines.Value(name)
	dv, _ := def.Value(name)
	if v == dv {
		return false
	}
	field, _ := rules.Lookup(name)
	if field.Kind == rules.IntDefine {
		_ = f.Defines.SetInt(name, int64(dv))
	} else {
		_ = f.Defines.SetFloat(name, dv)
	}
	return f.Defines.Validate() == nil
}

// shiftTicks moves the events earlier: with div 1 the first starts at
// tick 0, the gaps kept; with div 2 every gap between two events is
// halved too. Their order, and so every reference to an earlier event,
// is kept; the run ends as far after the last event as it did.
func shiftTicks(f *fixture.Fixture, div int64) bool {
	if len(f.Injections) == 0 {
		return false
	}
	tail := f.Ticks - f.Injections[len(f.Injections)-1].Tick
	prev, at := f.Injections[0].Tick, int64(0)
	if div > 1 {
		at = f.Injections[0].Tick
	}
	moved := false
	for i := range f.Injections {
		gap := f.Injections[i].Tick - prev
		prev = f.Injections[i].Tick
		at += gap / div
		moved = moved || at != f.Injections[i].Tick
		f.Injections[i].Tick = at
	}
	f.Ticks = f.Injections[len(f.Injections)-1].Tick + tail
	renameIDs(f)
	return moved
}

// renameIDs gives the events whose ids were their default, <kind>@<tick>,
// the default of their tick now, and follows the references to them.
func renameIDs(f *fixture.Fixture) {
	taken, renamed := map[string]bool{}, map[string]string{}
	for _, in := range f.Injections {
		taken[in.ID] = true
	}
	for i := range f.Injections {
		in := &f.Injections[i]
		kind, _, ok := strings.Cut(in.ID, "@")
		if in.Kind == sim.Report || !ok || kind != in.Kind {
			continue
		}
		want := in.Kind + "@" + strconv.FormatInt(in.Tick, 10)
		if want == in.ID || taken[want] {
			continue
		}
		delete(taken, in.ID)
		taken[want], renamed[in.ID] = true, want
		in.ID = want
	}
	for i := range f.Injections {
		in := &f.Injections[i]
		if n, ok := renamed[in.Claim]; ok {
			in.Claim = n
		}
		if n, ok := renamed[in.Favour]; ok {
			in.Favour = n
		}
	}
}

// halveDefine halves an integer define, when the result still validates.
func halveDefine(f *fixture.Fixture, name string) bool {
	v, _ := f.Defines.Value(name)
	if int64(v) < 2 {
		return false
	}
	_ = f.Defines.SetInt(name, int64(v)/2)
	return f.Defines.Validate() == nil
}
