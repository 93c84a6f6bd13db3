package main

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("coverCases", func() {
	src := strings.Split(`package p

func f(n int) string {
	switch {
	case n < 0:
		return "neg"
	case n > 10:
		return "big"
	}
	return "small"
}
`, "\n")
	lines := func(file string) ([]string, error) {
		Expect(file).To(Equal("m/p/p.go"))
		return src, nil
	}

	It("adds a block over a case expression whose body ran, and none over one whose body did not", func() {
		profile := "mode: set\n" +
			"m/p/p.go:3.23,4.9 1 1\n" +
			"m/p/p.go:5.13,6.15 1 1\n" +
			"m/p/p.go:7.14,8.15 1 0\n" +
			"m/p/p.go:10.2,10.16 1 1\n"
		out, err := coverCases([]byte(profile), lines)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(profile + "m/p/p.go:5.1,5.13 0 1\n"))
	})

	It("covers a case expression whose body did not run when a later case's body did: the switch evaluated it first", func() {
		profile := "mode: count\n" +
			"m/p/p.go:3.23,4.9 1 3\n" +
			"m/p/p.go:5.13,6.15 1 0\n" +
			"m/p/p.go:7.14,8.15 1 2\n" +
			"m/p/p.go:10.2,10.16 1 1\n"
		out, err := coverCases([]byte(profile), lines)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(profile + "m/p/p.go:7.1,7.14 0 2\nm/p/p.go:5.1,5.13 0 2\n"))
	})

	It("covers every case expression of a switch that ran and fell through every case, as a guard's refusals do", func() {
		src := strings.Split(`package p

func h(a, b int) int {
	x := a + b
	switch {
	case a < 0:
		return -1
	case b < 0:
		return -2
	}
	return x
}
`, "\n")
		read := func(string) ([]string, error) { return src, nil }
		// As go test -coverprofile writes it: the switch's keyword is in
		// the block before its cases.
		profile := "mode: set\nm/p/h.go:3.23,5.9 2 1\nm/p/h.go:6.13,7.12 1 0\nm/p/h.go:8.13,9.12 1 0\nm/p/h.go:11.2,11.10 1 1\n"
		out, err := coverCases([]byte(profile), read)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(profile + "m/p/h.go:8.1,8.13 0 1\nm/p/h.go:6.1,6.13 0 1\n"))

		// Set mode cannot say whether a switch one of whose bodies ran
		// also fell through: nothing is claimed for the cases after it.
		profile = "mode: set\nm/p/h.go:3.23,5.9 2 1\nm/p/h.go:6.13,7.12 1 1\nm/p/h.go:8.13,9.12 1 0\n"
		out, err = coverCases([]byte(profile), read)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(profile + "m/p/h.go:6.1,6.13 0 1\n"))

		// Counted, the runs the bodies do not account for fell through.
		profile = "mode: count\nm/p/h.go:3.23,5.9 2 5\nm/p/h.go:6.13,7.12 1 2\nm/p/h.go:8.13,9.12 1 0\nm/p/h.go:11.2,11.10 1 3\n"
		out, err = coverCases([]byte(profile), read)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(profile + "m/p/h.go:8.1,8.13 0 3\nm/p/h.go:6.1,6.13 0 3\n"))
	})

	It("covers every case expression when the default's body ran, wherever the default stands", func() {
		src := strings.Split(`package p

func g(n int) int {
	switch {
	default:
		return 0
	case n < 0:
		return -1
	case n > 10:
		return 1
	}
}
`, "\n")
		profile := "mode: set\nm/p/g.go:3.19,4.9 1 1\nm/p/g.go:5.10,6.11 1 1\nm/p/g.go:7.13,8.12 1 0\nm/p/g.go:9.14,10.11 1 0\n"
		out, err := coverCases([]byte(profile), func(string) ([]string, error) { return src, nil })
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(profile + "m/p/g.go:9.1,9.14 0 1\nm/p/g.go:7.1,7.13 0 1\n"))
	})

	It("refuses a profile line that is no block, or a block outside its file", func() {
		_, err := coverCases([]byte("mode: set\nnonsense\n"), lines)
		Expect(err).To(MatchError(ContainSubstring("profile line 2: not a block")))
		_, err = coverCases([]byte("mode: set\nm/p/p.go:99.2,99.3 1 1\n"), lines)
		Expect(err).To(MatchError(ContainSubstring("outside m/p/p.go")))
	})

	It("rewrites a profile file in place, reading sources under the module root", func() {
		root := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(root, "go.mod"), []byte("module m\n\ngo 1.22\n"), 0o644)).To(Succeed())
		Expect(os.MkdirAll(filepath.Join(root, "p"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(root, "p", "p.go"), []byte(strings.Join(src, "\n")), 0o644)).To(Succeed())
		profile := filepath.Join(root, "cover.out")
		Expect(os.WriteFile(profile, []byte("mode: set\nm/p/p.go:7.14,8.15 1 2\n"), 0o644)).To(Succeed())
		Expect(coverCasesFile(profile, root)).To(Succeed())
		Expect(os.ReadFile(profile)).To(BeEquivalentTo("mode: set\nm/p/p.go:7.14,8.15 1 2\nm/p/p.go:7.1,7.14 0 2\nm/p/p.go:5.1,5.13 0 2\n"))
		Expect(coverCasesFile(profile, filepath.Join(root, "p"))).To(MatchError(ContainSubstring("go.mod")))
	})
})
