package sim

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/roles"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/trace"
)

// Rule 19, role succession (decision 0022). A role is an entity: what
// concerns the office names role:<id> and resolves through the book to
// its holder, or to nobody while it is vacant. When a holder dies the role
// falls vacant (a vacancy event caused by the death, news for the death's
// witnesses), its duties are lifted and the blocks that meet it are
// suspended; while it is vacant, every duty block that would have started
// is a lapse event witnessed by whoever is at the duty's place; after
// succession_delay_ticks the appointer's holder appoints the living
// member of the role's faction, holding no role, with the highest score
// — trust in the candidate plus a kin bonus for kin of the previous
// holder — a tie broken by a keyed roll (purpose succession); the
// appointment is news for those where the appointer is. It runs in a
// world that declares roles.

// PurposeSuccession is the roll purpose of a succession tie-break: site
// the role's reference, participants the tied candidates.
const PurposeSuccession = "succession"

// RoleRef returns the reference to role id: role:<id>.
func RoleRef(id string) string { return roles.Ref(id) }

// blockRef names base block k of NPC i.
type blockRef struct{ npc, block int }

// Roles returns every role, for reading.
func (w *World) Roles() *roles.Book { return w.roles }

// party returns whom an event's party names: the holder of a role
// reference ("" while it is vacant), anyone else as named.
func (w *World) party(s string) string {
	who, _ := w.roles.Resolve(s)
	return who
}

// placeDuties lays role r's duties over its holder's schedule, as
// overrides the role owns.
func (w *World) placeDuties(r *roles.Role) int {
	i := w.index[r.Holder]
	for n, b := range r.Duties {
		w.npcs[i].overrides = append(w.npcs[i].overrides, schedule.Override{ID: roles.DutyID(r.ID, n), Block: b})
	}
	return i
}

// liftDuties takes role r's duties off npc's schedule.
func (w *World) liftDuties(r *roles.Role, npc string) int {
	i := w.index[npc]
	w.npcs[i].overrides = slices.DeleteFunc(w.npcs[i].overrides, func(o schedule.Override) bool { return isDutyOf(o.ID, r) })
	return i
}

func isDutyOf(id string, r *roles.Role) bool {
	for n := range r.Duties {
		if id == roles.DutyID(r.ID, n) {
			return true
		}
	}
	return false
}

// partners sets the holder every block meeting role r is kept for ("" to
// suspend them) and re-places their NPCs at t, recording each change.
func (w *World) partners(r *roles.Role, holder, change, cause string, t int64) error {
	for _, ref := range w.meets[r.ID] {
		w.partner[ref] = holder
		if err := w.reschedule(ref.npc, t); err != nil {
			return err
		}
		b := w.npcs[ref.npc].schedule.Blocks[ref.block]
		w.emit(&trace.Schedule{NPC: w.ids[ref.npc], Change: change, Override: "block:" + strconv.Itoa(ref.block), At: b.At, From: t,
			Rule: rules.RoleSuccession, Cause: cause})
	}
	return nil
}

// vacate is rule 19 when a role's holder dies, from the killing in
// (whose death event is death): the role falls vacant, its duties are
// lifted, the blocks meeting it are suspended, and the vacancy is news
// for the killing's witnesses. Its successor is due succession_delay_ticks
// later.
func (w *World) vacate(r *roles.Role, in Injection, death string, t int64) error {
	subject := r.ID
	if !w.rules.Enabled(rules.RoleSuccession) {
		w.ruleEval(rules.RoleSuccession, subject, false, "disabled")
		return nil
	}
	previous := r.Holder
	if _, err := w.roles.Vacate(r.ID, t); err != nil {
		return err
	}
	w.ruleEval(rules.RoleSuccession, subject, true, "vacant: "+previous+" died")
	id := "vacancy@" + strconv.FormatInt(t, 10) + ":" + r.ID
	attrs := map[string]string{"role": r.ID, "holder": previous, "location": in.At}
	if err := w.appendEvent(events.Event{ID: id, Kind: Vacancy, Tick: t, Attrs: attrs, Witnesses: witnessIDs(w.alive(in.Witnesses))}, death); err != nil {
		return err
	}
	w.vacancy[r.ID] = id
	w.emit(&trace.Role{Role: r.ID, Change: trace.RoleVacant, Previous: previous, Rule: rules.RoleSuccession, Cause: death})
	i := w.liftDuties(r, previous)
	if err := w.reschedule(i, t); err != nil {
		return err
	}
	for n, b := range r.Duties {
		w.emit(&trace.Schedule{NPC: previous, Change: trace.ScheduleDutiesLifted, Override: roles.DutyID(r.ID, n), At: b.At, From: t, Rule: rules.RoleSuccession, Cause: id})
	}
	if err := w.partners(r, "", trace.ScheduleSuspended, id, t); err != nil {
		return err
	}
	due := t + w.defines.SuccessionDelayTicks
	w.successions[due] = append(w.successions[due], r.ID)
	return w.news(id, Vacancy, t, claims.Slots{
		{Name: "holder", Type: claims.EntitySlot, Value: previous},
		{Name: "location", Type: claims.LocationSlot, Value: in.At},
		{Name: "role", Type: claims.FixedSlot, Value: r.ID},
	}, witnessIDs(w.alive(in.Witnesses)))
}

// alive keeps the witnesses who are alive.
func (w *World) alive(ws []Witness) []Witness {
	var out []Witness
	for _, x := range ws {
		if w.Alive(x.NPC) {
			out = append(out, x)
		}
	}
	return out
}

func witnessIDs(ws []Witness) []string {
	out := make([]string, len(ws))
	for i, x := range ws {
		out[i] = x.NPC
	}
	return out
}

// news mints the claim of an event rule 19 derived and forms the belief
// of each witness, in order: the event precedes every belief in its claim.
func (w *World) news(id, kind string, t int64, slots claims.Slots, witnesses []string) error {
	claim, err := w.mintClaim(id, kind, t, slots)
	if err != nil {
		return err
	}
	w.ruleEval(rules.SharedClaimInvariant, claim.ID, true, "claim minted for event")
	for _, npc := range witnesses {
		if err := w.witness(claim, Witness{NPC: npc}); err != nil {
			return err
		}
	}
	return nil
}

// here returns the living NPCs at a location now, sorted.
func (w *World) here(loc string) []string {
	j, ok := slices.BinarySearch(w.locations, loc)
	if !ok {
		return nil
	}
	var out []string
	for _, i := range w.occupancy.Here(j) {
		out = append(out, w.ids[i])
	}
	return out
}

// rolesPhase runs rule 19's calendar at t, after the tick's injections:
// the duties of vacant roles that would have started now lapse, then the
// successions due now are decided, roles in id order.
func (w *World) rolesPhase(t int64) error {
	for _, r := range w.roles.All() {
		if !r.Vacant() {
			continue
		}
		for n, b := range r.Duties {
			if b.Covers(t) && !b.Covers(t-1) {
				if err := w.lapse(r, n, b, t); err != nil {
					return err
				}
			}
		}
	}
	due := w.successions[t]
	delete(w.successions, t)
	slices.Sort(due)
	for _, id := range due {
		if err := w.succeed(id, t); err != nil {
			return err
		}
	}
	return nil
}

// lapse is one duty of a vacant role that would have started at t: an
// event witnessed by whoever is at the duty's place.
func (w *World) lapse(r *roles.Role, n int, b schedule.Block, t int64) error {
	subject := r.ID + "/" + roles.DutyID(r.ID, n)
	if !w.rules.Enabled(rules.RoleSuccession) {
		w.ruleEval(rules.RoleSuccession, subject, false, "disabled")
		return nil
	}
	r.Lapses++
	witnesses := w.here(b.At)
	w.ruleEval(rules.RoleSuccession, subject, true, "duty lapsed: the role is vacant",
		trace.Value{Name: "lapses", Value: float64(r.Lapses)}, trace.Value{Name: "witnesses", Value: float64(len(witnesses))})
	id := "lapse@" + strconv.FormatInt(t, 10) + ":" + r.ID + ":" + strconv.Itoa(n)
	attrs := map[string]string{"role": r.ID, "duty": roles.DutyID(r.ID, n), "location": b.At}
	if err := w.appendEvent(events.Event{ID: id, Kind: Lapse, Tick: t, Attrs: attrs, Witnesses: witnesses}, w.vacancy[r.ID]); err != nil {
		return err
	}
	return w.news(id, Lapse, t, claims.Slots{
		{Name: "location", Type: claims.LocationSlot, Value: b.At},
		{Name: "role", Type: claims.FixedSlot, Value: r.ID},
	}, witnesses)
}

// succeed decides the successor of a vacant role, due at t.
func (w *World) succeed(id string, t int64) error {
	r, _ := w.roles.Get(id)
	if !w.rules.Enabled(rules.RoleSuccession) {
		w.ruleEval(rules.RoleSuccession, id, false, "disabled")
		return nil
	}
	if !r.Vacant() {
		return nil
	}
	appointer, ok := w.roles.Get(r.Appointer)
	switch {
	case r.Appointer == "":
		w.ruleEval(rules.RoleSuccession, id, false, "no appointer: the role stays vacant")
		return nil
	case !ok || appointer.Vacant():
		w.ruleEval(rules.RoleSuccession, id, false, "the appointer's role "+r.Appointer+" is vacant: the role stays vacant")
		return nil
	}
	var cands []roles.Candidate
	for i, npc := range w.ids {
		if _, holds := w.roles.Of(npc); !w.npcs[i].alive || w.npcs[i].faction != r.Faction || r.Faction == "" || holds {
			continue
		}
		trust, known := w.trust[[2]string{appointer.Holder, npc}]
		if !known {
			trust = w.defines.DefaultTrust
		}
		kin := w.kin.Related(npc, r.Previous)
		cands = append(cands, roles.Candidate{NPC: npc, Trust: trust, Kin: kin, Score: roles.Score(trust, kin, w.defines.SuccessionKinBonus)})
	}
	if len(cands) == 0 {
		w.ruleEval(rules.RoleSuccession, id, false, "no living member of "+cmp.Or(r.Faction, "the role's faction")+" holds no role: the role stays vacant")
		return nil
	}
	top := roles.Top(cands)
	chosen := top[0].NPC
	var roll *trace.Roll
	if len(top) > 1 {
		tied := make([]string, len(top))
		for k, c := range top {
			tied[k] = c.NPC
		}
		roll = &trace.Roll{Roll: w.roller.Roll(PurposeSuccession, t, roles.Ref(id), tied...), Threshold: float64(len(tied))}
		chosen = tied[int(math.Floor(float64(roll.Roll.Value*roll.Threshold)))]
	}
	for _, c := range cands {
		reason := "outscored"
		switch {
		case c.NPC == chosen && roll != nil:
			reason = "appointed: won the tie-break"
		case c.NPC == chosen:
			reason = "appointed: the highest score"
		case roll != nil && slices.ContainsFunc(top, func(x roles.Candidate) bool { return x.NPC == c.NPC }):
			reason = "lost the tie-break"
		}
		e := &w.rec.rule
		*e = trace.RuleEval{Rule: rules.RoleSuccession, Subject: id + "<-" + c.NPC, Fired: c.NPC == chosen, Reason: reason,
			Values: append(e.Values[:0], trace.Value{Name: "kin", Value: boolValue(c.Kin)}, trace.Value{Name: "score", Value: c.Score}, trace.Value{Name: "trust", Value: c.Trust})}
		if c.NPC == chosen {
			e.Roll = roll
		}
		w.emit(e)
	}
	if _, err := w.roles.Appoint(id, chosen, t); err != nil {
		return err
	}
	vacancy := w.vacancy[id]
	ev := "appointment@" + strconv.FormatInt(t, 10) + ":" + id
	where := w.At(appointer.Holder)
	witnesses := w.here(where)
	for _, p := range []string{appointer.Holder, chosen} {
		if !slices.Contains(witnesses, p) {
			witnesses = append(witnesses, p)
		}
	}
	attrs := map[string]string{"role": id, "holder": chosen, "actor": appointer.Holder, "location": where}
	if err := w.appendEvent(events.Event{ID: ev, Kind: Appointment, Tick: t, Attrs: attrs, Witnesses: witnesses}, vacancy); err != nil {
		return err
	}
	w.emit(&trace.Role{Role: id, Change: trace.RoleAppointed, Holder: chosen, Previous: r.Previous, Rule: rules.RoleSuccession, Cause: vacancy})
	i := w.placeDuties(r)
	if err := w.reschedule(i, t); err != nil {
		return err
	}
	for n, b := range r.Duties {
		w.emit(&trace.Schedule{NPC: chosen, Change: trace.ScheduleDutiesTaken, Override: roles.DutyID(id, n), At: b.At, From: t, Rule: rules.RoleSuccession, Cause: ev})
	}
	if err := w.partners(r, chosen, trace.ScheduleResumed, ev, t); err != nil {
		return err
	}
	slots := claims.Slots{
		{Name: "actor", Type: claims.EntitySlot, Value: appointer.Holder},
		{Name: "holder", Type: claims.EntitySlot, Value: chosen},
		{Name: "role", Type: claims.FixedSlot, Value: id},
	}
	if where != "" {
		slots = append(slots, claims.Slot{Name: "location", Type: claims.LocationSlot, Value: where})
	}
	return w.news(ev, Appointment, t, slots, witnesses)
}

// References returns every place in the world's live state that names
// role id, sorted by where it is held (roles.Reference): the obligations
// owed to or by the office, the base blocks that meet it (resolved to the
// holder they are kept for, "" while suspended), and its duties (resolved
// to the NPC whose schedule carries each).
func (w *World) References(id string) []roles.Reference {
	ref := roles.Ref(id)
	var out []roles.Reference
	for _, o := range w.ledger.All() {
		for _, side := range []struct{ name, who string }{{"creditor", o.Creditor}, {"debtor", o.Debtor}} {
			if side.who == ref {
				out = append(out, roles.Reference{Role: id, Where: o.ID + " " + side.name, Names: side.who, Resolved: w.party(side.who)})
			}
		}
	}
	for _, b := range w.meets[id] {
		out = append(out, roles.Reference{Role: id, Where: fmt.Sprintf("%s's block %d", w.ids[b.npc], b.block),
			Names: w.npcs[b.npc].schedule.Blocks[b.block].Meets, Resolved: w.partner[b]})
	}
	if r, ok := w.roles.Get(id); ok {
		for n := range r.Duties {
			duty := roles.DutyID(id, n)
			carrier := ""
			for i := range w.npcs {
				if slices.ContainsFunc(w.npcs[i].overrides, func(o schedule.Override) bool { return o.ID == duty }) {
					carrier = w.ids[i]
				}
			}
			out = append(out, roles.Reference{Role: id, Where: duty, Names: ref, Resolved: carrier})
		}
	}
	slices.SortStableFunc(out, func(a, b roles.Reference) int { return strings.Compare(a.Where, b.Where) })
	return out
}
