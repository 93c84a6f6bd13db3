package main

import (
	"fmt"

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
		f := fixtureRun("T4a.1-mourning", "T4a.1")
		first, last := ticksOf(f, "schedule change", kindIs("schedule"))
		from, to := max(0, first-1), min(f.Ticks-1, last+7)
		out, err := invoke("diff", "-rung", "T4a.1", "-from", fmt.Sprint(from), "-to", fmt.Sprint(to))
		Expect(err).NotTo(HaveOccurred())
		want := wantDiff(f, from, to)
		Expect(want).To(ContainSubstring(": overridden, at "))
		Expect(want).To(ContainSubstring(": overridden → restored, at "))
		Expect(out).To(Equal(want))
	})
})

var _ = Describe("diff, Tier 4b", Serial, func() {
	BeforeEach(func() { socialRoot("T4b.1-avoidance.yaml") })

	weighted := func(r record) bool { return r.S("kind") == "rule" && r.S("rule") == "pairwise-encounter-weighting" }

	It("lists the pair weight rule 18 set, before → after, with the grudge, the rule and the cause", func() {
		f := fixtureRun("T4b.1-avoidance", "T4b.1")
		first, _ := ticksOf(f, "pair weighting", weighted)
		from, to := max(0, first-1), min(f.Ticks-1, first+11)
		out, err := invoke("diff", "-rung", "T4b.1", "-from", fmt.Sprint(from), "-to", fmt.Sprint(to))
		Expect(err).NotTo(HaveOccurred())
		want := wantDiff(f, from, to)
		Expect(want).To(ContainSubstring("  pair weight "))
		Expect(out).To(Equal(want))
	})

	It("shows the rule disabled as no change at all", func() {
		f := fixtureRun("T4b.1-avoidance", "T4b.1/rule-off")
		first, _ := ticksOf(f, "evaluation of pair weighting (declined, disabled)", weighted)
		from, to := max(0, first-1), min(f.Ticks-1, first+11)
		out, err := invoke("diff", "-rung", "T4b.1/rule-off", "-from", fmt.Sprint(from), "-to", fmt.Sprint(to))
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(wantDiff(f, from, to)))
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
		f := fixtureRun("T5.3-no-orphans", "T5.3")
		first, last := ticksOf(f, "role change", kindIs("role"))
		from, to := max(0, first-1), min(f.Ticks-1, last+1)
		out, err := invoke("diff", "-rung", "T5.3", "-from", fmt.Sprint(from), "-to", fmt.Sprint(to))
		Expect(err).NotTo(HaveOccurred())
		want := wantDiff(f, from, to)
		for _, kind := range []string{"  role ", "  schedule ", "  event "} {
			Expect(want).To(ContainSubstring(kind))
		}
		Expect(out).To(Equal(want))
	})
})
