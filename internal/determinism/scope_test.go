package determinism_test

import (
	"os/exec"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/internal/determinism"
)

var _ = Describe("the determinism scope", func() {
	It("holds every package the run and the golden writers link to some analyzers", func() {
		// What ladder.Run, regeneration and accept link can reach a
		// golden, a trace, a digest or a verdict: a package added to
		// their imports is checked, or this fails naming it.
		out, err := exec.Command("go", "list", "-deps", "-f", "{{if .Module}}{{if .Module.Main}}{{.ImportPath}} {{.Module.Path}}{{end}}{{end}}",
			"github.com/chronicle/ladder/ladder", "github.com/chronicle/ladder/ladder/regen", "github.com/chronicle/ladder/ladder/pending").CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		var unchecked []string
		n := 0
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			path, mod, _ := strings.Cut(line, " ")
			rel := strings.TrimPrefix(strings.TrimPrefix(path, mod), "/")
			n++
			if _, ok := determinism.AreaOf(rel); !ok {
				unchecked = append(unchecked, rel)
			}
		}
		Expect(n).To(BeNumerically(">", 20), "the run links the engine, the recorder and the writers")
		Expect(unchecked).To(BeEmpty(), "linked by the run but outside every area of determinism.Areas")
	})

	It("places a package in its most specific area, and none outside", func() {
		a, ok := determinism.AreaOf("sim/claims")
		Expect(ok).To(BeTrue())
		Expect(a.Pattern).To(Equal("sim/..."))
		Expect(a.Analyzers).To(ContainElement(determinism.Concurrency))

		a, ok = determinism.AreaOf("ladder/artifact")
		Expect(ok).To(BeTrue())
		Expect(a.Analyzers).NotTo(ContainElement(determinism.Concurrency), "the writers work beside the engine")
		Expect(a.Analyzers).To(ContainElement(determinism.MapOrder))

		_, ok = determinism.AreaOf("ladder/report")
		Expect(ok).To(BeFalse(), "an area without analyzers is outside")
		_, ok = determinism.AreaOf("tools/ladder")
		Expect(ok).To(BeFalse())
		_, ok = determinism.AreaOf("simulator")
		Expect(ok).To(BeFalse(), "a tree matches its own path and those below it, not a longer name")
	})
})
