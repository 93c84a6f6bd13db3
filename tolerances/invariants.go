package tolerances

// Invariant is the written derivation of one regime-2 invariant: what must
// hold, the bound within which a residual is ok (as a function of size
// where it has one), where the arithmetic is exact, and the failure it
// guards against. The audit (sim/audit) checks each by its Name, and a
// failure names it.
type Invariant struct {
	Name        string
	Statement   string // what must hold
	Tolerance   string // the ok bound, as a function of size where relevant
	GrowsWith   string // the size parameter, or why none
	Exact       string // where the arithmetic is exact (bound 0), and why
	FailureMode string // what a breach means
}

// The regime-2 invariants, in the order the audit runs them. A state added
// to the engine later (schedule overrides, roles) adds its invariants here
// and its check in sim/audit, one entry each.
var Invariants = []Invariant{
	{
		Name:        "one-claim-per-event",
		Statement:   "claim ids are unique; every claim is minted for a logged event of the same id, kind and tick, and its original variant v0 holds exactly the event's values for the slots it has",
		Tolerance:   "none: ids, kinds, ticks and slot values are strings and integers, compared exactly",
		GrowsWith:   "nothing",
		Exact:       "always: no arithmetic",
		FailureMode: "a second claim for one event (two witnesses split into two rumours of one theft), a claim with no event behind it, or a claim that misstates what happened before anyone retold it",
	},
	{
		Name:        "one-belief-per-holder-claim",
		Statement:   "each holder's beliefs are listed once per claim, in strictly ascending claim order; the store's lookup returns the listed belief; every belief names its holder and an existing claim; the store's count equals the beliefs listed",
		Tolerance:   "none: a count and an order",
		GrowsWith:   "nothing",
		Exact:       "always: no arithmetic",
		FailureMode: "a write path that creates a second belief where it should corroborate or resolve: the holder would count one rumour twice and the believer curve would be wrong",
	},
	{
		Name:        "variant-lineage",
		Statement:   "a claim's variants are numbered v0, v1, … in creation order; v0 has no predecessor and the claim's own slots; every later variant names an earlier variant of the same claim as predecessor, a non-empty diff, and the slots that diff makes of its predecessor's; every belief and every piece of evidence names a variant of its own claim",
		Tolerance:   "none: identifiers and slot values",
		GrowsWith:   "nothing",
		Exact:       "always: no arithmetic",
		FailureMode: "an orphan variant (its predecessor missing), a cycle (a predecessor created after it), a variant rewritten in place, or a belief holding a variant of another claim",
	},
	{
		Name:        "confidence-range",
		Statement:   "every belief's confidence and the confidence of every piece of its evidence lie in [0, 1]",
		Tolerance:   "0: |r| is the distance outside [0, 1], and r must be 0",
		GrowsWith:   "nothing: every operation that writes a confidence maps [0, 1] into [0, 1] exactly",
		Exact:       "always. A witness's confidence is a define validated in [0, 1]; a retelling multiplies by factors in [0, 1] (retell decay, trust), and a rounded product of numbers in [0, 1] stays in [0, 1] because rounding is monotone and 0 and 1 are floats; noisy-or 1 − (1 − c)(1 − r) computes 1 − c exactly for c ≥ ½ (Sterbenz) and rounds it into [0, 1] otherwise, so the product and the final difference stay in [0, 1]; the contested dent multiplies by 1 − dent ∈ [0, 1]",
		FailureMode: "warn: a value a few ulps outside [0, 1] (an unguarded fused product, a reordered noisy-or); alarm: a coefficient or a rule that pushes confidence out of the unit interval",
	},
	{
		Name:        "believers-within-living-cast",
		Statement:   "for every claim, the believers (living holders whose stage is not forgotten, as the believer curves count them) are at most the living cast: every holder is a cast member, and the store lists a claim's holders once each (sorted and unique by construction), so its believers are distinct living cast members",
		Tolerance:   "none: identifiers",
		GrowsWith:   "nothing",
		Exact:       "always: no arithmetic",
		FailureMode: "a holder who is not in the cast (the player, an id no fixture declared): the believer curve a rung asserts would count people who do not exist",
	},
	{
		Name:        "obligation-states",
		Statement:   "every obligation is named for its favour, is issued, fulfilled or violated, only ever moves issued → fulfilled or issued → violated (never back, never away), and its parties are the favour's giver (creditor) and recipient (debtor): two different members of the cast, the player or offices (role:<id>, resolved by role-references), as the logged favour names them",
		Tolerance:   "none: states and identifiers",
		GrowsWith:   "nothing",
		Exact:       "always: no arithmetic",
		FailureMode: "a settled debt reopened or settled twice, an obligation that vanished, or a debt owed by or to someone the favour did not involve",
	},
	{
		Name:        "reputation-evidence",
		Statement:   "every reputation row is its prior plus its counted evidence: α = α₀ + for·w and β = β₀ + against·w (so α + β = α₀ + β₀ + (for + against)·w), its counted weight is (for + against)·w, and the pieces counted over all rows equal the (observer, claim) pairs the book has counted",
		Tolerance:   "0 where the sums are exact; otherwise (n + 3)·2⁻⁵³·|v| for a value v built by n additions of w, where n is the row's for, against or for + against",
		GrowsWith:   "n, the evidence a row has counted: each addition of w rounds once, by at most 2⁻⁵³ of a partial sum no larger than the final value, and the reference α₀ + n·w rounds at most twice more",
		Exact:       "when α₀, β₀ and w are integers times a common power of two and the row stays below 2⁵³ of that unit (tolerances.ExactSteps): the defaults (1, 1, 1) are exact for any count a run can reach, so the check is equality",
		FailureMode: "evidence counted twice for one claim, a row moved without its count, or a weight added to the wrong side",
	},
	{
		Name:        "grudge-range",
		Statement:   "every grudge is held by a cast member against someone else, and its emotional and evidentiary strengths, as stored and as of the current tick, lie in [0, 1]",
		Tolerance:   "0: |r| is the distance outside [0, 1]",
		GrowsWith:   "nothing: a new strength is a define or a product of numbers in [0, 1], capped at 1; reinforcement is noisy-or; decay multiplies by 2^(−age/half-life) ∈ (0, 1]; all map [0, 1] into [0, 1] exactly (see confidence-range)",
		Exact:       "always",
		FailureMode: "a grudge stronger than certain (an audience weight summed without its cap) or a negative strength",
	},
	{
		Name:        "role-references",
		Statement:   "every role is vacant or held by a living cast member who holds no other role (or by its dead holder when role-succession is switched off, since nothing then vacates it), and is appointed by a declared role; every reference to a role in the live state (an obligation owed to or by the office, a base block that meets it, each of its duties) resolves to the role's holder, and to nobody while it is vacant; every role:<id> an obligation names is a declared role",
		Tolerance:   "none: identifiers",
		GrowsWith:   "nothing; it examines every role and every reference at every audit, in a world that declares roles (a handful of records)",
		Exact:       "always: no arithmetic",
		FailureMode: "a dead holder left in office, one NPC in two offices, a duty left on the old holder or not moved to the new one, an audience kept with nobody, a debt recorded to the person where the office was meant, a reference to a role that does not exist",
	},
	{
		Name:        "schedule-overrides",
		Statement:   "every override laid over an NPC's schedule is a valid block, laid once, and placed by something that still holds: the n-th duty of a role the NPC holds (duties:<role>:<n>, the duty block unchanged) or a mourning placed by a logged rewrite event for this NPC whose place, from and to it carries",
		Tolerance:   "none: identifiers and integer ticks",
		GrowsWith:   "nothing; it examines every override of every NPC at every audit, in a world of the schedule or roles layer",
		Exact:       "always: no arithmetic",
		FailureMode: "a mourning or duty laid twice, a duty left with a holder who lost the role, an override no event explains (the base edited in disguise), an override that drifted from what its event recorded",
	},
	{
		Name:        "pair-weights",
		Statement:   "every pair rule 18 has weighed is two different cast members, listed once, and its weight at the current tick lies in [0, 1]",
		Tolerance:   "0: |r| is the distance outside [0, 1]",
		GrowsWith:   "nothing: a weight is max(0, 1 − s·g) for avoidance_strength s ≥ 0 and the pair's grudge strength g ≥ 0 (which may exceed 1), the product rounded before the subtraction",
		Exact:       "always: s·g rounds to a float ≥ 0, so 1 − s·g rounds to at most 1 (rounding is monotone and 1 is a float), and the max floors it at 0",
		FailureMode: "a weight above 1 (an encounter made likelier by a grudge) or below 0 (a threshold that can never fire, read as a negative probability), or a pair weighed against itself",
	},
}

// InvariantByName returns the derivation of the named invariant.
func InvariantByName(name string) (Invariant, bool) {
	for _, inv := range Invariants {
		if inv.Name == name {
			return inv, true
		}
	}
	return Invariant{}, false
}
