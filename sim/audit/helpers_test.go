package audit_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/internal/suite"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/audit"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/trace"
)

func TestAudit(t *testing.T) { suite.Run(t, "Audit Suite") }

// tee hands every record to the buffer and, once it is set, the auditor:
// the world needs its sink before the auditor can be built on the world.
type tee struct {
	buf trace.Buffer
	a   *audit.Auditor
}

func (t *tee) Emit(r trace.Record) {
	t.buf.Emit(r)
	if t.a != nil {
		t.a.Emit(r)
	}
}

// run is a world with its auditor.
type run struct {
	w    *sim.World
	a    *audit.Auditor
	sink *tee
}

// start builds a world from cfg and an auditor on it, fed by its trace.
func start(cfg sim.Config, opt audit.Options) *run {
	GinkgoHelper()
	r := &run{sink: &tee{}}
	cfg.Sink = r.sink
	w, err := sim.New(cfg)
	Expect(err).NotTo(HaveOccurred())
	r.w, r.a = w, audit.New(w, opt)
	r.sink.a = r.a
	return r
}

// step steps the world until tick `to` (inclusive), auditing every tick,
// and returns the findings.
func (r *run) step(to int64) []audit.Finding {
	GinkgoHelper()
	var out []audit.Finding
	for r.w.Now() < to {
		Expect(r.w.Step()).To(Succeed())
		rep, err := r.a.Tick()
		Expect(err).NotTo(HaveOccurred())
		out = append(out, rep.Findings...)
	}
	return out
}

// again audits the current tick once more, without stepping: for a fault
// the engine itself would trip over.
func (r *run) again() []audit.Finding {
	GinkgoHelper()
	rep, err := r.a.Tick()
	Expect(err).NotTo(HaveOccurred())
	return rep.Findings
}

// declare tells the auditor, as the trace would, that a record changed.
func (r *run) declare(b trace.Body) { r.a.Emit(trace.Record{Tick: r.w.Now(), Body: b}) }

func ruleSet() *rules.Set {
	GinkgoHelper()
	s, err := rules.NewSet(nil)
	Expect(err).NotTo(HaveOccurred())
	return s
}

// town is a market where a, b and c spend every tick with the merchant;
// a sees two thefts, at ticks 1 and 2, and the rumours spread.
func town() sim.Config {
	d := rules.Default()
	d.MutationMax = 0
	stay := func(id string) sim.NPC { return sim.NPC{ID: id, Schedule: schedule.Schedule{Home: "market"}} }
	theft := func(tick int64, id, item string) sim.Injection {
		return sim.Injection{Tick: tick, Kind: sim.Theft, ID: id, Actor: sim.Player, Victim: "merchant", Item: item, At: "market", Witnesses: []sim.Witness{{NPC: "a"}}}
	}
	return sim.Config{
		SeedID: "unit-audit", Branch: events.Branch{SaveUUID: "audit"}, Defines: d, Rules: ruleSet(),
		Locations:  []sim.Location{{ID: "market", Hold: "whiterun"}},
		Cast:       []sim.NPC{stay("a"), stay("b"), stay("c"), stay("merchant")},
		Injections: []sim.Injection{theft(1, "theft@1", "sweetroll"), theft(2, "theft@2", "ring")},
	}
}

// socialTown is town with a favour (a for b, tick 1), a title (player to c,
// tick 2, a watching), a brawl (c beats b, tick 2, a watching) and the
// favour called in and refused (tick 3).
func socialTown() sim.Config {
	cfg := town()
	cfg.Injections = append(cfg.Injections,
		sim.Injection{Tick: 1, Kind: sim.Favour, ID: "favour@1", Actor: "a", Recipient: "b", At: "market"},
		sim.Injection{Tick: 2, Kind: sim.Title, ID: "title@2", Actor: sim.Player, Recipient: "c", TitleName: "thane", At: "market", Witnesses: []sim.Witness{{NPC: "a"}}},
		sim.Injection{Tick: 2, Kind: sim.Brawl, ID: "brawl@2", Actor: "c", Victim: "b", At: "market", Witnesses: []sim.Witness{{NPC: "a"}}},
		sim.Injection{Tick: 3, Kind: sim.Invoke, ID: "invoke@3", Actor: "a", Recipient: "b", Favour: "favour@1", Outcome: sim.Refused, At: "market"},
	)
	// Injections must be in tick order.
	in := cfg.Injections
	cfg.Injections = []sim.Injection{in[0], in[2], in[1], in[3], in[4], in[5]}
	return cfg
}

// invariants returns the findings' invariant names.
func invariants(fs []audit.Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Invariant
	}
	return out
}

// thefts is a fake world at tick 3, driven by hand: thefts by d at ticks
// 1, 2 and 3 (theft@1…theft@3), logged, each with its claim, all three
// witnessed by a, and a favour a did for b at tick 3 (favour@3), logged,
// with its obligation.
func thefts() *fake {
	GinkgoHelper()
	f := newDriver(0).f
	for i, id := range []string{"theft@1", "theft@2", "theft@3"} {
		tick := int64(i + 1)
		_, err := f.log.Append(events.Event{ID: id, Kind: "theft", Tick: tick, Attrs: map[string]string{"actor": "d"}})
		Expect(err).NotTo(HaveOccurred())
		c, err := f.store.MintClaim(id, "theft", tick, claims.Slots{{Name: "actor", Type: claims.EntitySlot, Value: "d"}})
		Expect(err).NotTo(HaveOccurred())
		_, err = f.store.Witness("a", c.Variant, tick, 0.9, id)
		Expect(err).NotTo(HaveOccurred())
	}
	_, err := f.log.Append(events.Event{ID: "favour@3", Kind: "favour", Tick: 3, Attrs: map[string]string{"actor": "a", "recipient": "b"}})
	Expect(err).NotTo(HaveOccurred())
	_, err = f.ledger.Issue("favour@3", "a", "b", 3)
	Expect(err).NotTo(HaveOccurred())
	f.now = 3
	return f
}

// auditAt audits f as the ladder would at its tick, the keyframe fed when
// the tick is one, and returns the report.
func auditAt(a *audit.Auditor, f *fake, t int64) audit.Report {
	GinkgoHelper()
	f.now = t
	if t%f.defines.TicksPerDay == 0 {
		a.Emit(trace.Record{Tick: t, Body: &trace.Keyframe{}})
	}
	rep, err := a.Tick()
	Expect(err).NotTo(HaveOccurred())
	return rep
}
