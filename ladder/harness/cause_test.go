package harness_test

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/verdict"
)

// A world of its own whose goldens are this spec's first run: each spec
// edits one golden record and reads what the second run says about it.
const causeWorld = `rung: T1.9
title: Unit — a telling to read cause-first
tier: 1
seed_id: unit-cause
ticks: 12
locations:
  market: {hold: whiterun}
cast:
  merchant: {home: market}
  witness: {home: market}
  listener: {home: market}
events:
  - {tick: 1, kind: theft, actor: player, victim: merchant, item: sweetroll, at: market, witnesses: [witness]}
`

var _ = Describe("Problems, cause first", Label("unit"), func() {
	var (
		f    *fixture.Fixture
		root string
	)
	golden := func() string { return filepath.Join(root, filepath.FromSlash(f.GoldenDir()), artifact.TraceFile) }
	BeforeEach(func() {
		f = parse("fixtures/T1.9-unit.yaml", causeWorld)
		root = GinkgoT().TempDir()
		dir := filepath.Join(root, filepath.FromSlash(f.GoldenDir()))
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
		res, err := ladder.Run(f, ladder.Options{Dir: dir})
		Expect(err).NotTo(HaveOccurred())
		Expect(res).NotTo(BeNil())
	})
	problems := func() []verdict.Problem {
		GinkgoHelper()
		res, err := ladder.Run(f, ladder.Options{Dir: GinkgoT().TempDir(), Goldens: root})
		Expect(err).NotTo(HaveOccurred())
		return verdict.Problems(res, nil, verdict.Verify(res))
	}
	// edit replaces the first golden trace line holding marker, with old
	// replaced by new in it; it returns that line's number.
	edit := func(marker, old, new string) int {
		GinkgoHelper()
		b, err := os.ReadFile(golden())
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(string(b), "\n")
		for i, l := range lines {
			if strings.Contains(l, marker) && strings.Contains(l, old) {
				lines[i] = strings.Replace(l, old, new, 1)
				Expect(os.WriteFile(golden(), []byte(strings.Join(lines, "\n")), 0o644)).To(Succeed())
				return i + 1
			}
		}
		Fail("no golden trace line holds " + marker + " and " + old)
		return 0
	}

	It("passes with no root line when the run meets its goldens", func() {
		Expect(problems()).To(BeEmpty())
	})

	It("puts the root cause and a value-drift line first when only a value moved", func() {
		line := edit(`"kind":"belief"`, `"confidence":0.9`, `"confidence":0.95`)
		ps := problems()
		Expect(len(ps)).To(BeNumerically(">=", 3))
		Expect(ps[0].Check).To(Equal(verdict.RootCheck))
		Expect(ps[0].Message).To(MatchRegexp(`^T1\.9 root: tick 1, trace line %d: belief "witness/theft@1 formed" \(rule [a-z-]+\): confidence golden 0\.95, actual 0\.9 — made by the [a-z-]+ evaluation \(reproduce: `, line))
		Expect(ps[0].Link).To(MatchRegexp(`^reports/index\.html#T1\.9@1/trace=\d+$`))
		Expect(ps[1].Check).To(Equal(verdict.DriftCheck))
		Expect(ps[1].Class).To(Equal("value drift"))
		Expect(ps[2].Check).To(Equal(artifact.TraceFile), "at the root's tick, the trace line before anything it explains")
	})

	It("calls a decision that flipped control-flow drift and names it", func() {
		edit(`"kind":"encounter"`, `"fired":true`, `"fired":false`)
		ps := problems()
		Expect(ps[1].Class).To(Equal("control-flow drift"))
		Expect(ps[1].Message).To(ContainSubstring(`control-flow drift: first flipped decision: `))
		Expect(ps[1].Message).To(ContainSubstring(`encounter "encounter@`))
		Expect(ps[0].Message).To(ContainSubstring("— the encounter roll "))
	})

	It("calls an id that changed identity drift, and the trace line says the id changed", func() {
		edit(`"kind":"event"`, `"id":"theft@1"`, `"id":"theft@7"`)
		ps := problems()
		Expect(ps[1].Class).To(Equal("identity drift"))
		Expect(ps[0].Message).To(ContainSubstring(`event "theft@7"`))
		Expect(ps[0].Message).To(ContainSubstring(`the same record under another id, "theft@1"`))
		var trace string
		for _, p := range ps {
			if p.Check == artifact.TraceFile {
				trace = p.Message
			}
		}
		Expect(trace).To(ContainSubstring(`the same record under another id (identity drift)`))
	})

	It("adds no root line when the trace agrees and only a value read off it moved: the first problem is the root", func() {
		dense := filepath.Join(root, filepath.FromSlash(f.GoldenDir()), artifact.DenseFile)
		b, err := os.ReadFile(dense)
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(string(b), "\n")
		lines[len(lines)-2] = strings.Replace(lines[len(lines)-2], "0.9", "0.8", 1)
		Expect(os.WriteFile(dense, []byte(strings.Join(lines, "\n")), 0o644)).To(Succeed())
		ps := problems()
		Expect(ps[0].Check).To(Equal(artifact.DenseFile))
		Expect(ps[0].Class).To(Equal("value drift"))
		for _, p := range ps {
			Expect(p.Check).NotTo(BeElementOf(verdict.RootCheck, verdict.DriftCheck))
		}
	})

	It("calls a moved define input drift, rooted at the define", func() {
		g := *f
		g.Defines.RetellDecay = 0.7
		f = &g
		ps := problems()
		Expect(ps[0].Message).To(MatchRegexp(`^T1\.9 root: the inputs moved: define retell_decay 0\.8 → 0\.7`))
		Expect(ps[1].Class).To(Equal("input drift"))
	})
})
