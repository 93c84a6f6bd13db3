package report_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/report"
)

var _ = Describe("MergeRuns", func() {
	write := func(path, content string) {
		GinkgoHelper()
		Expect(os.MkdirAll(filepath.Dir(path), 0o755)).To(Succeed())
		Expect(os.WriteFile(path, []byte(content), 0o644)).To(Succeed())
	}
	read := func(path string) string {
		GinkgoHelper()
		b, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		return string(b)
	}
	var a, b, out string
	BeforeEach(func() {
		a, b, out = GinkgoT().TempDir(), GinkgoT().TempDir(), GinkgoT().TempDir()
		write(filepath.Join(a, "junit.xml"), "a's junit")
		write(filepath.Join(a, "T0.1", "dense.csv"), "a dense")
		write(filepath.Join(a, "T0.1", "rule-off", "pending.json"), `{"rung":"T0.1/rule-off"}`)
		write(filepath.Join(b, "T2.1", "pending.json"), `{"rung":"T2.1"}`)
		write(filepath.Join(b, "T2.1", "dense.csv"), "b dense")
	})

	It("copies every shard's runs, their pending changes with them, so that review and the page see one run", func() {
		Expect(report.MergeRuns(out, []string{a, b})).To(Succeed())
		Expect(read(filepath.Join(out, "T0.1", "dense.csv"))).To(Equal("a dense"))
		Expect(read(filepath.Join(out, "T0.1", "rule-off", "pending.json"))).To(Equal(`{"rung":"T0.1/rule-off"}`))
		Expect(read(filepath.Join(out, "T2.1", "pending.json"))).To(Equal(`{"rung":"T2.1"}`))
		Expect(filepath.Join(out, "junit.xml")).NotTo(BeAnExistingFile(), "the shard's own reports are merged by Merge, not copied")
	})

	It("replaces what a previous merge left in out", func() {
		write(filepath.Join(out, "T2.1", "stale.txt"), "old")
		Expect(report.MergeRuns(out, []string{a, b})).To(Succeed())
		Expect(filepath.Join(out, "T2.1", "stale.txt")).NotTo(BeAnExistingFile())
	})

	It("refuses a run found in two shards, naming both, and copies nothing", func() {
		write(filepath.Join(b, "T0.1", "dense.csv"), "b's T0.1")
		err := report.MergeRuns(out, []string{a, b})
		Expect(err).To(MatchError("merge runs: T0.1 ran in two shards (" + a + " and " + b + ")"))
		entries, err := os.ReadDir(out)
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(BeEmpty())
	})

})

// Merge's refusals come before it reads a shard's reports, so shards of
// runs' directories alone are enough to show them.
var _ = Describe("Merge", func() {
	var a, out string
	BeforeEach(func() {
		a, out = GinkgoT().TempDir(), filepath.Join(GinkgoT().TempDir(), "merged")
		Expect(os.MkdirAll(filepath.Join(a, "T0.1"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(a, "T0.1", "dense.csv"), []byte("a dense"), 0o644)).To(Succeed())
	})

	It("returns why the merge itself failed (a shard without its junit.xml)", func() {
		lock, err := report.Merge(out, []string{a})
		Expect(err).To(MatchError(ContainSubstring("junit.xml: no such file or directory")))
		Expect(lock).To(BeNil())
	})

	It("refuses a shard that holds a symlink, naming it, and writes nothing", func() {
		Expect(os.Symlink("/etc/passwd", filepath.Join(a, "T0.1", "trace.jsonl"))).To(Succeed())
		_, err := report.Merge(out, []string{a})
		Expect(err).To(MatchError("merge: shard " + a + ": " + filepath.Join(a, "T0.1", "trace.jsonl") + " is a symlink (to /etc/passwd): refused, nothing written: " +
			"the ladder writes and copies only real directories and files of its own, never through a link that can lead anywhere; replace it with a directory or a file"))
		Expect(out).NotTo(BeAnExistingFile())
	})

	It("refuses an out that is a symlink, or a directory with files that is not a reports directory, and one of the shards", func() {
		target := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(target, "junit.xml"), []byte("someone's"), 0o644)).To(Succeed())
		Expect(os.Symlink(target, out)).To(Succeed())
		_, err := report.Merge(out, []string{a})
		Expect(err).To(MatchError(ContainSubstring(out + " is a symlink (to " + target + "): refused")))
		_, err = report.Merge(target, []string{a})
		Expect(err).To(MatchError(ContainSubstring("not a reports directory: " + target + " holds junit.xml")))
		entries, err := os.ReadDir(target)
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(HaveLen(1))
		Expect(os.ReadFile(filepath.Join(target, "junit.xml"))).To(Equal([]byte("someone's")))

		Expect(os.WriteFile(filepath.Join(a, report.Marker), nil, 0o644)).To(Succeed())
		_, err = report.Merge(a, []string{a})
		Expect(err).To(MatchError("merge: -out " + a + " is the shard " + a + ": merging into it would clear it first; give -out a directory of its own"))
		Expect(filepath.Join(a, "T0.1", "dense.csv")).To(BeAnExistingFile())
	})
})
