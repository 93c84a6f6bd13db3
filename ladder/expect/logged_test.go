package expect_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/expect"
)

var _ = Describe("logged_first", func() {
	rec := func(seq, tick int, kind string, fields ...string) expect.Record {
		r := expect.Record{"kind": kind, "seq": float64(seq), "tick": float64(tick)}
		for i := 0; i+1 < len(fields); i += 2 {
			r[fields[i]] = fields[i+1]
		}
		return r
	}
	judge := func(records ...expect.Record) expect.Result {
		GinkgoHelper()
		r := expect.Start(decode("{logged_first: {claim: theft@1}}"))
		for _, x := range records {
			r.Trace(x)
		}
		return r.Finish()[0]
	}

	It("passes when every belief and transmission of the claim follows its event, counting them", func() {
		res := judge(
			rec(0, 1, "event", "id", "theft@1"),
			rec(1, 1, "belief", "claim", "theft@1"),
			rec(2, 2, "transmission", "claim", "theft@1"),
			rec(3, 2, "belief", "claim", "theft@2"),
		)
		Expect(res.Passed).To(BeTrue(), res.Message)
		Expect(res.Examined).To(Equal(int64(2)))
	})

	It("fails at the first belief that comes before its event: an orphan belief", func() {
		res := judge(
			rec(0, 1, "belief", "claim", "theft@1"),
			rec(1, 1, "event", "id", "theft@1"),
		)
		Expect(res.Passed).To(BeFalse())
		Expect(res.Tick).To(Equal(int64(1)))
		Expect(res.Message).To(Equal("a belief record of theft@1 (seq 0) comes before the event that names it is logged"))
	})

	It("fails when the event never comes at all", func() {
		res := judge(rec(4, 3, "transmission", "claim", "theft@1"))
		Expect(res.Passed).To(BeFalse())
		Expect(res.Message).To(Equal("a transmission record of theft@1 (seq 4) comes before the event that names it is logged"))
	})

	It("has checked nothing when no record is about the claim", func() {
		res := judge(rec(0, 1, "event", "id", "theft@1"))
		Expect(res.Passed).To(BeFalse())
		Expect(res.Message).To(HavePrefix("checked nothing: examined 0 belief and transmission records of the claim"))
	})
})
