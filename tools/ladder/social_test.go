package main

import (
	"fmt"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/fixture"
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
			out, err := invoke(append([]string{"rules", "-rerun"}, args...)...)
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
		out, err := invoke("rules", "-rerun", "-rung", "T3.1", "-rule", "accumulation-threshold")
		Expect(err).NotTo(HaveOccurred())
		want, n, fired := wantRules(fixtureRun("T3.1-serial-theft", "T3.1"), "accumulation-threshold", nil)
		Expect(fired).To(BeNumerically(">", 0), "the golden run has no fired evaluation: the spec examines nothing")
		Expect(n-fired).To(BeNumerically(">", 0), "the golden run has no declined evaluation: the spec examines nothing")
		Expect(want).To(ContainElement(MatchRegexp(`declined: .*  \{.*count: `)), "a declined evaluation shows its accumulator")
		Expect(out).To(Equal(strings.Join(want, "\n") + "\n"))
	})

	It("keeps only the declined, or only the fired, evaluations", func() {
		keeper := fixtureRun("T3.4-secret", "T3.4")
		out, err := invoke("rules", "-rerun", "-rung", "T3.4", "-rule", "tell-decision", "-fired=false")
		Expect(err).NotTo(HaveOccurred())
		no, yes := false, true
		want, declined, _ := wantRules(keeper, "tell-decision", &no)
		Expect(declined).To(BeNumerically(">", 0))
		Expect(out).To(Equal(strings.Join(want, "\n") + "\n"))
		Expect(out).NotTo(ContainSubstring("  fired: "))
		out, err = invoke("rules", "-rerun", "-rung", "T3.4", "-rule", "tell-decision", "-fired")
		Expect(err).NotTo(HaveOccurred())
		want, fired, _ := wantRules(keeper, "tell-decision", &yes)
		Expect(fired).To(BeNumerically(">", 0))
		Expect(out).To(Equal(strings.Join(want, "\n") + "\n"))
		Expect(out).NotTo(ContainSubstring("  declined: "))
	})

	It("shows a rule the run never evaluates as no evaluation at all", func() {
		out, err := invoke("rules", "-rerun", "-rung", "T3.1", "-fired=false", "-rule", "grudge-creation")
		Expect(err).NotTo(HaveOccurred())
		no := false
		want, n, _ := wantRules(fixtureRun("T3.1-serial-theft", "T3.1"), "grudge-creation", &no)
		Expect(out).To(Equal(strings.Join(want, "\n") + "\n"))
		Expect(n).To(BeZero(), "the rung's golden run evaluates the rule: this spec is about one that does not")
	})

	It("shows a victim out of a case's scope as no evaluation of theirs", func() {
		out, err := invoke("rules", "-rerun", "-rung", "T3.1/no-peers", "-rule", "accumulation-threshold")
		Expect(err).NotTo(HaveOccurred())
		want, n, _ := wantRules(fixtureRun("T3.1-serial-theft", "T3.1/no-peers"), "accumulation-threshold", nil)
		Expect(out).To(Equal(strings.Join(want, "\n") + "\n"))
		Expect(n).To(BeNumerically(">", 0), "the case's golden run evaluates the rule for nobody: this spec is about a victim left out")
		Expect(out).NotTo(ContainSubstring("lucan/"), "Lucan, with no faction, is out of the rule's scope")
	})
})

var _ = Describe("diff", Serial, func() {
	BeforeEach(func() { socialRoot("T3.2-humiliation.yaml", "T3.3-favor-ledger.yaml") })

	ticks := fixtureRun("T3.3-favor-ledger", "T3.3").Ticks
	DescribeTable("refuses missing or wrong arguments",
		func(want string, args ...string) {
			out, err := invoke(append([]string{"diff", "-rerun"}, args...)...)
			Expect(err).To(MatchError(want))
			Expect(out).To(BeEmpty())
		},
		Entry("no rung", "diff: -rung and -from are required", "-from", "1"),
		Entry("no from", "diff: -rung and -from are required", "-rung", "T3.3"),
		Entry("to before from", fmt.Sprintf("diff: want 0 ≤ from < to < %d (T3.3's run), got from 2, to 1", ticks), "-rung", "T3.3", "-from", "2", "-to", "1"),
		Entry("to past the run", fmt.Sprintf("diff: want 0 ≤ from < to < %d (T3.3's run), got from 1, to %d", ticks, ticks), "-rung", "T3.3", "-from", "1", "-to", fmt.Sprint(ticks)),
	)

	// The grudge T3.3's refusal makes: the spec walks the ticks around it.
	firstGrudge := func(f *fixture.Fixture) int64 {
		GinkgoHelper()
		first, _ := ticksOf(f, "grudge formed", func(r traceRecord) bool { return r.S("kind") == "grudge" && r.S("change") == "formed" })
		return first
	}

	It("lists every social-state change between two ticks, before → after, with the rule and the cause", func() {
		f := fixtureRun("T3.3-favor-ledger", "T3.3")
		at := firstGrudge(f)
		from, to := max(0, at-10), min(ticks-1, at+10)
		out, err := invoke("diff", "-rerun", "-rung", "T3.3", "-from", fmt.Sprint(from), "-to", fmt.Sprint(to))
		Expect(err).NotTo(HaveOccurred())
		want := wantDiff(f, from, to)
		for _, kind := range []string{"  grudge ", "  obligation ", "  reputation ", "  event ", " decayed: "} {
			Expect(want).To(ContainSubstring(kind), "the golden run changes no %s between ticks %d and %d: the spec examines less than it says", kind, from, to)
		}
		Expect(want).To(ContainSubstring(" → "), "no state moved from one value to another")
		Expect(out).To(Equal(want))
	})

	It("shows a grudge's decay between two ticks as a change by grudge-decay", func() {
		f := fixtureRun("T3.2-humiliation", "T3.2")
		from, to := firstGrudge(f), f.Ticks-1
		out, err := invoke("diff", "-rerun", "-rung", "T3.2", "-from", fmt.Sprint(from), "-to", fmt.Sprint(to))
		Expect(err).NotTo(HaveOccurred())
		want := wantDiff(f, from, to)
		Expect(want).To(ContainSubstring(" decayed: "))
		Expect(out).To(Equal(want))
	})
})
