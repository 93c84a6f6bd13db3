package audit_test

import (
	"errors"
	"math"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/audit"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/social"
	"github.com/chronicle/ladder/sim/trace"
	"github.com/chronicle/ladder/tolerances"
)

var _ = Describe("the invariant list", func() {
	It("is the list of derivations in tolerances, in the same order", func() {
		var derived []string
		for _, inv := range tolerances.Invariants {
			derived = append(derived, inv.Name)
		}
		Expect(audit.Names()).To(Equal(derived))
	})
})

var _ = Describe("a sound world", func() {
	It("passes every invariant at every tick, and each invariant examined records (Tier 4-5's none, outside their layers)", func() {
		r := start(socialTown(), audit.Options{})
		Expect(r.step(60)).To(BeEmpty())
		Expect(r.a.Full().Findings).To(BeEmpty())
		Expect(r.w.Layers().Has(rules.Weighting)).To(BeTrue())
		outside := []string{"role-references", "schedule-overrides"} // no role, no temple
		for _, e := range r.a.Examined() {
			if slices.Contains(outside, e.Invariant) {
				Expect(e.Records).To(BeZero(), "%s examined a world without its layer", e.Invariant)
				continue
			}
			Expect(e.Records).To(BeNumerically(">", 0), "%s examined nothing", e.Invariant)
		}
	})

	It("examines only what a tick changed between keyframes, and everything at them", func() {
		r := start(socialTown(), audit.Options{})
		r.step(0)
		Expect(r.a.Last().Full).To(BeTrue(), "tick 0 is a keyframe")
		r.step(1)
		last := r.a.Last()
		Expect(last.Full).To(BeFalse())
		Expect(last.Events).To(Equal(3), "the theft and the favour of tick 1, and the obligation it issued")
		Expect(last.Claims).To(ContainElements("theft@1", "favour@1"))
		r.step(5)
		Expect(r.a.Last().Holders).To(BeEmpty(), "nothing happens at tick 5")
		r.step(24)
		Expect(r.a.Last().Full).To(BeTrue())
		Expect(r.a.Last().Holders).To(Equal([]string{"a", "b", "c", "merchant"}))
	})

	It("refuses to audit incrementally when the trace does not reach it", func() {
		cfg := town()
		cfg.Sink = &trace.Buffer{}
		w, err := sim.New(cfg)
		Expect(err).NotTo(HaveOccurred())
		a := audit.New(w, audit.Options{})
		Expect(w.Step()).To(Succeed())
		_, err = a.Tick()
		Expect(errors.Is(err, audit.ErrUnfed)).To(BeTrue())
		Expect(err).To(MatchError(ContainSubstring("audit at tick 0: no trace record reached the audit")))
	})
})

// Each invariant must be able to fail: a fault planted in a live world is
// found, named by invariant, record and tick. A planted write the trace
// announces is found at the tick it is made; one it does not is found at
// the next full audit.
var _ = Describe("planted faults", func() {
	It("one-claim-per-event: a claim minted without an event, found the tick it appears", func() {
		r := start(town(), audit.Options{})
		r.step(4)
		_, err := r.w.Store().MintClaim("ghost@5", "theft", 5, claims.Slots{{Name: "actor", Type: claims.EntitySlot, Value: "b"}})
		Expect(err).NotTo(HaveOccurred())
		fs := r.step(5)
		Expect(fs).To(HaveLen(1))
		Expect(fs[0].String()).To(Equal("regime 2 alarm at tick 5: one-claim-per-event: claim ghost@5: no logged event has its id"))
	})

	It("one-claim-per-event: a claim that misstates its event, found at the next keyframe", func() {
		r := start(town(), audit.Options{})
		r.step(3)
		c, _ := r.w.Store().Claim("theft@1")
		c.Slots[1].Value = "apple" // item: the slots are sorted by name
		Expect(r.step(23)).To(BeEmpty(), "no record announced the change")
		fs := r.step(24)
		Expect(fs).To(HaveLen(1))
		Expect(fs[0].Tick).To(Equal(int64(24)))
		Expect(fs[0].Record).To(Equal("claim theft@1"))
		Expect(fs[0].Detail).To(Equal(`slot item is "apple", but logged event theft@1 (seq 0) has item="sweetroll"`))
	})

	It("one-belief-per-holder-claim: a belief listed twice, with the store's count", func() {
		r := start(town(), audit.Options{})
		r.step(6)
		bs := r.w.Store().BeliefsOf("b")
		Expect(bs).To(HaveLen(2))
		bs[1] = bs[0] // b's list now names theft@1 twice
		r.declare(&trace.BeliefChange{Holder: "b", Claim: "theft@1"})
		fs := r.step(7)
		Expect(invariants(fs)).To(Equal([]string{"one-belief-per-holder-claim"}))
		Expect(fs[0].String()).To(Equal("regime 2 alarm at tick 7: one-belief-per-holder-claim: belief b/theft@1: listed 2 times under b: the store allows one belief per holder and claim"))
	})

	It("one-belief-per-holder-claim and believers-within-living-cast: a belief held by someone not in the cast", func() {
		r := start(town(), audit.Options{})
		r.step(4)
		_, err := r.w.Store().Witness("ghost", "theft@1#v0", 5, 0.9, "theft@1")
		Expect(err).NotTo(HaveOccurred())
		r.declare(&trace.BeliefChange{Holder: "ghost", Claim: "theft@1"})
		fs := r.step(5)
		Expect(fs).To(HaveLen(2))
		Expect(fs[0].String()).To(Equal("regime 2 alarm at tick 5: one-belief-per-holder-claim: store: counts 9 beliefs, its holders list 8"))
		Expect(fs[1].String()).To(Equal(`regime 2 alarm at tick 5: believers-within-living-cast: claim theft@1: holder "ghost" is not in the cast`))
	})

	It("variant-lineage: a belief holding another claim's variant", func() {
		r := start(town(), audit.Options{})
		r.step(6)
		b, _ := r.w.Store().Belief("c", "theft@1")
		b.Variant = "theft@2#v0"
		r.declare(&trace.BeliefChange{Holder: "c", Claim: "theft@1"})
		fs := r.again() // the engine would refuse to step with it
		Expect(fs).To(HaveLen(1))
		Expect(fs[0].String()).To(Equal(`regime 2 alarm at tick 6: variant-lineage: belief c/theft@1: holds "theft@2#v0", which is not a variant of theft@1`))
	})

	It("variant-lineage: a variant whose predecessor is itself (a cycle), found at the next keyframe", func() {
		cfg := town()
		cfg.Injections[0].Witnesses = []sim.Witness{{NPC: "a"}, {NPC: "b", Says: []sim.Recollection{{Slot: "item", Value: "apple"}}}}
		r := start(cfg, audit.Options{})
		r.step(3)
		v, ok := r.w.Store().Variant("theft@1#v1")
		Expect(ok).To(BeTrue())
		v.Predecessor = "theft@1#v1"
		fs := r.step(24)
		Expect(fs).To(HaveLen(1))
		Expect(fs[0].String()).To(Equal(`regime 2 alarm at tick 24: variant-lineage: variant theft@1#v1: predecessor "theft@1#v1" is not an earlier variant of theft@1: the lineage would not reach v0`))
	})

	DescribeTable("confidence-range grades by how far outside [0, 1]",
		func(confidence float64, grade tolerances.Grade, strictFails, lenientFails bool) {
			r := start(town(), audit.Options{})
			r.step(6)
			b, _ := r.w.Store().Belief("a", "theft@2")
			b.Confidence = confidence
			r.declare(&trace.BeliefChange{Holder: "a", Claim: "theft@2"})
			Expect(r.w.Step()).To(Succeed())
			rep, err := r.a.Tick()
			Expect(err).NotTo(HaveOccurred())
			Expect(rep.Findings).To(HaveLen(1))
			f := rep.Findings[0]
			Expect(f.Invariant).To(Equal("confidence-range"))
			Expect(f.Record).To(Equal("belief a/theft@2"))
			Expect(f.Grade).To(Equal(grade))
			Expect(rep.Grade).To(Equal(grade))
			Expect(rep.Failing(true)).To(HaveLen(btoi(strictFails)))
			Expect(rep.Failing(false)).To(HaveLen(btoi(lenientFails)))
		},
		Entry("one ulp above 1: warn, fails only when strict", math.Nextafter(1, 2), tolerances.Warn, true, false),
		Entry("1e-6 below 0: warn", -1e-6, tolerances.Warn, true, false),
		Entry("1.2: alarm", 1.2, tolerances.Alarm, true, true),
		Entry("NaN: alarm", math.NaN(), tolerances.Alarm, true, true),
	)

	It("confidence-range: a piece of evidence outside [0, 1], named by its index", func() {
		r := start(town(), audit.Options{})
		r.step(6)
		b, _ := r.w.Store().Belief("a", "theft@1")
		b.Evidence[0].Confidence = 1.5
		fs := r.step(24)
		Expect(fs).To(HaveLen(1))
		Expect(fs[0].String()).To(Equal("regime 2 alarm at tick 24: confidence-range: belief a/theft@1 evidence 0: confidence 1.5 is 0.5 outside [0, 1] (ok bound 0, warn ceiling 1e-06)"))
	})

	It("obligation-states: a violated obligation reopened", func() {
		r := start(socialTown(), audit.Options{})
		r.step(5)
		o, ok := r.w.Ledger().Get("obligation:favour@1")
		Expect(ok).To(BeTrue())
		Expect(o.State).To(Equal(social.Violated))
		o.State = social.Issued
		r.declare(&trace.Obligation{ID: o.ID})
		fs := r.step(6)
		Expect(fs).To(HaveLen(1))
		Expect(fs[0].String()).To(Equal("regime 2 alarm at tick 6: obligation-states: obligation obligation:favour@1: went from violated to issued: only issued → fulfilled or violated is allowed"))
	})

	It("obligation-states: a debt owed by someone the favour did not involve", func() {
		r := start(socialTown(), audit.Options{})
		r.step(5)
		o, _ := r.w.Ledger().Get("obligation:favour@1")
		o.Debtor = "c"
		fs := r.step(24)
		Expect(fs).To(HaveLen(1))
		Expect(fs[0].String()).To(Equal("regime 2 alarm at tick 24: obligation-states: obligation obligation:favour@1: owed by c to a, but the favour was done by a for b"))
	})

	It("reputation-evidence: α moved without its evidence count", func() {
		r := start(socialTown(), audit.Options{})
		r.step(5)
		rows := r.w.Reputation().All()
		Expect(rows).NotTo(BeEmpty())
		o := rows[0]
		o.Alpha += 0.5
		r.declare(&trace.Reputation{Observer: o.Observer, Subject: o.Subject, Dimension: o.Dimension})
		fs := r.step(6)
		Expect(fs).To(HaveLen(1))
		Expect(fs[0].Invariant).To(Equal("reputation-evidence"))
		Expect(fs[0].Grade).To(Equal(tolerances.Alarm))
		Expect(fs[0].Detail).To(Equal("α is 2.5, but 1.0 + 1 × 1.0 = 2.0 (residual 0.5, ok bound 0.0)"))
	})

	It("reputation-evidence: a counted pair that moved no row", func() {
		r := start(socialTown(), audit.Options{})
		r.step(5)
		_, moved, err := r.w.Reputation().Add(social.Evidence{Observer: "b", Subject: "c", Dimension: sim.Standing, For: true, Claim: "title@99"})
		Expect(err).NotTo(HaveOccurred())
		Expect(moved).To(BeTrue())
		o, _ := r.w.Reputation().Get("b", "c", sim.Standing)
		o.Alpha, o.For, o.Counted = 1, 0, 0 // undo the row, keep the pair counted
		fs := r.step(6)
		Expect(fs).To(HaveLen(1))
		Expect(fs[0].String()).To(MatchRegexp(`^regime 2 alarm at tick 6: reputation-evidence: reputation book: has counted \d+ \(observer, claim\) pairs, but its rows count \d+ pieces of evidence$`))
	})

	It("reputation-evidence: an inexact weight is held to the derived bound, not to equality", func() {
		cfg := socialTown()
		cfg.Defines.ReputationWeight = 0.1
		cfg.Defines.ReputationPriorAlpha = 0.3
		r := start(cfg, audit.Options{})
		Expect(r.step(30)).To(BeEmpty(), "0.3 + 0.1 rounds, within (n + 3)·2⁻⁵³")
		o := r.w.Reputation().All()[0]
		o.Alpha = math.Nextafter(o.Alpha, 2)
		o.Alpha = math.Nextafter(o.Alpha, 2)
		o.Alpha += 1e-9
		r.declare(&trace.Reputation{Observer: o.Observer, Subject: o.Subject, Dimension: o.Dimension})
		fs := r.step(31)
		Expect(fs).To(HaveLen(1))
		Expect(fs[0].Grade).To(Equal(tolerances.Warn), "beyond the bound, below 1e-6")
		Expect(fs[0].Bound).To(BeNumerically(">", 0))
	})

	It("grudge-range: a grudge stronger than certain", func() {
		r := start(socialTown(), audit.Options{})
		r.step(5)
		g := r.w.Grudges().All()[0]
		g.Emotional = 1.5
		r.declare(&trace.Grudge{Holder: g.Holder, Target: g.Target})
		fs := r.step(6)
		Expect(fs).To(HaveLen(1))
		Expect(fs[0].Invariant).To(Equal("grudge-range"))
		Expect(fs[0].Record).To(Equal("grudge " + g.Holder + "->" + g.Target))
		Expect(fs[0].Detail).To(Equal("emotional strength 1.5 is 0.5 outside [0, 1] (ok bound 0, warn ceiling 1e-06)"))
	})

	It("reports a broken record once, the tick it breaks, however long it stays broken", func() {
		r := start(town(), audit.Options{})
		r.step(4)
		_, _ = r.w.Store().MintClaim("ghost@5", "theft", 5, claims.Slots{{Name: "actor", Type: claims.EntitySlot, Value: "b"}})
		fs := r.step(80)
		Expect(fs).To(HaveLen(1))
		Expect(fs[0].Tick).To(Equal(int64(5)))
	})
})

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
