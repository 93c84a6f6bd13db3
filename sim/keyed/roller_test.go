package keyed_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/keyed"
)

var _ = Describe("Roller", func() {
	It("rolls the natural value when nothing is pinned", func() {
		r, err := keyed.NewRoller("ab-test-1", nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.SeedID()).To(Equal("ab-test-1"))
		roll := r.Roll("encounter", 12, "whiterun_market", "neighbor", "witness")
		Expect(roll).To(Equal(keyed.Roll{Key: marketPair, Value: 0.9680590672104636, Natural: 0.9680590672104636}))
	})

	It("does not depend on what was rolled before", func() {
		quiet, _ := keyed.NewRoller("ab-test-1", nil)
		busy, _ := keyed.NewRoller("ab-test-1", nil)
		for tick := int64(0); tick < 50; tick++ {
			busy.Roll("gossip", tick, "inn", "hulda")
		}
		Expect(busy.Roll("encounter", 12, "whiterun_market", "neighbor", "witness")).
			To(Equal(quiet.Roll("encounter", 12, "whiterun_market", "neighbor", "witness")))
	})

	It("copies participants so later edits by the caller do not reach the roll", func() {
		r, _ := keyed.NewRoller("s", nil)
		ps := []string{"a", "b"}
		roll := r.Roll("p", 1, "x", ps...)
		ps[0] = "z"
		Expect(roll.Key.Participants).To(Equal([]string{"a", "b"}))
	})

	Describe("Fill", func() {
		It("rolls what Roll rolls for the same key, pinned or not, in place, keeping the key it was given", func() {
			pins := []keyed.Pin{{Purpose: "encounter", Tick: 12, Site: "whiterun_market", Participants: []string{"neighbor", "witness"}, Value: 0.01}}
			byRoll, _ := keyed.NewRoller("ab-test-1", pins)
			byFill, _ := keyed.NewRoller("ab-test-1", pins)
			pair := []string{"neighbor", "witness"}
			var got keyed.Roll
			for tick := int64(10); tick < 14; tick++ {
				got.Key = byFill.Key("encounter", tick, "whiterun_market", pair)
				byFill.Fill(&got)
				Expect(got).To(Equal(byRoll.Roll("encounter", tick, "whiterun_market", pair...)))
				Expect(&got.Key.Participants[0]).To(BeIdenticalTo(&pair[0]), "the key is shared, not copied")
			}
			Expect(got.Pinned).To(BeFalse(), "a pinned roll before does not leave Pinned set")
			Expect(byFill.Unused()).To(BeEmpty())
		})

		It("rolls Value's value for every key, however rolls share their encoding's first SHA-256 block", func() {
			r, _ := keyed.NewRoller("ladder-T2.1", nil)
			rng := rand.New(rand.NewPCG(31, 32))
			word := func(n int) string {
				b := make([]byte, n)
				for i := range b {
					b[i] = byte('a' + rng.IntN(26))
				}
				return string(b)
			}
			sites := []string{"", "inn", "bannered_mare_217", "bannered_mare_218", "banne", word(40), word(90)}
			people := []string{"", "a", "hulda_217", "saadia_217", word(12), word(70)}
			examined, long := 0, 0
			var roll keyed.Roll
			for range 20_000 {
				// Runs of rolls at one site and tick share their first block;
				// a new site or tick starts another.
				tick, site := int64(rng.IntN(4)), sites[rng.IntN(len(sites))]
				for range rng.IntN(12) {
					ps := make([]string, rng.IntN(4))
					for i := range ps {
						ps[i] = people[rng.IntN(len(people))]
					}
					roll.Key = r.Key([]string{"encounter", "mutation"}[rng.IntN(2)], tick, site, ps)
					r.Fill(&roll)
					Expect(math.Float64bits(roll.Natural)).To(Equal(math.Float64bits(keyed.Value(roll.Key))), "%#v", roll.Key)
					if len(roll.Key.AppendEncoding(nil)) > 64 {
						long++
					}
					examined++
				}
			}
			Expect(examined).To(BeNumerically(">", 50_000))
			Expect(long).To(BeNumerically(">", examined/2), "most encodings span two blocks or more")
		})

		It("allocates nothing, with or without pins", func() {
			for _, pins := range [][]keyed.Pin{nil, {{Purpose: "encounter", Tick: 3, Value: 0.5}}} {
				r, _ := keyed.NewRoller("ab-test-1", pins)
				roll := keyed.Roll{Key: r.Key("encounter", 12, "whiterun_market", []string{"neighbor", "witness"})}
				var sum float64
				allocs := testing.AllocsPerRun(100, func() {
					roll.Key.Tick++ // a new first block
					r.Fill(&roll)
					sum += roll.Value
					roll.Key.Participants[0] = "hulda" // the same first block
					r.Fill(&roll)
					sum += roll.Value
					roll.Key.Participants[0] = "neighbor"
				})
				Expect(allocs).To(BeZero())
				Expect(sum).To(BeNumerically(">", 0))
			}
		})
	})

	Describe("pins", func() {
		pins := func() []keyed.Pin {
			return []keyed.Pin{
				{Purpose: "encounter", Tick: 12, Site: "whiterun_market", Participants: []string{"neighbor", "witness"}, Value: 0.01},
				{Purpose: "mutation", Tick: 3, Value: 0},
				{Purpose: "tell-decision", Tick: 5, Site: "inn", Participants: []string{"a"}, Value: 0.5},
			}
		}

		It("force a matching roll and keep the natural value for triage", func() {
			r, err := keyed.NewRoller("ab-test-1", pins())
			Expect(err).NotTo(HaveOccurred())
			roll := r.Roll("encounter", 12, "whiterun_market", "neighbor", "witness")
			Expect(roll).To(Equal(keyed.Roll{Key: marketPair, Value: 0.01, Natural: 0.9680590672104636, Pinned: true}))
		})

		It("match exactly on purpose, tick, site and participant order", func() {
			r, _ := keyed.NewRoller("ab-test-1", pins())
			near := []keyed.Roll{
				r.Roll("encounter", 12, "whiterun_market", "witness", "neighbor"),
				r.Roll("encounter", 13, "whiterun_market", "neighbor", "witness"),
				r.Roll("encounter", 12, "riverwood", "neighbor", "witness"),
				r.Roll("brawl", 12, "whiterun_market", "neighbor", "witness"),
				r.Roll("encounter", 12, "whiterun_market", "neighbor"),
				r.Roll("mutation", 3, "", "extra"),
			}
			for _, roll := range near {
				Expect(roll.Pinned).To(BeFalse(), "%s", roll.Key)
				Expect(roll.Value).To(Equal(roll.Natural))
			}
			Expect(r.Unused()).To(Equal(pins()))
		})

		It("report unused pins in their original order, as copies", func() {
			r, _ := keyed.NewRoller("ab-test-1", pins())
			r.Roll("mutation", 3, "")
			r.Roll("mutation", 3, "")
			unused := r.Unused()
			Expect(unused).To(Equal([]keyed.Pin{pins()[0], pins()[2]}))
			unused[0].Participants[0] = "changed"
			Expect(r.Unused()[0].Participants[0]).To(Equal("neighbor"))
			r.Roll("encounter", 12, "whiterun_market", "neighbor", "witness")
			r.Roll("tell-decision", 5, "inn", "a")
			Expect(r.Unused()).To(BeEmpty())
		})

		It("are copied, so the caller's slice can change afterwards", func() {
			given := pins()
			r, _ := keyed.NewRoller("ab-test-1", given)
			given[0].Participants[0] = "changed"
			given[0].Value = 0.9
			Expect(r.Roll("encounter", 12, "whiterun_market", "neighbor", "witness").Value).To(Equal(0.01))
		})

		It("apply to the roller's seed only", func() {
			r, _ := keyed.NewRoller("ab-test-2", pins())
			roll := r.Roll("encounter", 12, "whiterun_market", "neighbor", "witness")
			Expect(roll.Pinned).To(BeTrue())
			Expect(roll.Key.SeedID).To(Equal("ab-test-2"))
			Expect(roll.Natural).To(Equal(0.6868927169324801))
		})
	})

	Describe("NewRoller", func() {
		DescribeTable("rejects a pin value that is NaN or outside [0,1)",
			func(v float64) {
				_, err := keyed.NewRoller("s", []keyed.Pin{
					{Purpose: "ok", Value: 0.5},
					{Purpose: "encounter", Tick: 4, Site: "inn", Participants: []string{"a", "b"}, Value: v},
				})
				var pe *keyed.PinError
				Expect(errors.As(err, &pe)).To(BeTrue())
				Expect(pe.Index).To(Equal(1))
				Expect(pe.Key).To(Equal(keyed.Key{SeedID: "s", Purpose: "encounter", Tick: 4, Site: "inn", Participants: []string{"a", "b"}}))
				Expect(err).To(MatchError(keyed.ErrPinValue))
				Expect(err.Error()).To(HavePrefix("keyed: pin 1 encounter@4/inn/[a,b]: pin value outside [0,1): "))
			},
			Entry("one", 1.0),
			Entry("just below zero", math.Nextafter(0, -1)),
			Entry("negative", -0.5),
			Entry("NaN", math.NaN()),
			Entry("+Inf", math.Inf(1)),
			Entry("-Inf", math.Inf(-1)),
		)

		It("accepts the edges of [0,1)", func() {
			_, err := keyed.NewRoller("s", []keyed.Pin{{Purpose: "lo", Value: 0}, {Purpose: "hi", Value: math.Nextafter(1, 0)}})
			Expect(err).NotTo(HaveOccurred())
		})

		It("rejects a pin that repeats an earlier pin's key, naming both", func() {
			_, err := keyed.NewRoller("s", []keyed.Pin{
				{Purpose: "encounter", Tick: 4, Participants: []string{"a"}, Value: 0.1},
				{Purpose: "encounter", Tick: 4, Participants: []string{"b"}, Value: 0.2},
				{Purpose: "encounter", Tick: 4, Participants: []string{"a"}, Value: 0.3},
			})
			var pe *keyed.PinError
			Expect(errors.As(err, &pe)).To(BeTrue())
			Expect(pe.Index).To(Equal(2))
			Expect(err).To(MatchError(keyed.ErrDuplicatePin))
			Expect(err.Error()).To(Equal("keyed: pin 2 encounter@4//[a]: duplicate pin key, first given as pin 0"))
		})

		It("tells apart pins whose fields concatenate alike", func() {
			_, err := keyed.NewRoller("s", []keyed.Pin{
				{Purpose: "split", Site: "ab", Participants: []string{"c"}, Value: 0.1},
				{Purpose: "split", Site: "a", Participants: []string{"bc"}, Value: 0.2},
			})
			Expect(err).NotTo(HaveOccurred())
		})
	})
})
