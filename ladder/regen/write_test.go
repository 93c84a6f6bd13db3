package regen_test

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/regen"
)

// entries lists a directory's names, hidden ones included.
func entries(dir string) []string {
	GinkgoHelper()
	des, err := os.ReadDir(dir)
	Expect(err).NotTo(HaveOccurred())
	out := []string{}
	for _, d := range des {
		out = append(out, d.Name())
	}
	return out
}

func read(path string) string {
	GinkgoHelper()
	b, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

var _ = Describe("WriteAtomic", func() {
	var dir string
	BeforeEach(func() { dir = GinkgoT().TempDir() })

	It("writes a new file, readable by everyone, leaving no temporary file", func() {
		path := filepath.Join(dir, "dense.csv")
		Expect(regen.WriteAtomic(path, []byte("tick\n0\n"))).To(Succeed())
		Expect(read(path)).To(Equal("tick\n0\n"))
		info, err := os.Stat(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(info.Mode().Perm()).To(Equal(fs.FileMode(0o644)))
		Expect(entries(dir)).To(Equal([]string{"dense.csv"}))
	})

	It("writes an empty file", func() {
		path := filepath.Join(dir, "empty")
		Expect(regen.WriteAtomic(path, nil)).To(Succeed())
		Expect(read(path)).To(BeEmpty())
		Expect(entries(dir)).To(Equal([]string{"empty"}))
	})

	It("replaces an existing file entirely, shorter content included", func() {
		path := filepath.Join(dir, "trace.jsonl")
		Expect(os.WriteFile(path, []byte(strings.Repeat("old line\n", 100)), 0o600)).To(Succeed())
		Expect(regen.WriteAtomic(path, []byte("new\n"))).To(Succeed())
		Expect(read(path)).To(Equal("new\n"))
		Expect(entries(dir)).To(Equal([]string{"trace.jsonl"}))
	})

	It("swaps the file rather than rewriting it in place, so an open reader keeps the old bytes", func() {
		path := filepath.Join(dir, "checkpoints.json")
		Expect(os.WriteFile(path, []byte("old"), 0o644)).To(Succeed())
		reader, err := os.Open(path)
		Expect(err).NotTo(HaveOccurred())
		defer reader.Close()
		Expect(regen.WriteAtomic(path, []byte("new"))).To(Succeed())
		old, err := io.ReadAll(reader)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(old)).To(Equal("old"))
		Expect(read(path)).To(Equal("new"))
	})

	It("fails when the directory is missing, creating nothing", func() {
		err := regen.WriteAtomic(filepath.Join(dir, "missing", "dense.csv"), []byte("x"))
		Expect(err).To(MatchError(fs.ErrNotExist))
		Expect(entries(dir)).To(BeEmpty())
	})

	It("keeps the old file when the new one cannot be written", func() {
		// A 250-byte name is legal, but its temporary sibling
		// ".<name>.tmp-<random>" exceeds NAME_MAX (255), so creating it
		// fails, whoever runs the test (root ignores permissions).
		path := filepath.Join(dir, strings.Repeat("g", 250))
		Expect(os.WriteFile(path, []byte("old golden"), 0o644)).To(Succeed())
		Expect(regen.WriteAtomic(path, []byte("new golden"))).NotTo(Succeed())
		Expect(read(path)).To(Equal("old golden"))
		Expect(entries(dir)).To(Equal([]string{strings.Repeat("g", 250)}))
	})

	It("removes its temporary file when the final rename fails", func() {
		path := filepath.Join(dir, "dense.csv")
		Expect(os.MkdirAll(filepath.Join(path, "inside"), 0o755)).To(Succeed()) // a non-empty directory in the way
		err := regen.WriteAtomic(path, []byte("x"))
		Expect(err).To(MatchError(ContainSubstring("replace " + path)))
		Expect(entries(dir)).To(Equal([]string{"dense.csv"}))
		Expect(entries(path)).To(Equal([]string{"inside"}))
	})
})
