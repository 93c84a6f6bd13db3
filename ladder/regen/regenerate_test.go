package regen_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/history"
	"github.com/chronicle/ladder/ladder/regen"
	"github.com/chronicle/ladder/ladder/seal"
)

// tinyFixture is a valid rung with one case: two fixtures, T0.1 with golden
// dir goldens/T0.1-witness and T0.1/quiet with goldens/T0.1-witness/quiet.
const tinyFixture = `rung: T0.1
title: Tiny witness
tier: 0
seed_id: ladder-T0.1
ticks: 4
locations:
  market: {hold: whiterun}
cast:
  witness: {}
cases:
  quiet:
    summary: nobody at all
`

// A rendering's artifacts. Their content only has to be well-formed enough
// for the divergence reports.
const (
	denseA  = "tick,witness/at\n0,market\n1,market\n2,market\n"
	denseB  = "tick,witness/at\n0,market\n1,market\n2,road\n"
	traceA  = `{"kind":"header"}` + "\n" + `{"id":"theft@2","kind":"event","tick":2}` + "\n"
	traceB  = `{"kind":"header"}` + "\n" + `{"id":"theft@3","kind":"event","tick":3}` + "\n"
	checksA = "{\n  \"case\": \"\",\n  \"rung\": \"T0.1\"\n}\n"
	checksB = "{\n  \"case\": \"\",\n  \"rung\": \"T0.2\"\n}\n"
	// traceLong's fourth record is the one a spec changes.
	traceLong = traceA + `{"id":"theft@3","kind":"event","tick":3,"where":"market"}` + "\n" + `{"id":"theft@3b","kind":"event","tick":3,"where":"road"}` + "\n"
)

// failed is a rendering's failures.txt, where two expectations failed;
// failedFirst is its first line.
const (
	failedFirst = "expect[1] (fixtures/T0.1-witness.yaml:12:5) at tick 2: belief(witness, theft@2).confidence = 0.8, want 0.9"
	failed      = failedFirst + "\nalways: holders of theft@2 only [witness]: got [merchant witness]\n"
)

var oldTime = time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)

func parseFixtures() []*fixture.Fixture {
	GinkgoHelper()
	fs, err := fixture.Parse("fixtures/T0.1-witness.yaml", []byte(tinyFixture))
	Expect(err).NotTo(HaveOccurred())
	Expect(fs).To(HaveLen(2))
	Expect(fs[0].GoldenDir()).To(Equal("goldens/T0.1-witness"))
	Expect(fs[1].GoldenDir()).To(Equal("goldens/T0.1-witness/quiet"))
	return fs
}

type artifacts map[string]string

func standard() artifacts {
	return artifacts{artifact.DenseFile: denseA, artifact.CheckpointsFile: checksA, artifact.TraceFile: traceA}
}

// put writes files under base/<golden dir of f>.
func put(base string, f *fixture.Fixture, files artifacts) {
	GinkgoHelper()
	dir := filepath.Join(base, filepath.FromSlash(f.GoldenDir()))
	Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
	for name, content := range files {
		Expect(os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)).To(Succeed())
	}
}

func golden(root string, f *fixture.Fixture, name string) string {
	return filepath.Join(root, filepath.FromSlash(f.GoldenDir()), name)
}

// age sets every artifact of f under root to oldTime.
func age(root string, f *fixture.Fixture) {
	GinkgoHelper()
	for _, name := range ladder.Artifacts(f) {
		Expect(os.Chtimes(golden(root, f, name), oldTime, oldTime)).To(Succeed())
	}
}

func mtime(path string) time.Time {
	GinkgoHelper()
	info, err := os.Stat(path)
	Expect(err).NotTo(HaveOccurred())
	return info.ModTime()
}

// noTempFiles asserts that nothing but artifacts and case directories is
// left in a golden directory.
func noTempFiles(dir string) {
	GinkgoHelper()
	for _, name := range entries(dir) {
		Expect(name).To(BeElementOf(artifact.DenseFile, artifact.CheckpointsFile, artifact.TraceFile, artifact.ManifestFile, history.File, "quiet"), "stray file in %s", dir)
	}
}

// note is what every regeneration of the specs says of itself, unless a
// spec says otherwise (regenerateWith).
var note = regen.Note{By: "goldens", Reason: "the spec moves them", CodeHash: "0123456789abcdef"}

// regenerate opens the workspace under root, regenerates from renderings
// a and b (named run 1 and run 2) and closes it, checking that nothing is
// left in the workspace but its lock.
func regenerate(root string, fixtures []*fixture.Fixture, a, b string) ([]regen.Status, error) {
	GinkgoHelper()
	return regenerateWith(root, fixtures, a, b, note)
}

// regenerateWith is regenerate saying n of itself.
func regenerateWith(root string, fixtures []*fixture.Fixture, a, b string, n regen.Note) ([]regen.Status, error) {
	GinkgoHelper()
	// A run seals what it wrote: so does each fake rendering, as it is now.
	for _, dir := range []string{a, b} {
		for _, f := range fixtures {
			reseal(dir, f)
		}
	}
	ws, rec, err := regen.Open(root)
	Expect(err).NotTo(HaveOccurred())
	Expect(rec.Empty()).To(BeTrue(), "nothing to recover: %s", rec)
	st, err := regen.Regenerate(ws, fixtures,
		regen.Rendering{Dir: a, Name: "run 1", How: "all in one process"},
		regen.Rendering{Dir: b, Name: "run 2", How: "each alone"}, n)
	Expect(ws.Close()).To(Succeed())
	Expect(entries(filepath.Join(root, "goldens", ".regen"))).To(Equal([]string{"lock"}))
	return st, err
}

// reseal writes the manifest of f's set under base, as a run does after
// writing its artifacts; a set missing any of them is left unsealed.
func reseal(base string, f *fixture.Fixture) {
	GinkgoHelper()
	dir := filepath.Join(base, filepath.FromSlash(f.GoldenDir()))
	for _, name := range ladder.Sealed(f) {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return
		}
	}
	Expect(seal.Write(dir, f.Name(), ladder.Sealed(f))).To(Succeed())
}

// sealIntact asserts that f's golden set under root matches its seal,
// which covers its history too.
func sealIntact(root string, f *fixture.Fixture) {
	GinkgoHelper()
	r := seal.Check(filepath.Join(root, filepath.FromSlash(f.GoldenDir())), f.Name())
	Expect(r.Breaches).To(BeEmpty())
	Expect(r.Examined).To(Equal(len(ladder.Sealed(f)) + 1))
	Expect(r.Verified).To(HaveKey(history.File))
}

// stripped is statuses without their history entries, for the specs that
// look at the rest.
func stripped(statuses []regen.Status) []regen.Status {
	out := slices.Clone(statuses)
	for i := range out {
		out[i].History = nil
	}
	return out
}

// goldensExist reports whether anything but the workspace exists under
// root/goldens.
func goldensExist(root string) bool {
	GinkgoHelper()
	des, err := os.ReadDir(filepath.Join(root, "goldens"))
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	Expect(err).NotTo(HaveOccurred())
	for _, d := range des {
		if d.Name() != ".regen" {
			return true
		}
	}
	return false
}

var _ = Describe("Regenerate", func() {
	var (
		root, a, b string
		fixtures   []*fixture.Fixture
		rung, cas  *fixture.Fixture
	)

	BeforeEach(func() {
		root, a, b = GinkgoT().TempDir(), GinkgoT().TempDir(), GinkgoT().TempDir()
		fixtures = parseFixtures()
		rung, cas = fixtures[0], fixtures[1]
		for _, dir := range []string{a, b} {
			put(dir, rung, standard())
			put(dir, cas, standard())
		}
	})

	expectGoldens := func(f *fixture.Fixture, files artifacts) {
		GinkgoHelper()
		for name, content := range files {
			Expect(read(golden(root, f, name))).To(Equal(content), "%s %s", f.Name(), name)
		}
	}

	It("writes every artifact of every rung the first time, as new", func() {
		st, err := regenerate(root, fixtures, a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Diff([]regen.Status{{Rung: "T0.1", State: "new"}, {Rung: "T0.1/quiet", State: "new"}}, stripped(st))).To(BeEmpty())
		expectGoldens(rung, standard())
		expectGoldens(cas, standard())
		sealIntact(root, rung)
		sealIntact(root, cas)
		noTempFiles(filepath.Join(root, "goldens", "T0.1-witness"))
		noTempFiles(filepath.Join(root, "goldens", "T0.1-witness", "quiet"))
		Expect(st[0].String()).To(Equal("T0.1 new"))
	})

	It("reports unchanged and does not touch files whose bytes did not change", func() {
		_, err := regenerate(root, fixtures, a, b)
		Expect(err).NotTo(HaveOccurred())
		age(root, rung)
		age(root, cas)

		st, err := regenerate(root, fixtures, a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Diff([]regen.Status{{Rung: "T0.1", State: "unchanged"}, {Rung: "T0.1/quiet", State: "unchanged"}}, st)).To(BeEmpty())
		for _, f := range fixtures {
			for _, name := range ladder.Artifacts(f) {
				Expect(mtime(golden(root, f, name))).To(BeTemporally("==", oldTime), "%s %s was rewritten", f.Name(), name)
			}
		}
	})

	It("reports a changed dense.csv by its first divergence and rewrites only that file", func() {
		_, err := regenerate(root, fixtures, a, b)
		Expect(err).NotTo(HaveOccurred())
		age(root, rung)
		age(root, cas)
		put(a, rung, artifacts{artifact.DenseFile: denseB})
		put(b, rung, artifacts{artifact.DenseFile: denseB})

		st, err := regenerate(root, fixtures, a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Diff([]regen.Status{
			{Rung: "T0.1", State: "changed", Detail: `dense.csv: first divergence at tick 2, column "witness/at": golden market, actual road`},
			{Rung: "T0.1/quiet", State: "unchanged"},
		}, stripped(st))).To(BeEmpty())
		Expect(st[0].String()).To(Equal(`T0.1 changed: dense.csv: first divergence at tick 2, column "witness/at": golden market, actual road`))
		Expect(read(golden(root, rung, artifact.DenseFile))).To(Equal(denseB))
		Expect(mtime(golden(root, rung, artifact.DenseFile))).NotTo(BeTemporally("==", oldTime))
		Expect(mtime(golden(root, rung, artifact.TraceFile))).To(BeTemporally("==", oldTime))
		Expect(mtime(golden(root, rung, artifact.CheckpointsFile))).To(BeTemporally("==", oldTime))
		Expect(mtime(golden(root, cas, artifact.DenseFile))).To(BeTemporally("==", oldTime))
		Expect(mtime(golden(root, rung, artifact.ManifestFile))).NotTo(BeTemporally("==", oldTime), "the seal moves with the file it seals")
		Expect(mtime(golden(root, cas, artifact.ManifestFile))).To(BeTemporally("==", oldTime))
		sealIntact(root, rung)
		noTempFiles(filepath.Join(root, "goldens", "T0.1-witness"))
	})

	DescribeTable("reseals a set whose goldens are unchanged but whose seal is not theirs, writing only the manifest",
		func(spoil func(path string)) {
			_, err := regenerate(root, fixtures, a, b)
			Expect(err).NotTo(HaveOccurred())
			age(root, rung)
			age(root, cas)
			spoil(golden(root, rung, artifact.ManifestFile))

			st, err := regenerate(root, fixtures, a, b)
			Expect(err).NotTo(HaveOccurred())
			Expect(cmp.Diff([]regen.Status{
				{Rung: "T0.1", State: "sealed", Detail: "the goldens are unchanged; manifest.json was missing or did not seal them, and now does"},
				{Rung: "T0.1/quiet", State: "unchanged"},
			}, st)).To(BeEmpty())
			sealIntact(root, rung)
			for _, name := range ladder.Sealed(rung) {
				Expect(mtime(golden(root, rung, name))).To(BeTemporally("==", oldTime), "%s was rewritten", name)
			}
		},
		Entry("missing (goldens from before seals)", func(path string) { Expect(os.Remove(path)).To(Succeed()) }),
		Entry("edited by hand", func(path string) {
			b, err := os.ReadFile(path)
			Expect(err).NotTo(HaveOccurred())
			Expect(os.WriteFile(path, append([]byte(" "), b...), 0o644)).To(Succeed())
		}),
	)

	It("reports every changed artifact in artifact order, each in its own terms", func() {
		_, err := regenerate(root, fixtures, a, b)
		Expect(err).NotTo(HaveOccurred())
		changed := artifacts{artifact.DenseFile: denseB, artifact.CheckpointsFile: checksB, artifact.TraceFile: traceB}
		put(a, cas, changed)
		put(b, cas, changed)

		st, err := regenerate(root, fixtures, a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(st[1].State).To(Equal("changed"))
		Expect(st[1].Detail).To(Equal(
			`dense.csv: first divergence at tick 2, column "witness/at": golden market, actual road; ` +
				"checkpoints.json: first different line 3: golden `\"rung\": \"T0.1\"`, actual `\"rung\": \"T0.2\"`; " +
				`trace.jsonl: first divergent record at line 2 (tick 2, event "theft@2"): actual has event "theft@3" at tick 3 here instead (a record was added or removed)`))
		expectGoldens(cas, changed)
		expectGoldens(rung, standard())
	})

	It("reports artifacts added beside existing ones as a change", func() {
		put(root, rung, artifacts{artifact.DenseFile: denseA})
		st, err := regenerate(root, fixtures, a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(stripped(st)[0]).To(Equal(regen.Status{Rung: "T0.1", State: "changed", Detail: "added checkpoints.json, trace.jsonl"}))
		Expect(st[1].State).To(Equal("new"))
		expectGoldens(rung, standard())
	})

	It("reports an unreadable old dense golden instead of a divergence", func() {
		put(root, rung, standard())
		put(root, rung, artifacts{artifact.DenseFile: ""})
		st, err := regenerate(root, fixtures, a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(st[0].State).To(Equal("changed"))
		Expect(st[0].Detail).To(HavePrefix("dense.csv: the golden is unreadable: "))
		expectGoldens(rung, standard())
	})

	Describe("when the two renderings differ", func() {
		DescribeTable("refuses with *NondeterminismError naming rung, file and the divergence between run 1 and run 2, and writes nothing",
			func(which int, name, content, divergence string) {
				f := fixtures[which]
				put(b, f, artifacts{name: content})

				st, err := regenerate(root, fixtures, a, b)
				Expect(st).To(BeNil())
				var nd *regen.NondeterminismError
				Expect(errors.As(err, &nd)).To(BeTrue(), "%v", err)
				Expect(nd.Rung).To(Equal(f.Name()))
				Expect(nd.File).To(Equal(name))
				Expect(nd.Divergence).To(Equal(divergence))
				Expect(nd.Others).To(BeEmpty())
				Expect(err).To(MatchError("determinism proof failed: " + f.Name() + " " + name +
					" differs between run 1 (all in one process) and run 2 (each alone): " + divergence +
					". A rung's output depends on which rungs ran before it in the same process (state leaking between rungs: " +
					"a package-level variable, a cache) or on something else that is not deterministic; no golden was written"))
				Expect(err.Error()).NotTo(Or(ContainSubstring(": golden "), ContainSubstring(", actual ")), "the two runs are not a golden and an actual")
				Expect(goldensExist(root)).To(BeFalse(), "nothing may be written, not even for the rungs that agreed")
			},
			Entry("dense.csv of the case", 1, artifact.DenseFile, denseB, `first divergence at tick 2, column "witness/at": run 1 market, run 2 road`),
			Entry("trace.jsonl of the rung", 0, artifact.TraceFile, traceB,
				`first divergent record at line 2 (tick 2, event "theft@2"): run 2 has event "theft@3" at tick 3 here instead (a record was added or removed)`),
			Entry("checkpoints.json of the case", 1, artifact.CheckpointsFile, checksB, "first different line 3: run 1 `\"rung\": \"T0.1\"`, run 2 `\"rung\": \"T0.2\"`"),
		)

		It("names the trace's first divergent record when the trace differs, not the dense cell or checkpoint it moved", func() {
			put(b, cas, artifacts{artifact.DenseFile: denseB, artifact.CheckpointsFile: checksB, artifact.TraceFile: traceB})
			_, err := regenerate(root, fixtures, a, b)
			var nd *regen.NondeterminismError
			Expect(errors.As(err, &nd)).To(BeTrue(), "%v", err)
			Expect(nd.File).To(Equal(artifact.TraceFile))
			Expect(nd.Divergence).To(HavePrefix(`first divergent record at line 2 (tick 2, event "theft@2"): `))
		})

		It("names a renamed record as renamed: the order-leak signature", func() {
			put(b, cas, artifacts{artifact.TraceFile: strings.Replace(standard()[artifact.TraceFile], `"theft@2"`, `"theft@2#2"`, 1)})
			_, err := regenerate(root, fixtures, a, b)
			Expect(err).To(MatchError(ContainSubstring(`(tick 2, event "theft@2"): the same record under another id (identity drift): id: run 1 "theft@2", run 2 "theft@2#2"`)))
		})

		It("names every other fixture whose renderings differ", func() {
			put(b, rung, artifacts{artifact.DenseFile: denseB})
			put(b, cas, artifacts{artifact.TraceFile: traceB, artifact.DenseFile: denseB})
			_, err := regenerate(root, fixtures, a, b)
			var nd *regen.NondeterminismError
			Expect(errors.As(err, &nd)).To(BeTrue(), "%v", err)
			Expect(nd.Rung).To(Equal("T0.1"))
			Expect(nd.Others).To(Equal([]string{"T0.1/quiet"}))
			Expect(err.Error()).To(ContainSubstring(`run 2 road; 1 more differ: T0.1/quiet. A rung's output`))
		})

		It("leaves existing goldens untouched", func() {
			_, err := regenerate(root, fixtures, a, b)
			Expect(err).NotTo(HaveOccurred())
			age(root, rung)
			put(a, rung, artifacts{artifact.DenseFile: denseB})
			put(b, cas, artifacts{artifact.TraceFile: traceB})

			_, err = regenerate(root, fixtures, a, b)
			var nd *regen.NondeterminismError
			Expect(errors.As(err, &nd)).To(BeTrue())
			Expect(nd.Rung).To(Equal("T0.1"))
			expectGoldens(rung, standard())
			expectGoldens(cas, standard())
			Expect(mtime(golden(root, rung, artifact.DenseFile))).To(BeTemporally("==", oldTime))
		})

		// A file one run wrote and the other did not has no first
		// difference to read: the refusal says so in words, and still
		// names the record or cell where the files both runs wrote differ.
		// failures.txt is the usual one: the expectations failed in one
		// run only.
		DescribeTable("names the first differing record or cell, and says in words what only one run wrote, never that a file is missing",
			func(change func(), file, divergence string) {
				change()
				_, err := regenerate(root, fixtures, a, b)
				var nd *regen.NondeterminismError
				Expect(errors.As(err, &nd)).To(BeTrue(), "%v", err)
				Expect(nd.Rung).To(Equal("T0.1/quiet"))
				Expect(nd.File).To(Equal(file))
				Expect(nd.Divergence).To(Equal(divergence))
				Expect(err.Error()).NotTo(Or(ContainSubstring("no such file"), ContainSubstring("does not exist")))
				Expect(goldensExist(root)).To(BeFalse())
			},
			Entry("failures.txt in run 2 only, the artifacts byte-identical: only the verdict differed",
				func() { put(b, cas, artifacts{regen.FailuresFile: failed}) },
				regen.FailuresFile, "run 2 wrote failures.txt — its expectations failed there: `"+failedFirst+"` (and 1 more) — run 1 did not; "+
					"every artifact is byte-identical in the two runs: only the verdict differed"),
			Entry("failures.txt in run 1 only, the artifacts byte-identical",
				func() { put(a, cas, artifacts{regen.FailuresFile: failedFirst + "\n"}) },
				regen.FailuresFile, "run 1 wrote failures.txt — its expectations failed there: `"+failedFirst+"` — run 2 did not; "+
					"every artifact is byte-identical in the two runs: only the verdict differed"),
			Entry("failures.txt in both, different, the artifacts byte-identical",
				func() {
					put(a, cas, artifacts{regen.FailuresFile: failed})
					put(b, cas, artifacts{regen.FailuresFile: failedFirst + "\n"})
				},
				regen.FailuresFile, "first different line 2: run 1 `always: holders of theft@2 only [witness]: got [merchant witness]`, run 2 <missing>; "+
					"every artifact is byte-identical in the two runs: only the verdict differed"),
			Entry("failures.txt in both, different, and the checkpoints differing",
				func() {
					put(a, cas, artifacts{regen.FailuresFile: failed})
					put(b, cas, artifacts{regen.FailuresFile: failedFirst + "\n", artifact.CheckpointsFile: checksB})
				},
				artifact.CheckpointsFile, "first different line 3: run 1 `\"rung\": \"T0.1\"`, run 2 `\"rung\": \"T0.2\"`"),
			Entry("failures.txt in run 2 only, the trace (and the dense file) differing at record 4",
				func() {
					put(a, cas, artifacts{artifact.TraceFile: traceLong})
					put(b, cas, artifacts{artifact.TraceFile: strings.Replace(traceLong, `"road"`, `"hall"`, 1), artifact.DenseFile: denseB, regen.FailuresFile: failed})
				},
				artifact.TraceFile, `first divergent record at line 4 (tick 3, event "theft@3b"): where: run 1 "road", run 2 "hall"; `+
					"run 2 wrote failures.txt — its expectations failed there: `"+failedFirst+"` (and 1 more) — run 1 did not"),
			Entry("failures.txt in run 1 only, the dense file (and the checkpoints) differing",
				func() {
					put(a, cas, artifacts{regen.FailuresFile: failed})
					put(b, cas, artifacts{artifact.DenseFile: denseB, artifact.CheckpointsFile: checksB})
				},
				artifact.DenseFile, `first divergence at tick 2, column "witness/at": run 1 market, run 2 road; `+
					"run 1 wrote failures.txt — its expectations failed there: `"+failedFirst+"` (and 1 more) — run 2 did not"),
			Entry("an artifact (and so its seal) missing in run 2, the rest the same",
				func() { Expect(os.Remove(golden(b, cas, artifact.DenseFile))).To(Succeed()) },
				artifact.DenseFile, "run 2 wrote no dense.csv, no manifest.json — its run of T0.1/quiet stopped before writing them (aborted, or its process killed) — and run 1 did"),
			Entry("an artifact (and so its seal) missing in run 1, the trace differing and failures.txt in run 2 only",
				func() {
					Expect(os.Remove(golden(a, cas, artifact.DenseFile))).To(Succeed())
					put(b, cas, artifacts{artifact.TraceFile: traceB, regen.FailuresFile: failed})
				},
				artifact.TraceFile, `first divergent record at line 2 (tick 2, event "theft@2"): run 2 has event "theft@3" at tick 3 here instead (a record was added or removed); `+
					"run 1 wrote no dense.csv, no manifest.json — its run of T0.1/quiet stopped before writing them (aborted, or its process killed) — and run 2 did; "+
					"run 2 wrote failures.txt — its expectations failed there: `"+failedFirst+"` (and 1 more) — run 1 did not"),
		)
	})

	It("refuses a rung whose expectations failed and writes nothing at all, not even the others", func() {
		failures := "at 2: belief(witness, theft@2).confidence: want 0.9, got 0.8\nalways: holders of theft@2 only [witness]: got [merchant witness]\n"
		put(a, rung, artifacts{regen.FailuresFile: failures})
		put(b, rung, artifacts{regen.FailuresFile: failures})

		st, err := regenerate(root, fixtures, a, b)
		var refused *regen.RefusedError
		Expect(errors.As(err, &refused)).To(BeTrue(), "%v", err)
		Expect(refused.Rungs).To(Equal([]string{"T0.1"}))
		Expect(err).To(MatchError(HavePrefix("goldens refused, nothing was written: 1 run(s) fail their own expectations (T0.1)")))
		Expect(cmp.Diff([]regen.Status{
			{Rung: "T0.1", State: "refused", Detail: "its expectations fail, so its goldens would record wrong behaviour:\n" +
				"  at 2: belief(witness, theft@2).confidence: want 0.9, got 0.8\n" +
				"  always: holders of theft@2 only [witness]: got [merchant witness]"},
			{Rung: "T0.1/quiet", State: "not written", Detail: "would be new"},
		}, st)).To(BeEmpty())
		Expect(goldensExist(root)).To(BeFalse(), "all or nothing: the case that passed is not written either")
	})

	It("keeps every old golden of the selection as it was when one rung is refused", func() {
		_, err := regenerate(root, fixtures, a, b)
		Expect(err).NotTo(HaveOccurred())
		age(root, rung)
		age(root, cas)
		for _, dir := range []string{a, b} {
			put(dir, rung, artifacts{artifact.DenseFile: denseB, regen.FailuresFile: "boom\n"})
			put(dir, cas, artifacts{artifact.DenseFile: denseB})
		}
		st, err := regenerate(root, fixtures, a, b)
		Expect(err).To(BeAssignableToTypeOf(&regen.RefusedError{}))
		Expect(st[0].State).To(Equal("refused"))
		Expect(st[0].Detail).To(HaveSuffix(":\n  boom"))
		Expect(st[1].String()).To(Equal(`T0.1/quiet not written: would be changed: dense.csv: first divergence at tick 2, column "witness/at": golden market, actual road`))
		expectGoldens(rung, standard())
		expectGoldens(cas, standard())
		Expect(mtime(golden(root, rung, artifact.DenseFile))).To(BeTemporally("==", oldTime))
		Expect(mtime(golden(root, cas, artifact.DenseFile))).To(BeTemporally("==", oldTime))
	})

	It("fails, writing nothing, when neither rendering holds an artifact", func() {
		for _, dir := range []string{a, b} {
			Expect(os.Remove(golden(dir, cas, artifact.TraceFile))).To(Succeed())
		}
		st, err := regenerate(root, fixtures, a, b)
		Expect(st).To(BeNil())
		Expect(err).To(MatchError(fs.ErrNotExist))
		Expect(err).To(MatchError("read rendering of T0.1/quiet: neither run 1 nor run 2 wrote trace.jsonl: file does not exist"))
		Expect(goldensExist(root)).To(BeFalse())
	})

	It("returns no statuses for no fixtures", func() {
		st, err := regenerate(root, nil, a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(st).To(BeEmpty())
	})
})

var _ = Describe("Regenerate and the sets' history", func() {
	var (
		root, a, b string
		fixtures   []*fixture.Fixture
		rung, cas  *fixture.Fixture
	)
	BeforeEach(func() {
		root, a, b = GinkgoT().TempDir(), GinkgoT().TempDir(), GinkgoT().TempDir()
		fixtures = parseFixtures()
		rung, cas = fixtures[0], fixtures[1]
		for _, dir := range []string{a, b} {
			put(dir, rung, standard())
			put(dir, cas, standard())
		}
	})
	entries := func(f *fixture.Fixture) []history.Entry {
		GinkgoHelper()
		es, err := history.Read([]byte(read(golden(root, f, history.File))))
		Expect(err).NotTo(HaveOccurred())
		return es
	}
	change := func(f *fixture.Fixture) {
		for _, dir := range []string{a, b} {
			put(dir, f, artifacts{artifact.DenseFile: denseB})
		}
	}

	It("starts a new set's history with an entry that needs no reason", func() {
		st, err := regenerateWith(root, fixtures, a, b, regen.Note{By: "goldens", CodeHash: "0123456789abcdef"})
		Expect(err).NotTo(HaveOccurred())
		want := history.Entry{State: history.New, By: "goldens", Fixture: "fixtures/T0.1-witness.yaml", FixtureHash: rung.Hash, CodeHash: "0123456789abcdef"}
		Expect(st[0].History).To(Equal(&want))
		Expect(entries(rung)).To(Equal([]history.Entry{want}))
		sealIntact(root, rung)
	})

	It("refuses a set that changes when the note gives no reason, writing nothing, and names every such set", func() {
		_, err := regenerate(root, fixtures, a, b)
		Expect(err).NotTo(HaveOccurred())
		age(root, rung)
		age(root, cas)
		before := read(golden(root, rung, history.File))
		change(rung)
		change(cas)

		st, err := regenerateWith(root, fixtures, a, b, regen.Note{By: "goldens", CodeHash: "0123456789abcdef"})
		var unexplained *regen.ReasonError
		Expect(errors.As(err, &unexplained)).To(BeTrue(), "%v", err)
		Expect(unexplained.Sets).To(Equal([]string{"T0.1", "T0.1/quiet"}))
		Expect(err).To(MatchError("goldens refused, nothing was written: 2 set(s) change (T0.1, T0.1/quiet), and each set's history records why its goldens changed: " +
			"say why with `make goldens REASON=\"…\"` (`go run ./tools/ladder goldens -reason \"…\"`); a new set needs none"))
		Expect(st[0].String()).To(Equal(`T0.1 not written: would be changed: dense.csv: first divergence at tick 2, column "witness/at": golden market, actual road`))
		Expect(st[0].History).To(BeNil())
		expectGoldens := func(f *fixture.Fixture) {
			for _, name := range ladder.Artifacts(f) {
				Expect(mtime(golden(root, f, name))).To(BeTemporally("==", oldTime), "%s %s written", f.Name(), name)
			}
		}
		expectGoldens(rung)
		expectGoldens(cas)
		Expect(read(golden(root, rung, history.File))).To(Equal(before))
	})

	It("appends the change's entry, sealed with the set, and appends nothing when nothing changes", func() {
		_, err := regenerate(root, fixtures, a, b)
		Expect(err).NotTo(HaveOccurred())
		change(rung)
		st, err := regenerateWith(root, fixtures, a, b, regen.Note{By: "goldens", Reason: "the witness walks to the road", CodeHash: "fedcba9876543210"})
		Expect(err).NotTo(HaveOccurred())
		want := history.Entry{State: history.Changed, By: "goldens", Fixture: "fixtures/T0.1-witness.yaml", FixtureHash: rung.Hash, CodeHash: "fedcba9876543210",
			Reason: "the witness walks to the road", Drift: "value drift", Cells: 1,
			First: &history.First{Artifact: artifact.DenseFile, Tick: 2, Column: "witness/at", Before: "market", After: "road"}}
		Expect(st[0].History).To(Equal(&want))
		Expect(st[1].History).To(BeNil(), "the case did not change")
		Expect(entries(rung)[1:]).To(Equal([]history.Entry{want}))
		sealIntact(root, rung)

		age(root, rung)
		Expect(os.Chtimes(golden(root, rung, history.File), oldTime, oldTime)).To(Succeed())
		before := read(golden(root, rung, history.File))
		st, err = regenerateWith(root, fixtures, a, b, regen.Note{By: "goldens"})
		Expect(err).NotTo(HaveOccurred(), "nothing changes, so no reason is needed")
		Expect(stripped(st)).To(Equal([]regen.Status{{Rung: "T0.1", State: "unchanged"}, {Rung: "T0.1/quiet", State: "unchanged"}}))
		Expect(read(golden(root, rung, history.File))).To(Equal(before))
		for _, name := range append(ladder.Artifacts(rung), history.File) {
			Expect(mtime(golden(root, rung, name))).To(BeTemporally("==", oldTime), "%s rewritten", name)
		}
	})

	It("keeps the history out of the proof, the plan and the changes: renderings never have one", func() {
		_, err := regenerate(root, fixtures, a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(golden(root, rung, history.File)).To(BeAnExistingFile())
		Expect(regen.Prove(fixtures, regen.Rendering{Dir: a, Name: "run 1"}, regen.Rendering{Dir: b, Name: "run 2"})).To(Succeed())
		st, files, err := regen.Plan(root, fixtures, a)
		Expect(err).NotTo(HaveOccurred())
		Expect(st).To(Equal([]regen.Status{{Rung: "T0.1", State: "unchanged"}, {Rung: "T0.1/quiet", State: "unchanged"}}))
		Expect(files).To(BeEmpty(), "a sealed history the rendering lacks is no change")
		fresh := map[string]string{}
		for _, name := range ladder.Artifacts(rung) {
			fresh[name] = golden(a, rung, name)
		}
		Expect(regen.Changes(root, rung.GoldenDir(), ladder.Artifacts(rung), fresh)).To(BeEmpty(),
			"the run's manifest seals what the golden one does, the history aside")
	})

	It("reseals a set whose manifest is missing with its history as it stands", func() {
		_, err := regenerate(root, fixtures, a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(os.Remove(golden(root, rung, artifact.ManifestFile))).To(Succeed())
		st, err := regenerateWith(root, fixtures, a, b, regen.Note{By: "goldens"})
		Expect(err).NotTo(HaveOccurred())
		Expect(st[0].State).To(Equal("sealed"))
		Expect(st[0].History).To(BeNil(), "a reseal is no change")
		sealIntact(root, rung)
		Expect(entries(rung)).To(HaveLen(1))
	})

	It("refuses to append to a history edited by hand, writing nothing", func() {
		_, err := regenerate(root, fixtures, a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(golden(root, rung, history.File), []byte(`{"by":"goldens","code_hash":"","fixture":"","fixture_hash":"","state":"new"}`+"\n"), 0o644)).To(Succeed())
		change(rung)
		_, err = regenerate(root, fixtures, a, b)
		Expect(err).To(MatchError(HavePrefix("goldens/T0.1-witness/history.jsonl does not match its seal")))
		Expect(read(golden(root, rung, artifact.DenseFile))).To(Equal(denseA))
	})
})
