package regen_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/regen"
)

// echoFixture is T0.1's run with its own title: it extends T0.1.
const echoFixture = `rung: T0.2
title: Echo of the tiny witness
tier: 0
extends: T0.1
`

func names(fs []*fixture.Fixture) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.Name())
	}
	return out
}

var _ = Describe("Select", func() {
	var root string
	BeforeEach(func() {
		root = GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(root, "fixtures"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(root, "fixtures", "T0.1-witness.yaml"), []byte(tinyFixture), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(root, "fixtures", "T0.2-echo.yaml"), []byte(echoFixture), 0o644)).To(Succeed())
	})

	DescribeTable("selects by rung (with its cases) or by rung/case, in file order",
		func(selected []string, want []string) {
			fs, err := regen.Select(root, selected)
			Expect(err).NotTo(HaveOccurred())
			Expect(names(fs)).To(Equal(want))
		},
		Entry("everything", nil, []string{"T0.1", "T0.1/quiet", "T0.2"}),
		Entry("a rung and its case", []string{"T0.1"}, []string{"T0.1", "T0.1/quiet"}),
		Entry("one case", []string{"T0.1/quiet"}, []string{"T0.1/quiet"}),
		Entry("in file order, once", []string{"T0.2", "T0.1/quiet", "T0.1"}, []string{"T0.1", "T0.1/quiet", "T0.2"}),
	)

	DescribeTable("refuses a name that selects nothing",
		func(name, want string) {
			_, err := regen.Select(root, []string{"T0.1", name})
			Expect(err).To(MatchError(want))
		},
		Entry("an unknown rung", "T9.9", `no fixture for rung "T9.9"`),
		Entry("an unknown case", "T0.1/loud", `rung T0.1 has no case "loud"`),
		Entry("a case of an unknown rung", "T9.9/quiet", `no fixture for rung "T9.9"`),
	)

	Describe("Extenders", func() {
		extenders := func(selected ...string) []string {
			GinkgoHelper()
			fs, err := regen.Select(root, selected)
			Expect(err).NotTo(HaveOccurred())
			ext, err := regen.Extenders(root, fs)
			Expect(err).NotTo(HaveOccurred())
			return names(ext)
		}
		It("names the rungs that extend a selected rung", func() {
			Expect(extenders("T0.1")).To(Equal([]string{"T0.2"}))
		})
		It("names none when the extender is selected already, or only a case of the base is", func() {
			Expect(extenders("T0.1", "T0.2")).To(BeEmpty())
			Expect(extenders("T0.1/quiet")).To(BeEmpty())
			Expect(extenders("T0.2")).To(BeEmpty())
		})
	})
})

var _ = Describe("Prelude", func() {
	run := func(rung, c string, cost int64) *fixture.Fixture {
		return &fixture.Fixture{Rung: rung, Case: c, Cost: fixture.Cost{NPCTicks: cost}}
	}
	a, aCase, b, c := run("T0.1", "", 30), run("T0.1", "quiet", 10), run("T0.2", "", 20), run("T0.3", "", 5)
	sweep := run("T2.8", "", 1)
	sweep.Sweep = &fixture.Sweep{}
	all := []*fixture.Fixture{a, aCase, b, c, sweep}

	It("is the cheapest run of a rung not selected, never a sweep, which writes no trace", func() {
		Expect(regen.Prelude(all, []*fixture.Fixture{c}).Name()).To(Equal("T0.1/quiet"))
		Expect(regen.Prelude(all, []*fixture.Fixture{aCase}).Name()).To(Equal("T0.3"), "a case selects its rung: T0.1/quiet is not another rung's")
	})
	It("is the cheapest run of all when every rung is selected: the first selected run still renders second", func() {
		Expect(regen.Prelude(all, all).Name()).To(Equal("T0.3"))
	})
	It("is nil with nothing to run", func() {
		Expect(regen.Prelude([]*fixture.Fixture{sweep}, nil)).To(BeNil())
	})
})
