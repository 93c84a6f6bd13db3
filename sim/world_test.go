package sim_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/trace"
)

var _ = Describe("New", func() {
	DescribeTable("refuses a config it cannot run, naming the problem",
		func(edit func(*sim.Config), want string) {
			cfg := base()
			edit(&cfg)
			w, err := sim.New(cfg)
			Expect(err).To(MatchError(want))
			Expect(w).To(BeNil())
		},
		Entry("nil rule set", func(c *sim.Config) { c.Rules = nil }, "new world: no rule set"),
		Entry("nil sink", func(c *sim.Config) { c.Sink = nil },
			"new world: no trace sink (the trace is always on)"),
		Entry("invalid defines", func(c *sim.Config) { c.Defines.EncounterProbability = 1.5 },
			"invalid defines: encounter_probability = 1.5 must be within [0, 1]"),
		Entry("duplicate location", func(c *sim.Config) {
			c.Locations = append(c.Locations, sim.Location{ID: "market", Hold: "elsewhere"})
		}, `new world: duplicate location "market"`),
		Entry("duplicate NPC", func(c *sim.Config) {
			c.Cast = []sim.NPC{stays("a", "market"), stays("b", "home"), stays("a", "home")}
		}, `new world: duplicate NPC "a"`),
		Entry("the player as an NPC", func(c *sim.Config) {
			c.Cast = []sim.NPC{stays("a", "market"), stays(sim.Player, "market")}
		}, `new world: "player" is reserved for the player`),
		Entry("unknown home", func(c *sim.Config) {
			c.Cast = []sim.NPC{stays("a", "castle")}
		}, `new world: NPC a: unknown home location "castle"`),
		Entry("unknown block location", func(c *sim.Config) {
			c.Cast = []sim.NPC{stays("a", "market"), {ID: "b", Schedule: schedule.Schedule{Home: "home", Blocks: []schedule.Block{
				{At: "market", From: 0, To: 2, Until: schedule.Forever},
				{At: "castle", From: 2, To: 4, Until: schedule.Forever},
			}}}}
		}, `new world: NPC b: block 1: unknown location "castle"`),
		Entry("invalid block", func(c *sim.Config) {
			c.Cast = []sim.NPC{{ID: "a", Schedule: schedule.Schedule{Blocks: []schedule.Block{{At: "market", From: 0, To: 2}}}}}
		}, "new world: NPC a: block 0: block applies from 0 until 0: never"),
		Entry("relationship from an unknown NPC", func(c *sim.Config) {
			c.Cast = []sim.NPC{stays("a", "market")}
			c.Relationships = []sim.Relationship{{From: "ghost", To: "a", Trust: 0.5}}
		}, "new world: relationship ghost→a names an unknown NPC"),
		Entry("relationship to an unknown NPC", func(c *sim.Config) {
			c.Cast = []sim.NPC{stays("a", "market")}
			c.Relationships = []sim.Relationship{{From: "a", To: "ghost", Trust: 0.5}}
		}, "new world: relationship a→ghost names an unknown NPC"),
		Entry("trust above 1", func(c *sim.Config) {
			c.Cast = []sim.NPC{stays("a", "market"), stays("b", "market")}
			c.Relationships = []sim.Relationship{{From: "a", To: "b", Trust: 1.5}}
		}, "new world: relationship a→b: trust 1.5 outside [0, 1]"),
		Entry("negative trust", func(c *sim.Config) {
			c.Cast = []sim.NPC{stays("a", "market"), stays("b", "market")}
			c.Relationships = []sim.Relationship{{From: "b", To: "a", Trust: -0.25}}
		}, "new world: relationship b→a: trust -0.25 outside [0, 1]"),
		Entry("NaN trust", func(c *sim.Config) {
			c.Cast = []sim.NPC{stays("a", "market"), stays("b", "market")}
			c.Relationships = []sim.Relationship{{From: "a", To: "b", Trust: math.NaN()}}
		}, "new world: relationship a→b: trust NaN outside [0, 1]"),
		Entry("pin value outside [0, 1)", func(c *sim.Config) {
			c.Pins = []keyed.Pin{encounterPin(3, "market", 1, "a", "b")}
		}, "new world: keyed: pin 0 encounter@3/market/[a,b]: pin value outside [0,1): 1"),
	)

	It("accepts trust at both ends of [0, 1]", func() {
		cfg := base()
		cfg.Cast = []sim.NPC{stays("a", "market"), stays("b", "market")}
		cfg.Relationships = []sim.Relationship{{From: "a", To: "b", Trust: 0}, {From: "b", To: "a", Trust: 1}}
		_, err := sim.New(cfg)
		Expect(err).NotTo(HaveOccurred())
	})

	DescribeTable("refuses injections out of order with an InjectionError naming the injection",
		func(ins []sim.Injection, index int, tick int64, want string) {
			cfg := base()
			cfg.Cast = []sim.NPC{stays("merchant", "home"), stays("w", "market")}
			cfg.Injections = ins
			_, err := sim.New(cfg)
			var ie *sim.InjectionError
			Expect(errors.As(err, &ie)).To(BeTrue(), "got %v", err)
			Expect(ie.Index).To(Equal(index))
			Expect(ie.Tick).To(Equal(tick))
			Expect(err).To(MatchError(want))
		},
		Entry("a negative tick", []sim.Injection{theft(-1, "t", "w")}, 0, int64(-1),
			"injection 0 at tick -1: tick must not be negative"),
		Entry("a negative tick after valid ones", []sim.Injection{theft(0, "t0", "w"), theft(-3, "t1", "w")}, 1, int64(-3),
			"injection 1 at tick -3: tick must not be negative"),
		Entry("a tick earlier than the one before", []sim.Injection{theft(0, "t0", "w"), theft(5, "t5", "w"), theft(4, "t4", "w")}, 2, int64(4),
			"injection 2 at tick 4: injections must be in tick order"),
	)

	It("accepts several injections at the same tick, in the order given", func() {
		cfg := base()
		cfg.Cast = []sim.NPC{stays("merchant", "home"), nowhere("w")}
		cfg.Injections = []sim.Injection{theft(0, "second", "w"), theft(0, "first", "w")}
		r := build(cfg)
		r.through(0)
		var ids []string
		for _, rec := range r.Log().Records() {
			ids = append(ids, rec.Event.ID)
		}
		Expect(ids).To(Equal([]string{"second", "first"}))
	})

	It("starts before tick 0 with nothing derived", func() {
		cfg := base()
		cfg.Cast = []sim.NPC{stays("b", "market"), stays("a", "market")}
		r := build(cfg)
		Expect(r.Now()).To(Equal(int64(-1)))
		Expect(r.buf.Records).To(BeEmpty())
		Expect(r.NPCs()).To(Equal([]string{"a", "b"}), "cast ids are sorted")
		Expect(r.At("a")).To(Equal(""), "nobody is anywhere before the first tick")
		Expect(r.Alive("a")).To(BeTrue())
		Expect(r.Alive("nobody")).To(BeFalse())
		Expect(r.Home("b")).To(Equal("market"))
		Expect(r.Home("nobody")).To(Equal(""))
		Expect(r.Hold("tavern")).To(Equal("riverwood"))
	})
})

// brittle is a sink that panics on the first record of tick at, as a
// bug in the engine would.
type brittle struct {
	trace.Buffer
	at int64
}

func (b *brittle) Emit(r trace.Record) {
	if r.Tick == b.at {
		var none []int
		_ = none[r.Tick] // index out of range
	}
	b.Buffer.Emit(r)
}

var _ = Describe("Step", func() {
	It("returns a panic inside a step as a PanicError naming the tick and the frame, and refuses every later step with it", func() {
		cfg := base()
		cfg.Cast = []sim.NPC{stays("merchant", "home"), stays("w", "market")}
		cfg.Injections = []sim.Injection{theft(2, "theft@2", "w")}
		cfg.Sink = &brittle{at: 2}
		w, err := sim.New(cfg)
		Expect(err).NotTo(HaveOccurred())
		r := run{World: w}
		r.through(1)
		err = r.Step()
		var p *sim.PanicError
		Expect(errors.As(err, &p)).To(BeTrue(), "%v", err)
		Expect(p.Tick).To(Equal(int64(2)))
		Expect(fmt.Sprint(p.Value)).To(ContainSubstring("index out of range [2]"))
		Expect(p.Where).NotTo(BeEmpty())
		Expect(p.Where[0]).To(MatchRegexp(`^sim/world_test\.go:\d+ sim_test\.\(\*brittle\)\.Emit$`), "the innermost frame is the panic's")
		Expect(p.Where[1:]).To(ContainElement(MatchRegexp(`^sim/[a-z]+\.go:\d+ sim\.`)), "the engine's frames follow")
		Expect(err).To(MatchError(HavePrefix("tick 2: the engine panicked: runtime error: index out of range [2] with length 0 (at sim/world_test.go:")))
		Expect(r.Step()).To(BeIdenticalTo(err))
		Expect(r.Now()).To(Equal(int64(2)), "the broken world does not advance")
	})

	It("advances one tick per call and places NPCs by their schedules", func() {
		cfg := base()
		cfg.Cast = []sim.NPC{visits("a", "tavern", 1, 2), stays("b", "home"), nowhere("c")}
		r := build(cfg)
		r.through(0)
		Expect(r.Now()).To(Equal(int64(0)))
		Expect([]string{r.At("a"), r.At("b"), r.At("c")}).To(Equal([]string{"", "home", ""}))
		r.through(1)
		Expect([]string{r.At("a"), r.At("b"), r.At("c")}).To(Equal([]string{"tavern", "home", ""}))
	})

	It("applies a tick's injections before its encounters, and none before their tick", func() {
		cfg := base()
		cfg.Defines.EncounterProbability = 1
		cfg.Cast = []sim.NPC{stays("merchant", "home"), stays("w", "market"), stays("l", "market")}
		cfg.Injections = []sim.Injection{theft(3, "theft@3", "w")}
		r := build(cfg)
		r.through(2)
		Expect(r.Log().Len()).To(Equal(0))
		Expect(r.Store().ClaimIDs()).To(BeEmpty())

		r.through(3)
		recs := r.records(3)
		ev, enc := firstIndex(recs, trace.KindEvent), firstIndex(recs, trace.KindEncounter)
		Expect(ev).To(BeNumerically(">=", 0))
		Expect(enc).To(BeNumerically(">", ev), "the injected event comes before the encounter phase: %v", kinds(recs))
		// The witness saw it in the injection phase, so it can already tell
		// it in the same tick's encounter.
		Expect(r.belief("l", "theft@3").FormedAt).To(Equal(int64(3)))
		Expect(r.belief("l", "theft@3").SourceChain()).To(Equal([]string{"w"}))
	})

	It("writes a keyframe, as the last record of its tick, exactly at the ticks that start a game day", func() {
		cfg := base()
		cfg.Defines.TicksPerDay = 5
		cfg.Cast = []sim.NPC{stays("merchant", "home"), visits("w", "market", 0, 7)}
		cfg.Injections = []sim.Injection{theft(2, "theft@2", "w"), killing(6, "killing@6", "merchant")}
		r := build(cfg)
		r.through(11)
		var ticks []int64
		for _, rec := range r.buf.Records {
			if rec.Body.Kind() == trace.KindKeyframe {
				ticks = append(ticks, rec.Tick)
				recs := r.records(rec.Tick)
				Expect(recs[len(recs)-1]).To(Equal(rec), "keyframe closes tick %d", rec.Tick)
			}
		}
		Expect(ticks).To(Equal([]int64{0, 5, 10}))

		kfs := bodies[trace.Keyframe](r.records(10), nil)
		Expect(kfs).To(HaveLen(1))
		m := r.Store().Memory()
		b := r.belief("w", "theft@2")
		want := trace.Keyframe{
			NPCs: []trace.NPCState{{ID: "merchant", Alive: false, At: ""}, {ID: "w", Alive: true, At: ""}},
			Beliefs: []trace.BeliefState{{
				Holder: "w", Claim: "theft@2", Variant: "theft@2#v0", Confidence: 0.9,
				Verbatim: b.VerbatimAt(10, m), Gist: b.GistAt(10, m), Stage: "heard",
			}},
		}
		Expect(cmp.Diff(want, kfs[0])).To(BeEmpty())

		kf5 := bodies[trace.Keyframe](r.records(5), nil)
		Expect(kf5).To(HaveLen(1))
		Expect(kf5[0].NPCs).To(Equal([]trace.NPCState{{ID: "merchant", Alive: true, At: "home"}, {ID: "w", Alive: true, At: "market"}}))
	})

	It("numbers records densely from 0 and stamps each with its tick", func() {
		cfg := base()
		cfg.Defines.EncounterProbability = 1
		cfg.Cast = []sim.NPC{stays("merchant", "home"), stays("w", "market"), stays("l", "market")}
		cfg.Injections = []sim.Injection{theft(1, "theft@1", "w")}
		r := build(cfg)
		r.through(30)
		last := int64(-1)
		for i, rec := range r.buf.Records {
			Expect(rec.Seq).To(Equal(int64(i)))
			Expect(rec.Tick).To(BeNumerically(">=", last))
			last = rec.Tick
		}
		Expect(last).To(Equal(int64(30)))
	})
})
