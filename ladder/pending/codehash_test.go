package pending_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/pending"
)

func write(root, rel, content string) {
	GinkgoHelper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
	Expect(os.WriteFile(p, []byte(content), 0o644)).To(Succeed())
}

var _ = Describe("CodeHash", func() {
	var root string
	hash := func() string {
		GinkgoHelper()
		h, err := pending.CodeHash(root)
		Expect(err).NotTo(HaveOccurred())
		Expect(h).To(MatchRegexp(`^[0-9a-f]{16}$`))
		return h
	}
	BeforeEach(func() {
		root = GinkgoT().TempDir()
		write(root, "go.mod", "module example\n")
		write(root, "go.sum", "")
		write(root, "sim/world.go", "package sim\n")
		write(root, "sim/world_test.go", "package sim\n")
		write(root, "tools/ladder/main.go", "package main\n")
		write(root, "sim/testdata/x.go", "package x\n")
		write(root, "sim/.cache/x.go", "package x\n")
		write(root, "docs/notes.md", "notes\n")
	})

	DescribeTable("moves with the code that renders artifacts",
		func(rel, content string) {
			before := hash()
			write(root, rel, content)
			Expect(hash()).NotTo(Equal(before))
		},
		Entry("an engine source", "sim/world.go", "package sim\n\nvar x = 1\n"),
		Entry("a new engine source", "sim/claims/claims.go", "package claims\n"),
		Entry("a harness source", "ladder/run.go", "package ladder\n"),
		Entry("a nested tools directory is not the command line", "sim/tools/t.go", "package tools\n"),
		Entry("go.sum", "go.sum", "example.com/x v1.0.0 h1:abc=\n"),
		Entry("go.mod", "go.mod", "module example\n\ngo 1.26\n"),
	)

	It("moves when a source is renamed", func() {
		before := hash()
		Expect(os.Rename(filepath.Join(root, "sim", "world.go"), filepath.Join(root, "sim", "earth.go"))).To(Succeed())
		Expect(hash()).NotTo(Equal(before))
	})

	DescribeTable("ignores what does not render artifacts",
		func(rel, content string) {
			before := hash()
			write(root, rel, content)
			Expect(hash()).To(Equal(before))
		},
		Entry("a test", "sim/world_test.go", "package sim\n\nvar y = 2\n"),
		Entry("the command line", "tools/ladder/main.go", "package main\n\nfunc main() {}\n"),
		Entry("testdata", "sim/testdata/x.go", "package y\n"),
		Entry("a hidden directory", "sim/.cache/x.go", "package y\n"),
		Entry("docs", "docs/notes.md", "other notes\n"),
	)

	It("needs a module root", func() {
		_, err := pending.CodeHash(filepath.Join(root, "sim"))
		Expect(err).To(MatchError(HavePrefix("code hash: ")))
		Expect(err).To(MatchError(HaveSuffix("holds no go.mod")))
	})

	It("hashes this repository", func() {
		h, err := pending.CodeHash(filepath.Join("..", ".."))
		Expect(err).NotTo(HaveOccurred())
		Expect(h).To(HaveLen(16))
	})
})
