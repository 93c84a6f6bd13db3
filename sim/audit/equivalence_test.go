package audit_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/audit"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/roles"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/social"
	"github.com/chronicle/ladder/sim/trace"
)

// fake is a world's state driven by hand, through the stores' own write
// paths and, for planted faults, through the pointers they hand out.
type fake struct {
	now     int64
	cast    []string
	dead    map[string]bool
	defines rules.Defines
	store   *claims.Store
	log     *events.Log
	grudges *social.Grudges
	ledger  *social.Ledger
	rep     *social.Reputation
	// Tiers 4 and 5: empty unless a spec sets them (layers says which
	// the world uses).
	layers  rules.Layers
	roles   *roles.Book
	refs    map[string][]roles.Reference
	sched   map[string]schedule.Schedule
	weights []sim.PairWeight
	off     map[string]bool // rules switched off
}

var _ audit.World = (*fake)(nil)

func (f *fake) Layers() rules.Layers                     { return f.layers }
func (f *fake) Enabled(rule string) bool                 { return !f.off[rule] }
func (f *fake) Roles() *roles.Book                       { return f.roles }
func (f *fake) References(role string) []roles.Reference { return f.refs[role] }
func (f *fake) PairWeights() []sim.PairWeight            { return f.weights }
func (f *fake) Schedules(npc string) (base, effective schedule.Schedule, ok bool) {
	s, ok := f.sched[npc]
	return s.Base(), s, ok
}

func (f *fake) Now() int64                     { return f.now }
func (f *fake) NPCs() []string                 { return slices.Clone(f.cast) }
func (f *fake) Alive(id string) bool           { return slices.Contains(f.cast, id) && !f.dead[id] }
func (f *fake) Defines() rules.Defines         { return f.defines }
func (f *fake) Store() *claims.Store           { return f.store }
func (f *fake) Log() *events.Log               { return f.log }
func (f *fake) Grudges() *social.Grudges       { return f.grudges }
func (f *fake) Ledger() *social.Ledger         { return f.ledger }
func (f *fake) Reputation() *social.Reputation { return f.rep }

// driver makes random writes, some of them faults, and announces each to
// both auditors as the engine's trace would.
type driver struct {
	rng      *rand.Rand
	f        *fake
	sinks    []*audit.Auditor
	claimIDs []string
	events   int
	faults   int
}

func newDriver(seed uint64, sinks ...func(*fake) *audit.Auditor) *driver {
	d := rules.Default()
	f := &fake{
		cast: []string{"a", "b", "c", "d", "e", "f"}, dead: map[string]bool{}, defines: d, layers: rules.CoreOnly.With(rules.Social),
		store:   claims.NewStore(claims.Memory{VerbatimHalfLife: 72, GistHalfLife: 96, DormantGist: 0.5, ForgottenGist: 0.125}),
		log:     events.NewLog(events.Branch{SaveUUID: "fake"}),
		grudges: social.NewGrudges(social.Curves{EmotionalHalfLife: 48, EvidentiaryHalfLife: 24, Settled: 0.05}),
		ledger:  social.NewLedger(),
		rep:     social.NewReputation(social.Prior{Alpha: d.ReputationPriorAlpha, Beta: d.ReputationPriorBeta, Weight: d.ReputationWeight}),
	}
	dr := &driver{rng: rand.New(rand.NewPCG(seed, 7)), f: f}
	for _, s := range sinks {
		dr.sinks = append(dr.sinks, s(f))
	}
	return dr
}

func (d *driver) emit(b trace.Body) {
	for _, s := range d.sinks {
		s.Emit(trace.Record{Tick: d.f.now, Body: b})
	}
}

func (d *driver) pick(xs []string) string { return xs[d.rng.IntN(len(xs))] }
func (d *driver) chance(p float64) bool   { return d.rng.Float64() < p }

// confidence is usually in [0, 1]; now and then a planted fault outside.
func (d *driver) confidence() float64 {
	if d.chance(0.02) {
		d.faults++
		return []float64{math.Nextafter(1, 2), -1e-7, 1.5, math.NaN()}[d.rng.IntN(4)]
	}
	return d.rng.Float64()
}

func (d *driver) living() []string {
	var out []string
	for _, id := range d.f.cast {
		if !d.f.dead[id] {
			out = append(out, id)
		}
	}
	return out
}

// tick makes one tick's writes.
func (d *driver) tick() {
	f := d.f
	if f.now%f.defines.TicksPerDay == 0 {
		d.emit(&trace.Keyframe{})
	}
	for range d.rng.IntN(4) {
		switch k := d.rng.IntN(100); {
		case k < 15:
			d.event()
		case k < 50:
			d.tell()
		case k < 55:
			d.death()
		case k < 65:
			d.grudge()
		case k < 75:
			d.obligation()
		case k < 85:
			d.reputation()
		default:
			d.fault()
		}
	}
}

func (d *driver) event() {
	f := d.f
	d.events++
	id := fmt.Sprintf("theft@%d.%d", f.now, d.events)
	actor := d.pick(f.cast)
	if _, err := f.log.Append(events.Event{ID: id, Kind: "theft", Tick: f.now, Attrs: map[string]string{"actor": actor}}); err != nil {
		Fail(err.Error())
	}
	kind := "theft"
	if d.chance(0.05) {
		kind, d.faults = "brawl", d.faults+1 // a claim that misstates its event
	}
	c, err := f.store.MintClaim(id, kind, f.now, claims.Slots{{Name: "actor", Type: claims.EntitySlot, Value: actor}})
	Expect(err).NotTo(HaveOccurred())
	d.claimIDs = append(d.claimIDs, id)
	for range 1 + d.rng.IntN(2) {
		w := d.pick(d.living())
		if b, err := f.store.Witness(w, c.Variant, f.now, d.confidence(), id); err == nil {
			d.emit(&trace.BeliefChange{Holder: b.Holder, Claim: b.Claim})
		}
	}
}

func (d *driver) tell() {
	f := d.f
	if len(d.claimIDs) == 0 {
		return
	}
	claim := d.pick(d.claimIDs)
	holders := f.store.Holders(claim)
	if len(holders) == 0 {
		return
	}
	teller, listener := d.pick(holders), d.pick(d.living())
	tb, _ := f.store.Belief(teller, claim)
	if tb == nil || teller == listener {
		return
	}
	t := claims.Testimony{Teller: teller, Chain: append(tb.SourceChain(), teller), Variant: tb.Variant, Tick: f.now, Via: "e", Confidence: d.confidence()}
	lb, holds := f.store.Belief(listener, claim)
	switch {
	case !holds:
		if d.chance(0.3) {
			v, err := f.store.Derive(tb.Variant, []claims.Change{{Slot: "actor", From: d.slot(tb.Variant), To: d.pick(f.cast) + "x"}}, claims.Origin{Reason: "mutation", Holder: teller, Tick: f.now})
			if err == nil {
				t.Variant = v.ID
			}
		}
		if _, err := f.store.Hear(listener, t); err == nil {
			d.emit(&trace.Transmission{Listener: listener, Claim: claim, Fired: true})
			d.emit(&trace.BeliefChange{Holder: listener, Claim: claim})
		}
	case lb.Variant == t.Variant:
		if _, err := f.store.Corroborate(listener, t, 1000); err == nil {
			d.emit(&trace.BeliefChange{Holder: listener, Claim: claim})
		}
	default:
		if _, err := f.store.Resolve(listener, t, claims.SideOf(tb), 0.1); err == nil {
			d.emit(&trace.Supersession{Holder: listener, Claim: claim})
		}
	}
	if f.store.Repeat(teller, claim) {
		d.emit(&trace.BeliefChange{Holder: teller, Claim: claim})
	}
}

func (d *driver) slot(variant string) string {
	v, _ := d.f.store.Variant(variant)
	s, _ := v.Slots.Get("actor")
	return s.Value
}

func (d *driver) death() {
	f := d.f
	alive := d.living()
	if len(alive) <= 2 {
		return
	}
	v := d.pick(alive)
	f.dead[v] = true
	d.events++
	_, err := f.log.Append(events.Event{ID: fmt.Sprintf("death@%d.%d", f.now, d.events), Kind: "death", Tick: f.now, Attrs: map[string]string{"victim": v}})
	Expect(err).NotTo(HaveOccurred())
}

func (d *driver) grudge() {
	f := d.f
	h, t := d.pick(d.living()), d.pick(append(slices.Clone(f.cast), sim.Player))
	g, _, err := f.grudges.Bear(h, t, f.now, d.rng.Float64(), d.rng.Float64(), "cause")
	if err != nil {
		return
	}
	if d.chance(0.05) {
		g.Evidentiary, d.faults = 1.25, d.faults+1
	}
	d.emit(&trace.Grudge{Holder: h, Target: t})
}

func (d *driver) obligation() {
	f := d.f
	if d.chance(0.5) {
		a, b := d.pick(f.cast), d.pick(f.cast)
		if a == b {
			return
		}
		d.events++
		id := fmt.Sprintf("favour@%d.%d", f.now, d.events)
		if _, err := f.log.Append(events.Event{ID: id, Kind: "favour", Tick: f.now, Attrs: map[string]string{"actor": a, "recipient": b}}); err != nil {
			Fail(err.Error())
		}
		if o, err := f.ledger.Issue(id, a, b, f.now); err == nil {
			d.emit(&trace.Obligation{ID: o.ID})
		}
		return
	}
	all := f.ledger.All()
	if len(all) == 0 {
		return
	}
	o := all[d.rng.IntN(len(all))]
	switch {
	case d.chance(0.1):
		o.State, d.faults = social.Issued, d.faults+1 // reopened, if it was settled
	case d.chance(0.05):
		o.Debtor, d.faults = d.pick(f.cast), d.faults+1
	default:
		f.ledger.Settle(o.Favour, []social.ObligationState{social.Fulfilled, social.Violated}[d.rng.IntN(2)], "invoke", f.now)
	}
	d.emit(&trace.Obligation{ID: o.ID})
}

func (d *driver) reputation() {
	f := d.f
	e := social.Evidence{Observer: d.pick(f.cast), Subject: d.pick(f.cast), Dimension: sim.Standing, For: d.chance(0.5), Claim: d.pick(append(d.claimIDs, "x")), Tick: f.now}
	o, moved, err := f.rep.Add(e)
	if err != nil || !moved {
		return
	}
	if d.chance(0.05) {
		o.Beta, d.faults = o.Beta+[]float64{1e-9, 0.5}[d.rng.IntN(2)], d.faults+1
	}
	d.emit(&trace.Reputation{Observer: o.Observer, Subject: o.Subject, Dimension: o.Dimension})
}

// fault plants a belief fault, announced, or a claim no event accounts
// for, unannounced (the store's count reveals it).
func (d *driver) fault() {
	f := d.f
	d.faults++
	h := d.pick(f.cast)
	bs := f.store.BeliefsOf(h)
	switch {
	case d.chance(0.3):
		d.events++
		_, _ = f.store.MintClaim(fmt.Sprintf("ghost@%d.%d", f.now, d.events), "theft", f.now, nil)
	case len(bs) >= 2 && d.chance(0.5):
		bs[1] = bs[0]
		d.emit(&trace.BeliefChange{Holder: h, Claim: bs[0].Claim})
	case len(bs) >= 1 && len(d.claimIDs) >= 2:
		bs[0].Variant = d.pick(d.claimIDs) + "#v0"
		d.emit(&trace.BeliefChange{Holder: h, Claim: bs[0].Claim})
	}
}

var _ = Describe("the incremental audit", func() {
	It("finds, tick by tick, exactly what a full audit of every record finds, on random worlds with planted faults", func() {
		worlds, findings, faults := 0, 0, 0
		for seed := range uint64(60) {
			dr := newDriver(seed,
				func(f *fake) *audit.Auditor { return audit.New(f, audit.Options{}) },
				func(f *fake) *audit.Auditor { return audit.New(f, audit.Options{FullEvery: 1}) })
			inc, full := dr.sinks[0], dr.sinks[1]
			for t := range int64(200) {
				dr.f.now = t
				dr.tick()
				ri, err := inc.Tick()
				Expect(err).NotTo(HaveOccurred())
				rf, err := full.Tick()
				Expect(err).NotTo(HaveOccurred())
				Expect(rf.Full).To(BeTrue())
				Expect(ri.Full).To(Equal(t%24 == 0))
				Expect(cmp.Diff(rf.Findings, ri.Findings, cmpopts.EquateNaNs())).To(BeEmpty(), "seed %d, tick %d: full (-) and incremental (+) audits differ", seed, t)
				findings += len(ri.Findings)
			}
			Expect(cmp.Diff(full.Full().Findings, inc.Full().Findings, cmpopts.EquateNaNs())).To(BeEmpty())
			worlds++
			faults += dr.faults
		}
		// The property is only as strong as the faults it met.
		Expect(faults).To(BeNumerically(">", 500))
		Expect(findings).To(BeNumerically(">", 300))
		AddReportEntry("equivalence", fmt.Sprintf("%d worlds × 200 ticks, %d faults planted, %d findings, identical tick by tick", worlds, faults, findings))
	})

	It("examines far fewer records than a full audit every tick", func() {
		dr := newDriver(1,
			func(f *fake) *audit.Auditor { return audit.New(f, audit.Options{}) },
			func(f *fake) *audit.Auditor { return audit.New(f, audit.Options{FullEvery: 1}) })
		for t := range int64(200) {
			dr.f.now = t
			dr.tick()
			_, _ = dr.sinks[0].Tick()
			_, _ = dr.sinks[1].Tick()
		}
		var inc, full int64
		for i, e := range dr.sinks[0].Examined() {
			inc += e.Records
			full += dr.sinks[1].Examined()[i].Records
		}
		Expect(inc * 3).To(BeNumerically("<", full))
	})
})
