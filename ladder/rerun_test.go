package ladder_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
)

// The determinism rerun must name what differs between the spec's run
// and its rerun — the trace's first record, else the dense file's first
// cell — and a file one of them did not write in words, never as a file
// that could not be opened. No committed rung differs from its rerun, so
// this is held on two directories written by hand; it runs beside the
// rungs, with no rung label, like the instruments.
var _ = Describe("the determinism rerun, comparing a rerun with what the spec wrote", func() {
	const (
		header = `{"branches":[{"generation":0,"save_uuid":"u"}],"keyframe_every":24,"kind":"header","layers":["core"],"schema":"chronicle.trace","seed_id":"ladder-T0.1","version":3}` + "\n"
		theft  = `{"branch":0,"event":"theft","hash":"aa","id":"theft@2","kind":"event","log_seq":0,"seq":0,"tick":2}` + "\n"
		formed = `{"branch":0,"fired":true,"kind":"rule","reason":"witnessed","rule":"witness-creates-belief","seq":1,"subject":"witness/theft@2","tick":2,"values":{"confidence":0.9}}` + "\n"
		trace  = header + theft + formed
		denseA = "tick,witness/at\n0,market\n1,market\n2,market\n"
		denseB = "tick,witness/at\n0,market\n1,market\n2,road\n"
	)
	var (
		f             *fixture.Fixture
		judged, again string
	)
	BeforeEach(func() {
		fs, err := fixture.Parse("fixtures/T0.1-witness.yaml", []byte("rung: T0.1\ntitle: Tiny witness\ntier: 0\nseed_id: ladder-T0.1\nticks: 4\n"+
			"locations:\n  market: {hold: whiterun}\ncast:\n  witness: {}\n"))
		Expect(err).NotTo(HaveOccurred())
		f = fs[0]
		judged, again = GinkgoT().TempDir(), GinkgoT().TempDir()
		for _, dir := range []string{judged, again} {
			Expect(os.WriteFile(filepath.Join(dir, artifact.TraceFile), []byte(trace), 0o644)).To(Succeed())
			Expect(os.WriteFile(filepath.Join(dir, artifact.DenseFile), []byte(denseA), 0o644)).To(Succeed())
		}
	})
	write := func(dir, name, content string) {
		GinkgoHelper()
		Expect(os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)).To(Succeed())
	}

	It("finds nothing when the rerun wrote the same bytes", func() {
		_, ok := sameAsJudged(f, judged, &ladder.Result{Fixture: f, Dir: again}, nil)
		Expect(ok).To(BeTrue())
	})

	DescribeTable("names the first differing record or cell, or says in words which run wrote no file",
		func(change func(), stopped error, tick int64, class, text string) {
			change()
			p, ok := sameAsJudged(f, judged, &ladder.Result{Fixture: f, Dir: again}, stopped)
			Expect(ok).To(BeFalse())
			Expect(p.Check).To(Equal("determinism"))
			Expect(p.Tick).To(Equal(tick))
			Expect(p.Class).To(Equal(class))
			Expect(p.Message).To(Equal("T0.1 determinism: " + text + " (reproduce: make ladder)"))
			Expect(p.Message).NotTo(Or(ContainSubstring("no such file"), ContainSubstring("could not")))
		},
		Entry("the trace, a record renamed", func() {
			write(again, artifact.TraceFile, header+strings.Replace(theft, `"theft@2"`, `"theft@2#2"`, 1)+formed)
		}, nil,
			int64(2), "identity drift", `a second run in the same process wrote a different trace.jsonl than the spec did: the engine is not deterministic; `+
				`identity drift: first renamed record: tick 2, trace line 2: event "theft@2": the same record under another id, "theft@2#2"; records 1 renamed `+
				`(compare reports/T0.1/trace.jsonl with a rerun)`),
		Entry("the trace, a decision flipped, the dense file moved with it", func() {
			write(again, artifact.TraceFile, header+theft+strings.Replace(formed, `"fired":true`, `"fired":false`, 1))
			write(again, artifact.DenseFile, denseB)
		}, nil,
			int64(2), "control-flow drift", `a second run in the same process wrote a different trace.jsonl than the spec did: the engine is not deterministic; `+
				`control-flow drift: first flipped decision: tick 2, trace line 3: rule "witness-creates-belief witness/theft@2": fired spec true, rerun false; records 1 flipped `+
				`(compare reports/T0.1/trace.jsonl with a rerun)`),
		Entry("the trace's header only, which no record alignment sees", func() { write(again, artifact.TraceFile, strings.Replace(header, `"u"`, `"v"`, 1)+theft+formed) }, nil,
			int64(-1), "", `a second run in the same process wrote a different trace.jsonl than the spec did: the engine is not deterministic; `+
				`first divergent record at line 1 (tick 0, header ""): the branch key differs, on this and every later line: `+
				`spec {"generation":0,"save_uuid":"u"}, rerun {"generation":0,"save_uuid":"v"} (compare reports/T0.1/trace.jsonl with a rerun)`),
		Entry("the dense file only", func() { write(again, artifact.DenseFile, denseB) }, nil,
			int64(2), "value drift", `a second run in the same process wrote a different dense.csv than the spec did: the engine is not deterministic; `+
				`first divergence at tick 2, column "witness/at": spec market, rerun road (compare reports/T0.1/dense.csv with a rerun)`),
		Entry("no trace from the spec's run", func() { Expect(os.Remove(filepath.Join(judged, artifact.TraceFile))).To(Succeed()) }, nil,
			int64(-1), "", `the spec's run wrote no trace.jsonl (it stopped before writing it) and a second run in the same process did: the engine is not deterministic`),
		Entry("no trace from either run", func() {
			Expect(os.Remove(filepath.Join(judged, artifact.TraceFile))).To(Succeed())
			Expect(os.Remove(filepath.Join(again, artifact.TraceFile))).To(Succeed())
		}, nil,
			int64(-1), "", `neither the spec's run nor a second run in the same process wrote trace.jsonl: nothing to compare`),
		Entry("no dense file from a rerun that stopped", func() { Expect(os.Remove(filepath.Join(again, artifact.DenseFile))).To(Succeed()) }, errors.New("T0.1: tick 3: boom"),
			int64(-1), "", `a second run in the same process wrote no dense.csv (it stopped before writing it) and the spec's run did: the engine is not deterministic; `+
				`the rerun stopped part way: T0.1: tick 3: boom (compare reports/T0.1/dense.csv with a rerun)`),
	)
})
