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
