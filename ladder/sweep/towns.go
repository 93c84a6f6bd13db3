package sweep

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/chronicle/ladder/sim"
)

// Towns returns cfg's world copied n times into one world of n separate
// towns. Copy 0 keeps its ids; copy c ≥ 1 suffixes every NPC, location,
// hold and event id with "_c" (the player stays the player), so no NPC of
// one town can meet an NPC of another and each town's rolls are keyed by
// its own ids: n independent draws of the same town in one world.
//
// Only what a copy can follow is accepted: locations, the cast and its
// schedules, and events naming an actor, a victim, a place and witnesses.
// Relationships, kin, roles, pins and the other event kinds' references
// are refused rather than copied half-way.
func Towns(cfg sim.Config, n int) (sim.Config, error) {
	if n < 1 {
		return cfg, fmt.Errorf("towns: %d copies: want at least 1", n)
	}
	switch {
	case len(cfg.Pins) > 0:
		return cfg, errors.New("towns: a swept world cannot pin rolls (a pin names one seed's roll)")
	case len(cfg.Relationships) > 0, len(cfg.Kin) > 0, len(cfg.Roles) > 0:
		return cfg, errors.New("towns: relationships, kin and roles are not copied: a swept world declares none")
	}
	for _, in := range cfg.Injections {
		if in.Recipient != "" || in.Favour != "" || in.Implicates != "" || in.From != "" || in.To != "" || in.Claim != "" || in.TitleName != "" {
			return cfg, fmt.Errorf("towns: event %s (%s) names a party the copy cannot follow: a swept world's events name an actor, a victim, a place and witnesses only", in.ID, in.Kind)
		}
		for _, w := range in.Witnesses {
			if len(w.Says) > 0 {
				return cfg, fmt.Errorf("towns: event %s: witness %s remembers a slot differently, which the copy cannot follow", in.ID, w.NPC)
			}
		}
	}
	out := cfg
	out.Locations, out.Cast, out.Injections = nil, nil, nil
	for c := range n {
		id := func(s string) string {
			if c == 0 || s == "" || s == sim.Player {
				return s
			}
			return s + "_" + strconv.Itoa(c)
		}
		for _, l := range cfg.Locations {
			l.ID, l.Hold = id(l.ID), id(l.Hold)
			out.Locations = append(out.Locations, l)
		}
		for _, p := range cfg.Cast {
			s := p.Schedule
			s.Home, s.Blocks = id(s.Home), nil
			for _, b := range p.Schedule.Blocks {
				b.At = id(b.At)
				s.Blocks = append(s.Blocks, b)
			}
			out.Cast = append(out.Cast, sim.NPC{ID: id(p.ID), Schedule: s, Faction: p.Faction})
		}
		for _, in := range cfg.Injections {
			in.ID, in.Actor, in.Victim, in.At = id(in.ID), id(in.Actor), id(in.Victim), id(in.At)
			ws := in.Witnesses
			in.Witnesses = nil
			for _, w := range ws {
				in.Witnesses = append(in.Witnesses, sim.Witness{NPC: id(w.NPC)})
			}
			out.Injections = append(out.Injections, in)
		}
	}
	// Injections stay in tick order: each copy's are, and a stable merge
	// keeps same-tick events in copy order.
	slices.SortStableFunc(out.Injections, func(a, b sim.Injection) int { return cmp.Compare(a.Tick, b.Tick) })
	return out, nil
}
