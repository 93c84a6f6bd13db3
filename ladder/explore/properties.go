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
	PropVocabulary    = "mutation-vocabulary"
	PropPlacement     = "schedule-placement"
	PropRumourStages  = "rule-9-rumours-fade"
	PropAccumulation  = "rule-11-accumulation"
	PropGrudgeDecay   = "rule-13-grudge-decay"
	PropReputation    = "rule-16-once-per-claim"
	PropMourning      = "rule-17-restored-on-time"
	PropPairWeight    = "rule-18-pair-weight"
	PropRoleReference = "rule-19-role-references"
	PropQuiescence    = "quiescence"
	PropSerial        = "config-serial"
	PropUnobserved    = "config-unobserved"
	PropConstrained   = "config-gomaxprocs-1-gogc-10"
)

// Properties lists every property with the sentence that says what it
// guards.
var Properties = []Property{
	{PropRuns, "a valid fixture runs to its last tick: the engine neither refuses a world the loader accepted, nor panics, nor hangs (a run that finishes no tick for `LADDER_STALL`, default a minute, is given up)"},
	{PropAudit, "regime 2's invariants hold after every tick and the canonical log's hash chain verifies end to end (a broken store, a wrong count, a tampered link)"},
	{PropReplay, "the exported log replays: the engine appends exactly the logged records and reaches the recorded state digests and log head (ladder verify)"},
	{PropDeterminism, "the same world run twice in one process writes byte-identical dense.csv and trace.jsonl (state leaking between runs, map order, a global; on a world an in-process configuration relation is checked on, its run is the second run)"},
	{PropFresh, "the same world run in a fresh process writes the same bytes as in the explorer's (process-level state: init order, an environment read, the clock)"},
	{PropIsolatedNPC, "an NPC added at a place nobody else visits changes no other roll, trace record or dense column (a roll keyed by stream position or cast size instead of its key; every 2nd world by index, the others checking the town apart)"},
	{PropIsolatedTown, "a town nobody travels to, with people of its own, changes no roll, record or dense column of the rest of the world (keyed randomness across sites; every 2nd world by index, the others checking the NPC alone)"},
	{PropUnusedRule, "disabling a rule the run never evaluated leaves the run byte-identical (a rule toggle read where the rule does not decide)"},
	{PropView, "switching the collective fear view on (a fear expectation) leaves the run byte-identical: no rule reads a view (every 2nd world by index)"},
	{PropObserver, "no NPC's belief, grudge, obligation or reputation changes without a record at that tick that ties the change to something the NPC witnessed or was told (observer locality, decision 0014)"},
	{PropVocabulary, "every retelling the memory policy may mutate counts, as the slots with an alternative and the values a chosen slot may take, exactly what the fixture's vocabulary gives — the cast and the player for an actor or victim, the declared locations for a place, the items the fixture lists or any injection names for an item — and chooses a value in it other than the slot's own (an item, a place or an NPC left out of or added to what a slot may become)"},
	{PropPlacement, "every living NPC is, at every tick of dense.csv, where the fixture's schedule puts it — the first of its blocks whose occurrence (every `every` ticks from `since`, `from` to `to` into each) covers the tick, else home — unless an override is in force or a block that meets an office decides; and its `schedule/<npc>/base` column, where it has one, says the same (a block's phase, a schedule's next change, a block's bounds)"},
	{PropRumourStages, "rule 9: every rumour left alone goes dormant, then forgotten, at the first tick its gist since its last refresh (formed, told again or contested), 2^(−ticks/gist_half_life), is below dormant_gist, then forgotten_gist, with a record then, and every keyframe shows it at that stage and gist (decision 0010; wherever the tick falls inside the run)"},
	{PropAccumulation, "rule 11 fires at most once per arming, when the believed offences within the window reach the threshold, and re-arms only at or below its re-arm level (decision 0018)"},
	{PropGrudgeDecay, "rule 13: a grudge never rises without a new cause and settles exactly once, at the first tick its total strength is below grudge_settled (decision 0016)"},
	{PropReputation, "rule 16 counts a claim once per observer, however often the observer's belief in it changes variant, and α, β move by exactly the weight (decision 0017)"},
	{PropMourning, "rule 17: every mourning laid over a schedule is lifted exactly when it ends (decision 0020)"},
	{PropPairWeight, "rule 18's weight is max(0, 1 − avoidance_strength·g), within [0, 1], never rising as the grudge grows, and each weighted encounter's threshold is p·w (decision 0021)"},
	{PropRoleReference, "rule 19: every role resolves to a living holder or to vacant; a holder's death vacates its role at once, and succession_delay_ticks later the rule decides its successor or says why there is none (decision 0022)"},
	{PropQuiescence, "a world run on past its last tick with no injected event left, until its grudges and rumours must have come to rest (every 2nd world by index; to twice its length, or as long as the generator lets its cast run if that is longer), settles each grudge and lets each rumour go dormant, then forgotten, at the tick its half-lives and thresholds imply from its last cause or refresh, and every rule model holds there as in the run (what only a longer run would reach)"},
	{PropSerial, "with the trace pipe and the writes behind off (a run timed by stage, as the benchmarks make it: every record spelt and every file written on the engine's goroutine) the run writes byte-identical dense.csv, trace.jsonl and checkpoints.json (every 4th world by index; a pipe or a writer that loses, reorders or adds a byte)"},
	{PropUnobserved, "a run nobody observes (no Options.Observe, as make ladder runs a rung) writes the same dense.csv, trace.jsonl and checkpoints.json as the observed run the explorer judges (every 4th world by index; a read of the world that changes it)"},
	{PropConstrained, "the same world run in a fresh process under GOMAXPROCS=1 and GOGC=10 writes the same dense.csv, trace.jsonl and checkpoints.json as in the explorer's (every 4th world by index; an output that depends on the number of cores, the scheduler or when the garbage collector runs)"},
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
