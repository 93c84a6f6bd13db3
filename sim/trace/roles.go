package trace

// The record kinds of Tiers 4a and 5 (schema v2): a change to an NPC's
// effective schedule, and a change of a role's holder. Each names the rule
// that made it and the id of the event that caused it, as the social
// kinds do (docs/trace-schema.md).

// Schedule records an override laid over an NPC's schedule or lifted
// from it (decision 0020), or a base block suspended or resumed: the
// change, the override (or block), where it places the NPC and over which
// ticks.
type Schedule struct {
	NPC string
	// Change is one of ScheduleChanges.
	Change string
	// Override is the override's id (the rewrite event, duties:<role>:<n>)
	// or, for a base block, block:<n>.
	Override string
	At       string // where it places the NPC
	// From is the first tick the change applies; To the first tick the
	// override no longer applies, 0 for an open-ended one (not written).
	From, To int64
	Rule     string
	Cause    string
}

// The changes a schedule record reports: a mourning laid on (overridden)
// and lifted when it ended (restored); a role's duty moved to or from its
// holder (duties taken, duties lifted); a base block that meets a role
// whose holder is gone, or back (suspended, resumed). The engine writes
// these constants and no other string.
const (
	ScheduleOverridden   = "overridden"
	ScheduleRestored     = "restored"
	ScheduleDutiesTaken  = "duties taken"
	ScheduleDutiesLifted = "duties lifted"
	ScheduleSuspended    = "suspended"
	ScheduleResumed      = "resumed"
)

// ScheduleChanges lists every change a schedule record can report.
func ScheduleChanges() []string {
	return []string{ScheduleOverridden, ScheduleRestored, ScheduleDutiesTaken, ScheduleDutiesLifted, ScheduleSuspended, ScheduleResumed}
}

// Kind returns KindSchedule.
func (Schedule) Kind() Kind { return KindSchedule }

// Clone returns a copy.
func (s Schedule) Clone() Body { return &s }

func (s Schedule) encode(l *line) {
	l.str(`{"at":`, s.At)
	l.branchField(`,"branch":`)
	l.str(`,"cause":`, s.Cause)
	l.str(`,"change":`, s.Change)
	l.integer(`,"from":`, s.From)
	l.raw(`,"kind":"schedule"`)
	l.str(`,"npc":`, s.NPC)
	l.str(`,"override":`, s.Override)
	l.str(`,"rule":`, s.Rule)
	l.seqField(`,"seq":`)
	l.tickField(`,"tick":`)
	if s.To != 0 {
		l.integer(`,"to":`, s.To)
	}
	l.raw(`}`)
}

// Role records a role falling vacant or being filled (decision 0022).
type Role struct {
	Role     string // the role's id ("steward"); references to it are role:<id>
	Change   string // one of RoleChanges
	Holder   string // the holder after the change, "" when vacant
	Previous string // the holder before it, "" when there was none
	Rule     string
	Cause    string // the death (vacant), the vacancy (appointed)
}

// The changes a role record reports. The engine writes these constants
// and no other string.
const (
	RoleVacant    = "vacant"
	RoleAppointed = "appointed"
)

// RoleChanges lists every change a role record can report.
func RoleChanges() []string { return []string{RoleVacant, RoleAppointed} }

// Kind returns KindRole.
func (Role) Kind() Kind { return KindRole }

// Clone returns a copy.
func (r Role) Clone() Body { return &r }

func (r Role) encode(l *line) {
	l.openBranch()
	l.str(`,"cause":`, r.Cause)
	l.str(`,"change":`, r.Change)
	l.str(`,"holder":`, r.Holder)
	l.raw(`,"kind":"role"`)
	l.str(`,"previous":`, r.Previous)
	l.str(`,"role":`, r.Role)
	l.str(`,"rule":`, r.Rule)
	l.seqField(`,"seq":`)
	l.tickField(`,"tick":`)
	l.raw(`}`)
}

// RoleState is one role in a keyframe: its holder ("" when vacant) and the
// tick it took the role or the role fell vacant.
type RoleState struct {
	ID, Holder string
	Since      int64
}

var (
	_ Body = Schedule{}
	_ Body = Role{}
)
