package explore_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/explore"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/schedule"
)

var _ = Describe("the schedule oracle", func() {
	// The oracle reads a block its own way (counting whole periods from
	// since); the engine takes the tick's phase. Over every valid block
	// of a small grid and every tick around it the two must agree, or
	// the oracle would find faults the engine does not have.
	It("reads every block of a grid as the engine does, tick by tick", func() {
		checked := 0
		for every := int64(0); every <= 6; every++ {
			for from := int64(0); from <= 6; from++ {
				for to := from + 1; to <= 7; to++ {
					for since := int64(0); since <= 9; since += 3 {
						for _, until := range []int64{since + 1, since + 11, schedule.Forever} {
							b := schedule.Block{At: "x", From: from, To: to, Every: every, Since: since, Until: until}
							if b.Validate() != nil {
								continue
							}
							for t := range int64(40) {
								Expect(explore.Occupies(b, t)).To(Equal(b.Covers(t)), "%+v at tick %d", b, t)
								checked++
							}
						}
					}
				}
			}
		}
		Expect(checked).To(BeNumerically(">", 10000))
	})

	It("names the first tick an NPC is not where its schedule puts it", func() {
		f := &fixture.Fixture{Cast: []sim.NPC{{ID: "ann", Schedule: schedule.Schedule{Home: "home",
			Blocks: []schedule.Block{{At: "market", From: 2, To: 4, Every: 6, Since: 1, Until: schedule.Forever}}}}}}
		// Since 1: the market covers ticks 3, 4, 9, 10, … (not 2, 3, 8, 9).
		good := "tick,ann/alive,ann/at\n0,True,home\n1,True,home\n2,True,home\n3,True,market\n4,True,market\n5,True,home\n"
		Expect(explore.Placement(f, []byte(good))).To(BeNil())
		fromZero := "tick,ann/alive,ann/at\n0,True,home\n1,True,home\n2,True,market\n3,True,market\n4,True,home\n5,True,home\n"
		x := explore.Placement(f, []byte(fromZero))
		Expect(x).NotTo(BeNil())
		Expect(x.Property).To(Equal(explore.PropPlacement))
		Expect(x.Tick).To(Equal(int64(2)))
		Expect(x.Message).To(ContainSubstring(`ann is at "market" at tick 2 with no override in force; its schedule puts it at "home"`))
		// An override in force, or the dead, are the rules' to place.
		overridden := "tick,ann/alive,ann/at,schedule/ann/override\n0,True,home,\n1,True,home,\n2,True,temple,rewrite@1\n"
		Expect(explore.Placement(f, []byte(overridden))).To(BeNil())
		// A quoted cell is read as CSV: its comma splits nothing.
		quoted := "tick,ann/alive,x/note,ann/at\n0,True,\"a,b\",home\n1,True,,home\n2,True,\"c,d\",market\n"
		x = explore.Placement(f, []byte(quoted))
		Expect(x).NotTo(BeNil())
		Expect(x.Message).To(ContainSubstring(`ann is at "market" at tick 2`))
	})
})

var _ = Describe("the mutation vocabulary oracle", func() {
	It("gives an item slot the fixture's items and every item an injection names, once each", func() {
		f := &fixture.Fixture{Items: []string{"ring", "bread"},
			Injections: []sim.Injection{{Kind: sim.Theft, Item: "sword"}, {Kind: sim.Theft, Item: "ring"}, {Kind: sim.Brawl}}}
		Expect(explore.VocabularyOf(f, claims.ItemSlot)).To(Equal([]string{"bread", "ring", "sword"}))
	})

	It("gives an entity slot the cast and the player, and a place slot the locations", func() {
		f := &fixture.Fixture{Cast: []sim.NPC{{ID: "bo"}, {ID: "ann"}}, Locations: []sim.Location{{ID: "well"}, {ID: "hall"}}}
		Expect(explore.VocabularyOf(f, claims.EntitySlot)).To(Equal([]string{"ann", "bo", sim.Player}))
		Expect(explore.VocabularyOf(f, claims.LocationSlot)).To(Equal([]string{"hall", "well"}))
	})
})
