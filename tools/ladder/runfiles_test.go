package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/lineage"
	"github.com/chronicle/ladder/ladder/regen"
	"github.com/chronicle/ladder/ladder/rerun"
)

// The instruments read a run's written files (package ladder/runfiles),
// and -rerun runs the fixture again instead. For every run of the ladder
// that has goldens, what each instrument prints from the goldens must be
// what it prints from a re-run: the files answer everything the engine's
// state did. No rung's output is written here; both sides are the tool's.

// goldenRuns are the ladder's runs that have a committed trace: every
// rung and case, not a sweep's seed worlds.
func goldenRuns() []*fixture.Fixture {
	all, err := regen.Select(repo, nil)
	if err != nil {
		panic(err)
	}
	var out []*fixture.Fixture
	for _, f := range all {
		if _, err := os.Stat(filepath.Join(repo, filepath.FromSlash(f.GoldenDir()), artifact.TraceFile)); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// sameFromFiles runs an instrument on the goldens and on a re-run and
// holds the two outputs (or errors) equal.
func sameFromFiles(args ...string) {
	GinkgoHelper()
	rerun, errR := invoke(append([]string{args[0], "-rerun"}, args[1:]...)...)
	files, errF := invoke(append([]string{args[0], "-golden"}, args[1:]...)...)
	Expect(errF).NotTo(HaveOccurred(), "%v from the goldens", args)
	Expect(errR).NotTo(HaveOccurred(), "%v from a re-run", args)
	Expect(cmp.Diff(rerun, files)).To(BeEmpty(), "%v: -rerun (-) and -golden (+) differ", args)
}

// socialLayer reports whether a run's golden trace names the social layer.
func socialLayer(f *fixture.Fixture) bool {
	GinkgoHelper()
	recs := goldenTrace(f)
	return len(recs) > 0 && slices.Contains(recs[0]["layers"].([]any), any("social"))
}

var _ = Describe("the instruments from a run's files", Serial, func() {
	BeforeEach(func() { chdir(repo) })

	runs := goldenRuns()
	It("has runs to hold", func() { Expect(len(runs)).To(BeNumerically(">", 50)) })
	for _, f := range runs {
		It(fmt.Sprintf("print of %s what a re-run prints", f.Name()), func() {
			name, last := f.Name(), f.Ticks-1
			sameFromFiles("rules", "-rung", name)
			// A core-only run has no social change to list (decision
			// 0015): its diff is a heading and "0 changes" either way.
			if socialLayer(f) && last > 0 {
				sameFromFiles("diff", "-rung", name, "-from", fmt.Sprint(last/3))
			}
			if len(f.Roles) > 0 {
				sameFromFiles("role", "-rung", name, "-at", fmt.Sprint(last/2))
				sameFromFiles("role", "-rung", name)
			}
			// The fear view, from the dense row and the trace's events,
			// mid-run and at the end.
			sameFromFiles("fear", "-rung", name, "-at", fmt.Sprint(last/2))
			sameFromFiles("fear", "-rung", name)
			// The state, printed only when a re-run reaches the digests
			// the run recorded: then it is the re-run's, byte for byte.
			sameFromFiles("state", "-rung", name, "-at", fmt.Sprint(last/2))
			// The first claim's curve: every claim's columns are read
			// alike.
			for _, c := range goldenDense(f).Columns {
				if claim, ok := strings.CutSuffix(c, "/believers"); ok {
					sameFromFiles("curve", "-rung", name, "-claim", claim, "-format", "csv")
					break
				}
			}
			// Every NPC a rule rescheduled; the base and where it was
			// are read the same way for every other.
			d := goldenDense(f)
			for _, n := range f.Cast {
				if slices.Contains(d.Columns, "schedule/"+n.ID+"/override") {
					sameFromFiles("schedule", "-rung", name, "-npc", n.ID)
				}
			}
			// The first belief at the end, the last at mid-run (where
			// it may not have formed yet: then both refuse alike).
			var beliefs [][2]string
			for _, c := range d.Columns {
				if hc, ok := strings.CutSuffix(c, "/variant"); ok && strings.Count(hc, "/") == 1 {
					h, c, _ := strings.Cut(hc, "/")
					beliefs = append(beliefs, [2]string{h, c})
				}
			}
			if len(beliefs) > 0 {
				first, lastB := beliefs[0], beliefs[len(beliefs)-1]
				sameFromFiles("explain", "-rung", name, "-holder", first[0], "-claim", first[1])
				sameOrSameRefusal("explain", "-rung", name, "-holder", lastB[0], "-claim", lastB[1], "-at", fmt.Sprint(last/2))
			}
		})
	}
})

// sameOrSameRefusal is sameFromFiles for a question either side may
// refuse: both must answer alike, or refuse alike.
func sameOrSameRefusal(args ...string) {
	GinkgoHelper()
	rerun, errR := invoke(append([]string{args[0], "-rerun"}, args[1:]...)...)
	files, errF := invoke(append([]string{args[0], "-golden"}, args[1:]...)...)
	if errR != nil || errF != nil {
		Expect(errF).To(HaveOccurred(), "%v: -rerun refuses (%v), -golden answers", args, errR)
		Expect(errR).To(HaveOccurred(), "%v: -golden refuses (%v), -rerun answers", args, errF)
		Expect(errF.Error()).To(Equal(errR.Error()), "%v: the two refuse differently", args)
		return
	}
	Expect(cmp.Diff(rerun, files)).To(BeEmpty(), "%v: -rerun (-) and -golden (+) differ", args)
}

var _ = Describe("the lineage from a run's trace", Serial, func() {
	// The page's variant tree, contests and evidence, as the golden
	// trace tells them (lineage.Read) and as the engine holds them
	// (rerun.Lineage), mid-run and at the end, for every run.
	BeforeEach(func() { chdir(repo) })
	for _, f := range goldenRuns() {
		It(fmt.Sprintf("of %s is the engine's, as of mid-run and at the end", f.Name()), func() {
			data, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(f.GoldenDir()), artifact.TraceFile))
			Expect(err).NotTo(HaveOccurred())
			w, err := ladder.Build(f, nil)
			Expect(err).NotTo(HaveOccurred())
			for _, t := range []int64{(f.Ticks - 1) / 2, f.Ticks - 1} {
				for w.Now() < t {
					Expect(w.Step()).To(Succeed())
				}
				files, err := lineage.Read(bytes.NewReader(data), t)
				Expect(err).NotTo(HaveOccurred())
				Expect(cmp.Diff(rerun.Lineage(w), files)).To(BeEmpty(), "%s as of tick %d: the engine (-) and the trace (+) differ", f.Name(), t)
			}
		})
	}
})

var _ = Describe("where the instruments read a run", Serial, func() {
	// A root holding T3.3's fixture, and its goldens copied from the
	// repository: the spec reads whatever they hold, never its values.
	const rung, set = "T3.3", "goldens/T3.3-favor-ledger"
	var root string
	BeforeEach(func() {
		socialRoot("T3.3-favor-ledger.yaml")
		root, _ = os.Getwd()
		for _, name := range []string{artifact.TraceFile, artifact.DenseFile} {
			copyFile(filepath.Join(repo, set, name), filepath.Join(root, set, name))
		}
	})

	golden := func(args ...string) string {
		GinkgoHelper()
		out, err := invoke(append(args, "-golden")...)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).NotTo(BeEmpty())
		return out
	}

	It("names the missing file and the command that writes it", func() {
		_, err := invoke("rules", "-rung", rung)
		Expect(err).To(MatchError(ContainSubstring("rules: reports/T3.3/trace.jsonl: no such file: `make ladder RUNG=T3.3` writes it, or read the goldens with -golden")))
		Expect(os.RemoveAll(filepath.Join(root, set))).To(Succeed())
		_, err = invoke("rules", "-rung", rung, "-golden")
		Expect(err).To(MatchError(ContainSubstring("rules: goldens/T3.3-favor-ledger/trace.jsonl: no such golden: `make goldens RUNG=T3.3 REASON=\"…\"` writes it")))
	})

	It("reads any directory laid out like reports/, as it reads the goldens", func() {
		for _, name := range []string{artifact.TraceFile, artifact.DenseFile} {
			copyFile(filepath.Join(root, set, name), filepath.Join(root, "artifact", rung, name))
		}
		want := golden("diff", "-rung", rung, "-from", "1")
		Expect(invoke("diff", "-rung", rung, "-from", "1", "-reports", "artifact")).To(Equal(want))
	})

	It("reads the goldens a commit had, not the checkout's", func() {
		want := golden("rules", "-rung", rung)
		git := func(args ...string) {
			GinkgoHelper()
			out, err := exec.Command("git", append([]string{"-c", "user.name=spec", "-c", "user.email=spec@example.com"}, args...)...).CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), string(out))
		}
		git("init", "-q")
		git("add", "-A")
		git("commit", "-q", "-m", "goldens")
		Expect(os.WriteFile(filepath.Join(root, set, artifact.TraceFile), []byte("not a trace\n"), 0o644)).To(Succeed())
		Expect(invoke("rules", "-rung", rung, "-golden-at", "HEAD")).To(Equal(want))
		_, err := invoke("rules", "-rung", rung, "-golden")
		Expect(err).To(MatchError(ContainSubstring("goldens/T3.3-favor-ledger/trace.jsonl: trace line 1")))
		_, err = invoke("rules", "-rung", rung, "-golden-at", "no-such-commit")
		Expect(err).To(MatchError(ContainSubstring("-golden-at no-such-commit: git knows no such commit here")))
	})

	It("names the run's range for a tick outside it", func() {
		d := goldenDense(fixtureRun("T3.3-favor-ledger", rung))
		last := d.Rows[len(d.Rows)-1][0]
		_, err := invoke("diff", "-rung", rung, "-from", "0", "-to", "100000", "-golden")
		Expect(err).To(MatchError(fmt.Sprintf("diff: want 0 ≤ from < to < %d (the run in goldens/T3.3-favor-ledger), got from 0, to 100000", int(number(last))+1)))
	})

	DescribeTable("refuses two places to read from",
		func(want string, args ...string) {
			_, err := invoke(append([]string{"rules", "-rung", rung}, args...)...)
			Expect(err).To(MatchError("rules: " + want))
		},
		Entry("-golden and -reports", "-reports, -golden and -golden-at name different places to read the run from: pick one", "-golden", "-reports", "x"),
		Entry("-rerun and -golden", "-rerun runs the fixture again and reads no files: drop -reports, -golden or -golden-at", "-rerun", "-golden"),
	)
})
