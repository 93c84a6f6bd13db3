package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// A RUNG= run has no goldens-health spec, so the rung's own spec must
// fail on what that spec fails on for the rung's sets; and every run
// fails a golden set that is a symlink. The suite is run on a scratch
// root holding T0.1 and its goldens, each fault planted for real.
var _ = Describe("a RUNG= run, against faults in the goldens it selects", Serial, func() {
	It("fails on an obsolete directory under the set, a half-finished switch touching it, and a set or golden that is a symlink", func() {
		root := tempRoot(true)
		copyFile(filepath.Join(repo, "go.mod"), filepath.Join(root, "go.mod"))
		Expect(os.MkdirAll(filepath.Join(root, "ladder"), 0o755)).To(Succeed())
		bin := buildSuite(GinkgoT().TempDir())
		set := filepath.Join(root, "goldens", "T0.1-witness")
		// The suite's exit status says nothing here: on a root holding one
		// rung, the coverage verdict judges the run as a full one and
		// fails. The count line says how the rungs did.
		run := func() string {
			GinkgoHelper()
			cmd := exec.Command(bin, "-ginkgo.label-filter=T0.1", "-ginkgo.no-color")
			cmd.Dir = filepath.Join(root, "ladder")
			cmd.Env = append(os.Environ(), "LADDER_REPORTS="+filepath.Join(root, "reports"), "LADDER_PAGE=off")
			out, _ := cmd.CombinedOutput()
			return string(out)
		}
		Expect(run()).To(ContainSubstring("ladder: 2 rungs passed, 0 failed"), "the scratch root's T0.1 and its case pass before any fault is planted")

		By("an obsolete directory under the rung's set")
		copyFile(filepath.Join(set, "dense.csv"), filepath.Join(set, "gone", "dense.csv"))
		out := run()
		Expect(out).To(ContainSubstring("ladder: 1 rungs passed, 1 failed"))
		Expect(out).To(ContainSubstring("T0.1 goldens: goldens/T0.1-witness/gone is obsolete: no fixture has it"))
		Expect(os.RemoveAll(filepath.Join(set, "gone"))).To(Succeed())

		By("a half-finished switch touching the set, whose seal holds")
		b, err := os.ReadFile(filepath.Join(set, "dense.csv"))
		Expect(err).NotTo(HaveOccurred())
		sum := sha256.Sum256(b)
		h := hex.EncodeToString(sum[:])
		journal := fmt.Sprintf(`{"version":1,"files":[{"path":"goldens/T0.1-witness/dense.csv","old":"%s","new":"%s"}]}`+"\n", h, h)
		Expect(os.MkdirAll(filepath.Join(root, "goldens", ".regen"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(root, "goldens", ".regen", "journal"), []byte(journal), 0o644)).To(Succeed())
		out = run()
		Expect(out).To(ContainSubstring("ladder: 1 rungs passed, 1 failed"))
		Expect(out).To(ContainSubstring("T0.1 seal: goldens/T0.1-witness is in a half-finished switch"))
		Expect(os.Remove(filepath.Join(root, "goldens", ".regen", "journal"))).To(Succeed())

		By("a golden set that is a symlink to a directory outside the repository")
		outside := filepath.Join(GinkgoT().TempDir(), "set")
		Expect(os.Rename(set, outside)).To(Succeed())
		Expect(os.Symlink(outside, set)).To(Succeed())
		out = run()
		Expect(out).To(ContainSubstring("ladder: 0 rungs passed, 2 failed"), "the case's set is reached through the link too")
		Expect(out).To(ContainSubstring("T0.1 goldens: goldens/T0.1-witness is a symlink (to " + outside + "): goldens live only in real directories"))
		Expect(os.Remove(set)).To(Succeed())
		Expect(os.Rename(outside, set)).To(Succeed())

		By("a golden file that is a symlink")
		Expect(os.Rename(filepath.Join(set, "trace.jsonl"), filepath.Join(outside+".trace"))).To(Succeed())
		Expect(os.Symlink(outside+".trace", filepath.Join(set, "trace.jsonl"))).To(Succeed())
		out = run()
		Expect(out).To(ContainSubstring("ladder: 1 rungs passed, 1 failed"))
		Expect(out).To(ContainSubstring("T0.1 goldens: goldens/T0.1-witness/trace.jsonl is a symlink (to " + outside + ".trace)"))
	})
})
