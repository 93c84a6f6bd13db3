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

	It("link one thing of a tick: an NPC, a belief, a trace record, a social row", func() {
		Expect(page.LinkTo("T3.2", 40, page.Target{Kind: "npc", Value: "torvar"})).To(Equal("reports/index.html#T3.2@40/npc=torvar"))
		Expect(page.LinkTo("T3.2", 40, page.BeliefTarget("torvar", "brawl@0"))).To(Equal("reports/index.html#T3.2@40/belief=torvar:brawl@0"))
		Expect(page.LinkTo("T3.2", 0, page.Target{Kind: "trace", Value: "53"})).To(Equal("reports/index.html#T3.2@0/trace=53"))
		Expect(page.LinkTo("T3.3/fulfilled", 25, page.Target{Kind: "social", Value: "grudge/jon/player"})).
			To(Equal("reports/index.html#T3.3/fulfilled@25/social=grudge%2Fjon%2Fplayer"))
		Expect(page.LinkTo("T3.2", -1, page.BeliefTarget("torvar", "brawl@0"))).To(Equal("reports/index.html#T3.2"), "a target needs a tick")
	})

	DescribeTable("fragments with a target round-trip",
		func(name string, tick int64, t page.Target, frag string) {
			Expect(page.FragmentTo(name, tick, t)).To(Equal(frag))
			st, err := page.ParseFragment("#" + frag)
			Expect(err).NotTo(HaveOccurred())
			Expect(st).To(Equal(page.State{Name: name, Tick: tick, Target: t}))
		},
		Entry("a belief, whose claim holds an @", "T3.2", int64(40), page.BeliefTarget("torvar", "brawl@0"), "T3.2@40/belief=torvar:brawl@0"),
		Entry("a case's NPC", "T2.3/swapped", int64(7), page.Target{Kind: "npc", Value: "w1"}, "T2.3/swapped@7/npc=w1"),
		Entry("a record", "T1.1", int64(12), page.Target{Kind: "trace", Value: "31"}, "T1.1@12/trace=31"),
		Entry("a social key with slashes and a space", "T5.1", int64(3), page.Target{Kind: "social", Value: "role/a b"}, "T5.1@3/social=role%2Fa%20b"),
		Entry("why an NPC does not hold a claim", "T2.6", int64(100), page.WhyNotTarget("merchant", "theft@9"), "T2.6@100/whynot=merchant:theft@9"),
	)

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
		Entry("an unknown target", "#T2.1@4/who=a", `fragment "T2.1@4/who=a": "who=a" is not kind=value with a kind of npc, belief, trace, social, whynot`),
		Entry("a target without a value", "#T2.1@4/npc=", `fragment "T2.1@4/npc=": npc names nothing`),
		Entry("a target without =", "#T2.1@4/npc", `fragment "T2.1@4/npc": "npc" is not kind=value with a kind of npc, belief, trace, social, whynot`),
	)
})

// FuzzFragment checks that every name and tick survive Fragment and
// ParseFragment, and that ParseFragment never panics on any input.
func FuzzFragment(f *testing.F) {
	f.Add("T2.1", int64(44), "#T2.1@44")
	f.Add("T2.3/swapped", int64(-1), "%")
	f.Add("a@b%c", int64(0), "#@")
	f.Add("T3.2", int64(40), "#T3.2@40/belief=torvar:brawl@0")
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
		if tick < 0 {
			return
		}
		// Any value round-trips as a target's, the name as the value too.
		target := page.Target{Kind: "belief", Value: name + raw}
		st, err = page.ParseFragment(page.FragmentTo(name, tick, target))
		if err != nil || st.Name != name || st.Tick != tick || st.Target != target {
			t.Fatalf("FragmentTo(%q, %d, %v) parses as %+v, %v", name, tick, target, st, err)
		}
	})
}
