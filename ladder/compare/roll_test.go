package compare_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/compare"
)

func record(s string) map[string]any {
	GinkgoHelper()
	var m map[string]any
	Expect(json.Unmarshal([]byte(s), &m)).To(Succeed())
	return m
}

var _ = Describe("RollOf", func() {
	It("reads the roll of a record with what rolled it and where", func() {
		r, ok, err := compare.RollOf(record(`{"kind":"rule","rule":"mutation-policy","roll":{"key":"mutation@4/market/[ralof,neighbor]","natural":0.3,"pinned":true,"threshold":0.25,"value":0.01},"tick":4}`), 9)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		Expect(r).To(Equal(compare.Roll{Key: "mutation@4/market/[ralof,neighbor]", Tick: 4, Value: 0.01, Natural: 0.3, Threshold: 0.25, Pinned: true, By: "rule mutation-policy", Line: 9}))
		Expect(r.Describe()).To(Equal("0.01 (pinned, natural 0.3), threshold 0.25, rolled by rule mutation-policy at line 9"))
		Expect(r.Where()).To(Equal("tick 4 at market, participants ralof, neighbor"))
	})

	It("says a record without a roll has none", func() {
		_, ok, err := compare.RollOf(record(`{"kind":"belief","tick":3}`), 2)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeFalse())
	})

	DescribeTable("refuses a roll it could not place",
		func(rec, want string) {
			_, _, err := compare.RollOf(record(rec), 1)
			Expect(err).To(MatchError(want))
		},
		Entry("not an object", `{"kind":"encounter","roll":3,"tick":1}`, "roll is float64, want an object"),
		Entry("no tick", `{"kind":"encounter","roll":{"key":"e@1/m/[a]","threshold":0.5,"value":0.1}}`, "record has no tick (a whole number), got <nil>"),
		Entry("a fractional tick", `{"kind":"encounter","roll":{"key":"e@1/m/[a]","threshold":0.5,"value":0.1},"tick":1.5}`, "record has no tick (a whole number), got 1.5"),
		Entry("no key", `{"kind":"encounter","roll":{"threshold":0.5,"value":0.1},"tick":1}`, "roll has no key"),
		Entry("no value", `{"kind":"encounter","roll":{"key":"e@1/m/[a]","threshold":0.5},"tick":1}`, "roll e@1/m/[a] has no value"),
		Entry("no threshold", `{"kind":"encounter","roll":{"key":"e@1/m/[a]","value":0.1},"tick":1}`, "roll e@1/m/[a] has no threshold"),
		Entry("a key that does not parse", `{"kind":"encounter","roll":{"key":"e1","threshold":0.5,"value":0.1},"tick":1}`, `roll key "e1": want purpose@tick/site/[participants]`),
		Entry("a key of another tick", `{"kind":"encounter","roll":{"key":"e@2/m/[a]","threshold":0.5,"value":0.1},"tick":1}`,
			"roll e@2/m/[a] names tick 2 but its record is at tick 1"),
	)

	DescribeTable("Outcome reads the threshold as the schema does",
		func(value, threshold float64, want int64) {
			Expect(compare.Roll{Value: value, Threshold: threshold}.Outcome()).To(Equal(want))
		},
		Entry("a yes/no roll below its threshold passes", 0.1, 0.5, int64(1)),
		Entry("at the threshold it fails", 0.5, 0.5, int64(0)),
		Entry("a probability of 1 always passes", 0.999, 1.0, int64(1)),
		Entry("a choice among 3 picks ⌊value × 3⌋", 0.7, 3.0, int64(2)),
		Entry("the first of 2", 0.49, 2.0, int64(0)),
	)
})
