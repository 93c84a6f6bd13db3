package harness_test

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chronicle/ladder/internal/golist"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The harness's packages are layered by what they do, and imports run
// one way: a package may import its own layer and those below, never one
// above. A run's pieces (record) know nothing of the run that drives
// them (ladder), the run nothing of how it is judged (verdict), and the
// judgement nothing of the reports and instruments that read it; so "why
// did the first line say X" is answered in verdict alone, and "where is
// a dense row written" in record alone. The graph is `go list`'s own
// answer, the packages' code only: a spec may reach up (a page spec runs
// a rung).

const module = "github.com/chronicle/ladder"

// layers places every package under ladder/, by its path below the
// module ("ladder" is the root). A new package must be placed here.
var layers = map[string]int{
	// 0: fixtures, expectations and the file formats of a run, which
	// read and write files and know no run.
	"ladder/fixture": 0, "ladder/expect": 0, "ladder/expr": 0, "ladder/jsonschema": 0,
	"ladder/checkpoint": 0, "ladder/artifact": 0, "ladder/seal": 0, "ladder/compare": 0,
	"ladder/coverage": 0, "ladder/sweep": 0, "ladder/goldenset": 0, "ladder/shard": 0,
	"ladder/triage": 0, "ladder/whynot": 0, "ladder/page": 0, "ladder/harness": 0, "ladder/lineage": 0, "ladder/recfields": 0,
	"ladder/confine": 0,
	// 1: what a run writes as it steps, and what its fixture can reach.
	"ladder/record": 1, "ladder/reach": 1, "ladder/sweeprun": 1,
	// 2: the run.
	"ladder": 2,
	// 3: the judgement of a run.
	"ladder/verdict": 3,
	// 4: reports and instruments, which read runs and their verdicts.
	"ladder/report": 4, "ladder/pageinput": 4, "ladder/runfiles": 4, "ladder/rerun": 4,
	"ladder/regen": 4, "ladder/pending": 4, "ladder/replay": 4, "ladder/history": 4,
	"ladder/explore": 4,
}

var layerNames = []string{"fixtures and file formats", "record", "run", "verdict", "reports and instruments"}

// harnessGraph lists every package under ladder/ with its imports.
func harnessGraph() []golist.Package {
	GinkgoHelper()
	pkgs, err := golist.List(module + "/ladder/...")
	Expect(err).NotTo(HaveOccurred())
	return pkgs
}

// upImports returns every import in pkgs that runs back up the layers,
// and every package under ladder/ that has no layer, one line each;
// examined counts the imports between the harness's packages it checked.
func upImports(pkgs []golist.Package) (bad []string, examined int) {
	layer := func(path string) (int, bool) {
		l, ok := layers[strings.TrimPrefix(path, module+"/")]
		return l, ok
	}
	for _, p := range pkgs {
		from, ok := layer(p.ImportPath)
		if !ok {
			bad = append(bad, fmt.Sprintf("%s has no layer: place it in layers (ladder/harness/imports_test.go)", p.ImportPath))
			continue
		}
		for _, imp := range p.Imports {
			to, ok := layer(imp)
			if !ok || !strings.HasPrefix(imp, module+"/ladder") {
				continue // outside the harness (the engine, the standard library), or unplaced and reported above
			}
			examined++
			if to > from {
				bad = append(bad, fmt.Sprintf("%s (%s) imports %s (%s), a layer above it", p.ImportPath, layerNames[from], imp, layerNames[to]))
			}
		}
	}
	slices.Sort(bad)
	return bad, examined
}

var _ = Describe("The harness's import graph", Label("unit"), func() {
	It("runs one way: fixtures and file formats → record → run → verdict → reports and instruments", func() {
		pkgs := harnessGraph()
		Expect(len(pkgs)).To(BeNumerically(">=", len(layers)), "go list must list every placed package")
		bad, examined := upImports(pkgs)
		Expect(examined).To(BeNumerically(">=", 50), "the spec must have examined the imports between the harness's packages")
		Expect(bad).To(BeEmpty())
	})

	DescribeTable("names an import that runs back up, and a package with no layer",
		func(pkgs []golist.Package, want string) {
			bad, examined := upImports(pkgs)
			Expect(examined).To(BeNumerically(">", 0))
			Expect(bad).To(ConsistOf(want))
		},
		Entry("record importing the run", []golist.Package{
			{ImportPath: module + "/ladder/record", Imports: []string{module + "/ladder", module + "/ladder/artifact"}},
		}, module+"/ladder/record (record) imports "+module+"/ladder (run), a layer above it"),
		Entry("the run importing its judgement", []golist.Package{
			{ImportPath: module + "/ladder", Imports: []string{module + "/ladder/verdict", "fmt"}},
		}, module+"/ladder (run) imports "+module+"/ladder/verdict (verdict), a layer above it"),
		Entry("a new package nobody placed", []golist.Package{
			{ImportPath: module + "/ladder/newthing", Imports: []string{module + "/ladder"}},
			{ImportPath: module + "/ladder/verdict", Imports: []string{module + "/ladder"}},
		}, module+"/ladder/newthing has no layer: place it in layers (ladder/harness/imports_test.go)"),
	)
})
