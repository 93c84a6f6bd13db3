package harness_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/verdict"
)

// Specs of same_run: a synthetic rung T0.9 declares itself the synthetic
// T0.2's run cut at tick 100, and Verify holds its trace to the start of
// T0.2's trace golden.

const prefixFixture = `rung: T0.9
title: Prefix — the synthetic decay run, cut short
tier: 0
extends: T0.2
same_run: true
ticks: 100
expect:
  - {at: 99, belief: {holder: witness, claim: theft@0, stage: heard}}
cases:
  later:
    summary: a counterfactual is not the same run
    events:
      - {tick: 5, kind: theft, actor: player, victim: merchant, item: sweetroll, at: whiterun_market, witnesses: [witness]}
    expect:
      - {at: 99, belief: {holder: witness, claim: theft@5, stage: heard}}
`

// parseExtending parses a fixture that extends the synthetic T0.2.
func parseExtending(file, src string) ([]*fixture.Fixture, error) {
	return fixture.ParseWith(file, []byte(src), func(rung string) (string, []byte, error) {
		if rung != "T0.2" {
			return "", nil, fmt.Errorf("no rung %s here", rung)
		}
		return "fixtures/T0.2-decay.yaml", []byte(t02Fixture), nil
	})
}

var _ = Describe("same_run", Label("unit"), func() {
	var (
		tmp, parentDir string
		child          *ladder.Result
	)

	BeforeEach(func() {
		parent, err := t02()
		Expect(err).NotTo(HaveOccurred())
		tmp = GinkgoT().TempDir()
		parentDir = filepath.Join(tmp, "goldens", "T0.2-decay")
		Expect(os.MkdirAll(parentDir, 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(parentDir, artifact.TraceFile), parent.arts[artifact.TraceFile], 0o644)).To(Succeed())

		fs, err := parseExtending("fixtures/T0.9-prefix.yaml", prefixFixture)
		Expect(err).NotTo(HaveOccurred())
		Expect(fs[0].SameRunAs).To(Equal(fixture.SameRun{Rung: "T0.2", GoldenDir: "goldens/T0.2-decay", Pos: fixture.Pos{Line: 5, Column: 11}}))
		Expect(fs[1].Case).To(Equal("later"))
		Expect(fs[1].SameRunAs).To(BeZero(), "a case is a counterfactual, never the same run")
		child, err = run(fs[0])
		Expect(err).NotTo(HaveOccurred())
		Expect(child.Failures).To(BeEmpty())
		arts := artifacts(child)
		dir := filepath.Join(tmp, "goldens", "T0.9-prefix")
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
		for _, name := range artifact.RungNames {
			Expect(os.WriteFile(filepath.Join(dir, name), arts[name], 0o644)).To(Succeed())
		}
	})

	// editParentAt changes the first record of the parent's trace golden
	// at the given tick.
	editParentAt := func(tick int) {
		GinkgoHelper()
		path := filepath.Join(parentDir, artifact.TraceFile)
		b, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		mark := []byte(fmt.Sprintf(`"tick":%d}`, tick))
		i := bytes.Index(b, mark)
		Expect(i).To(BeNumerically(">", 0), "no record at tick %d", tick)
		start := bytes.LastIndexByte(b[:i], '\n') + 1
		b = append(b[:start:start], append([]byte(`{"planted":true,`), b[start+1:]...)...)
		Expect(os.WriteFile(path, b, 0o644)).To(Succeed())
	}

	It("passes a run whose trace is the extended rung's trace golden cut at its last tick", func() {
		Expect(verify(child.Fixture, tmp)).To(Equal(verdict.Verdict{}))
	})

	It("fails, naming the first divergent record, when the extended golden differs before the cut", func() {
		editParentAt(96)
		msgs := verdict.Lines(verify(child.Fixture, tmp).Problems)
		Expect(msgs).To(HaveLen(1))
		Expect(msgs[0]).To(HavePrefix("T0.9 trace.jsonl: same_run: not the same run as T0.2: compared with goldens/T0.2-decay/trace.jsonl cut at tick 100, first divergent record at line "))
		Expect(msgs[0]).To(ContainSubstring("(tick 96, keyframe"))
		Expect(msgs[0]).To(HaveSuffix("(reproduce: make ladder RUNG=T0.9; if intended: `go run ./tools/ladder review T0.9`, then `accept -reason \"…\" T0.9`)"))
	})

	It("ignores the extended run past the cut", func() {
		editParentAt(120)
		Expect(verify(child.Fixture, tmp)).To(Equal(verdict.Verdict{}))
	})

	It("fails when the extended golden is missing", func() {
		Expect(os.Remove(filepath.Join(parentDir, artifact.TraceFile))).To(Succeed())
		msgs := verdict.Lines(verify(child.Fixture, tmp).Problems)
		Expect(msgs).To(HaveLen(1))
		Expect(msgs[0]).To(HavePrefix("T0.9 trace.jsonl: same_run: cannot read T0.2's trace golden: open "))
	})

	DescribeTable("refuses a same-run rung that would be a different run",
		func(extra, want string) {
			_, err := parseExtending("fixtures/T0.9-prefix.yaml", prefixFixture+extra)
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("a define", "defines: {retell_decay: 0.5}\n",
			"fixtures/T0.9-prefix.yaml:16:1: defines: same_run: defines would change T0.2's world; a same-run rung may only shorten ticks"),
		Entry("events", "events: []\n",
			"fixtures/T0.9-prefix.yaml:16:1: events: same_run: events would change T0.2's world"),
		Entry("pins", "pins: []\n",
			"fixtures/T0.9-prefix.yaml:16:1: pins: same_run: pins would change T0.2's world"),
	)

	It("refuses a same-run rung longer than the run it extends", func() {
		src := bytes.Replace([]byte(prefixFixture), []byte("ticks: 100"), []byte("ticks: 800"), 1)
		_, err := parseExtending("fixtures/T0.9-prefix.yaml", string(src))
		Expect(err).To(MatchError(ContainSubstring("fixtures/T0.9-prefix.yaml:6:8: ticks: same_run: 800 ticks is longer than T0.2's 721; a same-run rung may only shorten the run")))
	})

	It("refuses same_run without extends", func() {
		src := bytes.Replace([]byte(t02Fixture), []byte("ticks: 721\n"), []byte("ticks: 721\nsame_run: true\n"), 1)
		_, err := fixture.Parse("fixtures/T0.2-decay.yaml", src)
		Expect(err).To(MatchError(ContainSubstring("fixtures/T0.2-decay.yaml:6:11: same_run: same_run needs extends")))
	})
})
