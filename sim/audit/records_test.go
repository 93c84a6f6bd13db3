package audit_test

import (
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/audit"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/social"
	"github.com/chronicle/ladder/sim/trace"
	"github.com/chronicle/ladder/tolerances"
)

// Each way a record can break an invariant, planted in a small world
// driven by hand (thefts), is found by a full audit, named exactly: the
// invariant, the record and what is wrong with it, and nothing else.
var _ = Describe("a record broken one way", func() {
	DescribeTable("is found, named and described, and is the only finding",
		func(plant func(f *fake), want string) {
			f := thefts()
			Expect(audit.New(f, audit.Options{}).Full().Findings).To(BeEmpty(), "the world is sound before the fault")
			plant(f)
			fs := audit.New(f, audit.Options{}).Full().Findings
			Expect(fs).To(HaveLen(1), "%v", fs)
			Expect(fs[0].String()).To(Equal(want))
		},
		Entry("a claim at another tick than its event", func(f *fake) { c, _ := f.store.Claim("theft@2"); c.Tick = 9 },
			"regime 2 alarm at tick 3: one-claim-per-event: claim theft@2: tick 9, but logged event theft@2 (seq 1) is at tick 2"),
		Entry("a claim whose original variant is not its v0", func(f *fake) {
			_, err := f.store.Derive("theft@2#v0", []claims.Change{{Slot: "actor", From: "d", To: "e"}}, claims.Origin{Reason: "mutation", Holder: "a", Tick: 3})
			Expect(err).NotTo(HaveOccurred())
			c, _ := f.store.Claim("theft@2")
			c.Variant = "theft@2#v1"
		}, `regime 2 alarm at tick 3: one-claim-per-event: claim theft@2: its original variant is "theft@2#v1", not theft@2#v0`),
		Entry("a belief its holder's list names under someone else", func(f *fake) { f.store.BeliefsOf("a")[1].Holder = "b" },
			`regime 2 alarm at tick 3: one-belief-per-holder-claim: belief a/theft@2: listed under a but held by "b"`),
		Entry("a holder's beliefs out of claim order", func(f *fake) {
			bs := f.store.BeliefsOf("a")
			bs[1], bs[2] = bs[2], bs[1]
		}, "regime 2 alarm at tick 3: one-belief-per-holder-claim: belief a/theft@2: listed after theft@3: a holder's beliefs are in claim order"),
		Entry("a piece of evidence naming another claim's variant", func(f *fake) {
			b, _ := f.store.Belief("a", "theft@1")
			b.Evidence = append(b.Evidence, claims.Evidence{Type: claims.Witnessed, Tick: 3, Variant: "theft@3#v0", Via: "theft@3", Confidence: 0.5})
		}, `regime 2 alarm at tick 3: variant-lineage: belief a/theft@1: evidence 1 names "theft@3#v0", which is not a variant of theft@1`),
		Entry("an original variant with changes", func(f *fake) {
			v, _ := f.store.Variant("theft@1#v0")
			v.Diff = []claims.Change{{Slot: "actor", From: "e", To: "d"}}
		}, `regime 2 alarm at tick 3: variant-lineage: variant theft@1#v0: the original variant names predecessor "" and 1 changes`),
		Entry("a later variant with no change", func(f *fake) {
			v, err := f.store.Derive("theft@1#v0", []claims.Change{{Slot: "actor", From: "d", To: "e"}}, claims.Origin{Reason: "mutation", Holder: "a", Tick: 3})
			Expect(err).NotTo(HaveOccurred())
			v.Diff = nil
		}, "regime 2 alarm at tick 3: variant-lineage: variant theft@1#v1: no slot differs from predecessor theft@1#v0"),
		Entry("an obligation not named for its favour", func(f *fake) { o, _ := f.ledger.Get("obligation:favour@3"); o.Favour = "favour@9" },
			`regime 2 alarm at tick 3: obligation-states: obligation obligation:favour@3: is not named for its favour "favour@9"`),
		Entry("an obligation in no known state", func(f *fake) { o, _ := f.ledger.Get("obligation:favour@3"); o.State = "forgiven" },
			`regime 2 alarm at tick 3: obligation-states: obligation obligation:favour@3: state "forgiven" is not issued, fulfilled or violated`),
		Entry("an obligation for an event that was no favour", func(f *fake) {
			_, err := f.ledger.Issue("theft@3", "a", "b", 3)
			Expect(err).NotTo(HaveOccurred())
		}, `regime 2 alarm at tick 3: obligation-states: obligation obligation:theft@3: its favour theft@3 is logged as a "theft"`),
		Entry("a reputation row counting fewer than no pieces", func(f *fake) {
			o, _, err := f.rep.Add(social.Evidence{Observer: "b", Subject: "d", Dimension: sim.Standing, For: false, Claim: "theft@1", Tick: 3})
			Expect(err).NotTo(HaveOccurred())
			o.For, o.Against = -1, 2 // the book's tally still counts one piece
		}, "regime 2 alarm at tick 3: reputation-evidence: reputation b/d/standing: counts -1 pieces for and 2 against"),
		Entry("a confidence below 0, by how far", func(f *fake) { b, _ := f.store.Belief("a", "theft@3"); b.Confidence = -0.25 },
			"regime 2 alarm at tick 3: confidence-range: belief a/theft@3: confidence -0.25 is 0.25 outside [0, 1] (ok bound 0, warn ceiling 1e-06)"),
	)

	It("reputation-evidence: an observer's opinion of itself, found when its row is named", func() {
		f := thefts()
		a := audit.New(f, audit.Options{})
		Expect(auditAt(a, f, 3).Findings).To(BeEmpty())
		o, _, err := f.rep.Add(social.Evidence{Observer: "b", Subject: "d", Dimension: sim.Standing, For: false, Claim: "theft@1", Tick: 4})
		Expect(err).NotTo(HaveOccurred())
		o.Subject = "b" // the row b/d/standing now says it is b's of b
		a.Emit(trace.Record{Tick: 4, Body: &trace.Reputation{Observer: "b", Subject: "d", Dimension: sim.Standing}})
		fs := auditAt(a, f, 4).Findings
		Expect(fs).To(HaveLen(1))
		Expect(fs[0].String()).To(Equal("regime 2 alarm at tick 4: reputation-evidence: reputation b/d/standing: an observer's opinion of itself"))
	})

	It("holds beliefs listed twice to one finding and still examines the belief after them", func() {
		f := thefts()
		bs := f.store.BeliefsOf("a")
		bs[1] = bs[0]      // theft@1, theft@1, theft@3
		bs[2].Holder = "b" // and the one after the pair is broken too
		fs := audit.New(f, audit.Options{}).Full().Findings
		Expect(fs).To(HaveLen(2), "%v", fs)
		Expect(fs[0].String()).To(Equal("regime 2 alarm at tick 3: one-belief-per-holder-claim: belief a/theft@1: listed 2 times under a: the store allows one belief per holder and claim"))
		Expect(fs[1].String()).To(Equal(`regime 2 alarm at tick 3: one-belief-per-holder-claim: belief a/theft@3: listed under a but held by "b"`))
	})

	It("passes values at the very edges of [0, 1]", func() {
		f := thefts()
		one, _ := f.store.Belief("a", "theft@1")
		zero, _ := f.store.Belief("a", "theft@2")
		one.Confidence, zero.Confidence = 1, 0
		a := audit.New(f, audit.Options{})
		Expect(a.Full().Findings).To(BeEmpty())
		Expect(a.Examined()[3]).To(Equal(audit.Examined{Invariant: "confidence-range", Records: 6}), "three beliefs, one piece of evidence each")
	})
})

// reputation-evidence compares a row with its prior plus its evidence by
// equality while the sums are exact, and within the derived bound once
// they are not. A prior of 1 − 2⁻⁵³ and a weight of 2⁻⁵³ are exact for
// one step only (1 − 2⁻⁵³ + 2⁻⁵³ = 1, the next sum rounds), which puts the
// edge where a spec can reach it.
var _ = Describe("the reputation sums' exactness edge", func() {
	const w = 0x1p-53
	row := func(pieces int) (*fake, *social.Opinion) {
		f := thefts()
		f.rep = social.NewReputation(social.Prior{Alpha: 1 - w, Beta: 1, Weight: w})
		var o *social.Opinion
		for i := range pieces {
			var err error
			o, _, err = f.rep.Add(social.Evidence{Observer: "b", Subject: "d", Dimension: sim.Standing, For: true, Claim: []string{"theft@1", "theft@2"}[i], Tick: 3})
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(audit.New(f, audit.Options{}).Full().Findings).To(BeEmpty(), "the sums as the book made them are sound")
		return f, o
	}

	It("is equality at the last exact step: one ulp off is a warn", func() {
		f, o := row(1)
		Expect(o.Alpha).To(Equal(1.0))
		o.Alpha = math.Nextafter(1, 2)
		fs := audit.New(f, audit.Options{}).Full().Findings
		Expect(fs).To(HaveLen(1))
		Expect(fs[0].Grade).To(Equal(tolerances.Warn))
		Expect(fs[0].Residual).To(Equal(0x1p-52))
		Expect(fs[0].Bound).To(BeZero())
	})

	It("is the derived bound one step beyond: one ulp off is within it", func() {
		f, o := row(2)
		o.Alpha = math.Nextafter(1, 2)
		Expect(audit.New(f, audit.Options{}).Full().Findings).To(BeEmpty(), "2⁻⁵² is within (2 + 3)·2⁻⁵³·|α|")
	})

	It("scales the bound by the larger magnitude of the value and its reference", func() {
		f, o := row(2)
		o.Alpha = -4
		fs := audit.New(f, audit.Options{}).Full().Findings
		Expect(fs).To(HaveLen(1))
		Expect(fs[0].Grade).To(Equal(tolerances.Alarm))
		Expect(fs[0].Bound).To(Equal(tolerances.SumBound(5, 4)), "|−4| is larger than the reference 1")
	})
})

// What an audit examined is a result: a check that examined nothing has
// checked nothing, so the counts are held exactly.
var _ = Describe("the audit's bookkeeping", func() {
	It("counts, per invariant, every record each audit examined", func() {
		f := newDriver(0).f
		a := audit.New(f, audit.Options{})
		Expect(auditAt(a, f, 0).Full).To(BeTrue())
		// Tick 1: a theft, its claim, a's belief in it.
		_, err := f.log.Append(events.Event{ID: "theft@1", Kind: "theft", Tick: 1, Attrs: map[string]string{"actor": "d"}})
		Expect(err).NotTo(HaveOccurred())
		c, err := f.store.MintClaim("theft@1", "theft", 1, claims.Slots{{Name: "actor", Type: claims.EntitySlot, Value: "d"}})
		Expect(err).NotTo(HaveOccurred())
		_, err = f.store.Witness("a", c.Variant, 1, 0.9, "theft@1")
		Expect(err).NotTo(HaveOccurred())
		a.Emit(trace.Record{Tick: 1, Body: &trace.BeliefChange{Holder: "a", Claim: "theft@1"}})
		Expect(auditAt(a, f, 1).Findings).To(BeEmpty())
		// Tick 2: a claim no event accounts for, which only the store's
		// count reveals: every claim id is scanned.
		_, err = f.store.MintClaim("ghost@2", "theft", 2, nil)
		Expect(err).NotTo(HaveOccurred())
		fs := auditAt(a, f, 2).Findings
		Expect(fs).To(HaveLen(1))
		Expect(fs[0].Record).To(Equal("claim ghost@2"))
		Expect(a.Full().Findings).To(BeEmpty(), "reported once")
		got := map[string]int64{}
		for _, e := range a.Examined() {
			got[e.Invariant] = e.Records
		}
		Expect(got).To(Equal(map[string]int64{
			// tick 1: the theft's log record; tick 2: the two claim ids;
			// the end: the log record and the two ids.
			"one-claim-per-event": 1 + 2 + 3,
			// a's one belief, at tick 1 and at the end.
			"one-belief-per-holder-claim": 1 + 1,
			// tick 1: theft@1's v0 and a's belief; tick 2: ghost@2's v0,
			// found by the store's variant count; the end: both v0s and
			// the belief.
			"variant-lineage": 2 + 1 + 3,
			// the belief and its one piece of evidence, twice.
			"confidence-range": 2 + 2,
			// theft@1 at tick 1; both claims at the end.
			"believers-within-living-cast": 1 + 2,
			"obligation-states":            0,
			"reputation-evidence":          0,
			"grudge-range":                 0,
			// no role, schedule or weighting layer.
			"role-references":    0,
			"schedule-overrides": 0,
			"pair-weights":       0,
		}))
	})

	It("audits in full the first time it audits, whatever the tick", func() {
		f := thefts() // at tick 3: no keyframe, nothing announced
		a := audit.New(f, audit.Options{})
		rep := auditAt(a, f, 3)
		Expect(rep.Full).To(BeTrue())
		Expect(a.Last().Claims).To(Equal([]string{"theft@1", "theft@2", "theft@3"}), "every claim, none announced")
		Expect(auditAt(a, f, 4).Full).To(BeFalse())
	})

	It("refuses at any keyframe no keyframe record reached, not only the first", func() {
		f := newDriver(0).f
		a := audit.New(f, audit.Options{})
		for t := range int64(24) {
			auditAt(a, f, t) // fed at tick 0; no keyframe is due until 24
		}
		f.now = 24 // the sink was unplugged: no keyframe arrives
		_, err := a.Tick()
		Expect(err).To(MatchError(audit.ErrUnfed))
		Expect(err).To(MatchError(ContainSubstring("audit at tick 24: ")))
	})
})
