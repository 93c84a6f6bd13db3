package history_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/history"
)

// checkpoints is a small checkpoints.json recording retell_decay as decay
// and witness_confidence at tick 1 as confidence.
func checkpoints(decay json.Number, confidence float64) string {
	GinkgoHelper()
	b, err := checkpoint.File{
		Rung: "T9.1", SeedID: "s", DefinesHash: "d" + string(decay), FixtureHash: "1111111111111111",
		Defines: map[string]json.Number{"retell_decay": decay},
		Outcome: checkpoint.Outcome{Ticks: 3, Events: 1, Claims: 1, Variants: 1, Beliefs: 1, LogHead: "ab" + strconv.Itoa(int(confidence*10))},
		Samples: []checkpoint.Sample{{Tick: 1, Values: map[string]*float64{"witness_confidence": &confidence}}},
	}.Marshal()
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

var _ = Describe("Measure", func() {
	var old, now string
	write := func(dir string, files map[string]string) map[string]string {
		GinkgoHelper()
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
		paths := map[string]string{}
		for name, content := range files {
			paths[name] = filepath.Join(dir, name)
			Expect(os.WriteFile(paths[name], []byte(content), 0o644)).To(Succeed())
		}
		return paths
	}
	BeforeEach(func() {
		old, now = GinkgoT().TempDir(), GinkgoT().TempDir()
		write(old, map[string]string{"dense.csv": dense2, "trace.jsonl": trace2, "checkpoints.json": checkpoints("0.8", 0.5)})
	})

	It("names the earliest divergence — at one tick the trace record, the cause, before the cell — the triage's class and review's counts", func() {
		fresh := write(now, map[string]string{"dense.csv": dense3, "trace.jsonl": trace3, "checkpoints.json": checkpoints("0.8", 0.5)})
		e, err := history.Measure(old, fresh, []string{"dense.csv", "trace.jsonl"})
		Expect(err).NotTo(HaveOccurred())
		Expect(e).To(Equal(history.Entry{State: history.Changed, Drift: "value drift", Cells: 1, Records: 1,
			First: &history.First{Artifact: "trace.jsonl", Tick: 2, Line: 4, Kind: "belief", Key: `"a/theft@1 formed"`, Field: "confidence", Before: "0.5", After: "0.7"}}))
	})

	It("names the dense cell when only the dense file moved: value drift, what is read off an unchanged trace", func() {
		fresh := write(now, map[string]string{"dense.csv": dense3, "trace.jsonl": trace2, "checkpoints.json": checkpoints("0.8", 0.5)})
		e, err := history.Measure(old, fresh, []string{"dense.csv"})
		Expect(err).NotTo(HaveOccurred())
		Expect(e).To(Equal(history.Entry{State: history.Changed, Drift: "value drift", Cells: 1,
			First: &history.First{Artifact: "dense.csv", Tick: 2, Column: "a/t@1/confidence", Before: "0.5", After: "0.7"}}))
	})

	It("calls a change with a record that appeared control-flow drift", func() {
		extra := `{"branch":0,"change":"formed","confidence":0.5,"holder":"b","kind":"belief","seq":3,"tick":2,"variant":"theft@1#v0"}` + "\n"
		fresh := write(now, map[string]string{"dense.csv": dense2, "trace.jsonl": trace2 + extra, "checkpoints.json": checkpoints("0.8", 0.5)})
		e, err := history.Measure(old, fresh, []string{"trace.jsonl"})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.Drift).To(Equal("control-flow drift"))
		Expect(e.Records).To(Equal(1))
		Expect(e.First.Line).To(Equal(5))
	})

	It("calls a change whose inputs moved input drift, naming them", func() {
		fresh := write(now, map[string]string{"dense.csv": dense3, "trace.jsonl": trace3, "checkpoints.json": checkpoints("0.75", 0.4)})
		e, err := history.Measure(old, fresh, []string{"dense.csv", "checkpoints.json", "trace.jsonl"})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.Drift).To(Equal("input drift"))
		Expect(e.Inputs).To(Equal([]string{"define retell_decay: 0.8 → 0.75"}))
		Expect(e.First).To(Equal(&history.First{Artifact: "checkpoints.json", Tick: 1, Column: "witness_confidence", Before: "0.5", After: "0.4"}),
			"tick 1's checkpoint comes before tick 2's record, and before the outcome, which the checkpoints report first")
	})

	It("notes an old golden it cannot read instead of failing, leaving the drift unclassified when it is the trace", func() {
		write(old, map[string]string{"trace.jsonl": "not a trace\n"})
		fresh := write(now, map[string]string{"dense.csv": dense2, "trace.jsonl": trace3, "checkpoints.json": checkpoints("0.8", 0.5)})
		e, err := history.Measure(old, fresh, []string{"trace.jsonl"})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.Drift).To(BeEmpty())
		Expect(e.First.Artifact).To(Equal("trace.jsonl"))
		Expect(e.First.Line).To(Equal(1), "the header, where the files first differ")

		write(old, map[string]string{"dense.csv": ""}) // no header
		e, err = history.Measure(old, fresh, []string{"dense.csv"})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.First.Artifact).To(Equal("dense.csv"))
		Expect(e.First.Before).To(HavePrefix("unreadable (dense: malformed golden"))
	})
})
