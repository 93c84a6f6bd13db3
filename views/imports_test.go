package views_test

import (
	"slices"
	"strings"

	"github.com/chronicle/ladder/internal/golist"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The seed's rule for T6: the aggregate is a view that nothing reads to
// decide anything. The engine is everything under sim/; if any of its
// packages — their tests included — imported this one, directly or
// through another, an engine rule could key off fear. The import graph
// is read from `go list -deps -test -json`, the go command's own answer.

const module = "github.com/chronicle/ladder"

// engineGraph lists every package the engine's packages and their tests
// reach.
func engineGraph() []golist.Package {
	GinkgoHelper()
	pkgs, err := golist.List("-deps", "-test", module+"/sim/...")
	Expect(err).NotTo(HaveOccurred())
	return pkgs
}

var _ = Describe("The import graph", func() {
	It("has no engine package that imports views, directly or through another package", func() {
		pkgs := engineGraph()
		engine := 0
		var importers []string
		for _, p := range pkgs {
			if strings.HasPrefix(p.ImportPath, module+"/sim") {
				engine++
			}
			for _, imp := range p.Imports {
				if imp == module+"/views" || strings.HasPrefix(imp, module+"/views ") {
					importers = append(importers, p.ImportPath)
				}
			}
		}
		Expect(engine).To(BeNumerically(">=", 10), "the graph must hold the engine's packages: it examined %d of %d", engine, len(pkgs))
		slices.Sort(importers)
		Expect(importers).To(BeEmpty(), "the engine reaches package views through these importers")
		Expect(slices.ContainsFunc(pkgs, func(p golist.Package) bool { return strings.HasPrefix(p.ImportPath, module+"/views") })).To(BeFalse(),
			"package views is in the engine's dependency graph")
	})
})
