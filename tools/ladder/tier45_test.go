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
			out, err := invoke(append([]string{"schedule", "-rerun"}, args...)...)
			Expect(err).To(MatchError(want))
			Expect(out).To(BeEmpty())
		},
		Entry("no rung", "schedule: -rung and -npc are required", "-npc", "frida"),
		Entry("no NPC", "schedule: -rung and -npc are required", "-rung", "T4a.1"),
		Entry("an NPC not in the cast", "schedule: T4a.1 has no NPC \"freya\" (cast: danica, frida, hroki, ulf)", "-rung", "T4a.1", "-npc", "freya"),
		Entry("an unknown rung", `no fixture for rung "T4a.9"`, "-rung", "T4a.9", "-npc", "frida"),
	)

	It("shows the base and the effective schedule side by side, and the events that rewrote it", func() {
		f := fixtureRun("T4a.1-mourning", "T4a.1")
		ticksOf(f, "schedule change of frida", func(r traceRecord) bool { return r.S("kind") == "schedule" && r.S("npc") == "frida" })
		out, err := invoke("schedule", "-rerun", "-rung", "T4a.1", "-npc", "frida")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(wantSchedule(f, "frida")))
	})

	It("shows a schedule no rule touched as its base, with no changes", func() {
		f := fixtureRun("T4a.1-mourning", "T4a.1/no-temple")
		out, err := invoke("schedule", "-rerun", "-rung", "T4a.1/no-temple", "-npc", "frida")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(wantSchedule(f, "frida")))
		Expect(out).To(HaveSuffix("0 schedule changes by schedule-write-back or role-succession\n"))
		Expect(out).NotTo(ContainSubstring("changes:"))
	})

	It("lists the rewrite and the restore among the social-state changes of diff", func() {
		f := fixtureRun("T4a.1-mourning", "T4a.1")
		first, last := ticksOf(f, "schedule change", kindIs("schedule"))
		from, to := max(0, first-1), min(f.Ticks-1, last+7)
		out, err := invoke("diff", "-rerun", "-rung", "T4a.1", "-from", fmt.Sprint(from), "-to", fmt.Sprint(to))
		Expect(err).NotTo(HaveOccurred())
		want := wantDiff(f, from, to)
		Expect(want).To(ContainSubstring(": overridden, at "))
		Expect(want).To(ContainSubstring(": overridden → restored, at "))
		Expect(out).To(Equal(want))
	})
})

var _ = Describe("diff, Tier 4b", Serial, func() {
	BeforeEach(func() { socialRoot("T4b.1-avoidance.yaml") })

	weighted := func(r traceRecord) bool {
		return r.S("kind") == "rule" && r.S("rule") == "pairwise-encounter-weighting"
	}

	It("lists the pair weight rule 18 set, before → after, with the grudge, the rule and the cause", func() {
		f := fixtureRun("T4b.1-avoidance", "T4b.1")
		first, _ := ticksOf(f, "pair weighting", weighted)
		from, to := max(0, first-1), min(f.Ticks-1, first+11)
		out, err := invoke("diff", "-rerun", "-rung", "T4b.1", "-from", fmt.Sprint(from), "-to", fmt.Sprint(to))
		Expect(err).NotTo(HaveOccurred())
		want := wantDiff(f, from, to)
		Expect(want).To(ContainSubstring("  pair weight "))
		Expect(out).To(Equal(want))
	})

	It("shows the rule disabled as no change at all", func() {
		f := fixtureRun("T4b.1-avoidance", "T4b.1/rule-off")
		first, _ := ticksOf(f, "evaluation of pair weighting (declined, disabled)", weighted)
		from, to := max(0, first-1), min(f.Ticks-1, first+11)
		out, err := invoke("diff", "-rerun", "-rung", "T4b.1/rule-off", "-from", fmt.Sprint(from), "-to", fmt.Sprint(to))
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(wantDiff(f, from, to)))
		Expect(out).NotTo(ContainSubstring("pair weight"))
	})
})

var _ = Describe("role", Serial, func() {
	BeforeEach(func() { socialRoot("T5.3-no-orphans.yaml", "T4a.1-mourning.yaml") })

	ticks := fixtureRun("T5.3-no-orphans", "T5.3").Ticks
	DescribeTable("refuses missing or wrong arguments",
		func(want string, args ...string) {
			out, err := invoke(append([]string{"role", "-rerun"}, args...)...)
			Expect(err).To(MatchError(want))
			Expect(out).To(BeEmpty())
		},
		Entry("no rung", "role: -rung is required", "-at", "3"),
		Entry("a tick past the run", fmt.Sprintf("role: tick %d is outside T5.3's run [0, %[1]d)", ticks), "-rung", "T5.3", "-at", fmt.Sprint(ticks)),
		Entry("a rung without roles", "role: T4a.1 declares no roles", "-rung", "T4a.1"),
		Entry("an unknown role", `role: T5.3 has no role "mage" (roles: jarl, steward)`, "-rung", "T5.3", "-role", "mage"),
	)

	It("shows every role as of a tick: holder or vacancy, duties, every reference and what it resolves to, the role events so far", func() {
		f := fixtureRun("T5.3-no-orphans", "T5.3")
		vacant, appointed := ticksOf(f, "steward's vacancy and appointment", func(r traceRecord) bool { return r.S("kind") == "role" && r.S("role") == "steward" })
		Expect(appointed).To(BeNumerically(">", vacant), "the golden's steward is not vacant, then appointed")
		during := (vacant + appointed) / 2
		out, err := invoke("role", "-rerun", "-rung", "T5.3", "-at", fmt.Sprint(during), "-role", "steward")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(wantRoles(f, during, "steward")))
		Expect(out).To(ContainSubstring("resolves to nobody\n"))
		after := min(appointed+2, f.Ticks-1)
		out, err = invoke("role", "-rerun", "-rung", "T5.3", "-at", fmt.Sprint(after))
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(wantRoles(f, after, "")))
		Expect(out).NotTo(ContainSubstring("resolves to nobody\n"))
	})

	It("lists role and schedule changes among the changes of diff, each with its rule and cause", func() {
		f := fixtureRun("T5.3-no-orphans", "T5.3")
		first, last := ticksOf(f, "role change", kindIs("role"))
		from, to := max(0, first-1), min(f.Ticks-1, last+1)
		out, err := invoke("diff", "-rerun", "-rung", "T5.3", "-from", fmt.Sprint(from), "-to", fmt.Sprint(to))
		Expect(err).NotTo(HaveOccurred())
		want := wantDiff(f, from, to)
		for _, kind := range []string{"  role ", "  schedule ", "  event "} {
			Expect(want).To(ContainSubstring(kind))
		}
		Expect(out).To(Equal(want))
	})
})
