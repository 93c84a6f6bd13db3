package sim_test

import (
	"math"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/trace"
)

// The worlds in these specs are built directly from sim.Config: no YAML, no
// loader, so every spec states exactly the world it needs.

const seed = "unit-sim"

var branch = events.Branch{SaveUUID: "00000000-0000-8000-8000-000000000001", Generation: 0}

// base returns a config with three locations, no cast, default defines
// (mutation switched off so tellings stay faithful unless a spec is about
// mutation), every rule on and a fresh trace buffer.
func base() sim.Config {
	d := rules.Default()
	d.MutationMax = 0
	return sim.Config{
		SeedID:  seed,
		Branch:  branch,
		Defines: d,
		Rules:   ruleSet(),
		Locations: []sim.Location{
			{ID: "market", Hold: "whiterun"},
			{ID: "home", Hold: "whiterun"},
			{ID: "tavern", Hold: "riverwood"},
		},
		Sink: &trace.Buffer{Header: trace.Header{SeedID: seed, Branch: branch, KeyframeEvery: d.TicksPerDay}},
	}
}

func ruleSet(disable ...string) *rules.Set {
	GinkgoHelper()
	s, err := rules.NewSet(disable)
	Expect(err).NotTo(HaveOccurred())
	return s
}

// stays is an NPC whose home is loc: there every tick.
func stays(id, loc string) sim.NPC {
	return sim.NPC{ID: id, Schedule: schedule.Schedule{Home: loc}}
}

// visits is an NPC who is at loc during [from, to) and nowhere otherwise.
func visits(id, loc string, from, to int64) sim.NPC {
	return sim.NPC{ID: id, Schedule: schedule.Schedule{Blocks: []schedule.Block{{At: loc, From: from, To: to, Until: schedule.Forever}}}}
}

// nowhere is an NPC with no home and no schedule.
func nowhere(id string) sim.NPC { return sim.NPC{ID: id} }

func theft(tick int64, id string, witnesses ...string) sim.Injection {
	in := sim.Injection{Tick: tick, Kind: sim.Theft, ID: id, Actor: sim.Player, Victim: "merchant", Item: "sweetroll", At: "market"}
	for _, w := range witnesses {
		in.Witnesses = append(in.Witnesses, sim.Witness{NPC: w})
	}
	return in
}

func killing(tick int64, id, victim string, witnesses ...string) sim.Injection {
	in := sim.Injection{Tick: tick, Kind: sim.Killing, ID: id, Actor: sim.Player, Victim: victim, At: "market"}
	for _, w := range witnesses {
		in.Witnesses = append(in.Witnesses, sim.Witness{NPC: w})
	}
	return in
}

func report(tick int64, from, to, claim string) sim.Injection {
	return sim.Injection{Tick: tick, Kind: sim.Report, From: from, To: to, Claim: claim}
}

// encounterPin forces the encounter roll of a pair at a site and tick.
func encounterPin(tick int64, site string, value float64, a, b string) keyed.Pin {
	return keyed.Pin{Purpose: sim.PurposeEncounter, Tick: tick, Site: site, Participants: keyed.Canonical(a, b), Value: value}
}

// run is a world under test and its trace.
type run struct {
	*sim.World
	buf *trace.Buffer
}

func build(cfg sim.Config) run {
	GinkgoHelper()
	w, err := sim.New(cfg)
	Expect(err).NotTo(HaveOccurred())
	return run{World: w, buf: cfg.Sink.(*trace.Buffer)}
}

// through steps the world until it has run tick t.
func (r run) through(t int64) {
	GinkgoHelper()
	for r.Now() < t {
		Expect(r.Step()).To(Succeed(), "tick %d", r.Now()+1)
	}
}

func (r run) belief(holder, claim string) *claims.Belief {
	GinkgoHelper()
	b, ok := r.Store().Belief(holder, claim)
	Expect(ok).To(BeTrue(), "%s should hold a belief in %s", holder, claim)
	return b
}

func (r run) holds(holder, claim string) bool {
	_, ok := r.Store().Belief(holder, claim)
	return ok
}

// records returns the trace records of tick t (every tick when t < 0).
func (r run) records(t int64) []trace.Record {
	var out []trace.Record
	for _, rec := range r.buf.Records {
		if t < 0 || rec.Tick == t {
			out = append(out, rec)
		}
	}
	return out
}

// bodies returns the bodies of kind T among records, in order, that keep
// accepts (all when keep is nil). The buffer keeps every body as a pointer
// to its own copy (trace.Body's Clone).
func bodies[T any](recs []trace.Record, keep func(T) bool) []T {
	var out []T
	for _, r := range recs {
		if b, ok := any(r.Body).(*T); ok && (keep == nil || keep(*b)) {
			out = append(out, *b)
		}
	}
	return out
}

func ruleEvals(recs []trace.Record, rule string) []trace.RuleEval {
	return bodies(recs, func(e trace.RuleEval) bool { return e.Rule == rule })
}

func transmissions(recs []trace.Record) []trace.Transmission {
	return bodies[trace.Transmission](recs, nil)
}

func encounters(recs []trace.Record) []trace.Encounter {
	return bodies[trace.Encounter](recs, nil)
}

// kinds returns the record kinds in order.
func kinds(recs []trace.Record) []trace.Kind {
	out := make([]trace.Kind, len(recs))
	for i, r := range recs {
		out[i] = r.Body.Kind()
	}
	return out
}

// firstIndex returns the position of the first record of kind k (-1 if none).
func firstIndex(recs []trace.Record, k trace.Kind) int {
	return slices.IndexFunc(recs, func(r trace.Record) bool { return r.Body.Kind() == k })
}

// bits compares floats bit for bit.
func bits(f float64) uint64 { return math.Float64bits(f) }

func value(vs []trace.Value, name string) (float64, bool) {
	for _, v := range vs {
		if v.Name == name {
			return v.Value, true
		}
	}
	return 0, false
}
