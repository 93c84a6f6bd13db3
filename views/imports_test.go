package views_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The seed's rule for T6: the aggregate is a view that nothing reads to
// decide anything. The engine is everything under sim/; if any of its
// packages — their tests included — imported this one, directly or
// through another, an engine rule could key off fear. The import graph
// is read from `go list -deps -test -json`, the go command's own answer.

const module = "github.com/chronicle/ladder"

// listed is what the spec reads of one package of `go list -json`.
type listed struct {
	ImportPath string
	Imports    []string
}

// engineGraph lists every package the engine's packages and their tests
// reach.
func engineGraph() []listed {
	GinkgoHelper()
	cmd := exec.Command("go", "list", "-deps", "-test", "-json", module+"/sim/...")
	out, err := cmd.Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		Fail("go list: " + string(ee.Stderr))
	}
	Expect(err).NotTo(HaveOccurred())
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listed
		Expect(dec.Decode(&p)).To(Succeed())
		pkgs = append(pkgs, p)
	}
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
		Expect(slices.ContainsFunc(pkgs, func(p listed) bool { return strings.HasPrefix(p.ImportPath, module+"/views") })).To(BeFalse(),
			"package views is in the engine's dependency graph")
	})
})
