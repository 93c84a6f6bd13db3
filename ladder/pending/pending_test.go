package pending_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/dense"
	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/history"
	"github.com/chronicle/ladder/ladder/pending"
	"github.com/chronicle/ladder/ladder/regen"
	"github.com/chronicle/ladder/ladder/seal"
)

// repo is the repository root: the suite runs in ladder/pending.
var repo = filepath.Join("..", "..")

func copyFile(from, to string) {
	GinkgoHelper()
	b, err := os.ReadFile(from)
	Expect(err).NotTo(HaveOccurred())
	Expect(os.MkdirAll(filepath.Dir(to), 0o755)).To(Succeed())
	Expect(os.WriteFile(to, b, 0o644)).To(Succeed())
}

// craft sets one field of the pending.json of name under reports, as a
// crafted artifact would.
func craft(reports, name, field, value string) {
	GinkgoHelper()
	p := filepath.Join(reports, filepath.FromSlash(name), pending.ManifestFile)
	var m map[string]any
	Expect(json.Unmarshal([]byte(read(p)), &m)).To(Succeed())
	Expect(m).To(HaveKey(field))
	m[field] = value
	b, err := json.Marshal(m)
	Expect(err).NotTo(HaveOccurred())
	Expect(os.WriteFile(p, b, 0o644)).To(Succeed())
}

func read(path string) string {
	GinkgoHelper()
	b, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

var _ = Describe("pending changes", func() {
	var (
		root, reports, code string
		arts                map[string]map[string][]byte // by rung
		fixtures            map[string]*fixture.Fixture
	)
	rungs := map[string]string{"T0.1": "T0.1-witness", "T0.2": "T0.2-decay"}

	goldenPath := func(rung, name string) string {
		return filepath.Join(root, "goldens", rungs[rung], name)
	}
	save := func(rung string, run pending.Run) *pending.Manifest {
		GinkgoHelper()
		if run.CodeHash == "" {
			run.CodeHash = code
		}
		// The run wrote its artifacts under reports/, where Save finds them.
		for name, b := range arts[rung] {
			write(pending.Dir(reports, fixtures[rung]), name, string(b))
		}
		m, err := pending.Save(reports, root, fixtures[rung], run)
		Expect(err).NotTo(HaveOccurred())
		return m
	}
	// breakGolden makes rung's committed dense golden differ from the run.
	breakGolden := func(rung string) {
		GinkgoHelper()
		Expect(os.WriteFile(goldenPath(rung, artifact.DenseFile), []byte("tick\n0\n"), 0o644)).To(Succeed())
	}
	list := func() []pending.Manifest {
		GinkgoHelper()
		ms, err := pending.List(reports)
		Expect(err).NotTo(HaveOccurred())
		return ms
	}

	BeforeEach(func() {
		root = GinkgoT().TempDir()
		reports = filepath.Join(root, "reports")
		write(root, "go.mod", "module example\n")
		write(root, "sim/world.go", "package sim\n")
		arts, fixtures = map[string]map[string][]byte{}, map[string]*fixture.Fixture{}
		for rung, dir := range rungs {
			copyFile(filepath.Join(repo, "fixtures", dir+".yaml"), filepath.Join(root, "fixtures", dir+".yaml"))
			fs, err := regen.Select(root, []string{rung})
			Expect(err).NotTo(HaveOccurred())
			fixtures[rung] = fs[0]
			for _, name := range ladder.Artifacts(fs[0]) {
				copyFile(filepath.Join(repo, "goldens", dir, name), goldenPath(rung, name))
			}
			res, err := ladder.Run(fs[0], ladder.Options{Dir: GinkgoT().TempDir()})
			Expect(err).NotTo(HaveOccurred())
			arts[rung] = map[string][]byte{}
			for _, name := range ladder.Artifacts(fs[0]) {
				arts[rung][name] = []byte(read(res.Path(name)))
			}
		}
		var err error
		code, err = pending.CodeHash(root)
		Expect(err).NotTo(HaveOccurred())
	})

	Describe("Save", func() {
		It("keeps the artifacts, and writes no manifest when they are the goldens", func() {
			Expect(save("T0.1", pending.Run{})).To(BeNil())
			for _, name := range ladder.Artifacts(fixtures["T0.1"]) {
				Expect(read(filepath.Join(reports, "T0.1", name))).To(Equal(string(arts["T0.1"][name])))
			}
			Expect(filepath.Join(reports, "T0.1", pending.ManifestFile)).NotTo(BeAnExistingFile())
			Expect(list()).To(BeEmpty())
		})

		It("writes a manifest naming what changed and where the artifacts came from", func() {
			breakGolden("T0.1")
			m := save("T0.1", pending.Run{Problems: []string{"T0.1 dense.csv: first divergence …"}})
			Expect(m).NotTo(BeNil())
			Expect(m.Name).To(Equal("T0.1"))
			Expect(m.Fixture).To(Equal("fixtures/T0.1-witness.yaml"))
			Expect(m.FixtureHash).To(Equal(fixtures["T0.1"].Hash))
			Expect(m.CodeHash).To(Equal(code))
			Expect(m.GoldenDir).To(Equal("goldens/T0.1-witness"))
			Expect(m.State).To(Equal("changed"))
			Expect(m.Changed).To(Equal([]string{artifact.DenseFile}))
			Expect(m.Artifacts).To(HaveKey(artifact.ManifestFile), "the seal is an artifact like the files it seals")
			Expect(m.Artifacts).To(HaveLen(len(ladder.Artifacts(fixtures["T0.1"]))))
			Expect(m.Problems).To(Equal([]string{"T0.1 dense.csv: first divergence …"}))
			Expect(list()).To(Equal([]pending.Manifest{*m}))
		})

		It("compares by the seals' digests once the caller checked the golden set against its seal, reading no golden again", func() {
			Expect(save("T0.1", pending.Run{GoldenSealed: true})).To(BeNil())
			// A golden resealed with other bytes differs by digest: the
			// same files listed as when both are read.
			breakGolden("T0.1")
			dir := filepath.Join(root, "goldens", "T0.1-witness")
			Expect(seal.Write(dir, "T0.1", ladder.Sealed(fixtures["T0.1"]))).To(Succeed())
			bySeal := save("T0.1", pending.Run{GoldenSealed: true})
			Expect(bySeal.Changed).To(Equal([]string{artifact.DenseFile, artifact.ManifestFile}))
			Expect(save("T0.1", pending.Run{}).Changed).To(Equal(bySeal.Changed))
			// What the seal stands for is not read: a golden edited under
			// an unchanged seal (which the seal check refuses first) is
			// taken at its seal's word.
			Expect(os.WriteFile(filepath.Join(dir, artifact.ManifestFile), arts["T0.1"][artifact.ManifestFile], 0o644)).To(Succeed())
			Expect(save("T0.1", pending.Run{GoldenSealed: true})).To(BeNil())
			Expect(save("T0.1", pending.Run{}).Changed).To(Equal([]string{artifact.DenseFile}))
		})

		It("calls a rung without goldens new", func() {
			Expect(os.RemoveAll(filepath.Join(root, "goldens", "T0.1-witness"))).To(Succeed())
			m := save("T0.1", pending.Run{})
			Expect(m.State).To(Equal("new"))
			Expect(m.Changed).To(Equal(ladder.Artifacts(fixtures["T0.1"])))
		})

		It("keeps an aborted run pending even when its artifacts match, so review shows it", func() {
			m := save("T0.1", pending.Run{Aborted: errors.New("pin never matched")})
			Expect(m).NotTo(BeNil())
			Expect(m.Aborted).To(Equal("pin never matched"))
			Expect(m.Changed).To(BeEmpty())
		})
	})

	Describe("List and Select", func() {
		BeforeEach(func() {
			breakGolden("T0.1")
			breakGolden("T0.2")
			save("T0.1", pending.Run{})
			save("T0.2", pending.Run{})
		})

		It("lists by name and selects by rung", func() {
			ms := list()
			Expect(ms).To(HaveLen(2))
			Expect(ms[0].Name).To(Equal("T0.1"))
			sel, err := pending.Select(ms, []string{"T0.2"})
			Expect(err).NotTo(HaveOccurred())
			Expect(sel).To(HaveLen(1))
			Expect(sel[0].Name).To(Equal("T0.2"))
		})

		It("refuses a name with nothing pending, listing what is", func() {
			_, err := pending.Select(list(), []string{"T0.1", "T2.3/swapped"})
			Expect(err).To(MatchError("nothing pending for T2.3/swapped (pending: T0.1, T0.2)"))
			_, err = pending.Select(nil, []string{"T0.1"})
			Expect(err).To(MatchError("nothing pending for T0.1 (pending: none; run make ladder first)"))
		})

		It("refuses a manifest that does not parse or is not where its name says", func() {
			write(reports, "T0.1/pending.json", `{"name": "T0.1", "rung": "T0.1", "extra": 1}`)
			_, err := pending.List(reports)
			Expect(err).To(MatchError(ContainSubstring(`unknown field "extra"`)))
			write(reports, "T0.1/pending.json", `{"name": "T0.2", "rung": "T0.2"}`)
			_, err = pending.List(reports)
			Expect(err).To(MatchError(ContainSubstring("it describes T0.2, which belongs in")))
		})

		It("lists nothing when there are no reports", func() {
			ms, err := pending.List(filepath.Join(root, "nowhere"))
			Expect(err).NotTo(HaveOccurred())
			Expect(ms).To(BeEmpty())
		})
	})

	Describe("Accept", func() {
		BeforeEach(func() {
			breakGolden("T0.1")
			breakGolden("T0.2")
		})

		It("copies exactly the run's artifacts into goldens/, only those that changed, and drops the manifests", func() {
			save("T0.1", pending.Run{})
			save("T0.2", pending.Run{})
			trace := goldenPath("T0.1", artifact.TraceFile)
			before, err := os.Stat(trace)
			Expect(err).NotTo(HaveOccurred())

			acc, rec, err := pending.Accept(root, reports, list(), "the goldens were broken by hand")
			Expect(err).NotTo(HaveOccurred())
			Expect(rec.Empty()).To(BeTrue())
			for i := range acc {
				Expect(acc[i].History).NotTo(BeNil())
				acc[i].History = nil
			}
			// The dense file, and the history entry saying why with the seal
			// that covers it.
			Expect(acc).To(Equal([]pending.Accepted{
				{Name: "T0.1", GoldenDir: "goldens/T0.1-witness", Files: []string{artifact.DenseFile, history.File, artifact.ManifestFile}},
				{Name: "T0.2", GoldenDir: "goldens/T0.2-decay", Files: []string{artifact.DenseFile, history.File, artifact.ManifestFile}},
			}))
			for rung := range rungs {
				for _, name := range ladder.Sealed(fixtures[rung]) {
					Expect(read(goldenPath(rung, name))).To(Equal(string(arts[rung][name])), "%s %s", rung, name)
				}
			}
			for rung, dir := range rungs {
				r := seal.Check(filepath.Join(root, "goldens", dir), rung)
				Expect(r.Breaches).To(BeEmpty(), "%s: accepting reseals the set", rung)
				Expect(r.Examined).To(Equal(len(ladder.Sealed(fixtures[rung]))+1), "the history is sealed with the goldens")
			}
			after, err := os.Stat(trace)
			Expect(err).NotTo(HaveOccurred())
			Expect(after.ModTime()).To(Equal(before.ModTime()), "an unchanged golden is not rewritten")
			Expect(list()).To(BeEmpty())
			Expect(filepath.Join(reports, "T0.1", artifact.DenseFile)).To(BeAnExistingFile(), "the evidence stays")
		})

		DescribeTable("refuses, writing nothing for any selected rung, when one cannot be accepted",
			func(run pending.Run, after func(), reason string) {
				save("T0.1", pending.Run{})
				save("T0.2", run)
				if after != nil {
					after()
				}
				_, _, err := pending.Accept(root, reports, list(), "")
				var refused *pending.RefusedError
				Expect(errors.As(err, &refused)).To(BeTrue(), "%v", err)
				Expect(refused.Order).To(Equal([]string{"T0.2"}))
				Expect(err).To(MatchError(MatchRegexp(`^accept refused, nothing was written:\n  T0.2: ` + reason)))
				Expect(read(goldenPath("T0.1", artifact.DenseFile))).To(Equal("tick\n0\n"), "T0.1 could be accepted but must not be, alone")
				Expect(read(goldenPath("T0.2", artifact.DenseFile))).To(Equal("tick\n0\n"))
				Expect(list()).To(HaveLen(2))
			},
			Entry("the fixture was edited", pending.Run{}, func() {
				p := filepath.Join(root, "fixtures", "T0.2-decay.yaml")
				Expect(os.WriteFile(p, []byte(read(p)+"# a note\n"), 0o644)).To(Succeed())
			}, `the fixture changed since the run \(fixture hash [0-9a-f]{16} then, [0-9a-f]{16} now\)$`),
			Entry("the fixture no longer loads", pending.Run{}, func() {
				write(root, "fixtures/T0.2-decay.yaml", "rung: [\n")
			}, `its fixture no longer loads: `),
			Entry("the code changed (it was produced by other code)", pending.Run{CodeHash: "0123456789abcdef"}, nil,
				`the code changed since the run \(code hash 0123456789abcdef then, [0-9a-f]{16} now\)$`),
			Entry("an artifact was edited", pending.Run{}, func() { write(reports, "T0.2/trace.jsonl", "{}\n") },
				`its trace.jsonl was changed after the run \(it is not what the run produced\)$`),
			Entry("an artifact is gone", pending.Run{}, func() { Expect(os.Remove(filepath.Join(reports, "T0.2", "dense.csv"))).To(Succeed()) },
				`its dense.csv cannot be read: `),
			// A crafted pending.json (a CI artifact, or one merged from
			// shards) cannot choose where its artifacts go, nor which
			// fixture they are judged by.
			Entry("its pending.json names another rung's golden set", pending.Run{}, func() { craft(reports, "T0.2", "golden_dir", "goldens/T0.1-witness") },
				`its pending.json names the golden set "goldens/T0.1-witness", but T0.2's golden set is goldens/T0.2-decay: refused`),
			Entry("its pending.json names goldens/ itself", pending.Run{}, func() { craft(reports, "T0.2", "golden_dir", "goldens") },
				`its pending.json names the golden set "goldens", but T0.2's golden set is goldens/T0.2-decay: refused`),
			Entry("its pending.json names a fixture outside the repository", pending.Run{}, func() {
				copyFile(filepath.Join(root, "fixtures", "T0.2-decay.yaml"), filepath.Join(root, "..", "outside", "T0.2-decay.yaml"))
				craft(reports, "T0.2", "fixture", "../outside/T0.2-decay.yaml")
			}, `its pending.json names the fixture "../outside/T0.2-decay.yaml", but T0.2 is defined by fixtures/T0.2-decay.yaml: refused`),
			Entry("its expectations fail", pending.Run{Expectations: []string{"expect[0] … want 0.5"}}, nil,
				`its expectations fail \(1\), so its goldens would record wrong behaviour: expect\[0\] … want 0.5$`),
			Entry("the run aborted", pending.Run{Aborted: errors.New("pin never matched")}, nil,
				`the run aborted, so its artifacts are partial: pin never matched$`),
		)
	})

	Describe("Accept's history", func() {
		BeforeEach(func() { breakGolden("T0.1") })

		It("refuses a set that changes when no reason is given, writing nothing, and says how to give one", func() {
			save("T0.1", pending.Run{})
			_, _, err := pending.Accept(root, reports, list(), "")
			var refused *pending.RefusedError
			Expect(errors.As(err, &refused)).To(BeTrue(), "%v", err)
			Expect(err).To(MatchError("accept refused, nothing was written:\n  T0.1: its goldens change, and a change is kept only with its reason: " +
				"say why with -reason (`go run ./tools/ladder accept -reason \"…\" T0.1`); the set's history records it"))
			Expect(read(goldenPath("T0.1", artifact.DenseFile))).To(Equal("tick\n0\n"))
			Expect(goldenPath("T0.1", history.File)).NotTo(BeAnExistingFile())
			Expect(list()).To(HaveLen(1))
			Expect(entries(filepath.Join(root, "goldens", ".regen"))).To(Equal([]string{"lock"}), "nothing composed is left behind")
		})

		It("needs no reason for a new set, and records that it is new", func() {
			Expect(os.RemoveAll(filepath.Join(root, "goldens", "T0.1-witness"))).To(Succeed())
			save("T0.1", pending.Run{})
			acc, _, err := pending.Accept(root, reports, list(), "")
			Expect(err).NotTo(HaveOccurred())
			Expect(acc[0].Files).To(Equal(append(ladder.Sealed(fixtures["T0.1"]), history.File, artifact.ManifestFile)))
			Expect(read(goldenPath("T0.1", history.File))).To(Equal(`{"by":"accept","code_hash":"` + code + `","fixture":"fixtures/T0.1-witness.yaml","fixture_hash":"` +
				fixtures["T0.1"].Hash + `","state":"new"}` + "\n"))
		})

		It("appends an entry with the pending change's hashes, its first divergence, drift class, counts and reason, sealed with the set", func() {
			save("T0.1", pending.Run{})
			m := list()[0]
			acc, _, err := pending.Accept(root, reports, list(), "restore the witness")
			Expect(err).NotTo(HaveOccurred())
			e := acc[0].History
			Expect(e).NotTo(BeNil())
			Expect(*e).To(Equal(history.Entry{
				State: history.Changed, By: "accept", Fixture: m.Fixture, FixtureHash: m.FixtureHash, CodeHash: m.CodeHash,
				Reason: "restore the witness", Drift: "value drift", Cells: e.Cells,
				// The broken golden has no column but tick: the first
				// divergence is the header's second field.
				First: &history.First{Artifact: artifact.DenseFile, Tick: -1, Before: dense.Missing,
					After: strings.Split(string(arts["T0.1"][artifact.DenseFile]), ",")[1]},
			}))
			Expect(e.Cells).To(Equal(heldAtFirstTick(arts["T0.1"][artifact.DenseFile])),
				"as review counts them: the cells of the ticks both files have (the golden's only row), each held in a column the golden lacked")
			b, err := os.ReadFile(goldenPath("T0.1", history.File))
			Expect(err).NotTo(HaveOccurred())
			Expect(history.Read(b)).To(Equal([]history.Entry{*e}))

			// The next run of the same code makes no pending change: its
			// manifest seals what the golden one does, the history aside.
			Expect(save("T0.1", pending.Run{})).To(BeNil())
			Expect(save("T0.1", pending.Run{GoldenSealed: true})).To(BeNil())

			// A second change appends; the first entry stays as it was.
			breakGolden("T0.1")
			save("T0.1", pending.Run{})
			acc, _, err = pending.Accept(root, reports, list(), "again")
			Expect(err).NotTo(HaveOccurred())
			now, err := os.ReadFile(goldenPath("T0.1", history.File))
			Expect(err).NotTo(HaveOccurred())
			Expect(string(now)).To(HavePrefix(string(b)))
			Expect(history.Read(now)).To(HaveLen(2))
			Expect(seal.Check(filepath.Join(root, "goldens", "T0.1-witness"), "T0.1").Breaches).To(BeEmpty())
		})

		It("refuses to append to a history edited by hand, which its seal no longer vouches for", func() {
			save("T0.1", pending.Run{})
			_, _, err := pending.Accept(root, reports, list(), "first")
			Expect(err).NotTo(HaveOccurred())
			Expect(os.WriteFile(goldenPath("T0.1", history.File), []byte(`{"by":"accept","code_hash":"","fixture":"","fixture_hash":"","state":"new"}`+"\n"), 0o644)).To(Succeed())
			breakGolden("T0.1")
			save("T0.1", pending.Run{})
			_, _, err = pending.Accept(root, reports, list(), "second")
			Expect(err).To(MatchError(MatchRegexp("^accept T0.1: goldens/T0.1-witness/history.jsonl does not match its seal \\(sealed sha256 [0-9a-f]{12}…, now [0-9a-f]{12}…\\): " +
				"restore it and its seal \\(`git checkout HEAD -- goldens/T0.1-witness/history.jsonl goldens/T0.1-witness/manifest.json`\\)")))
			Expect(read(goldenPath("T0.1", artifact.DenseFile))).To(Equal("tick\n0\n"), "nothing written")
		})
	})

	It("Accept refuses every rung once the code changes", func() {
		breakGolden("T0.1")
		save("T0.1", pending.Run{})
		write(root, "sim/world.go", "package sim\n\nvar leak int\n")
		_, _, err := pending.Accept(root, reports, list(), "")
		Expect(err).To(MatchError(MatchRegexp(`^accept refused, nothing was written:\n  T0.1: the code changed since the run \(code hash ` + code + ` then, [0-9a-f]{16} now\)$`)))
	})

	It("Accept refuses while a killed run's switch is pending, with its advice, writing nothing", func() {
		breakGolden("T0.1")
		save("T0.1", pending.Run{})
		write(root, "goldens/.regen/journal", `{"version":1,"files":[{"path":"goldens/T0.1-witness/dense.csv","old":"","new":""}]}`)
		_, _, err := pending.Accept(root, reports, list(), "")
		Expect(err).To(MatchError(MatchRegexp("^accept: nothing accepted: goldens are half switched: .*abandon it with `make goldens ABANDON=1`")))
		Expect(read(goldenPath("T0.1", artifact.DenseFile))).To(Equal("tick\n0\n"))
		Expect(list()).To(HaveLen(1))
	})

	It("Reject drops the manifest and keeps the evidence", func() {
		breakGolden("T0.1")
		save("T0.1", pending.Run{})
		Expect(pending.Reject(reports, list())).To(Succeed())
		Expect(list()).To(BeEmpty())
		Expect(filepath.Join(reports, "T0.1", artifact.DenseFile)).To(BeAnExistingFile())
		Expect(read(goldenPath("T0.1", artifact.DenseFile))).To(Equal("tick\n0\n"))
	})
})

// entries lists the names in dir.
func entries(dir string) []string {
	GinkgoHelper()
	des, err := os.ReadDir(dir)
	Expect(err).NotTo(HaveOccurred())
	var out []string
	for _, d := range des {
		out = append(out, d.Name())
	}
	return out
}

// heldAtFirstTick counts the cells a dense file holds (not empty) in its
// first row, the tick aside.
func heldAtFirstTick(data []byte) int {
	GinkgoHelper()
	t, err := dense.Parse(data)
	Expect(err).NotTo(HaveOccurred())
	n := 0
	for _, v := range t.Rows[0][1:] {
		if v != "" {
			n++
		}
	}
	return n
}
