package explore

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// Property is one thing every world must have, with what it guards. The
// table below is the one place the explorer's properties are named and
// described; docs/explore.md is written from it (Table), and each
// property's check is the function named beside it.
type Property struct {
	Name   string
	Guards string
}

// The properties, in the order a world is checked.
const (
	PropRuns          = "runs"
	PropAudit         = "audit"
	PropReplay        = "replay"
	PropDeterminism   = "determinism"
	PropFresh         = "determinism-fresh-process"
	PropIsolatedNPC   = "locality-isolated-npc"
	PropIsolatedTown  = "locality-isolated-town"
	PropUnusedRule    = "locality-unused-rule"
	PropView          = "locality-view"
	PropObserver      = "observer-locality"
	PropAccumulation  = "rule-11-accumulation"
	PropGrudgeDecay   = "rule-13-grudge-decay"
	PropReputation    = "rule-16-once-per-claim"
	PropMourning      = "rule-17-restored-on-time"
	PropPairWeight    = "rule-18-pair-weight"
	PropRoleReference = "rule-19-role-references"
)

// Properties lists every property with the sentence that says what it
// guards.
var Properties = []Property{
	{PropRuns, "a valid fixture runs to its last tick: the engine neither refuses a world the loader accepted, nor panics, nor hangs (a run that finishes no tick for `LADDER_STALL`, default a minute, is given up)"},
	{PropAudit, "regime 2's invariants hold after every tick and the canonical log's hash chain verifies end to end (a broken store, a wrong count, a tampered link)"},
	{PropReplay, "the exported log replays: the engine appends exactly the logged records and reaches the recorded state digests and log head (ladder verify)"},
	{PropDeterminism, "the same world run twice in one process writes byte-identical dense.csv and trace.jsonl (state leaking between runs, map order, a global)"},
	{PropFresh, "the same world run in a fresh process writes the same bytes as in the explorer's (process-level state: init order, an environment read, the clock)"},
	{PropIsolatedNPC, "an NPC added at a place nobody else visits changes no other roll, trace record or dense column (a roll keyed by stream position or cast size instead of its key)"},
	{PropIsolatedTown, "a town nobody travels to, with people of its own, changes no roll, record or dense column of the rest of the world (keyed randomness across sites)"},
	{PropUnusedRule, "disabling a rule the run never evaluated leaves the run byte-identical (a rule toggle read where the rule does not decide)"},
	{PropView, "switching the collective fear view on (a fear expectation) leaves the run byte-identical: no rule reads a view"},
	{PropObserver, "no NPC's belief, grudge, obligation or reputation changes without a record at that tick that ties the change to something the NPC witnessed or was told (observer locality, decision 0014)"},
	{PropAccumulation, "rule 11 fires at most once per arming, when the believed offences within the window reach the threshold, and re-arms only at or below its re-arm level (decision 0018)"},
	{PropGrudgeDecay, "rule 13: a grudge never rises without a new cause and settles exactly once, at the first tick its total strength is below grudge_settled (decision 0016)"},
	{PropReputation, "rule 16 counts a claim once per observer, however often the observer's belief in it changes variant, and α, β move by exactly the weight (decision 0017)"},
	{PropMourning, "rule 17: every mourning laid over a schedule is lifted exactly when it ends (decision 0020)"},
	{PropPairWeight, "rule 18's weight is max(0, 1 − avoidance_strength·g), within [0, 1], never rising as the grudge grows, and each weighted encounter's threshold is p·w (decision 0021)"},
	{PropRoleReference, "rule 19: every role resolves to a living holder or to vacant; a holder's death vacates its role at once, and succession_delay_ticks later the rule decides its successor or says why there is none (decision 0022)"},
}

// Table is the properties as a Markdown table, for docs/explore.md.
func Table() string {
	var b strings.Builder
	b.WriteString("| property | what it guards |\n| --- | --- |\n")
	for _, p := range Properties {
		fmt.Fprintf(&b, "| `%s` | %s |\n", p.Name, p.Guards)
	}
	return b.String()
}

// Finding is a property a world does not have: where it first failed
// and, when the fixture language can say so, the expectations a correct
// engine meets there and this run does not (a promoted rung carries
// them, so it fails the same way), or a case whose comparison expectation
// does.
type Finding struct {
	Property string
	Tick     int64 // the first tick it failed at; -1 when it is the run as a whole
	Message  string
	Expect   []*yaml.Node
	Case     *Variant
}

func (f *Finding) String() string {
	at := "the run"
	if f.Tick >= 0 {
		at = fmt.Sprintf("tick %d", f.Tick)
	}
	return fmt.Sprintf("%s at %s: %s", f.Property, at, f.Message)
}

// expectTrace is a trace expectation: at tick t (or over the run when t
// is negative) at least one record matches.
func expectTrace(t int64, match ...any) *yaml.Node {
	e := mapping()
	if t >= 0 {
		add(e, "at", integer(t))
	}
	add(e, "trace", flowMap("match", flowMap(match...)))
	return e
}
