package main

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("schedule", Serial, func() {
	BeforeEach(func() { socialRoot("T4a.1-mourning.yaml") })

	DescribeTable("refuses missing or wrong arguments",
		func(want string, args ...string) {
			out, err := invoke(append([]string{"schedule"}, args...)...)
			Expect(err).To(MatchError(want))
			Expect(out).To(BeEmpty())
		},
		Entry("no rung", "schedule: -rung and -npc are required", "-npc", "frida"),
		Entry("no NPC", "schedule: -rung and -npc are required", "-rung", "T4a.1"),
		Entry("an NPC not in the cast", "schedule: T4a.1 has no NPC \"freya\" (cast: danica, frida, hroki, ulf)", "-rung", "T4a.1", "-npc", "freya"),
		Entry("an unknown rung", `no fixture for rung "T4a.9"`, "-rung", "T4a.9", "-npc", "frida"),
	)

	It("shows the base and the effective schedule side by side, and the events that rewrote it", func() {
		out, err := invoke("schedule", "-rung", "T4a.1", "-npc", "frida")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(`T4a.1 frida: base and effective schedule, ticks 0–95
ticks       base                    effective               override
0–7         frida_house             frida_house
8–10        market                  market
11–17       market                  temple_of_kynareth      rewrite@10:frida:killing@10
18–31       frida_house             temple_of_kynareth      rewrite@10:frida:killing@10
32–41       market                  temple_of_kynareth      rewrite@10:frida:killing@10
42–55       frida_house             temple_of_kynareth      rewrite@10:frida:killing@10
56–65       market                  temple_of_kynareth      rewrite@10:frida:killing@10
66–79       frida_house             temple_of_kynareth      rewrite@10:frida:killing@10
80–82       market                  temple_of_kynareth      rewrite@10:frida:killing@10
83–89       market                  market
90–95       frida_house             frida_house
changes:
tick 10  overridden rewrite@10:frida:killing@10: temple_of_kynareth, ticks 11–82  (rule schedule-write-back, cause killing@10)
tick 83  restored rewrite@10:frida:killing@10: temple_of_kynareth, from tick 83  (rule schedule-write-back, cause rewrite@10:frida:killing@10)
2 schedule changes by schedule-write-back or role-succession
`))
	})

	It("shows a schedule no rule touched as its base, with no changes", func() {
		out, err := invoke("schedule", "-rung", "T4a.1/no-temple", "-npc", "frida")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(ContainSubstring("8–17        market                  market\n"))
		Expect(out).To(HaveSuffix("0 schedule changes by schedule-write-back or role-succession\n"))
		Expect(out).NotTo(ContainSubstring("changes:"))
	})

	It("lists the rewrite and the restore among the social-state changes of diff", func() {
		out, err := invoke("diff", "-rung", "T4a.1", "-from", "9", "-to", "90")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(ContainSubstring("tick 10  schedule frida rewrite@10:frida:killing@10: overridden, at temple_of_kynareth ticks 11–82  (rule schedule-write-back, cause killing@10)\n"))
		Expect(out).To(ContainSubstring("tick 83  schedule frida rewrite@10:frida:killing@10: overridden → restored, at temple_of_kynareth from tick 83  (rule schedule-write-back, cause rewrite@10:frida:killing@10)\n"))
		Expect(out).To(ContainSubstring("tick 83  event restore@83:frida:killing@10 (restore) appended  (rule schedule-write-back, cause rewrite@10:frida:killing@10)\n"))
	})
})

var _ = Describe("diff, Tier 4b", Serial, func() {
	BeforeEach(func() { socialRoot("T4b.1-avoidance.yaml") })

	It("lists the pair weight rule 18 set, before → after, with the grudge, the rule and the cause", func() {
		out, err := invoke("diff", "-rung", "T4b.1", "-from", "18", "-to", "30")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(`T4b.1: social-state changes after tick 18, up to tick 30
tick 19  event grudge@19:torvar:ulf:brawl@19 (grudge) appended  (rule grudge-creation, cause brawl@19)
tick 19  grudge torvar->ulf formed: emotional 0.6, evidentiary 0.45  (rule grudge-creation, cause brawl@19)
tick 19  pair weight torvar~ulf: 1.0 → 0.0 (grudge torvar->ulf at 1.05)  (rule pairwise-encounter-weighting, cause brawl@19)
ticks 19–30  grudge torvar->ulf decayed: emotional 0.6, evidentiary 0.45 → emotional 0.5984136385339116, evidentiary 0.44821652350036845  (rule grudge-decay, cause brawl@19)
4 changes
`))
	})

	It("shows the rule disabled as no change at all", func() {
		out, err := invoke("diff", "-rung", "T4b.1/rule-off", "-from", "18", "-to", "30")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).NotTo(ContainSubstring("pair weight"))
	})
})

var _ = Describe("role", Serial, func() {
	BeforeEach(func() { socialRoot("T5.3-no-orphans.yaml", "T4a.1-mourning.yaml") })

	DescribeTable("refuses missing or wrong arguments",
		func(want string, args ...string) {
			out, err := invoke(append([]string{"role"}, args...)...)
			Expect(err).To(MatchError(want))
			Expect(out).To(BeEmpty())
		},
		Entry("no rung", "role: -rung is required", "-at", "3"),
		Entry("a tick past the run", "role: tick 48 is outside T5.3's run [0, 48)", "-rung", "T5.3", "-at", "48"),
		Entry("a rung without roles", "role: T4a.1 declares no roles", "-rung", "T4a.1"),
		Entry("an unknown role", `role: T5.3 has no role "mage" (roles: jarl, steward)`, "-rung", "T5.3", "-role", "mage"),
	)

	It("shows every role as of a tick: holder or vacancy, duties, every reference and what it resolves to, the role events so far", func() {
		out, err := invoke("role", "-rung", "T5.3", "-at", "20", "-role", "steward")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(`T5.3: roles as of tick 20
role:steward (faction court, appointed by role:jarl): vacant since tick 9, last held by proventus; 0 duty lapses
  duty duties:steward:0: hall, 8–11 every 24 ticks
  reference duties:steward:0 names role:steward, resolves to nobody
  reference obligation:favour@2 creditor names role:steward, resolves to nobody
  reference olfrid's block 0 names role:steward, resolves to nobody
events:
tick 9  event vacancy@9:steward (vacancy)  (rule role-succession, cause death@killing@9)
tick 9  role steward vacant (last held by proventus)  (rule role-succession, cause death@killing@9)
2 role events up to tick 20
`))
		out, err = invoke("role", "-rung", "T5.3", "-at", "35")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(ContainSubstring("role:steward (faction court, appointed by role:jarl): held by irileth since tick 33; 1 duty lapse\n"))
		Expect(out).To(ContainSubstring("  reference olfrid's block 0 names role:steward, resolves to irileth\n"))
		Expect(out).To(ContainSubstring("role:jarl (faction court, appointed by nobody): held by balgruuf since tick 0; 0 duty lapses\n"))
		Expect(out).To(ContainSubstring("tick 33  role steward appointed irileth  (rule role-succession, cause vacancy@9:steward)\n"))
		Expect(out).To(HaveSuffix("5 role events up to tick 35\n"))
	})

	It("lists role and schedule changes among the changes of diff, each with its rule and cause", func() {
		out, err := invoke("diff", "-rung", "T5.3", "-from", "8", "-to", "34")
		Expect(err).NotTo(HaveOccurred())
		for _, line := range []string{
			"tick 9  role steward: held by proventus → vacant  (rule role-succession, cause death@killing@9)\n",
			"tick 9  schedule proventus duties:steward:0: duties lifted, at hall from tick 9  (rule role-succession, cause vacancy@9:steward)\n",
			"tick 9  schedule olfrid block:0: suspended, at hall from tick 9  (rule role-succession, cause vacancy@9:steward)\n",
			"tick 33  role steward: vacant → held by irileth  (rule role-succession, cause vacancy@9:steward)\n",
			"tick 33  schedule olfrid block:0: suspended → resumed, at hall from tick 33  (rule role-succession, cause appointment@33:steward)\n",
			"tick 33  event appointment@33:steward (appointment) appended  (rule role-succession, cause vacancy@9:steward)\n",
		} {
			Expect(out).To(ContainSubstring(line))
		}
	})
})
