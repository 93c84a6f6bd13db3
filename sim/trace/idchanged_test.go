package trace_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/trace"
)

var _ = Describe("IDChanged", func() {
	rec := func(s string) map[string]any {
		GinkgoHelper()
		var m map[string]any
		Expect(json.Unmarshal([]byte(s), &m)).To(Succeed())
		return m
	}

	DescribeTable("is the same record under another id only when nothing but digits in strings moved",
		func(golden, actual string, want bool) {
			Expect(trace.IDChanged(rec(golden), rec(actual))).To(Equal(want))
		},
		Entry("an event id from a counter, its hash with it", `{"event":"theft","hash":"aa","id":"theft@2","kind":"event","tick":2}`,
			`{"event":"theft","hash":"bb","id":"theft@3","kind":"event","tick":2}`, true),
		Entry("an id given a counter's suffix", `{"id":"grudge@20:jon:player:invoke@20","kind":"event","tick":20}`, `{"id":"grudge@20:jon:player:invoke@20#2","kind":"event","tick":20}`, true),
		Entry("an encounter carried by a renamed id", `{"kind":"transmission","tick":4,"via":"e@4/1"}`, `{"kind":"transmission","tick":4,"via":"e@4/7"}`, true),
		Entry("a record about someone else", `{"holder":"witness","kind":"belief","tick":2}`, `{"holder":"neighbor","kind":"belief","tick":2}`, false),
		Entry("a subject that is someone else's, though subject holds ids", `{"kind":"rule","subject":"witness/theft@2","tick":2}`, `{"kind":"rule","subject":"neighbor/theft@2","tick":2}`, false),
		Entry("a number that moved beside the id", `{"confidence":0.9,"id":"x1","kind":"event","tick":2}`, `{"confidence":0.8,"id":"x2","kind":"event","tick":2}`, false),
		Entry("another kind", `{"id":"x1","kind":"event","tick":2}`, `{"id":"x2","kind":"encounter","tick":2}`, false),
		Entry("another tick", `{"id":"x1","kind":"event","tick":2}`, `{"id":"x2","kind":"event","tick":3}`, false),
		Entry("the same record (nothing renamed)", `{"id":"x1","kind":"event","tick":2}`, `{"id":"x1","kind":"event","seq":9,"tick":2}`, false),
		Entry("only the hash", `{"hash":"aa","id":"x1","kind":"event","tick":2}`, `{"hash":"bb","id":"x1","kind":"event","tick":2}`, false),
	)

	It("agrees with Compare's reading of a renamed record", func() {
		g := []byte(`{"kind":"header"}` + "\n" + `{"event":"theft","id":"theft@2","kind":"event","tick":2}` + "\n")
		a := []byte(`{"kind":"header"}` + "\n" + `{"event":"theft","id":"theft@3","kind":"event","tick":2}` + "\n")
		Expect(trace.Compare(g, a).Renamed).To(BeTrue())
		Expect(trace.IDChanged(rec(`{"event":"theft","id":"theft@2","kind":"event","tick":2}`), rec(`{"event":"theft","id":"theft@3","kind":"event","tick":2}`))).To(BeTrue())
		Expect(trace.RecordKey(map[string]any{"kind": "event", "id": "theft@2"})).To(Equal(`"theft@2"`))
	})
})
