package main

import (
	"fmt"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
)

var _ = Describe("fear", Serial, func() {
	BeforeEach(func() { socialRoot("T4a.1-mourning.yaml") })

	ticks := fixtureRun("T4a.1-mourning", "T4a.1").Ticks
	// goldenRoot adds the rung's committed trace and dense file, what
	// -golden reads, to the root.
	goldenRoot := func() {
		GinkgoHelper()
		root, _ := os.Getwd()
		for _, name := range []string{artifact.TraceFile, artifact.DenseFile} {
			copyFile(filepath.Join(repo, "goldens", "T4a.1-mourning", name), filepath.Join(root, "goldens", "T4a.1-mourning", name))
		}
	}
	DescribeTable("refuses missing or wrong arguments",
		func(want string, args ...string) {
			out, err := invoke(append([]string{"fear", "-rerun"}, args...)...)
			Expect(err).To(MatchError(want))
			Expect(out).To(BeEmpty())
		},
		Entry("no rung", "fear: -rung is required", "-at", "12"),
		Entry("a tick outside the run", fmt.Sprintf("fear: tick %d is outside T4a.1's run [0, %[1]d)", ticks), "-rung", "T4a.1", "-at", fmt.Sprint(ticks)),
		Entry("a place not in the world", `fear: T4a.1 has no location "attic"`, "-rung", "T4a.1", "-location", "attic"),
		Entry("an unknown rung", `no fixture for rung "T4a.9"`, "-rung", "T4a.9"),
		Entry("-rerun with a place to read", "fear: -rerun runs the fixture again and reads no files: drop -reports, -golden or -golden-at", "-rung", "T4a.1", "-golden"),
	)

	It("refuses a tick outside the run it reads, and a run that was not written", func() {
		goldenRoot()
		out, err := invoke("fear", "-golden", "-rung", "T4a.1", "-at", fmt.Sprint(ticks))
		Expect(err).To(MatchError(fmt.Sprintf("fear: tick %d is outside the run in goldens/T4a.1-mourning, which covers ticks 0 to %d", ticks, ticks-1)))
		Expect(out).To(BeEmpty())
		out, err = invoke("fear", "-reports", GinkgoT().TempDir(), "-rung", "T4a.1")
		Expect(err).To(MatchError(ContainSubstring("no such file: `make ladder RUNG=T4a.1` writes it")))
		Expect(out).To(BeEmpty())
	})

	// The killing the rung's fear follows, and two ticks after it, when
	// the news has reached more than one place.
	killing := func() (*fixture.Fixture, int64) {
		f := fixtureRun("T4a.1-mourning", "T4a.1")
		return f, firstRecord(f, "killing", func(r traceRecord) bool { return r.S("kind") == "event" && r.S("event") == "killing" }).Tick()
	}

	It("shows the fear per place as of a tick, its recomputation within regime 3, and every contributing belief", func() {
		f, t := killing()
		at := t + 2
		Expect(len(wantFear(f, at))).To(BeNumerically(">", 1), "fewer than two beliefs carry fear at tick %d: the spec sums nothing", at)
		goldenRoot()
		for _, src := range []string{"-golden", "-rerun"} {
			out, err := invoke("fear", "-rung", "T4a.1", "-at", fmt.Sprint(at), src)
			Expect(err).NotTo(HaveOccurred(), src)
			Expect(out).To(HavePrefix(fmt.Sprintf("T4a.1: collective fear as of tick %d (severity × confidence × gist per belief; killing 1, brawl 0.5, theft 0.25)\n", at)), src)
			checkFear(out, f, at, "")
		}
	})

	It("shows one place's drill-down with -location, and nothing before anyone fears anything", func() {
		f, t := killing()
		beliefs := wantFear(f, t+2)
		Expect(beliefs).NotTo(BeEmpty())
		place := beliefs[0].at
		Expect(wantFear(f, t-1)).To(BeEmpty(), "someone fears before the killing in the golden")
		goldenRoot()
		for _, src := range []string{"-golden", "-rerun"} {
			out, err := invoke("fear", "-rung", "T4a.1", "-at", fmt.Sprint(t+2), "-location", place, src)
			Expect(err).NotTo(HaveOccurred(), src)
			checkFear(out, f, t+2, place)
			out, err = invoke("fear", "-rung", "T4a.1", "-at", fmt.Sprint(t-1), src)
			Expect(err).NotTo(HaveOccurred(), src)
			checkFear(out, f, t-1, "")
		}
	})
})
