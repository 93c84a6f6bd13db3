package rules

import (
	"fmt"
	"slices"

	"github.com/chronicle/ladder/sim/trace"
)

// Rule names. They are the stable handles fixtures disable and traces cite;
// renaming one breaks every fixture and trace golden that mentions it.
const (
	WitnessCreatesBelief     = "witness-creates-belief"
	BeliefDecay              = "belief-decay"
	Corroboration            = "corroboration"
	SharedClaimInvariant     = "shared-claim-invariant"
	TestimonyTransfer        = "testimony-transfer"
	EncounterSampling        = "encounter-sampling"
	TrustDiscountedRetelling = "trust-discounted-retelling"
	MutationPolicy           = "mutation-policy"
	VariantResolution        = "variant-resolution"
	RumourStages             = "rumour-stages"
	DormancyReactivation     = "dormancy-reactivation"
	AccumulationThreshold    = "accumulation-threshold"
	GrudgeCreation           = "grudge-creation"
	GrudgeDecay              = "grudge-decay"
	Obligations              = "obligations"
	TellDecision             = "tell-decision"
	ReputationEvidence       = "reputation-evidence"
	ScheduleWriteBack        = "schedule-write-back"
	PairWeighting            = "pairwise-encounter-weighting"
	RoleSuccession           = "role-succession"
)

// Ceiling is the seed's rule budget (§8): at most this many rules,
// numbered uniquely within 1..Ceiling. A rule beyond it needs a
// consolidation ruling or an explicit raise, never a default assumption of
// headroom; a spec holds the catalogue to it.
const Ceiling = 20

// Rule is one named mechanism of the engine. Number is its slot in the seed
// spec's rule budget (§8), so a reader can find its origin.
type Rule struct {
	Name    string
	Number  int
	Tier    string
	Layer   Layer // the layer whose worlds evaluate it (decision 0015)
	Summary string
	// Invariant rules hold the store together; they cannot be disabled
	// because a world without them is not a world the ladder can reason about.
	Invariant bool
	// Values are the names of the numbers its rule records carry
	// (docs/trace-schema.md), sorted: a trace pattern's values are
	// checked against them when a fixture loads, and a run whose rule
	// writes a name not listed fails.
	Values []string
	// Regimes are the outcomes and branches of the rule that a rung must
	// reach for the ladder to guard them (regimes.go), each with the trace
	// record that shows it. A rule declares all of them: a branch left
	// out is one no coverage report will miss. Their signs' reasons are
	// also every reason its records may carry (Reasons).
	Regimes []Regime
}

// Reasons lists, sorted, the reasons the rule's records of kind k (a
// rule or a transmission record) carry, as its regimes' signs name them:
// each exactly, or — ending in "…" — the fixed words a reason that goes
// on with a name begins with ("kin killed: …"). A fixture's pattern is
// checked against them when it loads, and a run whose rule writes another
// fails: a reason the engine gains is declared here first, as a regime,
// with a rung that reaches it.
func (r Rule) Reasons(k trace.Kind) []string {
	var out []string
	for _, g := range r.Regimes {
		if g.Sign.Record() == k && g.Sign.Reason != "" && !slices.Contains(out, g.Sign.Reason) {
			out = append(out, g.Sign.Reason)
		}
	}
	slices.Sort(out)
	return out
}

// Declares reports whether reason is one the rule's records of kind k may
// carry (Reasons).
func (r Rule) Declares(k trace.Kind, reason string) bool {
	for _, g := range r.Regimes {
		if g.Sign.Record() == k && g.Sign.Reason != "" && ReasonIs(g.Sign.Reason, reason) {
			return true
		}
	}
	return false
}

var catalogue = []Rule{
	{Name: WitnessCreatesBelief, Number: 1, Tier: "0", Summary: "a witness to a canonical event forms a belief at the direct-observation baseline", Values: []string{"confidence"}, Regimes: []Regime{
		{Name: "witnessed", Sign: fired("witnessed")},
		disabled,
	}},
	{Name: BeliefDecay, Number: 2, Tier: "0", Summary: "verbatim and gist strengths halve on their own half-lives; stages derive from gist", Regimes: []Regime{
		{Name: "fading", Sign: Sign{Kind: trace.KindKeyframe, Value: &Span{Name: "beliefs.verbatim", Lo: 0, Hi: 1, Open: true}}},
		disabled,
	}},
	{Name: Corroboration, Number: 3, Tier: "0", Summary: "a report from a new, fresh source raises confidence by noisy-or", Values: []string{"after", "before", "report"}, Regimes: []Regime{
		{Name: "counted", Sign: fired("counted")},
		{Name: "origin already counted", Sign: declined("origin already counted")},
		{Name: "stale", Sign: declined("stale")},
		{Name: "retold to a holder", Sign: told("listener already held it")},
		{Name: "reactivation disabled", Sign: declined("not reactivated: dormancy-reactivation is disabled")},
		disabled,
	}},
	{Name: SharedClaimInvariant, Number: 4, Tier: "0", Summary: "one claim per canonical event, one belief per (holder, claim)", Invariant: true, Regimes: []Regime{
		{Name: "minted", Sign: fired("claim minted for event")},
	}},
	{Name: TestimonyTransfer, Number: 5, Tier: "1", Summary: "on a fired encounter a holder tells a non-holder at the retell decay", Regimes: []Regime{
		{Name: "told", Sign: told("listener did not hold it")},
		{Name: "both hold", Sign: refused("both hold")},
		{Name: "both inactive", Sign: refused("both rumours are inactive")},
		{Name: "teller heard it this tick", Sign: refused("teller heard it this tick")},
		{Name: "teller dormant", Sign: refused("teller's rumour is dormant")},
		{Name: "teller forgotten", Sign: refused("teller's rumour is forgotten")},
		{Name: "disabled", Sign: refused("disabled")},
	}},
	{Name: EncounterSampling, Number: 6, Tier: "1", Summary: "each co-present pair meets when its keyed encounter roll is below the encounter probability", Regimes: []Regime{
		{Name: "met", Sign: Sign{Kind: trace.KindEncounter, Fired: Yes}},
		{Name: "missed", Sign: Sign{Kind: trace.KindEncounter, Fired: No}},
		disabled,
	}},
	{Name: MutationPolicy, Number: 7, Tier: "2", Summary: "a retelling may change a slot: a partisan teller shifts blame to a rival faction; otherwise a keyed roll against mutation_max × (1 − teller's verbatim)", Values: []string{"options", "probability", "verbatim"}, Regimes: []Regime{
		{Name: "allegiance", Sign: fired("allegiance: …")},
		{Name: "mutates", Sign: fired("memory: roll below the mutation probability")},
		{Name: "keeps", Sign: declined("memory: roll at or above the mutation probability")},
		{Name: "no alternative", Sign: declined("memory: no slot has an alternative")},
		{Name: "slot chosen", Sign: fired("slot chosen: …")},
		{Name: "value chosen", Sign: fired("value chosen: …")},
		disabled,
	}},
	{Name: VariantResolution, Number: 8, Tier: "2", Summary: "a holder hearing another variant keeps the one whose evidence ends in the stronger type (witnessed > reported), then the larger summed strength; the winner is dented", Values: []string{"after", "before", "held_strength", "held_witnessed", "incoming_strength", "incoming_witnessed"}, Regimes: []Regime{
		{Name: "witnessed beats reported", Sign: fired("witnessed beats reported")},
		{Name: "stronger evidence", Sign: fired("stronger evidence")},
		{Name: "tie", Sign: fired("tie: the held variant stays")},
		{Name: "heard another variant", Sign: told("listener held another variant")},
		{Name: "switched", Sign: Sign{Kind: trace.KindSupersession, Kept: No}},
		{Name: "kept", Sign: Sign{Kind: trace.KindSupersession, Kept: Yes}},
		{Name: "already weighed", Sign: refused("listener already weighed this variant")},
		{Name: "teller cannot tell", Sign: refused("teller…")},
		disabled,
	}},
	{Name: RumourStages, Number: 9, Tier: "2", Summary: "a held rumour goes dormant, then forgotten, as its gist falls below the thresholds", Values: []string{"gist"}, Regimes: []Regime{
		{Name: "dormant", Sign: fired("gist fell below dormant_gist")},
		{Name: "forgotten", Sign: fired("gist fell below forgotten_gist")},
		disabled,
	}},
	{Name: DormancyReactivation, Number: 10, Tier: "2", Summary: "a dormant or forgotten rumour told again by an active holder is fresh again", Values: []string{"gist_before"}, Regimes: []Regime{
		{Name: "woken from dormant", Sign: fired("told again while dormant")},
		{Name: "woken from forgotten", Sign: fired("told again while forgotten")},
		{Name: "teller cannot tell", Sign: refused("teller…")},
		disabled,
	}},
	{Name: AccumulationThreshold, Number: 11, Tier: "3", Layer: Social, Summary: "a theft victim with a faction escalates once when the thefts it believes by one offender reach escalation_threshold within the window; it re-arms at escalation_rearm", Values: []string{"armed", "count", "rearm", "rearmed", "threshold"}, Regimes: []Regime{
		{Name: "below threshold", Sign: declined("below threshold")},
		{Name: "fired", Sign: fired("threshold reached")},
		{Name: "latched", Sign: declined("already escalated: re-arms when the count falls to the re-arm level")},
		{Name: "re-armed", Sign: ruleValue("rearmed", 1, 1)},
		{Name: "offence already counted", Sign: declined("offence already counted")},
		disabled,
	}},
	{Name: GrudgeCreation, Number: 12, Tier: "3", Layer: Social, Summary: "the loser of a brawl, the creditor of a refused favour and the kin of a killing's victim bear a grudge against its actor, felt more than proven", Values: []string{"confidence", "emotional", "evidentiary", "onlookers"}, Regimes: []Regime{
		{Name: "brawl lost", Sign: fired("brawl lost in public")},
		{Name: "favour refused", Sign: fired("favour refused")},
		{Name: "kin killed", Sign: fired("kin killed: …")},
		{Name: "reinforced", Sign: changed(trace.KindGrudge, "reinforced")},
		{Name: "actor is the holder", Sign: declined("the actor is the holder")},
		{Name: "target dead", Sign: declined("the target is dead")},
		{Name: "no violation", Sign: declined("no obligation was violated by it")},
		disabled,
	}},
	{Name: GrudgeDecay, Number: 13, Tier: "3", Layer: Social, Summary: "a grudge's emotional and evidentiary strengths halve on their own half-lives; it settles below grudge_settled", Values: []string{"emotional", "evidentiary", "total"}, Regimes: []Regime{
		{Name: "decaying", Sign: Sign{Kind: trace.KindKeyframe, Value: &Span{Name: "grudges.settled", Lo: 0, Hi: 0}}},
		{Name: "settled", Sign: fired("total strength fell below grudge_settled")},
		disabled,
	}},
	{Name: Obligations, Number: 14, Tier: "3", Layer: Social, Summary: "a favour issues an obligation; an invocation fulfils it or, refused, violates it (a violation is a grudge cause and reputation evidence)", Regimes: []Regime{
		{Name: "issued", Sign: fired("issued: …")},
		{Name: "fulfilled", Sign: fired("fulfilled: fulfilled")},
		{Name: "violated", Sign: fired("violated: refused")},
		{Name: "already fulfilled", Sign: declined("already fulfilled")},
		{Name: "already violated", Sign: declined("already violated")},
		{Name: "never issued", Sign: declined("no obligation was issued for …"), Unreachable: "the loader takes an invocation only of a favour listed before it and at no later tick, so rule 14 has issued that favour first (one it cannot issue stops the run) or, disabled, declines both"},
		{Name: "owed by another", Sign: declined("owed by …")},
		disabled,
	}},
	{Name: TellDecision, Number: 15, Tier: "3", Layer: Social, Summary: "a holder keeps a private claim that implicates itself or its kin; otherwise it tells", Values: []string{"implicated", "kin"}, Regimes: []Regime{
		{Name: "tells", Sign: fired("no motive to keep it")},
		{Name: "keeps: kin", Sign: declined("keeps the secret: kin of …")},
		{Name: "keeps: implicated", Sign: declined("keeps the secret: implicated")},
		{Name: "kept from the listener", Sign: refused("keeps the secret: …")},
		disabled,
	}},
	{Name: ReputationEvidence, Number: 16, Tier: "3", Layer: Social, Summary: "an observer who believes a title or an invocation (and is not a party) adds reputation_weight to α or β of its opinion of the subject, once per claim", Values: []string{"alpha", "beta"}, Regimes: []Regime{
		{Name: "evidence for", Sign: fired("evidence for …")},
		{Name: "evidence against", Sign: fired("evidence against …")},
		{Name: "already counted", Sign: declined("already counted this claim")},
		{Name: "office vacant", Sign: declined("the debtor's office …")},
		disabled,
	}},
	{Name: ScheduleWriteBack, Number: 17, Tier: "4a", Layer: Schedule, Summary: "an NPC who comes to believe the killing of kin mourns at the temple of its hold for mourning_ticks: an override laid over its schedule, never an edit, then lifted", Values: []string{"from", "to"}, Regimes: []Regime{
		{Name: "mourns", Sign: fired("kin killed: …")},
		{Name: "restored", Sign: fired("mourning over: schedule restored")},
		{Name: "not kin", Sign: declined("not kin of the deceased")},
		{Name: "already mourned", Sign: declined("already mourned this death")},
		{Name: "no home hold", Sign: declined("no home hold: nowhere to mourn")},
		{Name: "no temple", Sign: declined("no temple in …")},
		disabled,
	}},
	{Name: PairWeighting, Number: 18, Tier: "4b", Layer: Weighting, Summary: "a grudge between two NPCs lowers their encounter weight w = max(0, 1 − avoidance_strength × g): the threshold becomes p·w, the roll never changes", Values: []string{"after", "before", "grudge"}, Regimes: []Regime{
		{Name: "grudge formed", Sign: fired("grudge formed")},
		{Name: "grudge reinforced", Sign: fired("grudge reinforced")},
		{Name: "weight 0", Sign: Sign{Kind: trace.KindEncounter, Value: &Span{Name: "weight", Lo: 0, Hi: 0}}},
		{Name: "weight between", Sign: Sign{Kind: trace.KindEncounter, Value: &Span{Name: "weight", Lo: 0, Hi: 1, Open: true}}},
		{Name: "weight 1", Sign: Sign{Kind: trace.KindEncounter, Value: &Span{Name: "weight", Lo: 1, Hi: 1}}},
		disabled,
	}},
	{Name: RoleSuccession, Number: 19, Tier: "5", Layer: Roles, Summary: "a role falls vacant when its holder dies, its duties lapse while it is, and after succession_delay_ticks the faction member the appointer's holder trusts most (plus a kin bonus) succeeds, ties broken by a keyed roll", Values: []string{"kin", "lapses", "score", "trust", "witnesses"}, Regimes: []Regime{
		{Name: "vacant", Sign: fired("vacant: …")},
		{Name: "lapse", Sign: fired("duty lapsed: the role is vacant")},
		{Name: "appointed", Sign: fired("appointed: the highest score")},
		{Name: "won the tie-break", Sign: fired("appointed: won the tie-break")},
		{Name: "outscored", Sign: declined("outscored")},
		{Name: "lost the tie-break", Sign: declined("lost the tie-break")},
		{Name: "no appointer", Sign: declined("no appointer: the role stays vacant")},
		{Name: "appointer vacant", Sign: declined("the appointer's role …")},
		{Name: "no candidate", Sign: declined("no living member of …")},
		disabled,
	}},
	{Name: TrustDiscountedRetelling, Number: 20, Tier: "1", Summary: "retold confidence is further weighted by the listener's trust in the teller", Values: []string{"factor", "trust"}, Regimes: []Regime{
		{Name: "relationship", Sign: fired("relationship")},
		{Name: "default trust", Sign: fired("no relationship: default trust")},
		disabled,
	}},
}

// Catalogue returns every implemented rule in budget order.
func Catalogue() []Rule { return slices.Clone(catalogue) }

// Find returns the rule with the given name.
func Find(name string) (Rule, bool) {
	for _, r := range catalogue {
		if r.Name == name {
			return r, true
		}
	}
	return Rule{}, false
}

// UnknownRuleError reports a rule name that is not in the catalogue.
type UnknownRuleError struct {
	Name string
}

func (e *UnknownRuleError) Error() string {
	return fmt.Sprintf("unknown rule %q", e.Name)
}

// Set is the run's rule configuration: which rules are enabled.
type Set struct {
	disabled map[string]bool
}

// NewSet enables every rule except those named in disable. Unknown names and
// invariant rules are errors: a silently ignored toggle would make a fixture
// test something other than what it says.
func NewSet(disable []string) (*Set, error) {
	s := &Set{disabled: make(map[string]bool, len(disable))}
	for _, name := range disable {
		r, ok := Find(name)
		if !ok {
			return nil, &UnknownRuleError{Name: name}
		}
		if r.Invariant {
			return nil, fmt.Errorf("rule %q is an invariant and cannot be disabled", name)
		}
		s.disabled[name] = true
	}
	return s, nil
}

// Enabled reports whether the named rule is on.
func (s *Set) Enabled(name string) bool { return !s.disabled[name] }

// Disabled returns the disabled rule names, sorted.
func (s *Set) Disabled() []string {
	out := make([]string, 0, len(s.disabled))
	for name := range s.disabled {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// Names returns every rule name in budget order.
func Names() []string {
	out := make([]string, len(catalogue))
	for i, r := range catalogue {
		out[i] = r.Name
	}
	return out
}

// BudgetProblems lists every way a catalogue breaks the seed's rule budget:
// more than Ceiling rules, a number outside 1..Ceiling, a number or a name
// used twice. The engine's own catalogue must have none (a spec holds it);
// the function takes the list so the spec can show each problem is caught.
func BudgetProblems(cat []Rule) []string {
	var out []string
	if len(cat) > Ceiling {
		out = append(out, fmt.Sprintf("%d rules, above the ceiling of %d", len(cat), Ceiling))
	}
	byNumber := map[int]string{}
	names := map[string]bool{}
	for _, r := range cat {
		if r.Number < 1 || r.Number > Ceiling {
			out = append(out, fmt.Sprintf("rule %q is numbered %d, outside 1–%d", r.Name, r.Number, Ceiling))
		} else if prev, dup := byNumber[r.Number]; dup {
			out = append(out, fmt.Sprintf("rules %q and %q share number %d", prev, r.Name, r.Number))
		} else {
			byNumber[r.Number] = r.Name
		}
		if names[r.Name] {
			out = append(out, fmt.Sprintf("rule name %q is used twice", r.Name))
		}
		names[r.Name] = true
	}
	return out
}
