package confine_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/confine"
)

var _ = Describe("Check", func() {
	var base, outside string
	BeforeEach(func() {
		base, outside = GinkgoT().TempDir(), GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(base, "goldens", "T0.2-decay"), 0o755)).To(Succeed())
	})

	It("passes real directories, and components that do not exist yet", func() {
		Expect(confine.Check(base, "goldens/T0.2-decay/dense.csv")).To(Succeed())
		Expect(confine.Check(base, "goldens/T9.9-new/case/dense.csv")).To(Succeed())
	})

	It("refuses a symlink anywhere on the path, naming it and its target", func() {
		Expect(os.Symlink(outside, filepath.Join(base, "goldens", "T0.1-witness"))).To(Succeed())
		err := confine.Check(base, "goldens/T0.1-witness/dense.csv")
		var link *confine.LinkError
		Expect(errors.As(err, &link)).To(BeTrue(), "got %v", err)
		Expect(link.Path).To(Equal(filepath.Join(base, "goldens", "T0.1-witness")))
		Expect(err).To(MatchError(HavePrefix(filepath.Join(base, "goldens", "T0.1-witness") + " is a symlink (to " + outside + "): refused, nothing written")))
	})

	It("refuses a symlinked file, even one whose target does not exist", func() {
		Expect(os.Symlink(filepath.Join(outside, "nothing"), filepath.Join(base, "goldens", "T0.2-decay", "dense.csv"))).To(Succeed())
		Expect(confine.Check(base, "goldens/T0.2-decay/dense.csv")).To(MatchError(ContainSubstring("dense.csv is a symlink")))
	})

	It("refuses a path that leaves the base", func() {
		Expect(confine.Check(base, "goldens/../../x")).To(MatchError(ContainSubstring("leaves")))
		Expect(confine.Check(base, "/etc/passwd")).To(MatchError(ContainSubstring("not a relative path")))
	})

	It("checks a named directory itself with Dir, not what holds it", func() {
		Expect(os.Symlink(outside, filepath.Join(base, "reports"))).To(Succeed())
		Expect(confine.Dir(filepath.Join(base, "reports") + "/")).To(MatchError(ContainSubstring("reports is a symlink")))
		Expect(confine.Dir(filepath.Join(base, "goldens"))).To(Succeed())
		Expect(confine.Dir(filepath.Join(base, "missing"))).To(Succeed())
	})
})

var _ = Describe("Tree", func() {
	It("passes directories and regular files, and refuses the first symlink or odd file inside", func() {
		dir := GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(dir, "T0.1", "case"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "T0.1", "case", "dense.csv"), nil, 0o644)).To(Succeed())
		Expect(confine.Tree(dir)).To(Succeed())

		Expect(syscall.Mkfifo(filepath.Join(dir, "T0.1", "pipe"), 0o644)).To(Succeed())
		Expect(confine.Tree(dir)).To(MatchError(ContainSubstring("pipe is neither a directory nor a regular file")))
		Expect(os.Symlink("/etc/passwd", filepath.Join(dir, "T0.1", "case", "trace.jsonl"))).To(Succeed())
		Expect(confine.Tree(dir)).To(MatchError(HavePrefix(filepath.Join(dir, "T0.1", "case", "trace.jsonl") + " is a symlink (to /etc/passwd)")))
	})

	It("reads a directory named through a link, and checks what it holds", func() {
		real, dir := GinkgoT().TempDir(), GinkgoT().TempDir()
		Expect(os.Symlink("/etc", filepath.Join(real, "etc"))).To(Succeed())
		Expect(os.Symlink(real, filepath.Join(dir, "shard"))).To(Succeed())
		Expect(confine.Tree(filepath.Join(dir, "shard"))).To(MatchError(ContainSubstring("etc is a symlink (to /etc)")))
	})
})
