package page_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/page"
)

var _ = Describe("deep links", func() {
	It("link a rung at a tick from the repository root", func() {
		Expect(page.Link("T2.1", 44)).To(Equal("reports/index.html#T2.1@44"))
		Expect(page.Link("T2.3/swapped", 0)).To(Equal("reports/index.html#T2.3/swapped@0"))
		Expect(page.Link("T2.1", -1)).To(Equal("reports/index.html#T2.1"))
	})

	DescribeTable("fragments round-trip",
		func(name string, tick int64, frag string) {
			Expect(page.Fragment(name, tick)).To(Equal(frag))
			st, err := page.ParseFragment("#" + frag)
			Expect(err).NotTo(HaveOccurred())
			Expect(st).To(Equal(page.State{Name: name, Tick: tick}))
		},
		Entry("a rung at a tick", "T2.1", int64(44), "T2.1@44"),
		Entry("a case", "T2.3/swapped", int64(7), "T2.3/swapped@7"),
		Entry("no tick", "T0.1", int64(-1), "T0.1"),
		Entry("a name with the separator in it", "odd@name", int64(3), "odd%40name@3"),
		Entry("spaces and non-ASCII", "fixtures/é x.yaml", int64(-1), "fixtures/%C3%A9%20x.yaml"),
	)

	DescribeTable("bad fragments are errors",
		func(frag, msg string) {
			_, err := page.ParseFragment(frag)
			Expect(err).To(MatchError(msg))
		},
		Entry("empty", "#", `fragment "" names no rung`),
		Entry("no name", "#@4", `fragment "@4" names no rung`),
		Entry("no tick after @", "#T2.1@", `fragment "T2.1@": tick "" is not a non-negative integer`),
		Entry("a signed tick", "#T2.1@+4", `fragment "T2.1@+4": tick "+4" is not a non-negative integer`),
		Entry("a negative tick", "#T2.1@-4", `fragment "T2.1@-4": tick "-4" is not a non-negative integer`),
		Entry("a word", "#T2.1@noon", `fragment "T2.1@noon": tick "noon" is not a non-negative integer`),
		Entry("a truncated escape", "#T2%4", `fragment "T2%4": truncated escape at byte 2`),
		Entry("a bad escape", "#T2%zz@1", `fragment "T2%zz@1": bad escape "%zz" at byte 2`),
	)
})

// FuzzFragment checks that every name and tick survive Fragment and
// ParseFragment, and that ParseFragment never panics on any input.
func FuzzFragment(f *testing.F) {
	f.Add("T2.1", int64(44), "#T2.1@44")
	f.Add("T2.3/swapped", int64(-1), "%")
	f.Add("a@b%c", int64(0), "#@")
	f.Fuzz(func(t *testing.T, name string, tick int64, raw string) {
		_, _ = page.ParseFragment(raw)
		if name == "" {
			return
		}
		if tick < -1 {
			tick = -1
		}
		st, err := page.ParseFragment(page.Fragment(name, tick))
		if err != nil {
			t.Fatalf("Fragment(%q, %d) does not parse: %v", name, tick, err)
		}
		if st.Name != name || st.Tick != tick {
			t.Fatalf("Fragment(%q, %d) parses as (%q, %d)", name, tick, st.Name, st.Tick)
		}
	})
}
