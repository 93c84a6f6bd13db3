package determinism_test

import (
	. "github.com/onsi/ginkgo/v2"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/chronicle/ladder/internal/determinism"
)

// Each analyzer runs over its package under testdata/src, whose // want
// comments say what it must report, line by line; a line without one
// must get nothing. analysistest fails on a missing report and on an
// unexpected one, so each file holds what must pass beside what must not.
var _ = Describe("the determinism analyzers", func() {
	DescribeTable("report what their testdata wants, and nothing else",
		func(a *analysis.Analyzer, pkg string) {
			analysistest.Run(GinkgoT(), analysistest.TestData(), a, pkg)
		},
		Entry("maporder", determinism.MapOrder, "maporder"),
		Entry("maporder's justifications", determinism.MapOrder, "directives"),
		Entry("wallclock", determinism.WallClock, "wallclock"),
		Entry("environ", determinism.Environ, "environ"),
		Entry("filesystem", determinism.FileSystem, "filesystem"),
		Entry("randomness", determinism.Randomness, "randomness"),
		Entry("concurrency", determinism.Concurrency, "concurrency"),
		Entry("platformmath", determinism.PlatformMath, "platformmath"),
		Entry("fusion", determinism.Fusion, "fusion"),
		Entry("formatting", determinism.Formatting, "formatting"),
	)
})
