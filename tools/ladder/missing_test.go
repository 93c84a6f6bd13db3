package main

import (
	"os"
	"os/exec"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/regen"
	"github.com/chronicle/ladder/ladder/verdict"
)

// These specs pin verdict.Verify's advice on a missing golden, which asks
// git whether it ever had the file. They live here rather than in the
// ladder package because the determinism matrix runs that package under
// qemu-user, where fork/exec crashes the 386 Go runtime.

const t02Commands = "(reproduce: make ladder RUNG=T0.2; if intended: `go run ./tools/ladder review T0.2`, then `accept -reason \"…\" T0.2`)"

func messages(v verdict.Verdict) []string { return verdict.Lines(v.Problems) }

var _ = Describe("Verify's advice on a missing golden", func() {
	var (
		f        *fixture.Fixture
		tmp, dir string
	)
	// verify runs the rung against the goldens under tmp, as the suite
	// does, and returns the verdict's messages.
	verify := func() verdict.Verdict {
		GinkgoHelper()
		res, err := ladder.Run(f, ladder.Options{Dir: GinkgoT().TempDir(), Goldens: tmp})
		Expect(err).NotTo(HaveOccurred())
		return verdict.Verify(res)
	}
	BeforeEach(func() {
		fs, err := regen.Select(repo, []string{"T0.2"})
		Expect(err).NotTo(HaveOccurred())
		f = fs[0]
		tmp = GinkgoT().TempDir()
		dir = filepath.Join(tmp, "goldens", "T0.2-decay")
		_, err = ladder.Run(f, ladder.Options{Dir: dir})
		Expect(err).NotTo(HaveOccurred())
	})

	It("advises on a missing golden that was never committed, file by file", func() {
		Expect(os.Remove(filepath.Join(dir, artifact.DenseFile))).To(Succeed())
		Expect(messages(verify())).To(Equal([]string{
			"T0.2 dense.csv: golden goldens/T0.2-decay/dense.csv is missing and was never committed: review and accept this run's artifacts " +
				"(`go run ./tools/ladder review T0.2`, then `accept -reason \"…\" T0.2`) " + t02Commands,
		}))
	})

	It("reports a rung with no goldens at all, never committed, once: a new rung", func() {
		Expect(os.RemoveAll(dir)).To(Succeed())
		v := verify()
		Expect(messages(v)).To(Equal([]string{
			"T0.2: no goldens yet (goldens/T0.2-decay/ does not exist): review what this run produced with `go run ./tools/ladder review T0.2` " +
				"and accept it with `go run ./tools/ladder accept T0.2`, or run `make goldens RUNG=T0.2`",
		}))
		Expect(v.Problems[0].Check).To(Equal("goldens"))
		Expect(v.Problems[0].NoGoldens).To(BeTrue(), "marked new, so the seal summary does not count it as a rung whose seal went unchecked")
	})

	It("tells a deleted golden that git still has from one never created, and says how to restore it", func() {
		git := func(args ...string) {
			GinkgoHelper()
			cmd := exec.Command("git", append([]string{"-C", tmp, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), string(out))
		}
		git("init", "-q")
		git("add", "goldens")
		git("commit", "-qm", "goldens")
		deleted := func(name string) string {
			return "T0.2 " + name + ": golden goldens/T0.2-decay/" + name + " was deleted, but git has it: restore it with " +
				"`git checkout HEAD -- goldens/T0.2-decay/" + name + "` (or, if deleting it was meant, accept this run's artifacts: " +
				"`go run ./tools/ladder accept -reason \"…\" T0.2`) " + t02Commands
		}
		Expect(os.Remove(filepath.Join(dir, artifact.TraceFile))).To(Succeed())
		Expect(messages(verify())).To(Equal([]string{deleted(artifact.TraceFile)}))

		git("rm", "-q", "--cached", "goldens/T0.2-decay/trace.jsonl")
		Expect(messages(verify())).To(Equal([]string{deleted(artifact.TraceFile)}), "git rm: still in HEAD")

		Expect(os.RemoveAll(dir)).To(Succeed())
		Expect(messages(verify())).To(Equal([]string{deleted(artifact.DenseFile), deleted(artifact.TraceFile), deleted(artifact.CheckpointsFile)}),
			"a whole directory git has is deleted goldens, not a new rung")
	})

})
