package main

import (
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// socialRoot makes a repository-like root holding the named fixtures and
// makes it the working directory.
func socialRoot(files ...string) {
	GinkgoHelper()
	root := GinkgoT().TempDir()
	for _, f := range files {
		copyFile(filepath.Join(repo, "fixtures", f), filepath.Join(root, "fixtures", f))
	}
	chdir(root)
}

var _ = Describe("rules", Serial, func() {
	BeforeEach(func() { socialRoot("T3.1-serial-theft.yaml", "T3.4-secret.yaml") })

	DescribeTable("refuses missing or wrong arguments",
		func(want string, args ...string) {
			out, err := invoke(append([]string{"rules"}, args...)...)
			Expect(err).To(MatchError(want))
			Expect(out).To(BeEmpty())
		},
		Entry("no rung", "rules: -rung is required"),
		Entry("an unknown rule", `rules: unknown rule "grudge" (rules: `+strings.Join([]string{"witness-creates-belief", "belief-decay", "corroboration",
			"shared-claim-invariant", "testimony-transfer", "encounter-sampling", "mutation-policy", "variant-resolution", "rumour-stages",
			"dormancy-reactivation", "accumulation-threshold", "grudge-creation", "grudge-decay", "obligations", "tell-decision",
			"reputation-evidence", "schedule-write-back", "pairwise-encounter-weighting", "role-succession", "trust-discounted-retelling"}, ", ")+")",
			"-rung", "T3.1", "-rule", "grudge"),
		Entry("a -fired that is not a boolean", `invalid boolean value "maybe" for -fired: want true or false`, "-rung", "T3.1", "-fired=maybe"),
		Entry("an unknown rung", `no fixture for rung "T3.9"`, "-rung", "T3.9"),
	)

	It("prints every evaluation of a rule, declined ones with their accumulator values at equal weight", func() {
		out, err := invoke("rules", "-rung", "T3.1", "-rule", "accumulation-threshold")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(`tick 2  accumulation-threshold  lucan/theft@2  declined: below threshold  {armed: 1.0, count: 1.0, rearm: 2.0, rearmed: 0.0, threshold: 4.0}
tick 8  accumulation-threshold  lucan/theft@5  declined: below threshold  {armed: 1.0, count: 2.0, rearm: 2.0, rearmed: 0.0, threshold: 4.0}
tick 14  accumulation-threshold  lucan/theft@14  declined: below threshold  {armed: 1.0, count: 3.0, rearm: 2.0, rearmed: 0.0, threshold: 4.0}
tick 20  accumulation-threshold  lucan/theft@20  fired: threshold reached  {armed: 1.0, count: 4.0, rearm: 2.0, rearmed: 0.0, threshold: 4.0}
tick 30  accumulation-threshold  lucan/theft@30  declined: already escalated: re-arms when the count falls to the re-arm level  {armed: 0.0, count: 5.0, rearm: 2.0, rearmed: 0.0, threshold: 4.0}
T3.1: 5 rule evaluations, 1 fired, 4 declined
`))
	})

	It("keeps only the declined, or only the fired, evaluations", func() {
		out, err := invoke("rules", "-rung", "T3.4", "-rule", "tell-decision", "-fired=false")
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		Expect(lines).To(HaveLen(20))
		Expect(lines[0]).To(Equal("tick 2  tell-decision  bjorn<-frida/secret@1  declined: keeps the secret: kin of hroki  {implicated: 0.0, kin: 1.0}"))
		Expect(lines[19]).To(Equal("T3.4: 19 rule evaluations, 0 fired, 19 declined"))
		out, err = invoke("rules", "-rung", "T3.4", "-rule", "tell-decision", "-fired")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(HaveSuffix("T3.4: 2 rule evaluations, 2 fired, 0 declined\n"))
	})

	It("shows a disabled rule's evaluations as declined, reason disabled", func() {
		out, err := invoke("rules", "-rung", "T3.1/no-peers", "-fired=false", "-rule", "accumulation-threshold")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal("T3.1/no-peers: 0 rule evaluations, 0 fired, 0 declined\n"), "out of scope: not evaluated at all")
	})
})

var _ = Describe("diff", Serial, func() {
	BeforeEach(func() { socialRoot("T3.2-humiliation.yaml", "T3.3-favor-ledger.yaml") })

	DescribeTable("refuses missing or wrong arguments",
		func(want string, args ...string) {
			out, err := invoke(append([]string{"diff"}, args...)...)
			Expect(err).To(MatchError(want))
			Expect(out).To(BeEmpty())
		},
		Entry("no rung", "diff: -rung and -from are required", "-from", "1"),
		Entry("no from", "diff: -rung and -from are required", "-rung", "T3.3"),
		Entry("to before from", "diff: want 0 ≤ from < to < 36 (T3.3's run), got from 20, to 10", "-rung", "T3.3", "-from", "20", "-to", "10"),
		Entry("to past the run", "diff: want 0 ≤ from < to < 36 (T3.3's run), got from 1, to 36", "-rung", "T3.3", "-from", "1", "-to", "36"),
	)

	It("lists every social-state change between two ticks, before → after, with the rule and the cause", func() {
		out, err := invoke("diff", "-rung", "T3.3", "-from", "10", "-to", "30")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(`T3.3: social-state changes after tick 10, up to tick 30
tick 20  event obligation@20:favour@4:violated (obligation) appended  (rule obligations, cause invoke@20)
tick 20  obligation obligation:favour@4 (player owes jon): issued → violated  (rule obligations, cause invoke@20)
tick 20  reputation brenuin of player's reliability: alpha 1.0, beta 2.0, mean 0.3333333333333333  (rule reputation-evidence, cause invoke@20)
tick 20  reputation carlotta of player's reliability: alpha 1.0, beta 2.0, mean 0.3333333333333333  (rule reputation-evidence, cause invoke@20)
tick 20  event grudge@20:jon:player:invoke@20 (grudge) appended  (rule grudge-creation, cause invoke@20)
tick 20  grudge jon->player formed: emotional 0.4, evidentiary 0.45  (rule grudge-creation, cause invoke@20)
ticks 20–30  grudge jon->player decayed: emotional 0.4, evidentiary 0.45 → emotional 0.3990384531534481, evidentiary 0.44837836522236657  (rule grudge-decay, cause invoke@20)
7 changes
`))
	})

	It("shows a grudge's decay between two ticks as a change by grudge-decay", func() {
		out, err := invoke("diff", "-rung", "T3.2", "-from", "0", "-to", "960")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(`T3.2: social-state changes after tick 0, up to tick 960
ticks 0–960  grudge torvar->player decayed: emotional 0.8, evidentiary 0.45 → emotional 0.6349604207872798, evidentiary 0.31819805153394637  (rule grudge-decay, cause brawl@0)
1 changes
`))
	})
})
