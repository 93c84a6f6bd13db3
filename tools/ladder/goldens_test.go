package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/history"
	"github.com/chronicle/ladder/ladder/regen"
	"github.com/chronicle/ladder/ladder/seal"
)

var artifacts = []string{"dense.csv", "trace.jsonl", "checkpoints.json", "manifest.json"}

// failing is a rung whose only expectation fails: witness's confidence at
// tick 2 is 0.9, and it is heard, not repeated.
const failing = `rung: T0.1
title: Render unit
tier: 0
seed_id: unit-render
ticks: 4
locations:
  market: {hold: whiterun}
cast:
  merchant: {}
  witness: {}
events:
  - {tick: 1, kind: theft, actor: player, victim: merchant, item: sweetroll, at: market, witnesses: [witness]}
expect:
  - EXPECTATION
`

var _ = Describe("render", Serial, func() {
	It("writes a rung's artifacts laid out like goldens/, identical to the committed goldens", func() {
		socialRoot("T0.1-witness.yaml")
		out := GinkgoT().TempDir()
		_, err := invoke("render", "-out", out, "-rung", "T0.1")
		Expect(err).NotTo(HaveOccurred())
		for _, name := range artifacts[:3] {
			got, err := os.ReadFile(filepath.Join(out, "goldens", "T0.1-witness", name))
			Expect(err).NotTo(HaveOccurred())
			want, err := os.ReadFile(filepath.Join(repo, "goldens", "T0.1-witness", name))
			Expect(err).NotTo(HaveOccurred())
			Expect(bytes.Equal(got, want)).To(BeTrue(), "%s differs from the committed golden", name)
		}
		// The seal: the same digest for every file the render wrote. The
		// committed set may also seal a history.jsonl, which says why it
		// last moved: a render, which moves nothing, writes none.
		sealed := func(root string) map[string]string {
			GinkgoHelper()
			b, err := os.ReadFile(filepath.Join(root, "goldens", "T0.1-witness", "manifest.json"))
			Expect(err).NotTo(HaveOccurred())
			var m struct{ Files map[string]string }
			Expect(json.Unmarshal(b, &m)).To(Succeed())
			return m.Files
		}
		want := sealed(repo)
		delete(want, history.File)
		Expect(sealed(out)).To(Equal(want))
		Expect(filepath.Join(out, "goldens", "T0.1-witness", "failures.txt")).NotTo(BeAnExistingFile())
	})

	It("needs -out", func() {
		_, err := invoke("render")
		Expect(err).To(MatchError("render: -out is required"))
	})

	render := func(expectation string) string {
		GinkgoHelper()
		root := GinkgoT().TempDir()
		src := strings.Replace(failing, "EXPECTATION", expectation, 1)
		Expect(os.MkdirAll(filepath.Join(root, "fixtures"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(root, "fixtures", "T0.1-witness.yaml"), []byte(src), 0o644)).To(Succeed())
		chdir(root)
		out := GinkgoT().TempDir()
		_, err := invoke("render", "-out", out)
		Expect(err).NotTo(HaveOccurred())
		b, err := os.ReadFile(filepath.Join(out, "goldens", "T0.1-witness", "failures.txt"))
		Expect(err).NotTo(HaveOccurred())
		return string(b)
	}

	It("writes the failing expectations beside the artifacts, one per line", func() {
		Expect(render("{at: 2, belief: {holder: witness, claim: theft@1, confidence: 0.5}}")).To(Equal(
			"expect[0] (fixtures/T0.1-witness.yaml:14:67) at tick 2: belief(witness, theft@1).confidence = 0.9, want 0.5\n"))
		Expect(render("{from: 2, belief: {holder: witness, claim: theft@1, confidence: 0.5}}")).To(Equal(
			"expect[0] (fixtures/T0.1-witness.yaml:14:69) at tick 2: belief(witness, theft@1).confidence = 0.9, want 0.5 (and 1 more ticks)\n"))
	})

	// A failing expectation reports its first failing tick and how many
	// later ticks also failed: two wrong fields at its only checked tick
	// are one failing tick, not "(and 1 more ticks)".
	It("counts later failing ticks, not failing fields", func() {
		Expect(render("{at: 2, belief: {holder: witness, claim: theft@1, confidence: 0.5, stage: repeated}}")).To(Equal(
			"expect[0] (fixtures/T0.1-witness.yaml:14:67) at tick 2: belief(witness, theft@1).confidence = 0.9, want 0.5\n"))
	})
})

// The end-to-end spec builds the command, because `goldens` proves
// determinism by running its own executable twice. It regenerates T0.1
// and its cases (what -rung T0.1 selects) over copies of their committed
// goldens; the rung's own set is the one it edits.
var _ = Describe("goldens, end to end", Ordered, Serial, func() {
	var (
		bin, root string
		original  map[string][]byte
		runs      []*fixture.Fixture
	)
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	golden := func(name string) string { return filepath.Join(root, "goldens", "T0.1-witness", name) }

	// The go command that runs this test is on PATH (go test, make).
	goTool := func() string {
		p, err := exec.LookPath("go")
		Expect(err).NotTo(HaveOccurred(), "the go command must be on PATH")
		return p
	}

	BeforeAll(func() {
		dir, err := os.MkdirTemp("", "ladder-tool-")
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(os.RemoveAll, dir)
		bin = filepath.Join(dir, "ladder")
		build := exec.Command(goTool(), "build", "-o", bin, ".")
		build.Stdout, build.Stderr = GinkgoWriter, GinkgoWriter
		Expect(build.Run()).To(Succeed())

		// The specs' own T0.1 (see tempRoot), its goldens rendered and
		// made old.
		root = filepath.Join(dir, "root")
		fixtureFile := filepath.Join(root, "fixtures", "T0.1-witness.yaml")
		copyFile(filepath.Join(repo, "tools", "ladder", "testdata", "T0.1-witness.yaml"), fixtureFile)
		module(root)
		runs = loaded(fixtureFile)
		renderGoldens(root, runs)
		for _, r := range runs {
			for _, name := range artifacts {
				Expect(os.Chtimes(filepath.Join(root, filepath.FromSlash(r.GoldenDir()), name), old, old)).To(Succeed())
			}
		}
		original = map[string][]byte{}
		for _, name := range artifacts {
			original[name], err = os.ReadFile(golden(name))
			Expect(err).NotTo(HaveOccurred())
		}
	})

	// proved is the determinism line for every run -rung T0.1 selects, and
	// cases the line each of the rung's cases gets, unchanged.
	proved := func() string {
		return fmt.Sprintf("determinism: %d rung(s) rendered identically by run 1 (every selected rung in one process, in file order, after %s) and run 2 (each rung and case alone in a fresh process)\n",
			len(runs), regen.Prelude(runs, runs).Name())
	}
	cases := func() string {
		var b strings.Builder
		for _, r := range runs[1:] {
			b.WriteString(r.Name() + " unchanged\n")
		}
		return b.String()
	}

	goldens := func(flags ...string) string {
		GinkgoHelper()
		cmd := exec.Command(bin, append([]string{"goldens", "-rung", "T0.1"}, flags...)...)
		cmd.Dir = root
		var stdout bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, GinkgoWriter
		Expect(cmd.Run()).To(Succeed(), stdout.String())
		return stdout.String()
	}
	const review = "review the change before committing: git diff --stat goldens/ && git diff goldens/\n" +
		"then run make test: specs outside the ladder read the goldens too, and an intended change must leave it green\n"

	It("leaves unchanged goldens alone: same bytes, same modification times", func() {
		Expect(goldens()).To(Equal(proved() + "T0.1 unchanged\n" + cases() + review))
		for _, name := range artifacts {
			got, err := os.ReadFile(golden(name))
			Expect(err).NotTo(HaveOccurred())
			Expect(bytes.Equal(got, original[name])).To(BeTrue(), name)
		}
		for _, r := range runs {
			for _, name := range artifacts {
				info, err := os.Stat(filepath.Join(root, filepath.FromSlash(r.GoldenDir()), name))
				Expect(err).NotTo(HaveOccurred())
				Expect(info.ModTime().Equal(old)).To(BeTrue(), "%s of %s was rewritten (%v)", name, r.Name(), info.ModTime())
			}
		}
		entries, err := os.ReadDir(filepath.Dir(golden("dense.csv")))
		Expect(err).NotTo(HaveOccurred())
		files := 0
		for _, e := range entries {
			if !e.IsDir() { // a case's set is a directory beside the rung's files
				files++
			}
		}
		Expect(files).To(Equal(len(artifacts)), "no temporary file left behind")
		entries, err = os.ReadDir(filepath.Join(root, "goldens", ".regen"))
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(HaveLen(1), "the workspace keeps only its lock")
	})

	It("restores a golden whose dense cell was changed, naming the first divergence", func() {
		lines := strings.Split(string(original["dense.csv"]), "\n")
		Expect(lines[6]).To(HavePrefix("5,True,,True,,1,1,theft@2#v0,0.9,"))
		lines[6] = strings.Replace(lines[6], ",0.9,", ",0.5,", 1)
		Expect(os.WriteFile(golden("dense.csv"), []byte(strings.Join(lines, "\n")), 0o644)).To(Succeed())

		// A set that changes needs the reason its history records.
		cmd := exec.Command(bin, "goldens", "-rung", "T0.1")
		cmd.Dir = root
		out, err := cmd.Output()
		Expect(err).To(HaveOccurred())
		Expect(string(out)).To(Equal(proved() +
			`T0.1 not written: would be changed: dense.csv: first divergence at tick 5, column "witness/theft@2/confidence": golden 0.5, actual 0.9` + "\n" +
			cases()))
		Expect(golden(history.File)).NotTo(BeAnExistingFile())

		Expect(goldens("-reason", "undo a hand edit")).To(Equal(proved() +
			`T0.1 changed: dense.csv: first divergence at tick 5, column "witness/theft@2/confidence": golden 0.5, actual 0.9` + "\n" +
			`  history: changed by goldens (value drift): first dense.csv at tick 5, column "witness/theft@2/confidence": 0.5 → 0.9; 1 cell, 0 records changed; why: "undo a hand edit"` + "\n" +
			cases() + review))
		for _, name := range artifacts[:3] {
			got, err := os.ReadFile(golden(name))
			Expect(err).NotTo(HaveOccurred())
			Expect(bytes.Equal(got, original[name])).To(BeTrue(), "%s restored", name)
		}
		for _, name := range []string{"trace.jsonl", "checkpoints.json"} {
			info, err := os.Stat(golden(name))
			Expect(err).NotTo(HaveOccurred())
			Expect(info.ModTime().Equal(old)).To(BeTrue(), "%s untouched", name)
		}
		b, err := os.ReadFile(golden(history.File))
		Expect(err).NotTo(HaveOccurred())
		entries, err := history.Read(b)
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(HaveLen(1))
		Expect(entries[0].By).To(Equal("goldens"))
		Expect(entries[0].Fixture).To(Equal("fixtures/T0.1-witness.yaml"))
		Expect(entries[0].CodeHash).To(MatchRegexp(`^[0-9a-f]{16}$`))
		r := seal.Check(filepath.Dir(golden(history.File)), "T0.1")
		Expect(r.Breaches).To(BeEmpty())
		Expect(r.Verified).To(HaveKey(history.File), "the history is sealed with the set")
	})

	It("changes nothing the second time: no entry appended, no reason needed", func() {
		before, err := os.ReadFile(golden(history.File))
		Expect(err).NotTo(HaveOccurred())
		Expect(goldens()).To(Equal(proved() + "T0.1 unchanged\n" + cases() + review))
		after, err := os.ReadFile(golden(history.File))
		Expect(err).NotTo(HaveOccurred())
		Expect(after).To(Equal(before))
	})
})

// module makes root a module, as the repository is: goldens records the
// hash of the code that made them (pending.CodeHash), which needs go.mod.
func module(root string) {
	GinkgoHelper()
	Expect(os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example\n"), 0o644)).To(Succeed())
}

// buildTool builds this command into a temporary directory, with the Go
// files in overlay (repository path → replacement content) swapped in.
func buildTool(overlay map[string]string) string {
	GinkgoHelper()
	dir := GinkgoT().TempDir()
	bin := filepath.Join(dir, "ladder")
	args := []string{"build", "-o", bin}
	if len(overlay) > 0 {
		replace := map[string]string{}
		for path, content := range overlay {
			file := filepath.Join(dir, strings.ReplaceAll(path, "/", "_"))
			Expect(os.WriteFile(file, []byte(content), 0o644)).To(Succeed())
			replace[filepath.Join(repo, filepath.FromSlash(path))] = file
		}
		spec, err := json.Marshal(map[string]any{"Replace": replace})
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(filepath.Join(dir, "overlay.json"), spec, 0o644)).To(Succeed())
		args = append(args, "-overlay", filepath.Join(dir, "overlay.json"))
	}
	p, err := exec.LookPath("go")
	Expect(err).NotTo(HaveOccurred(), "the go command must be on PATH")
	build := exec.Command(p, append(args, ".")...)
	build.Stdout, build.Stderr = GinkgoWriter, GinkgoWriter
	Expect(build.Run()).To(Succeed())
	return bin
}

// The determinism proof must catch state that leaks from one rung into
// the next. The leak is planted in a scratch build: a package-level
// counter, bumped by every rendering, written into the trace.
var _ = Describe("goldens, with state leaking from one rung into the next", Ordered, Serial, func() {
	var bin, root string
	BeforeAll(func() {
		src, err := os.ReadFile(filepath.Join(repo, "ladder", "record", "streams.go"))
		Expect(err).NotTo(HaveOccurred())
		const anchor = "func (s *Streams) Finish(columns []string) (*Compared, error) {\n"
		Expect(string(src)).To(ContainSubstring(anchor), "the plant needs its anchor in ladder/record/streams.go")
		leaky := strings.Replace(string(src), anchor, anchor+
			"\tplantedLeak++\n\ts.sink.buf = fmt.Appendf(s.sink.buf, \"{\\\"leak\\\":%d}\\n\", plantedLeak)\n", 1) +
			"\nvar plantedLeak int\n"
		bin = buildTool(map[string]string{"ladder/record/streams.go": leaky})

		root = GinkgoT().TempDir()
		for _, name := range []string{"T0.1-witness", "T0.2-decay"} {
			copyFile(filepath.Join(repo, "fixtures", name+".yaml"), filepath.Join(root, "fixtures", name+".yaml"))
		}
		module(root)
	})

	It("is refused, naming the two runs, claiming nothing was identical, and writing nothing", func() {
		cmd := exec.Command(bin, "goldens")
		cmd.Dir = root
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		Expect(cmd.Run()).NotTo(Succeed())
		Expect(stdout.String()).To(BeEmpty(), "nothing may be claimed before the proof")
		// Run 1 renders a prelude first, so the leak shows from the very
		// first selected run on.
		all := append(runsOf("T0.1-witness"), runsOf("T0.2-decay")...)
		Expect(stderr.String()).To(HavePrefix("determinism proof failed: " + all[0].Name() + " trace.jsonl differs between " +
			"run 1 (every selected rung in one process, in file order, after "))
		Expect(stderr.String()).To(ContainSubstring(") and run 2 (each rung and case alone in a fresh process): first divergent record at line "))
		// Every later run differs too, and is named.
		leak := ": leak: run 1 2, run 2 1"
		if later := all[1:]; len(later) > 0 {
			names := make([]string, len(later))
			for i, r := range later {
				names[i] = r.Name()
			}
			leak += fmt.Sprintf("; %d more differ: %s", len(later), strings.Join(names, ", "))
		}
		Expect(stderr.String()).To(ContainSubstring(leak + ". A rung's output depends on which rungs ran before it"))
		Expect(stderr.String()).NotTo(ContainSubstring("identical"))
		entries, err := os.ReadDir(filepath.Join(root, "goldens"))
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(HaveLen(1), "only the workspace: no golden written")
		Expect(entries[0].Name()).To(Equal(".regen"))
		entries, err = os.ReadDir(filepath.Join(root, "goldens", ".regen"))
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(HaveLen(1), "the renderings are removed, the lock stays")
	})

	It("is refused for a single case too, which a fresh process also renders first: run 1 renders another rung before it", func() {
		one := runsOf("T0.2-decay")
		sel := one[len(one)-1].Name()
		cmd := exec.Command(bin, "goldens", "-rung", sel)
		cmd.Dir = root
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		Expect(cmd.Run()).NotTo(Succeed(), stdout.String())
		Expect(stderr.String()).To(HavePrefix("determinism proof failed: " + sel + " trace.jsonl differs between " +
			"run 1 (every selected rung in one process, in file order, after T0.1"))
		Expect(stderr.String()).To(ContainSubstring(": leak: run 1 2, run 2 1. A rung's output"))
		_, err := os.Stat(filepath.Join(root, "goldens", "T0.2-decay"))
		Expect(err).To(MatchError(os.ErrNotExist), "no golden written")
	})

	It("renders identically without the leak, proving the plant is what was caught", func() {
		cmd := exec.Command(buildTool(nil), "goldens")
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		all := append(runsOf("T0.1-witness"), runsOf("T0.2-decay")...)
		Expect(string(out)).To(HavePrefix(fmt.Sprintf("determinism: %d rung(s) rendered identically by run 1", len(all))))
		var created strings.Builder
		for _, r := range all {
			created.WriteString(r.Name() + " new\n")
		}
		Expect(string(out)).To(ContainSubstring(created.String()))
	})
})

// Each rendering of the proof renders every selected run exactly once,
// and run 2 each in a process of its own. A rung's name alone would select
// its cases too: run 2 rendered a case once after its rung and again
// alone, into the same directory, and kept the second rendering's
// artifacts beside the first's failures.txt — so a flip in the first
// rendering read as a verdict that differed over byte-identical artifacts.
// The renders are counted by a line each, planted in a scratch build.
var _ = Describe("goldens, the runs each rendering renders", Ordered, Serial, func() {
	It("renders every selected run once in each rendering, and each of run 2's in a process of its own", func() {
		src, err := os.ReadFile(filepath.Join(repo, "ladder", "regen", "render.go"))
		Expect(err).NotTo(HaveOccurred())
		const anchor = "\tfor _, f := range fixtures {\n\t\tdir := filepath.Join(out, filepath.FromSlash(f.GoldenDir()))\n"
		Expect(string(src)).To(ContainSubstring(anchor), "the plant needs its anchor in ladder/regen/render.go")
		counted := strings.Replace(string(src), anchor, anchor+
			"\t\tif log, err := os.OpenFile(os.Getenv(\"RENDER_LOG\"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {\n"+
			"\t\t\tfmt.Fprintln(log, filepath.Base(out), os.Getpid(), f.Name())\n\t\t\tlog.Close()\n\t\t}\n", 1)
		bin := buildTool(map[string]string{"ladder/regen/render.go": counted})

		root := GinkgoT().TempDir()
		for _, name := range []string{"T0.1-witness", "T0.2-decay"} {
			copyFile(filepath.Join(repo, "fixtures", name+".yaml"), filepath.Join(root, "fixtures", name+".yaml"))
		}
		module(root)
		log := filepath.Join(GinkgoT().TempDir(), "renders")
		cmd := exec.Command(bin, "goldens", "-rung", "T0.1")
		cmd.Dir, cmd.Env = root, append(os.Environ(), "RENDER_LOG="+log)
		out, err := cmd.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))

		b, err := os.ReadFile(log)
		Expect(err).NotTo(HaveOccurred())
		renders := map[string][]string{}   // rendering → the runs it rendered
		processes := map[string][]string{} // run 2's processes → the runs each rendered
		for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			fields := strings.Fields(line)
			Expect(fields).To(HaveLen(3), line)
			renders[fields[0]] = append(renders[fields[0]], fields[2])
			if fields[0] == "run-2" {
				processes[fields[1]] = append(processes[fields[1]], fields[2])
			}
		}
		var names []string
		for _, r := range runsOf("T0.1-witness") {
			names = append(names, r.Name())
		}
		Expect(len(names)).To(BeNumerically(">", 1), "T0.1 needs a case for a rung's name to select more than it")
		Expect(renders["run-1"]).To(Equal(names), "run 1: every selected run once, in file order")
		Expect(renders["run-2"]).To(ConsistOf(names), "run 2: every selected run once")
		for pid, runs := range processes {
			Expect(runs).To(HaveLen(1), "run 2's process %s rendered %v", pid, runs)
		}
	})
})
