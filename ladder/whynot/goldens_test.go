package whynot_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/regen"
	"github.com/chronicle/ladder/ladder/whynot"
)

// root is the repository root, from this package's directory.
const root = "../.."

// goldenRuns are the fixtures whose goldens keep a trace: every run but
// a sweep's.
func goldenRuns() []*fixture.Fixture {
	GinkgoHelper()
	all, err := regen.Select(root, nil)
	Expect(err).NotTo(HaveOccurred())
	return slices.DeleteFunc(all, func(f *fixture.Fixture) bool { return f.Sweep != nil })
}

// openGolden indexes a run's committed goldens.
func openGolden(f *fixture.Fixture) *whynot.Run {
	GinkgoHelper()
	run, err := whynot.Open(f.Name(), filepath.Join(root, filepath.FromSlash(f.GoldenDir())), whynot.WorldOf(f))
	Expect(err).NotTo(HaveOccurred())
	return run
}

// specific checks that an answer names a cause and rests every line on a
// tick of the run, with no line the files could not answer.
func specific(run *whynot.Run, a *whynot.Answer) {
	GinkgoHelper()
	first, last := run.Ticks()
	Expect(whynot.Causes()).To(ContainElement(a.Cause), "%s: %s", a.Heading(), a.Body())
	for _, l := range append([]whynot.Line{a.Summary}, a.Lines...) {
		Expect(l.Text).NotTo(BeEmpty(), a.Heading())
		Expect(strings.ToLower(l.Text)).NotTo(ContainSubstring("unknown"), "%s: %s", a.Heading(), l)
		Expect(l.Tick).To(BeNumerically(">=", first), "%s: %s", a.Heading(), l)
		Expect(l.Tick).To(BeNumerically("<=", last), "%s: %s", a.Heading(), l)
	}
}

var _ = Describe("every unheard pair of every golden run", func() {
	It("has a specific cause at the run's last tick, and every holder its evidence chain", func() {
		start := time.Now()
		pairs, runs := 0, 0
		causes := map[whynot.Cause]int{}
		for _, f := range goldenRuns() {
			run := openGolden(f)
			runs++
			_, last := run.Ticks()
			for _, npc := range run.NPCs() {
				for _, claim := range run.Claims() {
					a, err := run.Explain(npc, claim, last)
					Expect(err).NotTo(HaveOccurred())
					specific(run, a)
					Expect(a.Cause == whynot.Holds).To(Equal(run.Holds(npc, claim, last)), a.Heading())
					if a.Cause != whynot.Holds {
						pairs++
					}
					causes[a.Cause]++
				}
			}
		}
		wall := time.Since(start)
		var counts []string
		for _, c := range whynot.Causes() {
			counts = append(counts, fmt.Sprintf("%s %d", c, causes[c]))
		}
		AddReportEntry("why-not over the goldens", fmt.Sprintf("%d unheard pairs in %d runs in %v (%s)", pairs, runs, wall.Round(time.Millisecond), strings.Join(counts, ", ")))
		Expect(pairs).To(BeNumerically(">", 0))
	})
})
