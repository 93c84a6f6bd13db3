package main

import (
	"bytes"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// module writes a module of the given files (path to source) into a
// temporary directory and makes it the working directory for the spec.
func module(files map[string]string) {
	dir := GinkgoT().TempDir()
	files["go.mod"] = "module example.com/m\n\ngo 1.26\n"
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
		Expect(os.WriteFile(p, []byte(src), 0o644)).To(Succeed())
	}
	DeferCleanup(os.Chdir, must(os.Getwd()))
	Expect(os.Chdir(dir)).To(Succeed())
}

func must[T any](v T, err error) T {
	Expect(err).NotTo(HaveOccurred())
	return v
}

const tieBreak = `package sim

var weights = map[string]int{"a": 1, "b": 1}

// Pick returns the heaviest; a tie goes to whichever the range visits first.
func Pick() string {
	best, w := "", -1
	for k, v := range weights {
		if v > w {
			best, w = k, v
		}
	}
	return best
}
`

var _ = Describe("detcheck", func() {
	It("fails on a choice made by ranging over a map in the engine, naming file:line and the rule", func() {
		module(map[string]string{"sim/pick.go": tieBreak})
		var out, errs bytes.Buffer
		Expect(run([]string{"./..."}, false, &out, &errs)).To(Equal(1), errs.String())
		Expect(out.String()).To(ContainSubstring("sim/pick.go:8:2: [maporder] range over a map: it reads w at line 9, which it also writes"))
		Expect(out.String()).To(ContainSubstring("determinism: 1 findings in 1 packages (0 outside the scope); 0 justified exceptions: none"))
	})

	It("passes a justified range, and lists the justification with its count", func() {
		module(map[string]string{"sim/pick.go": `package sim

var weights = map[string]int{"a": 1}

func Print() {
	//determinism:order-free printed for a person, never compared
	for k := range weights {
		println(k)
	}
}
`, "tools/x/main.go": "package main\n\nimport \"time\"\n\nfunc main() { println(time.Now().Unix()) }\n"})
		var out, errs bytes.Buffer
		Expect(run([]string{"./..."}, true, &out, &errs)).To(Equal(0), out.String()+errs.String())
		Expect(out.String()).To(ContainSubstring("determinism: 0 findings in 1 packages (1 outside the scope); 1 justified exceptions: order-free 1"))
		Expect(out.String()).To(ContainSubstring("  sim/pick.go:6 order-free (1): printed for a person, never compared"))
		Expect(out.String()).To(ContainSubstring("0 ranges over maps found order-free by their shape"))
	})

	It("says so when the packages do not load, and exits 2", func() {
		module(map[string]string{"sim/broken.go": "package sim\n\nfunc F() { undefined() }\n"})
		var out, errs bytes.Buffer
		Expect(run([]string{"./..."}, false, &out, &errs)).To(Equal(2))
		Expect(errs.String()).To(ContainSubstring("undefined: undefined"))
		Expect(errs.String()).To(MatchRegexp(`detcheck: \d+ errors loading the packages`))
	})
})
