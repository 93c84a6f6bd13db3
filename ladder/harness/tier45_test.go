package harness_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/fixture"
)

// rolesWorld is a small synthetic rung of Tiers 4 and 5 whose run is
// known tick by tick; every define it reads is pinned:
//
//	tick 0: prov is at the hall on the steward's duty [0, 6); olf is there
//	        too, for his audience with role:steward [0, 6)
//	tick 1: the steward's office does the player a favour (owed to
//	        role:steward)
//	tick 2: the player kills prov before son (his kin) and balg: the
//	        steward falls vacant, its duty is lifted, olf's audience is
//	        suspended (he goes home at once); son mourns at the shrine
//	        from tick 3 to 4 (rewrite@2:son:killing@2)
//	tick 4: balg, the jarl, appoints iri (the only candidate); the duty
//	        is hers, olf's audience resumes
//	tick 5: son's mourning is over (restore@5:son:killing@2)
//
// Nobody meets anybody: the encounter probability is 0.
const rolesWorld = `rung: T5.9
title: Unit — expectation messages of Tiers 4 and 5
tier: 5
seed_id: unit-T5.9
ticks: 6
defines: {encounter_probability: 0.0, mourning_ticks: 2, succession_delay_ticks: 2, succession_kin_bonus: 0.25, default_trust: 0.5, witness_confidence: 0.9}
locations:
  hall: {hold: whiterun}
  home: {hold: whiterun}
  shrine: {hold: whiterun, tags: [temple]}
roles:
  steward: {faction: court, holder: prov, appointer: jarl, duties: [{at: hall, from: 0, to: 6}]}
  jarl: {faction: court, holder: balg, duties: [{at: hall, from: 0, to: 6}]}
cast:
  prov: {faction: court, home: home}
  balg: {faction: court, home: hall}
  iri: {faction: court, home: home}
  son: {home: home}
  olf: {home: home, schedule: [{at: hall, from: 0, to: 6, meets: "role:steward"}]}
kin:
  - [prov, son]
events:
  - {tick: 1, kind: favour, actor: "role:steward", recipient: player, at: hall}
  - {tick: 2, kind: killing, actor: player, victim: prov, at: hall, witnesses: [son, balg]}
expect:
`

const rolesFile = "fixtures/T5.9-unit.yaml"

var rolesLine = strings.Count(rolesWorld, "\n") + 1

func rolesRun(expectation string) *ladder.Result {
	GinkgoHelper()
	fs, err := fixture.Parse(rolesFile, []byte(rolesWorld+"  - "+expectation+"\n"))
	Expect(err).NotTo(HaveOccurred())
	res, err := ladder.Run(fs[0], ladder.Options{Dir: GinkgoT().TempDir()})
	Expect(err).NotTo(HaveOccurred())
	return res
}

func rolesAt(expectation, marker string) string {
	GinkgoHelper()
	col := strings.Index(expectation, marker)
	Expect(col).To(BeNumerically(">=", 0), "marker %q not in %q", marker, expectation)
	return fmt.Sprintf("expect[0] (%s:%d:%d)", rolesFile, rolesLine, 5+col)
}

var _ = Describe("Expectation failure messages of Tiers 4 and 5", Label("unit"), func() {
	It("passes on the world as it is, so each failure below is the field's alone", func() {
		for _, e := range []string{
			"{at: 2, schedule: {npc: son, at: home, base: home, override: none}}",
			"{at: 3, schedule: {npc: son, at: shrine, base: home, override: \"rewrite@2:son:killing@2\"}}",
			"{at: 5, schedule: {npc: son, at: home, override: none}}",
			"{at: 2, schedule: {npc: olf, at: home, base: hall, override: none}}",
			"{at: 4, schedule: {npc: iri, at: hall, base: home, override: \"duties:steward:0\"}}",
			"{to: 1, role: {id: steward, holder: prov, since: 0, lapses: 0}}",
			"{from: 2, to: 3, role: {id: steward, vacant: true, since: 2}}",
			"{from: 4, role: {id: steward, holder: iri, since: 4}}",
			"{no_orphans: {role: steward, old_holder: prov}}",
		} {
			Expect(rolesRun(e).Failures).To(BeEmpty(), e)
		}
	})

	DescribeTable("name the expectation, the position of the field that failed, the first failing tick, got and want",
		func(expectation, marker, want string) {
			Expect(rolesRun(expectation).Failures).To(Equal([]string{rolesAt(expectation, marker) + want}))
		},
		// schedule
		Entry("where an NPC is",
			"{at: 3, schedule: {npc: son, at: home}}", "home}",
			` at tick 3: son is at "shrine" (override rewrite@2:son:killing@2), its base at "home", want at "home"`),
		Entry("where its base puts it",
			"{at: 3, schedule: {npc: son, base: shrine}}", "shrine}",
			` at tick 3: son is at "shrine" (override rewrite@2:son:killing@2), its base at "home", want base "shrine"`),
		Entry("the override in force, when the base decides",
			"{at: 5, schedule: {npc: son, override: \"rewrite@2:son:killing@2\"}}", `"rewrite`,
			` at tick 5: son is at "home" (override none), its base at "home", want override rewrite@2:son:killing@2`),
		Entry("no override, when one is in force",
			"{from: 2, schedule: {npc: son, override: none}}", "none}",
			` at tick 3: son is at "shrine" (override rewrite@2:son:killing@2), its base at "home", want override none (and 1 more ticks)`),
		Entry("a block suspended with its role: effective and base differ without an override",
			"{at: 3, schedule: {npc: olf, at: hall}}", "hall}",
			` at tick 3: olf is at "home" (override none), its base at "hall", want at "hall"`),
		// role
		Entry("a role's holder",
			"{at: 1, role: {id: steward, holder: iri}}", "iri}",
			" at tick 1: role steward is held by prov since tick 0, want iri"),
		Entry("a vacancy that is not one",
			"{at: 4, role: {id: steward, vacant: true}}", "true}",
			" at tick 4: role steward is held by iri since tick 4, want vacant"),
		Entry("since when",
			"{at: 3, role: {id: steward, since: 1}}", "1}",
			" at tick 3: role steward is held by nobody (vacant) since tick 2, want since tick 1"),
		Entry("duty lapses",
			"{at: 3, role: {id: steward, lapses: 1}}", "1}",
			" at tick 3: role steward has had 0 duty lapses, want 1"),
		// no_orphans, judged over the whole run
		Entry("a role that never changed hands",
			"{no_orphans: {role: jarl, old_holder: balg}}", "balg}",
			": balg held jarl to the end: the role never changed hands, so the invariant was not put to the test"),
		Entry("an old holder who never held the role",
			"{no_orphans: {role: steward, old_holder: olf}}", "olf}",
			": olf never held steward: the invariant was not put to the test"),
	)

	It("counts what each check examined", func() {
		for _, c := range []struct {
			item     string
			examined int64
		}{
			{"{from: 0, to: 5, role: {id: steward, lapses: 0}}", 6},
			// ticks 0: the block and the duty; ticks 1–5 the obligation too;
			// from tick 2, the one open obligation as well.
			{"{no_orphans: {role: steward, old_holder: prov}}", 2 + 5*3 + 4},
		} {
			Expect(rolesRun(c.item).Expectations[0].Examined).To(Equal(c.examined), c.item)
		}
	})
})
