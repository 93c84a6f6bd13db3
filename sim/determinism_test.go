package sim_test

import (
	"bytes"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/trace"
)

// busy is a world with something of everything: daily schedules over three
// locations, factions, relationships, a theft with a dissenting witness, a
// report, a killing, memory mutation at full strength and fast decay.
func busy() sim.Config {
	cfg := base()
	cfg.Defines.EncounterProbability = 0.5
	cfg.Defines.MutationMax = 1
	cfg.Defines.VerbatimHalfLifeTicks = 6
	cfg.Defines.GistHalfLifeTicks = 40
	cfg.Items = []string{"apple", "bread"}
	daily := func(id, faction string, blocks ...schedule.Block) sim.NPC {
		return sim.NPC{ID: id, Faction: faction, Schedule: schedule.Schedule{Home: "home", Blocks: blocks}}
	}
	at := func(loc string, from, to int64) schedule.Block {
		return schedule.Block{At: loc, From: from, To: to, Every: 24, Until: schedule.Forever}
	}
	cfg.Cast = []sim.NPC{
		daily("merchant", "", at("market", 8, 18)),
		daily("guard", "imperial", at("market", 6, 14), at("tavern", 18, 23)),
		daily("ralof", "stormcloak", at("tavern", 16, 24), at("market", 10, 12)),
		daily("smith", "", at("market", 9, 17)),
		daily("bard", "", at("tavern", 12, 24)),
		daily("farmer", "imperial", at("market", 7, 10), at("tavern", 19, 22)),
		daily("thief", "stormcloak", at("tavern", 0, 6)),
	}
	cfg.Relationships = []sim.Relationship{{From: "smith", To: "merchant", Trust: 0.9}, {From: "bard", To: "ralof", Trust: 0.2}}
	steal := sim.Injection{Tick: 9, Kind: sim.Theft, ID: "theft@9", Actor: "thief", Victim: "merchant", Item: "sweetroll", At: "market",
		Witnesses: []sim.Witness{{NPC: "merchant"}, {NPC: "smith", Says: []sim.Recollection{{Slot: "item", Value: "apple"}}}}}
	cfg.Injections = []sim.Injection{
		steal,
		report(20, "merchant", "ralof", "theft@9"),
		killing(60, "killing@60", "farmer", "guard"),
	}
	return cfg
}

func jsonl(r run) []byte {
	GinkgoHelper()
	b, err := r.buf.AppendJSONL(nil)
	Expect(err).NotTo(HaveOccurred())
	return b
}

func rolls(r run) []trace.Roll {
	var out []trace.Roll
	for _, rec := range r.buf.Records {
		switch b := rec.Body.(type) {
		case *trace.Encounter:
			out = append(out, b.Roll)
		case *trace.RuleEval:
			if b.Roll != nil {
				out = append(out, *b.Roll)
			}
		}
	}
	return out
}

var _ = Describe("Determinism", func() {
	const ticks = 200

	It("gives two worlds built from the same config byte-identical traces", func() {
		a, b := build(busy()), build(busy())
		a.through(ticks)
		b.through(ticks)
		ja, jb := jsonl(a), jsonl(b)
		Expect(bytes.Equal(ja, jb)).To(BeTrue(), "first divergence: %v", trace.Compare(ja, jb))

		// The run must exercise what it claims to, or identity proves little.
		s := string(ja)
		for _, want := range []string{
			`"kind":"encounter"`, `"fired":true,"id":"encounter@`, `"rule":"mutation-policy"`, `"purpose":"mutation-slot"`,
			`"kind":"supersession"`, `"reason":"relationship"`, `"event":"death"`, `"rule":"rumour-stages"`,
		} {
			Expect(s).To(ContainSubstring(want))
		}
		Expect(a.Store().VariantCount()).To(BeNumerically(">", 2))
	})

	It("rolls every unpinned roll at its key's value", func() {
		r := build(busy())
		r.through(ticks)
		rs := rolls(r)
		Expect(len(rs)).To(BeNumerically(">", 100))
		for _, x := range rs {
			Expect(x.Roll.Pinned).To(BeFalse())
			Expect(x.Roll.Key.SeedID).To(Equal(seed))
			Expect(bits(x.Roll.Value)).To(Equal(bits(keyed.Value(x.Roll.Key))), "%s", x.Roll.Key)
		}
	})

	It("keeps every other roll identical when one roll is pinned", func() {
		a := build(busy())
		a.through(ticks)
		// Pin the first encounter roll that fired to a value that does not
		// fire, changing what follows from it.
		var target trace.Encounter
		for _, e := range encounters(a.records(-1)) {
			if e.Fired && e.Roll.Roll.Key.Tick > 9 {
				target = e
				break
			}
		}
		Expect(target.Site).NotTo(BeEmpty())
		cfg := busy()
		k := target.Roll.Roll.Key
		cfg.Pins = []keyed.Pin{{Purpose: k.Purpose, Tick: k.Tick, Site: k.Site, Participants: k.Participants, Value: 0.999}}
		b := build(cfg)
		b.through(ticks)
		Expect(b.UnusedPins()).To(BeEmpty())

		d, err := trace.CompareRolls(jsonl(a), jsonl(b))
		Expect(err).NotTo(HaveOccurred())
		Expect(d.Differing).To(HaveLen(1))
		Expect(d.Differing[0].Key).To(Equal(target.ID()))
		Expect(d.Shared).To(BeNumerically(">", 100))
	})

	It("keeps every roll identical when the worlds differ only at one site", func() {
		plain := busy()
		plain.Defines.MutationMax = 0 // so the extra cast cannot change what a mutation picks
		extra := busy()
		extra.Defines.MutationMax = 0
		extra.Locations = append(extra.Locations, sim.Location{ID: "shrine", Hold: "riverwood"})
		extra.Cast = append(extra.Cast, stays("monk", "shrine"), stays("pilgrim", "shrine"))

		a, b := build(plain), build(extra)
		a.through(ticks)
		b.through(ticks)
		d, err := trace.CompareRolls(jsonl(a), jsonl(b))
		Expect(err).NotTo(HaveOccurred())
		Expect(d.Differing).To(BeEmpty())
		Expect(d.OnlyA).To(BeEmpty())
		Expect(d.OnlyB).To(HaveLen(ticks + 1))
		for _, x := range d.OnlyB {
			Expect(x.Key).To(HavePrefix("encounter@"))
			Expect(x.Key).To(HaveSuffix("/shrine/[monk,pilgrim]"))
		}
		Expect(d.Shared).To(Equal(len(rolls(a))))
		// Everything away from the shrine is the same run: the same records
		// with the same content, only numbered differently.
		away := func(r run) []trace.Body {
			var out []trace.Body
			for _, rec := range r.buf.Records {
				if e, ok := rec.Body.(*trace.Encounter); ok && e.Site == "shrine" {
					continue
				}
				if _, ok := rec.Body.(*trace.Keyframe); ok {
					continue
				}
				out = append(out, rec.Body)
			}
			return out
		}
		Expect(cmp.Diff(away(a), away(b))).To(BeEmpty())
	})
})
