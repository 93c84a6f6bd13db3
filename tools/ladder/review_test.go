package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/pending"
	"github.com/chronicle/ladder/ladder/regen"
	"github.com/chronicle/ladder/ladder/report"
	"github.com/chronicle/ladder/ladder/verdict"
)

// pendingRoot makes a repository-like root (the specs' own T0.1, its
// goldens, a module) the working directory, changes the confidence cell of the
// golden dense.csv at the given ticks to 0.5, and saves a run of T0.1 as
// the ladder suite would: its artifacts now differ from the goldens, so
// they are a pending change. It returns the golden's path and what it held
// before the change.
func pendingRoot(ticks ...int) (golden, rendered string) {
	GinkgoHelper()
	root := tempRoot(true)
	Expect(os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example\n"), 0o644)).To(Succeed())
	chdir(root)
	golden = filepath.Join("goldens", "T0.1-witness", artifact.DenseFile)
	rendered = read(golden)
	lines := strings.Split(rendered, "\n")
	for _, t := range ticks {
		Expect(lines[t+1]).To(HavePrefix(strconv.Itoa(t) + ",True,,True,,1,1,theft@2#v0,0.9,"))
		lines[t+1] = strings.Replace(lines[t+1], ",0.9,", ",0.5,", 1)
	}
	Expect(os.WriteFile(golden, []byte(strings.Join(lines, "\n")), 0o644)).To(Succeed())

	fs, err := regen.Select(".", []string{"T0.1"})
	Expect(err).NotTo(HaveOccurred())
	res, err := ladder.Run(fs[0], ladder.Options{Dir: pending.Dir("reports", fs[0]), Goldens: "."})
	Expect(err).NotTo(HaveOccurred())
	code, err := pending.CodeHash(".")
	Expect(err).NotTo(HaveOccurred())
	v := verdict.Verify(res)
	m, err := pending.Save("reports", ".", fs[0], pending.Run{CodeHash: code, Problems: verdict.Lines(verdict.Problems(res, nil, v))})
	Expect(err).NotTo(HaveOccurred())
	Expect(m).NotTo(BeNil())
	return golden, rendered
}

var _ = Describe("review, accept and reject", Serial, func() {
	It("reviews a pending change: first divergence, column groups with cells and ticks, each artifact, and how to accept", func() {
		pendingRoot(5, 6, 7)
		out, err := invoke("review")
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(out, "\n")
		Expect(lines[0]).To(MatchRegexp(`^T0\.1 changed — fixtures/T0\.1-witness\.yaml \(fixture [0-9a-f]{16}, code [0-9a-f]{16}\)$`))
		Expect(lines[1:]).To(Equal([]string{
			`  first: T0.1 dense.csv: first divergence at tick 5, column "witness/theft@2/confidence": golden 0.5, actual 0.9`,
			"  dense.csv: 3 cells changed in 1 column, ticks 5-7; 0 added, 0 removed",
			"    */theft@2/confidence: 1 column, 3 cells, ticks 5-7, max |Δ| 0.4",
			"  checkpoints.json: unchanged",
			"  trace.jsonl: unchanged",
			"  manifest.json: unchanged",
			`  accept: go run ./tools/ladder accept -reason "…" T0.1   reject: go run ./tools/ladder reject T0.1`,
			"",
			"1 pending change(s): 1 can be accepted, 0 cannot",
			"",
		}))
	})

	It("accepts a pending change without rerunning, after which nothing is pending and the goldens are the run's", func() {
		golden, rendered := pendingRoot(5)
		_, err := invoke("accept", "T0.1")
		Expect(err).To(MatchError(ContainSubstring("T0.1: its goldens change, and a change is kept only with its reason: say why with -reason")))
		out, err := invoke("accept", "T0.1", "-reason", "the witness is sure again") // a flag after the name reads as before it
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal("accepted T0.1 → goldens/T0.1-witness: dense.csv, history.jsonl, manifest.json\n" +
			`  history: changed by accept (value drift): first dense.csv at tick 5, column "witness/theft@2/confidence": 0.5 → 0.9; 1 cell, 0 records changed; why: "the witness is sure again"` + "\n" +
			"commit the goldens with a line saying why they changed: git diff --stat goldens/\n" +
			"then run make test: specs outside the ladder read the goldens too, and an intended change must leave it green\n"))
		Expect(read(golden)).To(Equal(rendered))
		out, err = invoke("review")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(HavePrefix("nothing pending under reports/"))
	})

	It("refuses to accept after the fixture is edited, and review says why", func() {
		golden, rendered := pendingRoot(5)
		f := filepath.Join("fixtures", "T0.1-witness.yaml")
		Expect(os.WriteFile(f, []byte(read(f)+"# edited after the run\n"), 0o644)).To(Succeed())
		_, err := invoke("accept", "-all")
		Expect(err).To(MatchError(MatchRegexp(`^accept refused, nothing was written:\n  T0\.1: the fixture changed since the run \(fixture hash [0-9a-f]{16} then, [0-9a-f]{16} now\)$`)))
		Expect(read(golden)).NotTo(Equal(rendered), "nothing written")
		out, err := invoke("review", "T0.1")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(ContainSubstring("\n  cannot be accepted: the fixture changed since the run"))
		Expect(out).To(ContainSubstring("\n  rerun: make ladder RUNG=T0.1   reject: go run ./tools/ladder reject T0.1\n"))
		Expect(out).To(HaveSuffix("1 pending change(s): 0 can be accepted, 1 cannot\n"))
	})

	It("refuses to review, accept, reject, verify or rebuild the page of a reports directory a run is writing", func() {
		pendingRoot(5)
		Expect(os.WriteFile(filepath.Join("reports", report.Marker), nil, 0o644)).To(Succeed()) // as a run leaves it
		lock, err := report.Lock("reports")                                                     // as a running make ladder holds it
		Expect(err).NotTo(HaveOccurred())
		defer lock.Close()
		for _, cmd := range [][]string{{"review"}, {"accept", "-reason", "x", "T0.1"}, {"reject", "T0.1"}, {"verify", "T0.1"}, {"page"}} {
			_, err := invoke(cmd...)
			Expect(err).To(MatchError(HavePrefix("reports is being written by another run (PID "+strconv.Itoa(os.Getpid())+")")), "%s", cmd[0])
		}
		Expect(lock.Close()).To(Succeed())
		_, err = invoke("review")
		Expect(err).NotTo(HaveOccurred(), "once the run is done")
	})

	It("rejects a pending change, keeping the goldens", func() {
		golden, _ := pendingRoot(5)
		before := read(golden)
		out, err := invoke("reject", "T0.1")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal("rejected T0.1 (its artifacts stay in reports/T0.1 until the next run)\n"))
		Expect(read(golden)).To(Equal(before))
		_, err = invoke("accept", "T0.1")
		Expect(err).To(MatchError("nothing pending for T0.1 (pending: none; run make ladder first)"))
	})

	DescribeTable("accept and reject need names or -all, not both",
		func(args ...string) {
			pendingRoot(5)
			for _, command := range []string{"accept", "reject"} {
				_, err := invoke(append([]string{command}, args...)...)
				Expect(err).To(MatchError(command + ": name rungs or cases (T2.1, T2.3/swapped), or pass -all"))
			}
		},
		Entry("neither"),
		Entry("both", "-all", "T0.1"),
	)
})

var _ = Describe("diff-golden", Serial, func() {
	It("prints the dense change cell by cell, grouped into runs, from a fresh run when the reports have none", func() {
		pendingRoot(5, 6, 7, 9)
		Expect(os.RemoveAll("reports")).To(Succeed())
		out, err := invoke("diff-golden", "T0.1")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal("T0.1 dense.csv: golden goldens/T0.1-witness/dense.csv, actual a fresh run of T0.1\n" +
			"4 cells changed in 1 column, ticks 5-9; 0 added, 0 removed\n" +
			"witness/theft@2/confidence\n" +
			"  ticks 5-7 (3 cells): 0.5 → 0.9\n" +
			"  tick 9: 0.5 → 0.9\n"))
	})

	It("reads the last run's artifacts when there are some, and names added columns", func() {
		golden, _ := pendingRoot(5)
		Expect(os.WriteFile(filepath.Join("reports", "T0.1", artifact.DenseFile), []byte("tick,zed/at\n0,road\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(golden, []byte("tick\n0\n"), 0o644)).To(Succeed())
		out, err := invoke("diff-golden", "T0.1")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal("T0.1 dense.csv: golden goldens/T0.1-witness/dense.csv, actual reports/T0.1/dense.csv\n" +
			"1 cell changed in 1 column, tick 0; 1 added, 0 removed\n" +
			"+ column zed/at\n" +
			"zed/at\n" +
			`  tick 0: "" → road` + "\n"))
	})

	It("needs exactly one rung", func() {
		_, err := invoke("diff-golden")
		Expect(err).To(MatchError("usage: ladder diff-golden [-run] <rung[/case]>"))
	})
})

var _ = Describe("textconv", func() {
	It("writes one line per held cell, so a diff shows changed cells", func() {
		p := filepath.Join(GinkgoT().TempDir(), "dense.csv")
		Expect(os.WriteFile(p, []byte("tick,a/at,a/t@1/confidence\n0,home,\n1,road,0.9\n"), 0o644)).To(Succeed())
		out, err := invoke("textconv", p)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal("tick 0 a/at = home\ntick 1 a/at = road\ntick 1 a/t@1/confidence = 0.9\n"))
	})

	It("writes a file that is not a dense table as it is, after saying so", func() {
		p := filepath.Join(GinkgoT().TempDir(), "dense.csv")
		Expect(os.WriteFile(p, []byte("not,a\ntable"), 0o644)).To(Succeed())
		out, err := invoke("textconv", p)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal("# not a well-formed dense file (dense: malformed golden at line 2: missing newline at end of file); shown as it is\nnot,a\ntable"))
	})
})

func read(path string) string {
	GinkgoHelper()
	b, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

var _ = Describe("the git diff driver for dense goldens", Serial, func() {
	It("makes git diff show the changed cells of a dense golden, a case's included", func() {
		gitPath, err := exec.LookPath("git")
		Expect(err).NotTo(HaveOccurred(), "git must be on PATH")
		bin := buildTool(nil)
		dir := GinkgoT().TempDir()
		git := func(args ...string) string {
			GinkgoHelper()
			cmd := exec.Command(gitPath, append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com",
				"-c", "diff.ladder-dense.textconv=" + bin + " textconv"}, args...)...)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), string(out))
			return string(out)
		}
		copyFile(filepath.Join(repo, ".gitattributes"), filepath.Join(dir, ".gitattributes"))
		vehicle := filepath.Join(tempRoot(true), "goldens", "T0.1-witness", "dense.csv")
		for _, p := range []string{"goldens/T9.9-x/dense.csv", "goldens/T9.9-x/case/dense.csv"} {
			copyFile(vehicle, filepath.Join(dir, filepath.FromSlash(p)))
		}
		git("init", "-q")
		git("add", "-A")
		git("commit", "-qm", "goldens")
		for _, p := range []string{"goldens/T9.9-x/dense.csv", "goldens/T9.9-x/case/dense.csv"} {
			full := filepath.Join(dir, filepath.FromSlash(p))
			Expect(os.WriteFile(full, []byte(strings.Replace(read(full), "\n5,True,,True,,1,1,theft@2#v0,0.9,", "\n5,True,,True,,1,1,theft@2#v0,0.5,", 1)), 0o644)).To(Succeed())
			out := git("diff", "-U0", "--", p)
			Expect(out).To(ContainSubstring("\n-tick 5 witness/theft@2/confidence = 0.9\n+tick 5 witness/theft@2/confidence = 0.5\n"), p)
			Expect(strings.Count(out, "\n+tick")).To(Equal(1), "only the changed cell: %s", out)
		}
	})
})
