package audit

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/roles"
	"github.com/chronicle/ladder/sim/social"
	"github.com/chronicle/ladder/tolerances"
)

// invariant is one regime-2 check: its name (its derivation is the entry
// of tolerances.Invariants with that name) and the function that examines
// a scope's records, full or incremental alike.
type invariant struct {
	name  string
	check func(a *Auditor, sc *scope)
}

// invariants are run in this order, the order of tolerances.Invariants.
// A state added to the engine adds one entry.
var invariants = []invariant{
	{"one-claim-per-event", (*Auditor).claimPerEvent},
	{"one-belief-per-holder-claim", (*Auditor).beliefPerHolderClaim},
	{"variant-lineage", (*Auditor).variantLineage},
	{"confidence-range", (*Auditor).confidenceRange},
	{"believers-within-living-cast", (*Auditor).believersWithinLiving},
	{"obligation-states", (*Auditor).obligationStates},
	{"reputation-evidence", (*Auditor).reputationEvidence},
	{"grudge-range", (*Auditor).grudgeRange},
	{"role-references", (*Auditor).roleReferences},
	{"schedule-overrides", (*Auditor).scheduleOverrides},
	{"pair-weights", (*Auditor).pairWeights},
}

// Names returns the invariants' names in the order they run.
func Names() []string {
	out := make([]string, len(invariants))
	for i, inv := range invariants {
		out[i] = inv.name
	}
	return out
}

const alarm = tolerances.Alarm

// claimPerEvent: every logged event's claim, if it has one, is its event's
// (same id, kind and tick, v0 holding the event's values), and the store
// holds no claim that no event accounts for. New log records are examined
// as they appear; the store's claim count catches a claim minted without
// one, and then the claim ids are scanned to name it. The ids are unique
// by construction: the store keys its claims by id and lists each once.
func (a *Auditor) claimPerEvent(sc *scope) {
	const inv = "one-claim-per-event"
	st := a.w.Store()
	if sc.full {
		a.claimsFound = 0
	}
	for _, r := range sc.events {
		sc.examined++
		e := r.Event
		c, ok := st.Claim(e.ID)
		if !ok {
			continue
		}
		a.claimsFound++
		rec := named("claim", c.ID)
		switch {
		case c.Kind != e.Kind:
			a.find(inv, alarm, rec, "kind %q, but logged event %s (seq %d) is a %q", c.Kind, e.ID, r.Seq, e.Kind)
		case c.Tick != e.Tick:
			a.find(inv, alarm, rec, "tick %d, but logged event %s (seq %d) is at tick %d", c.Tick, e.ID, r.Seq, e.Tick)
		case c.Variant != c.ID+"#v0":
			a.find(inv, alarm, rec, "its original variant is %q, not %s#v0", c.Variant, c.ID)
		}
		for _, sl := range c.Slots {
			if v, ok := e.Attrs[sl.Name]; !ok || v != sl.Value {
				a.find(inv, alarm, rec, "slot %s is %q, but logged event %s (seq %d) has %s=%q", sl.Name, sl.Value, e.ID, r.Seq, sl.Name, v)
				break
			}
		}
	}
	if !sc.full && st.ClaimCount() == a.claimsFound {
		return
	}
	// A full audit, or a claim no new event accounts for: look at every id.
	ids := st.ClaimIDs()
	for _, id := range ids {
		sc.examined++
		if _, ok := a.w.Log().Lookup(id); !ok {
			a.find(inv, alarm, named("claim", id), "no logged event has its id")
		}
	}
	a.claimsFound = len(ids)
}

// beliefPerHolderClaim: each holder's beliefs, listed once per claim in
// claim order, are the ones the store's lookup returns; the store counts
// exactly the beliefs its holders list.
func (a *Auditor) beliefPerHolderClaim(sc *scope) {
	const inv = "one-belief-per-holder-claim"
	st := a.w.Store()
	if sc.full {
		clear(a.listed)
		a.listedTotal = 0
	}
	for k, h := range sc.holders {
		bs := sc.lists[k]
		sc.examined += int64(len(bs))
		for i := 0; i < len(bs); i++ {
			b := bs[i]
			rec := beliefRecord(h, b.Claim)
			n := 1
			for i+n < len(bs) && bs[i+n].Claim == b.Claim {
				n++
			}
			switch {
			case n > 1:
				a.find(inv, alarm, rec, "listed %d times under %s: the store allows one belief per holder and claim", n, h)
				i += n - 1
				continue
			case b.Holder != h:
				a.find(inv, alarm, rec, "listed under %s but held by %q", h, b.Holder)
			case i > 0 && b.Claim < bs[i-1].Claim:
				a.find(inv, alarm, rec, "listed after %s: a holder's beliefs are in claim order", bs[i-1].Claim)
			}
			if got, ok := st.Belief(h, b.Claim); !ok || got != b {
				a.find(inv, alarm, rec, "the store's lookup does not return the belief it lists")
			}
			if _, ok := st.Claim(b.Claim); !ok {
				a.find(inv, alarm, rec, "its claim %s does not exist", b.Claim)
			}
		}
		a.listedTotal += len(bs) - a.listed[h]
		a.listed[h] = len(bs)
	}
	if n := st.BeliefCount(); n != a.listedTotal {
		a.find(inv, alarm, record{kind: "store"}, "counts %d beliefs, its holders list %d", n, a.listedTotal)
	}
}

// variantOf reports whether id is the variant numbered i of claim (its id
// is claim#v<i>), and returns i; the naming is how creation order — and so
// the absence of cycles — is read off a variant.
func variantNumber(claim, id string) (int, bool) {
	rest, ok := strings.CutPrefix(id, claim+"#v")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 0 || strconv.Itoa(n) != rest {
		return 0, false
	}
	return n, true
}

// variantLineage: each claim's variants are v0, v1, … in creation order;
// each later one derives from an earlier one of the same claim by a
// non-empty diff; every belief and piece of evidence names a variant of
// its own claim; the store holds no variant outside its claims' lineages.
// Variants are immutable, so an incremental audit examines each claim's
// new ones; a full audit all.
func (a *Auditor) variantLineage(sc *scope) {
	const inv = "variant-lineage"
	st := a.w.Store()
	if sc.full {
		clear(a.variantsSeen)
		a.variantTotal = 0
	}
	lineage := func(id string, c *claims.Claim) {
		vs := st.Variants(id)
		for i := a.variantsSeen[id]; i < len(vs); i++ {
			sc.examined++
			a.variant(inv, c, i, vs)
		}
		a.variantTotal += len(vs) - a.variantsSeen[id]
		a.variantsSeen[id] = len(vs)
	}
	for _, id := range sc.claims {
		if c, ok := st.Claim(id); ok {
			lineage(id, c)
		}
	}
	if a.variantTotal != st.VariantCount() && !sc.full {
		// Variants appeared in a claim the trace did not name: look at all.
		for _, id := range st.ClaimIDs() {
			if c, ok := st.Claim(id); ok {
				lineage(id, c)
			}
		}
	}
	if n := st.VariantCount(); n != a.variantTotal {
		a.find(inv, alarm, record{kind: "store"}, "holds %d variants, but its claims' lineages number %d: an orphan variant", n, a.variantTotal)
	}
	for k, h := range sc.holders {
		for _, b := range sc.lists[k] {
			sc.examined++
			if v, ok := st.Variant(b.Variant); !ok || v.Claim != b.Claim {
				a.find(inv, alarm, beliefRecord(h, b.Claim), "holds %q, which is not a variant of %s", b.Variant, b.Claim)
				continue
			}
			for j, e := range b.Evidence {
				if e.Variant == b.Variant {
					continue // checked above
				}
				if v, ok := st.Variant(e.Variant); !ok || v.Claim != b.Claim {
					a.find(inv, alarm, beliefRecord(h, b.Claim), "evidence %d names %q, which is not a variant of %s", j, e.Variant, b.Claim)
					break
				}
			}
		}
	}
}

// variant checks variant i of claim c, vs being the claim's variants:
// the store's variant for every number below its count (each write that
// numbers a variant stores it, and none removes one), so none is nil.
func (a *Auditor) variant(inv string, c *claims.Claim, i int, vs []*claims.Variant) {
	v := vs[i]
	rec := record{kind: "variant", a: c.ID, index: i}
	if n, ok := variantNumber(c.ID, v.ID); !ok || n != i || v.Claim != c.ID {
		a.find(inv, alarm, rec, "the store holds %q of claim %q under this number", v.ID, v.Claim)
		return
	}
	if i == 0 {
		switch {
		case v.Predecessor != "" || len(v.Diff) > 0:
			a.find(inv, alarm, rec, "the original variant names predecessor %q and %d changes", v.Predecessor, len(v.Diff))
		case !slices.Equal(v.Slots, c.Slots):
			a.find(inv, alarm, rec, "the original variant's slots differ from its claim's")
		}
		return
	}
	p, ok := variantNumber(c.ID, v.Predecessor)
	switch {
	case !ok || p >= i:
		a.find(inv, alarm, rec, "predecessor %q is not an earlier variant of %s: the lineage would not reach v0", v.Predecessor, c.ID)
		return
	case len(v.Diff) == 0:
		a.find(inv, alarm, rec, "no slot differs from predecessor %s", v.Predecessor)
		return
	}
	slots, err := vs[p].Slots.Apply(v.Diff)
	if err != nil || !slices.Equal(slots, v.Slots) {
		a.find(inv, alarm, rec, "its slots are not predecessor %s's with its diff applied", v.Predecessor)
	}
}

// confidenceRange: every belief's confidence and every piece of its
// evidence in [0, 1], exactly.
func (a *Auditor) confidenceRange(sc *scope) {
	const inv = "confidence-range"
	for k, h := range sc.holders {
		for _, b := range sc.lists[k] {
			sc.examined += 1 + int64(len(b.Evidence))
			a.inUnit(inv, beliefRecord(h, b.Claim), "confidence", b.Confidence)
			for j, e := range b.Evidence {
				rec := beliefRecord(h, b.Claim)
				rec.index = j
				a.inUnit(inv, rec, "confidence", e.Confidence)
			}
		}
	}
}

// believersWithinLiving: every holder of a claim is a cast member. That
// is the whole check. The store lists a claim's holders once each
// (claims.Store.Holders), adding one only with its belief, so the
// believers among them (the living holders not forgotten, as the believer
// curves count them) are distinct living cast members and never outnumber
// the living cast. A claim's holders change only when a belief is formed,
// which the trace names.
func (a *Auditor) believersWithinLiving(sc *scope) {
	const inv = "believers-within-living-cast"
	st := a.w.Store()
	for _, id := range sc.claims {
		sc.examined++
		for _, h := range st.Holders(id) {
			if !a.cast[h] {
				a.find(inv, alarm, named("claim", id), "holder %q is not in the cast", h)
			}
		}
	}
}

// obligationStates: every obligation is named for its favour, in a known
// state, moved only forward since it was last audited, between the
// favour's two parties.
func (a *Auditor) obligationStates(sc *scope) {
	const inv = "obligation-states"
	l := a.w.Ledger()
	for _, id := range sc.obligations {
		sc.examined++
		rec := named("obligation", id)
		o, ok := l.Get(id)
		prev, seen := a.obligations[id]
		if !ok {
			if seen {
				a.find(inv, alarm, rec, "was %s and is no longer in the ledger", prev)
			}
			continue
		}
		switch {
		case o.ID != social.ObligationID(o.Favour):
			a.find(inv, alarm, rec, "is not named for its favour %q", o.Favour)
		case o.State != social.Issued && o.State != social.Fulfilled && o.State != social.Violated:
			a.find(inv, alarm, rec, "state %q is not issued, fulfilled or violated", o.State)
		case seen && prev != social.Issued && prev != o.State:
			a.find(inv, alarm, rec, "went from %s to %s: only issued → fulfilled or violated is allowed", prev, o.State)
		case o.Creditor == o.Debtor || !a.party(o.Creditor) || !a.party(o.Debtor):
			a.find(inv, alarm, rec, "creditor %q and debtor %q must be two different members of the cast, the player or offices (role:<id>)", o.Creditor, o.Debtor)
		default:
			a.favourParties(inv, rec, o)
		}
		a.obligations[id] = o.State
	}
}

// party reports whether s can be a party to an obligation: a cast
// member, the player, or an office (role:<id>; whether the role exists is
// role-references' to say).
func (a *Auditor) party(s string) bool {
	_, office := roles.Parse(s)
	return a.entities[s] || office
}

// favourParties checks that o's favour was logged as a favour from its
// creditor to its debtor.
func (a *Auditor) favourParties(inv string, rec record, o *social.Obligation) {
	r, ok := a.w.Log().Lookup(o.Favour)
	switch {
	case !ok:
		a.find(inv, alarm, rec, "its favour %s is not in the log", o.Favour)
	case r.Event.Kind != "favour":
		a.find(inv, alarm, rec, "its favour %s is logged as a %q", o.Favour, r.Event.Kind)
	case r.Event.Attrs["actor"] != o.Creditor || r.Event.Attrs["recipient"] != o.Debtor:
		a.find(inv, alarm, rec, "owed by %s to %s, but the favour was done by %s for %s",
			o.Debtor, o.Creditor, r.Event.Attrs["actor"], r.Event.Attrs["recipient"])
	}
}

// exactness says up to how many pieces of evidence the sums behind a
// reputation row are exact (tolerances.ExactSteps), for α, β and the
// counted weight.
type exactness struct {
	prior             social.Prior
	alpha, beta, mass int64 // the most steps that stay exact; -1: none
	always            bool  // a weight of 0 never moves a sum
}

func exactnessOf(p social.Prior) exactness {
	e := exactness{prior: p}
	var ok bool
	e.alpha, ok = tolerances.ExactSteps(p.Alpha, p.Weight)
	e.beta, _ = tolerances.ExactSteps(p.Beta, p.Weight)
	e.mass, _ = tolerances.ExactSteps(0, p.Weight)
	e.always = !ok
	return e
}

// sumCheck grades value, built by n additions of w to start, against the
// reference start + n·w: equality where the sums are exact, else within
// (n + 3)·2⁻⁵³ of the larger magnitude.
func (a *Auditor) sumCheck(inv string, rec record, what string, value, start float64, n, exactUpTo int64) {
	w := a.exact.prior.Weight
	ref := start + float64(float64(n)*w)
	residual := value - ref
	bound := 0.0
	if !a.exact.always && n > exactUpTo {
		bound = tolerances.SumBound(n+3, max(math.Abs(value), math.Abs(ref)))
	}
	g := tolerances.Audit.Grade(residual, bound)
	if g == tolerances.OK {
		return
	}
	a.grade(inv, g, rec, residual, bound,
		"%s %s, but %s + %d × %s = %s (residual %s, ok bound %s)", what, canon.FormatFloat(value),
		canon.FormatFloat(start), n, canon.FormatFloat(w), canon.FormatFloat(ref), canon.FormatFloat(residual), canon.FormatFloat(bound))
}

// reputationEvidence: every row is its prior plus its counted evidence,
// and the evidence counted over all rows is the (observer, claim) pairs
// the book counted.
func (a *Auditor) reputationEvidence(sc *scope) {
	const inv = "reputation-evidence"
	book := a.w.Reputation()
	if sc.full {
		clear(a.pieces)
		a.piecesTotal = 0
	}
	p := a.exact.prior
	for _, k := range sc.opinions {
		sc.examined++
		rec := record{kind: "reputation", a: k.observer, b: k.subject, c: k.dimension}
		o, ok := book.Get(k.observer, k.subject, k.dimension)
		if !ok {
			a.find(inv, alarm, rec, "a reputation record named it, but the book has no such row")
			continue
		}
		switch {
		case o.Observer == o.Subject:
			a.find(inv, alarm, rec, "an observer's opinion of itself")
		case !a.cast[o.Observer] || !a.entities[o.Subject]:
			a.find(inv, alarm, rec, "observer %q must be in the cast and subject %q in the cast or the player", o.Observer, o.Subject)
		case o.For < 0 || o.Against < 0:
			a.find(inv, alarm, rec, "counts %d pieces for and %d against", o.For, o.Against)
		default:
			a.sumCheck(inv, rec, "α is", o.Alpha, p.Alpha, o.For, a.exact.alpha)
			a.sumCheck(inv, rec, "β is", o.Beta, p.Beta, o.Against, a.exact.beta)
			a.sumCheck(inv, rec, "counted weight is", o.Counted, 0, o.For+o.Against, a.exact.mass)
		}
		n := o.For + o.Against
		a.piecesTotal += n - a.pieces[k]
		a.pieces[k] = n
	}
	if n := int64(book.CountedLen()); n != a.piecesTotal {
		a.find(inv, alarm, record{kind: "reputation book"}, "has counted %d (observer, claim) pairs, but its rows count %d pieces of evidence", n, a.piecesTotal)
	}
}

// grudgeRange: every grudge held by a cast member against someone else,
// its strengths in [0, 1] as stored and as of now.
func (a *Auditor) grudgeRange(sc *scope) {
	const inv = "grudge-range"
	gs := a.w.Grudges()
	c, t := gs.Curves(), a.w.Now()
	for _, g := range sc.grudges {
		sc.examined++
		rec := record{kind: "grudge", a: g.Holder, b: g.Target}
		if g.Holder == g.Target || !a.cast[g.Holder] || !a.entities[g.Target] {
			a.find(inv, alarm, rec, "held by %q against %q: a cast member against someone else in the cast or the player", g.Holder, g.Target)
			continue
		}
		a.inUnit(inv, rec, "emotional strength", g.Emotional)
		a.inUnit(inv, rec, "evidentiary strength", g.Evidentiary)
		a.inUnit(inv, rec, "emotional strength now", g.EmotionalAt(t, c))
		a.inUnit(inv, rec, "evidentiary strength now", g.EvidentiaryAt(t, c))
	}
}
