package trace_test

// Record shapes added with the Tier-2 work (variant resolution, mutation
// rolls). Kept apart from jsonl_test.go so the schema v1 kinds stay pinned
// on their own if this newer API moves.

import (
	"strings"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/trace"
)

var _ = Describe("Tier-2 records", func() {
	mutationRoll := trace.Roll{
		Roll:      keyed.Roll{Key: keyed.Key{Purpose: "mutation", Tick: 12, Site: "market", Participants: []string{"witness"}}, Value: 0.125, Natural: 0.125},
		Threshold: 0.25,
	}

	DescribeTable("write one canonical line each",
		func(body trace.Body, kind trace.Kind, line, v2 string) {
			Expect(body.Kind()).To(Equal(kind))
			b := trace.Buffer{Header: header}
			b.Emit(trace.Record{Seq: 7, Tick: 12, Body: body})
			out, err := b.AppendJSONL(nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(cmp.Diff(headerLine+"\n"+line+"\n", string(out))).To(BeEmpty())
			Expect(restored(line)).To(Equal(decoded(v2)), "read back as version 2 spelt it")
		},
		Entry("rule evaluation decided by a roll",
			trace.RuleEval{Rule: "mutation-policy", Subject: "witness->neighbor theft@2", Fired: true, Reason: "mutated", Roll: &mutationRoll},
			trace.KindRule,
			`{`+branchV3+`,"fired":true,"kind":"rule","reason":"mutated","roll":{"key":"mutation@12/market/[witness]","natural":0.125,"pinned":false,"purpose":"mutation","threshold":0.25,"value":0.125},`+
				`"rule":"mutation-policy","seq":7,"subject":"witness->neighbor theft@2","tick":12,"values":{}}`,
			`{`+branchJSON+`,"fired":true,"kind":"rule","reason":"mutated","roll":{"key":"mutation@12/market/[witness]","natural":0.125,"pinned":false,"purpose":"mutation","threshold":0.25,"value":0.125},`+
				`"rule":"mutation-policy","seq":7,"subject":"witness->neighbor theft@2","tick":12,"values":{}}`),
		Entry("supersession",
			trace.Supersession{Holder: "neighbor", Claim: "theft@2", Loser: "theft@2#v1", Winner: "theft@2#v0", Via: encID, Kept: true},
			trace.KindSupersession,
			`{`+branchV3+`,"holder":"neighbor","kept":true,"kind":"supersession","loser":"theft@2#v1","seq":7,"tick":12,"via":"`+encID+`","winner":"theft@2#v0"}`,
			`{`+branchJSON+`,"claim":"theft@2","holder":"neighbor","kept":true,"kind":"supersession","loser":"theft@2#v1","seq":7,"tick":12,"via":"`+encID+`","winner":"theft@2#v0"}`),
	)

	It("names a supersession by holder, claim, loser and winner in a divergence", func() {
		b := trace.Buffer{Header: header}
		b.Emit(trace.Record{Seq: 0, Tick: 5, Body: trace.Supersession{Holder: "neighbor", Claim: "theft@2", Loser: "theft@2#v1", Winner: "theft@2#v0", Via: "x"}})
		golden, err := b.AppendJSONL(nil)
		Expect(err).NotTo(HaveOccurred())
		actual := []byte(strings.Replace(string(golden), `"kept":false`, `"kept":true`, 1))
		d := trace.Compare(golden, actual)
		Expect(d).NotTo(BeNil())
		Expect(d.Kind).To(Equal("supersession"))
		Expect(d.Key).To(Equal(`"neighbor/theft@2 theft@2#v1 lost to theft@2#v0"`))
	})
})
