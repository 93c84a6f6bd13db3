package compare_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/compare"
	"github.com/chronicle/ladder/sim/canon"
)

var _ = Describe("Index", func() {
	build := func(recs ...string) (*compare.Index, error) {
		x := compare.NewIndexer()
		for i, r := range recs {
			x.Add(record(r), i+2)
		}
		return x.Index()
	}
	enc := func(key string, value float64) string {
		return `{"kind":"encounter","roll":{"key":"` + key + `","threshold":0.5,"value":` + canon.FormatFloat(value) + `},"tick":` + key[len("encounter@"):len("encounter@")+1] + `}`
	}

	It("keeps each roll with its place, skipping records without one", func() {
		ix, err := build(enc("encounter@1/m/[a,b]", 0.1), `{"kind":"belief","tick":1}`, enc("encounter@2/m/[a,b]", 0.2))
		Expect(err).NotTo(HaveOccurred())
		Expect(ix.Len()).To(Equal(2))
		Expect(ix.Roll(1).Line).To(Equal(4))
	})

	It("pairs the n-th roll of a key with the n-th, once per matcher, and leaves the rest unpaired in file order", func() {
		ix, err := build(enc("encounter@1/m/[a,b]", 0.1), enc("encounter@1/m/[a,b]", 0.2), enc("encounter@2/m/[a,c]", 0.3))
		Expect(err).NotTo(HaveOccurred())
		m := ix.Match()
		probe := compare.Roll{Key: "encounter@1/m/[a,b]"}
		r, ok := m.Pair(probe)
		Expect(ok).To(BeTrue())
		Expect(r.Value).To(Equal(0.1))
		r, ok = m.Pair(probe)
		Expect(ok).To(BeTrue())
		Expect(r.Value).To(Equal(0.2))
		_, ok = m.Pair(probe)
		Expect(ok).To(BeFalse())
		_, ok = m.Pair(compare.Roll{Key: "encounter@9/m/[x,y]"})
		Expect(ok).To(BeFalse())
		var rest []string
		m.Unpaired(func(r compare.Roll) { rest = append(rest, r.Key) })
		Expect(rest).To(Equal([]string{"encounter@2/m/[a,c]"}))

		other := ix.Match()
		r, ok = other.Pair(probe)
		Expect(ok).To(BeTrue(), "a second matcher starts afresh")
		Expect(r.Value).To(Equal(0.1))
	})

	It("keeps the first malformed roll as its error", func() {
		_, err := build(enc("encounter@1/m/[a,b]", 0.1), `{"kind":"encounter","roll":{"key":"bad"},"tick":1}`, `{"kind":"encounter","roll":7,"tick":1}`)
		Expect(err).To(MatchError(`trace line 3: roll bad has no value`))
	})
})
