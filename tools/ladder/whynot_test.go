package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/goldenset"
	"github.com/chronicle/ladder/ladder/whynot"
)

// goldenAnswer is what package whynot answers from a run's committed
// goldens: the command must print exactly it, whatever the rung does.
func goldenAnswer(name, npc, claim string, at int64) *whynot.Answer {
	GinkgoHelper()
	f, err := runFixture(name)
	Expect(err).NotTo(HaveOccurred())
	run, err := whynot.Open(f.Name(), filepath.FromSlash(f.GoldenDir()), whynot.WorldOf(f))
	Expect(err).NotTo(HaveOccurred())
	a, err := run.Explain(npc, claim, at)
	Expect(err).NotTo(HaveOccurred())
	return a
}

// text is an answer as the command prints it.
func text(a *whynot.Answer) string {
	var b bytes.Buffer
	Expect(a.WriteText(&b)).To(Succeed())
	return b.String()
}

// beforeHeard is the last tick, read off the goldens, at which an NPC
// did not yet hold a claim it holds at the end of the run.
func beforeHeard(name, npc, claim string) int64 {
	GinkgoHelper()
	f, err := runFixture(name)
	Expect(err).NotTo(HaveOccurred())
	run, err := whynot.Open(f.Name(), filepath.FromSlash(f.GoldenDir()), whynot.WorldOf(f))
	Expect(err).NotTo(HaveOccurred())
	first, last := run.Ticks()
	Expect(run.Holds(npc, claim, last)).To(BeTrue(), "%s does not hold %s at the end of %s's golden run: the spec asks nothing", npc, claim, name)
	t := last
	for t > first && run.Holds(npc, claim, t-1) {
		t--
	}
	return t - 1
}

// beforeHold is the last tick, read off the goldens, before any holder
// of a claim was in a hold: the tick before the news crossed into it.
func beforeHold(name, claim, hold string) int64 {
	GinkgoHelper()
	f, err := runFixture(name)
	Expect(err).NotTo(HaveOccurred())
	d, err := goldenset.ReadDense(repo, f)
	Expect(err).NotTo(HaveOccurred())
	in := map[string]bool{}
	for _, l := range f.Locations {
		in[l.ID] = l.Hold == hold
	}
	for _, row := range d.Rows {
		tick, err := strconv.ParseInt(row[0], 10, 64)
		Expect(err).NotTo(HaveOccurred())
		for _, n := range f.Cast {
			stage, err := d.Cell(tick, n.ID+"/"+claim+"/stage")
			if err != nil || stage == "" {
				continue // it never holds it, or not yet
			}
			at, err := d.Cell(tick, n.ID+"/at")
			Expect(err).NotTo(HaveOccurred())
			if in[at] {
				return tick - 1
			}
		}
	}
	Fail(fmt.Sprintf("no holder of %s is ever in %s in %s's golden run: the spec asks nothing", claim, hold, name))
	return 0
}

var _ = Describe("why-not", func() {
	BeforeEach(func() { chdir(repo) })

	DescribeTable("refuses missing or wrong arguments",
		func(want string, args ...string) {
			out, err := invoke(append([]string{"why-not"}, args...)...)
			Expect(err).To(MatchError(want))
			Expect(out).To(BeEmpty())
		},
		Entry("no claim", "usage: ladder why-not -rung R -npc X -claim C [-at T] [-reports DIR | -golden | -golden-at COMMIT] [-json]", "-rung", "T2.1", "-npc", "balgruuf"),
		Entry("two places to read from", "why-not: -reports, -golden and -golden-at name different places to read the run from: pick one", "-rung", "T2.1", "-npc", "balgruuf", "-claim", "theft@10", "-golden", "-reports", "x"),
		Entry("a sweep", "why-not: T2.8 is a sweep: it keeps no trace of its own, only its seed world does (-rung T2.8/seed-N, under reports/T2.8/)", "-rung", "T2.8", "-npc", "x", "-claim", "y"),
		Entry("a seed world that is no seed", `why-not: "T2.8/seed-x": want T2.8/seed-N for a seed world of T2.8`, "-rung", "T2.8/seed-x", "-npc", "x", "-claim", "y"),
		Entry("a run not made", "why-not: nowhere/T2.1/trace.jsonl: no such file: `make ladder RUNG=T2.1` writes it, or read the goldens with -golden: open nowhere/T2.1/trace.jsonl: no such file or directory", "-rung", "T2.1", "-npc", "balgruuf", "-claim", "theft@10", "-reports", "nowhere"),
	)

	DescribeTable("answers a name it does not know with the closest one",
		func(want string, args ...string) {
			out, err := invoke(append([]string{"why-not"}, args...)...)
			Expect(err).To(MatchError(HavePrefix(want)))
			Expect(out).To(BeEmpty())
		},
		Entry("a rung", `why-not: no rung or case "T2.1x" (did you mean "T2.1"?)`, "-rung", "T2.1x", "-npc", "balgruuf", "-claim", "theft@10"),
		Entry("an NPC", `why-not: T2.1 has no NPC "balgruf" (did you mean "balgruuf"?) (its NPCs: `, "-rung", "T2.1", "-npc", "balgruf", "-claim", "theft@10", "-golden"),
		Entry("a claim", `why-not: T2.1 has no claim "theft@1" (did you mean "theft@10"?) (its claims: `, "-rung", "T2.1", "-npc", "balgruuf", "-claim", "theft@1", "-golden"),
	)

	It("answers from the goldens exactly what package whynot answers from them: T2.7's Markarth, before the second carrier", func() {
		at := beforeHold("T2.7", "theft@9", "markarth")
		want := goldenAnswer("T2.7", "m1", "theft@9", at)
		Expect(want.Cause).To(Equal(whynot.Border))
		out, err := invoke("why-not", "-rung", "T2.7", "-npc", "m1", "-claim", "theft@9", "-at", fmt.Sprint(at), "-golden")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(text(want)))
	})

	It("reads the goldens as a commit had them with -golden-at, as every instrument that reads a run's files does", func() {
		at := beforeHold("T2.7", "theft@9", "markarth")
		want := goldenAnswer("T2.7", "m1", "theft@9", at)
		out, err := invoke("why-not", "-rung", "T2.7", "-npc", "m1", "-claim", "theft@9", "-at", fmt.Sprint(at), "-golden-at", "HEAD", "-json")
		Expect(err).NotTo(HaveOccurred())
		var got whynot.Answer
		Expect(json.Unmarshal([]byte(out), &got)).To(Succeed())
		Expect(got.Dir).To(HavePrefix(want.Dir+" at "), "the golden set, and the commit")
		got.Dir = want.Dir
		Expect(&got).To(Equal(want))
	})

	It("reads any directory laid out like reports/, and writes JSON with -json", func() {
		at := beforeHeard("T2.1", "balgruuf", "theft@10")
		f, err := runFixture("T2.1")
		Expect(err).NotTo(HaveOccurred())
		dir := GinkgoT().TempDir()
		for _, name := range []string{whynot.TraceFile, whynot.DenseFile} {
			copyFile(filepath.Join(f.GoldenDir(), name), filepath.Join(dir, "T2.1", name))
		}
		want := goldenAnswer("T2.1", "balgruuf", "theft@10", at)
		Expect(want.Cause).To(Equal(whynot.Missed))
		want.Dir = filepath.ToSlash(filepath.Join(dir, "T2.1"))
		out, err := invoke("why-not", "-rung", "T2.1", "-npc", "balgruuf", "-claim", "theft@10", "-at", fmt.Sprint(at), "-reports", dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(text(want)))

		out, err = invoke("why-not", "-rung", "T2.1", "-npc", "balgruuf", "-claim", "theft@10", "-at", fmt.Sprint(at), "-reports", dir, "-json")
		Expect(err).NotTo(HaveOccurred())
		var got whynot.Answer
		Expect(json.Unmarshal([]byte(out), &got)).To(Succeed())
		Expect(&got).To(Equal(want))
	})
})
