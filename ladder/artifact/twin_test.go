package artifact_test

import (
	"bytes"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/artifact"
)

var _ = Describe("CreateTwin", func() {
	var dir, golden, path string
	// big spans several of a twin's read windows.
	big := bytes.Repeat([]byte("0123456789abcdef\n"), 60_000) // about 1 MB
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		golden = filepath.Join(dir, "goldens", "trace.jsonl")
		Expect(os.MkdirAll(filepath.Dir(golden), 0o755)).To(Succeed())
		Expect(os.WriteFile(golden, big, 0o644)).To(Succeed())
		path = filepath.Join(dir, "reports", "trace.jsonl")
	})

	// write writes b in pieces of uneven sizes, some across a window's
	// edge, as a run's writers do, and reports whether the File was still
	// a twin after each.
	write := func(f *artifact.File, b []byte) []bool {
		GinkgoHelper()
		var twinned []bool
		for i, size := 0, 1; len(b) > 0; i, size = i+1, size*7%65_521+1 {
			k := min(size, len(b))
			n, err := f.Write(b[:k])
			Expect(err).NotTo(HaveOccurred())
			Expect(n).To(Equal(k))
			b = b[k:]
			twinned = append(twinned, f.Twinned())
		}
		return twinned
	}
	sameFile := func(a, b string) bool {
		GinkgoHelper()
		ia, err := os.Stat(a)
		Expect(err).NotTo(HaveOccurred())
		ib, err := os.Stat(b)
		Expect(err).NotTo(HaveOccurred())
		return os.SameFile(ia, ib)
	}

	It("writes nothing while the output is the golden, and links the golden in place at Commit", func() {
		f, err := artifact.CreateTwin(path, golden)
		Expect(err).NotTo(HaveOccurred())
		Expect(write(f, big)).NotTo(ContainElement(false))
		Expect(names(filepath.Dir(path))).To(ConsistOf(MatchRegexp(`^\.trace\.jsonl\.tmp-[0-9]+$`)))
		info, err := os.Stat(filepath.Join(filepath.Dir(path), names(filepath.Dir(path))[0]))
		Expect(err).NotTo(HaveOccurred())
		Expect(info.Size()).To(BeZero(), "nothing written before Commit")
		Expect(f.Linked()).To(BeNil(), "before Commit")
		Expect(f.Commit()).To(Succeed())
		Expect(sameFile(path, golden)).To(BeTrue())
		gi, err := os.Stat(golden)
		Expect(err).NotTo(HaveOccurred())
		Expect(f.Linked()).NotTo(BeNil())
		Expect(os.SameFile(f.Linked(), gi)).To(BeTrue(), "Linked is the golden")
		Expect(f.Linked().ModTime()).To(Equal(gi.ModTime()))
		Expect(names(filepath.Dir(path))).To(Equal([]string{"trace.jsonl"}), "no temporary left")
		Expect(os.ReadFile(golden)).To(Equal(big))
		Expect(f.Commit()).To(MatchError(ContainSubstring("already finished")))
	})

	DescribeTable("writes every byte of output that is not the golden, and leaves the golden alone",
		func(output func() []byte) {
			want := output()
			f, err := artifact.CreateTwin(path, golden)
			Expect(err).NotTo(HaveOccurred())
			twinned := write(f, want)
			Expect(f.Commit()).To(Succeed())
			Expect(os.ReadFile(path)).To(Equal(want))
			Expect(sameFile(path, golden)).To(BeFalse())
			Expect(f.Linked()).To(BeNil())
			Expect(os.ReadFile(golden)).To(Equal(big))
			Expect(names(filepath.Dir(path))).To(Equal([]string{"trace.jsonl"}), "no temporary left")
			for i := 1; i < len(twinned); i++ {
				Expect(twinned[i] && !twinned[i-1]).To(BeFalse(), "a twin again at piece %d", i)
			}
		},
		Entry("a byte changed at the start", func() []byte { b := bytes.Clone(big); b[0] ^= 1; return b }),
		Entry("a byte changed in the middle", func() []byte { b := bytes.Clone(big); b[len(b)/2] ^= 1; return b }),
		Entry("a byte changed in the last piece", func() []byte { b := bytes.Clone(big); b[len(b)-1] ^= 1; return b }),
		Entry("shorter than the golden", func() []byte { return big[:len(big)-3] }),
		Entry("longer than the golden", func() []byte { return append(bytes.Clone(big), "more\n"...) }),
		Entry("empty", func() []byte { return nil }),
	)

	DescribeTable("is a plain File when the golden is not a file it can read",
		func(golden func() string) {
			f, err := artifact.CreateTwin(path, golden())
			Expect(err).NotTo(HaveOccurred())
			Expect(f.Twinned()).To(BeFalse())
			write(f, big)
			Expect(f.Commit()).To(Succeed())
			Expect(os.ReadFile(path)).To(Equal(big))
			Expect(f.Linked()).To(BeNil())
		},
		Entry("missing", func() string { return filepath.Join(dir, "none") }),
		Entry("a directory", func() string { return filepath.Dir(golden) }),
	)

	It("copies the golden it compared when the golden's name was given another file before Commit", func() {
		f, err := artifact.CreateTwin(path, golden)
		Expect(err).NotTo(HaveOccurred())
		write(f, big)
		replacement := filepath.Join(dir, "goldens", "new")
		Expect(os.WriteFile(replacement, []byte("accepted since\n"), 0o644)).To(Succeed())
		Expect(os.Rename(replacement, golden)).To(Succeed())
		Expect(f.Commit()).To(Succeed())
		Expect(os.ReadFile(path)).To(Equal(big))
		Expect(sameFile(path, golden)).To(BeFalse())
		Expect(f.Linked()).To(BeNil())
	})

	It("copies the golden when it cannot be linked", func() {
		f, err := artifact.CreateTwin(path, golden)
		Expect(err).NotTo(HaveOccurred())
		write(f, big)
		Expect(os.WriteFile(artifact.LinkName(f), nil, 0o644)).To(Succeed()) // the link's name is taken
		Expect(f.Commit()).To(Succeed())
		Expect(os.ReadFile(path)).To(Equal(big))
		Expect(sameFile(path, golden)).To(BeFalse())
		Expect(f.Linked()).To(BeNil())
		Expect(os.Remove(artifact.LinkName(f))).To(Succeed())
		Expect(names(filepath.Dir(path))).To(Equal([]string{"trace.jsonl"}))
	})

	It("leaves nothing and the golden alone when aborted", func() {
		f, err := artifact.CreateTwin(path, golden)
		Expect(err).NotTo(HaveOccurred())
		write(f, big[:1000])
		f.Abort()
		Expect(names(filepath.Dir(path))).To(BeEmpty())
		Expect(os.ReadFile(golden)).To(Equal(big))
	})
})
