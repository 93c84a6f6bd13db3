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
		Statement:   "for every claim, the believers (living holders whose stage is not forgotten, as the believer curves count them) are at most the living cast, and every holder is a cast member listed once",
		Tolerance:   "none: counts",
		GrowsWith:   "nothing",
		Exact:       "always: integer counts",
		FailureMode: "a holder counted twice or a holder who is not in the cast (the player, an id no fixture declared): the believer curve a rung asserts would count people who do not exist",
	},
	{
		Name:        "obligation-states",
		Statement:   "every obligation is named for its favour, is issued, fulfilled or violated, only ever moves issued → fulfilled or issued → violated (never back, never away), and its parties are the favour's giver (creditor) and recipient (debtor): two different members of the cast or the player, as the logged favour names them",
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
