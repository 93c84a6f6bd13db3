package keyed_test

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/keyed"
)

// vectorEntries turns the committed vectors into table entries.
func vectorEntries() []TableEntry {
	entries := make([]TableEntry, 0, len(valueVectors))
	for _, v := range valueVectors {
		entries = append(entries, Entry(v.name, v))
	}
	return entries
}

var _ = Describe("Value", func() {
	DescribeTable("matches the committed vectors bit for bit",
		func(v valueVector) {
			got := keyed.Value(v.key)
			Expect(math.Float64bits(got)).To(Equal(v.bits), "bits %#016x", math.Float64bits(got))
			want, err := strconv.ParseFloat(v.decimal, 64)
			Expect(err).NotTo(HaveOccurred())
			Expect(math.Float64bits(want)).To(Equal(v.bits), "decimal and bits columns disagree")
			Expect(strconv.FormatFloat(got, 'g', -1, 64)).To(Equal(v.decimal))
		},
		vectorEntries(),
	)

	It("has ≥12 committed vectors with distinct values", func() {
		Expect(len(valueVectors)).To(BeNumerically(">=", 12))
		seen := map[uint64]string{}
		for _, v := range valueVectors {
			Expect(seen).NotTo(HaveKey(v.bits), "%s repeats %s", v.name, seen[v.bits])
			seen[v.bits] = v.name
		}
	})

	It("stays in [0,1) across many keys", func() {
		for tick := int64(-5000); tick < 5000; tick++ {
			v := keyed.Value(keyed.Key{SeedID: "range", Purpose: "encounter", Tick: tick})
			Expect(v >= 0 && v < 1).To(BeTrue(), "tick %d gave %v", tick, v)
		}
	})

	It("does not care whether no participants are nil or empty", func() {
		k := keyed.Key{SeedID: "s", Purpose: "p", Tick: 1, Site: "x"}
		empty := k
		empty.Participants = []string{}
		Expect(keyed.Value(empty)).To(Equal(keyed.Value(k)))
	})
})

var _ = Describe("Key", func() {
	Describe("AppendEncoding", func() {
		It("encodes the documented worked example byte for byte", func() {
			k := keyed.Key{SeedID: "s", Purpose: "p", Tick: 2, Participants: []string{"a"}}
			want := strings.Join([]string{
				"6368726f6e69636c652e6b657965642e763100", // "chronicle.keyed.v1" 0x00
				"0000000173",                             // SeedID "s"
				"0000000170",                             // Purpose "p"
				"0000000000000002",                       // Tick 2
				"00000000",                               // Site ""
				"00000001",                               // one participant
				"0000000161",                             // "a"
			}, "")
			Expect(hex.EncodeToString(k.AppendEncoding(nil))).To(Equal(want))
			Expect(math.Float64bits(keyed.Value(k))).To(Equal(uint64(0x3fd592eef17914c8)))
			Expect(keyed.Value(k)).To(Equal(0.3370931013235574))
		})

		It("writes the tick in two's complement", func() {
			enc := keyed.Key{Tick: -2}.AppendEncoding(nil)
			Expect(hex.EncodeToString(enc[len(enc)-16 : len(enc)-8])).To(Equal("fffffffffffffffe"))
		})

		It("appends after existing bytes without touching them", func() {
			k := keyed.Key{SeedID: "s", Purpose: "p"}
			got := k.AppendEncoding([]byte("prefix"))
			Expect(string(got[:6])).To(Equal("prefix"))
			Expect(got[6:]).To(Equal(k.AppendEncoding(nil)))
		})

		It("keeps keys apart whose fields concatenate to the same text", func() {
			pairs := [][2]keyed.Key{
				{{Site: "ab", Participants: []string{"c"}}, {Site: "a", Participants: []string{"bc"}}},
				{{Site: "abc"}, {Participants: []string{"abc"}}},
				{{Participants: []string{"ab", "c"}}, {Participants: []string{"a", "bc"}}},
				{{Participants: []string{"", "a"}}, {Participants: []string{"a", ""}}},
				{{Participants: []string{""}}, {}},
				{{SeedID: "ab", Purpose: "c"}, {SeedID: "a", Purpose: "bc"}},
				{{Purpose: "x", Site: ""}, {Purpose: "", Site: "x"}},
			}
			for _, p := range pairs {
				Expect(p[0].AppendEncoding(nil)).NotTo(Equal(p[1].AppendEncoding(nil)), "%#v vs %#v", p[0], p[1])
				Expect(keyed.Value(p[0])).NotTo(Equal(keyed.Value(p[1])), "%#v vs %#v", p[0], p[1])
			}
		})
	})

	Describe("String", func() {
		DescribeTable("prints purpose@tick/site/[participants] without the seed",
			func(k keyed.Key, want string) {
				Expect(k.String()).To(Equal(want))
				Expect(string(k.AppendString([]byte("prefix:")))).To(Equal("prefix:" + want))
			},
			Entry("the documented example", marketPair, "encounter@12/whiterun_market/[neighbor,witness]"),
			Entry("no site, no participants", keyed.Key{SeedID: "hidden", Purpose: "mutation", Tick: -3}, "mutation@-3//[]"),
			Entry("one participant", keyed.Key{Purpose: "tell-decision", Tick: 9, Site: "inn", Participants: []string{"hulda"}}, "tell-decision@9/inn/[hulda]"),
		)
	})

	Describe("changing any one field", func() {
		DescribeTable("changes the value",
			func(edit func(*keyed.Key)) {
				Expect(keyed.Value(with(edit))).NotTo(Equal(keyed.Value(marketPair)))
			},
			Entry("seed", func(k *keyed.Key) { k.SeedID += "x" }),
			Entry("purpose", func(k *keyed.Key) { k.Purpose = "mutation" }),
			Entry("tick +1", func(k *keyed.Key) { k.Tick++ }),
			Entry("tick sign", func(k *keyed.Key) { k.Tick = -k.Tick }),
			Entry("site", func(k *keyed.Key) { k.Site = "riverwood" }),
			Entry("site emptied", func(k *keyed.Key) { k.Site = "" }),
			Entry("a participant", func(k *keyed.Key) { k.Participants[1] = "guard" }),
			Entry("participant order", func(k *keyed.Key) { k.Participants[0], k.Participants[1] = k.Participants[1], k.Participants[0] }),
			Entry("participant dropped", func(k *keyed.Key) { k.Participants = k.Participants[:1] }),
			Entry("participant added", func(k *keyed.Key) { k.Participants = append(k.Participants, "guard") }),
		)
	})
})

var _ = Describe("Canonical", func() {
	It("makes participant order irrelevant", func() {
		a := keyed.Key{SeedID: "s", Purpose: "brawl", Tick: 4, Site: "inn", Participants: keyed.Canonical("mikael", "hulda", "guard")}
		b := a
		b.Participants = keyed.Canonical("guard", "mikael", "hulda")
		Expect(a.Participants).To(Equal([]string{"guard", "hulda", "mikael"}))
		Expect(keyed.Value(a)).To(Equal(keyed.Value(b)))
	})

	It("returns a copy and leaves its argument alone", func() {
		in := []string{"b", "a"}
		out := keyed.Canonical(in...)
		Expect(in).To(Equal([]string{"b", "a"}))
		out[0] = "z"
		Expect(in).To(Equal([]string{"b", "a"}))
	})

	It("sorts by byte order", func() {
		Expect(keyed.Canonical("b", "B", "é", "a")).To(Equal([]string{"B", "a", "b", "é"}))
		Expect(keyed.Canonical()).To(BeEmpty())
	})
})
