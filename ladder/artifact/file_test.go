package artifact_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/artifact"
)

func names(dir string) []string {
	GinkgoHelper()
	des, err := os.ReadDir(dir)
	Expect(err).NotTo(HaveOccurred())
	var out []string
	for _, d := range des {
		out = append(out, d.Name())
	}
	return out
}

var _ = Describe("File", func() {
	var dir string
	BeforeEach(func() { dir = GinkgoT().TempDir() })

	It("is written beside its name and appears only when committed, whole", func() {
		path := filepath.Join(dir, "new", "dense.csv")
		f, err := artifact.Create(path)
		Expect(err).NotTo(HaveOccurred())
		_, err = f.Write([]byte("tick\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(path).NotTo(BeAnExistingFile(), "not before Commit")
		Expect(names(filepath.Dir(path))).To(ConsistOf(MatchRegexp(`^\.dense\.csv\.tmp-[0-9]+$`)))
		Expect(f.Commit()).To(Succeed())
		Expect(os.ReadFile(path)).To(Equal([]byte("tick\n")))
		Expect(names(filepath.Dir(path))).To(Equal([]string{"dense.csv"}))
		info, err := os.Stat(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(info.Mode().Perm()).To(Equal(fs.FileMode(0o644)))
		Expect(f.Commit()).To(MatchError(ContainSubstring("already finished")))
	})

	It("leaves the old file and no temporary when aborted", func() {
		path := filepath.Join(dir, "trace.jsonl")
		Expect(os.WriteFile(path, []byte("old\n"), 0o644)).To(Succeed())
		f, err := artifact.Create(path)
		Expect(err).NotTo(HaveOccurred())
		_, err = f.Write([]byte("half a ne"))
		Expect(err).NotTo(HaveOccurred())
		f.Abort()
		f.Abort()
		Expect(os.ReadFile(path)).To(Equal([]byte("old\n")))
		Expect(names(dir)).To(Equal([]string{"trace.jsonl"}))
	})

	It("writes bytes whole with Write", func() {
		path := filepath.Join(dir, "checkpoints.json")
		Expect(artifact.Write(path, []byte("{}\n"))).To(Succeed())
		Expect(os.ReadFile(path)).To(Equal([]byte("{}\n")))
		Expect(names(dir)).To(Equal([]string{"checkpoints.json"}))
	})
})

var _ = Describe("Same", func() {
	var dir string
	BeforeEach(func() { dir = GinkgoT().TempDir() })
	file := func(name string, b []byte) string {
		GinkgoHelper()
		p := filepath.Join(dir, name)
		Expect(os.WriteFile(p, b, 0o644)).To(Succeed())
		return p
	}
	big := bytes.Repeat([]byte("0123456789abcdef\n"), 200_000) // 3.4 MB: several chunks

	It("tells equal files from files that differ anywhere, however large", func() {
		a := file("a", big)
		for _, at := range []int{0, len(big) / 2, 1 << 20, len(big) - 1} {
			b := bytes.Clone(big)
			b[at] ^= 1
			same, err := artifact.Same(a, file("b", b))
			Expect(err).NotTo(HaveOccurred())
			Expect(same).To(BeFalse(), "a byte changed at %d", at)
		}
		same, err := artifact.Same(a, file("c", big))
		Expect(err).NotTo(HaveOccurred())
		Expect(same).To(BeTrue())
		same, err = artifact.Same(a, file("d", big[:len(big)-1]))
		Expect(err).NotTo(HaveOccurred())
		Expect(same).To(BeFalse(), "a prefix is not the file")
		same, err = artifact.Same(file("e", nil), file("f", nil))
		Expect(err).NotTo(HaveOccurred())
		Expect(same).To(BeTrue(), "two empty files")
	})

	It("says a file is missing", func() {
		_, err := artifact.Same(filepath.Join(dir, "none"), file("a", nil))
		Expect(errors.Is(err, fs.ErrNotExist)).To(BeTrue())
	})
})
