package harness_test

import (
	"bytes"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
)

// The seed's acceptance test for T6's view: collective fear is derived on
// read and nothing reads it to decide anything. T6/no-view is the rung
// with every fear expectation removed and nothing else changed; running
// both must write the same dense CSV and trace, byte for byte.

// fearChecks counts a fixture's fear expectations.
func fearChecks(f *fixture.Fixture) int {
	n := 0
	for _, e := range f.Expect {
		if e.Kind == "fear" {
			n++
		}
	}
	return n
}

// firstDiff is the offset of the first byte where a and b differ.
func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

var _ = Describe("T6 without the view", Label("unit"), func() {
	It("writes the rung's dense CSV and trace byte for byte: computing the view changes nothing the engine does", func() {
		var rung, noView *fixture.Fixture
		for _, f := range ladderFixtures() {
			switch f.Name() {
			case "T6":
				rung = f
			case "T6/no-view":
				noView = f
			}
		}
		Expect(rung).NotTo(BeNil(), "fixtures/ holds T6")
		Expect(noView).NotTo(BeNil(), "T6 has the case no-view")
		Expect(fearChecks(rung)).To(BeNumerically(">", 0), "the rung reads the view")
		Expect(fearChecks(noView)).To(BeZero(), "the case does not")
		with, without := runArtifacts(rung), runArtifacts(noView)
		for _, name := range []string{artifact.DenseFile, artifact.TraceFile} {
			Expect(with[name]).NotTo(BeEmpty(), name)
			Expect(bytes.Equal(with[name], without[name])).To(BeTrue(), "%s differs with and without the view, first at byte %d of %d and %d",
				name, firstDiff(with[name], without[name]), len(with[name]), len(without[name]))
		}
	})
})

var _ = Describe("Failure messages of the fear expectation", Label("unit"), func() {
	It("passes on the world as it is, so each failure below is the field's alone", func() {
		for _, e := range []string{
			"{at: 2, fear: {location: hall, contributors: [balg], total: 0.9, recompute: size-scaled}}",
			"{at: 3, fear: {location: shrine, contributors: [son], total: \"1 * belief(son, killing@2).confidence * belief(son, killing@2).gist\"}}",
			"{from: 2, fear: {recompute: size-scaled}}",
		} {
			Expect(rolesRun(e).Failures).To(BeEmpty(), e)
		}
	})

	DescribeTable("name the expectation, the field that failed, the first failing tick, got and want",
		func(expectation, marker, want string) {
			Expect(rolesRun(expectation).Failures).To(Equal([]string{rolesAt(expectation, marker) + want}))
		},
		Entry("a total",
			"{at: 2, fear: {location: hall, total: 0.5}}", "0.5}",
			" at tick 2: fear(hall).total = 0.9, want 0.5"),
		Entry("who contributes",
			"{at: 2, fear: {contributors: [son]}}", "[son]",
			" at tick 2: fear(everywhere) contributors = [balg, son], want exactly [son] (missing [], unexpected [balg])"),
		Entry("a range where nobody there holds any belief",
			"{to: 1, fear: {location: shrine, recompute: size-scaled}}", "{to",
			": checked nothing: examined 0 beliefs weighed in ticks [0, 1]"),
	)

	DescribeTable("refuse a body that checks nothing or names no regime",
		func(expectation, want string) {
			_, err := fixture.Parse(rolesFile, []byte(rolesWorld+"  - "+expectation+"\n"))
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("nothing to check", "{fear: {location: hall}}", "fear needs total, contributors and/or recompute"),
		Entry("another regime", "{fear: {recompute: exact}}", `recompute: want size-scaled (regime 3, the only tolerance for a sum whose order may differ), got "exact"`),
		Entry("an unknown place", "{fear: {location: attic, total: 0}}", "attic"),
	)
})
