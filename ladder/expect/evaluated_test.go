package expect_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/expect"
)

// A negative about a rule needs the rule evaluated in its range; the run
// counts the evaluations from the trace for it (expect.Evaluating),
// reading a line only for the rule's name and only until it finds one.
var _ = Describe("a negative about a rule, as the trace streams", func() {
	const pattern = "{trace: {match: {kind: rule, rule: corroboration, fired: true}, exists: false}}"
	// Lines as a run spells them, canonical: a rule record of another
	// rule, a transmission that names corroboration (one of its
	// evaluations), and a rule record of corroboration that did not fire.
	witnessed := `{"fired":true,"kind":"rule","reason":"witnessed","rule":"witness-creates-belief","subject":"w/theft@1","tick":1,"values":{"confidence":0.9}}`
	retold := `{"claim":"theft@1","confidence":0.72,"fired":true,"kind":"transmission","listener":"w","reason":"listener already held it","rule":"corroboration","teller":"carrier","tick":3,"variant":"theft@1#v0","via":"e1"}`
	stale := `{"fired":false,"kind":"rule","reason":"stale","rule":"corroboration","subject":"w/theft@1","tick":3,"values":{"after":0.9,"before":0.9,"report":0.72}}`

	streamed := func(lines ...string) (*expect.Run, expect.Result) {
		GinkgoHelper()
		r := expect.Start(decode(pattern))
		for _, l := range lines {
			rec, err := expect.DecodeRecord([]byte(l))
			Expect(err).NotTo(HaveOccurred())
			kind := rec["kind"].(string)
			if r.Traces(rec.Tick(), kind) {
				Expect(r.TraceLine(rec.Tick(), kind, []byte(l))).To(Succeed())
			}
		}
		return r, r.Finish()[0]
	}
	whole := func(lines ...string) expect.Result {
		GinkgoHelper()
		r := expect.Start(decode(pattern))
		for _, l := range lines {
			rec, err := expect.DecodeRecord([]byte(l))
			Expect(err).NotTo(HaveOccurred())
			r.Trace(rec)
		}
		return r.Finish()[0]
	}

	It("wants a record of a kind the pattern does not read until it has seen the rule evaluated, then no more", func() {
		r := expect.Start(decode(pattern))
		Expect(r.Traces(1, "transmission")).To(BeTrue(), "a transmission may be an evaluation of corroboration")
		Expect(r.Traces(1, "encounter")).To(BeFalse(), "an encounter never is")
		Expect(r.TraceLine(3, "transmission", []byte(retold))).To(Succeed())
		Expect(r.Traces(4, "transmission")).To(BeFalse(), "one evaluation is all it needs")
	})

	It("passes when the rule was evaluated and never matched, read line by line or whole", func() {
		_, res := streamed(witnessed, retold, stale)
		Expect(res.Passed).To(BeTrue(), res.Message)
		Expect(res.Examined).To(Equal(int64(2)), "the two rule records")
		Expect(whole(witnessed, retold, stale)).To(Equal(res))
	})

	It("counts an evaluation of another kind than the pattern's: a transmission the rule decided", func() {
		_, res := streamed(witnessed, retold)
		Expect(res.Passed).To(BeTrue(), res.Message)
	})

	It("fails when no record names the rule, read line by line or whole", func() {
		_, res := streamed(witnessed)
		Expect(res.Passed).To(BeFalse())
		Expect(res.Message).To(Equal("could not have matched: rule corroboration was never evaluated in this run (examined 0 records of it) — " +
			"a negative must examine something that could have matched (examined 1 rule records in ticks [0, 9])"))
		Expect(whole(witnessed)).To(Equal(res))
	})
})
