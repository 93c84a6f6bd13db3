package compare_test

import (
	"errors"
	"io"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/compare"
)

const goodHeader = `{"branch":{"generation":3,"save_uuid":"u"},"keyframe_every":24,"kind":"header","schema":"chronicle.trace","seed_id":"s","version":2}` + "\n"

var _ = Describe("Reader", func() {
	It("reads the header, then records in order with their lines", func() {
		rd, err := compare.NewReader(strings.NewReader(goodHeader + `{"kind":"belief","tick":1}` + "\n" + `{"kind":"keyframe","tick":1}` + "\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(rd.Header).To(Equal(compare.Header{SeedID: "s", Branch: compare.Branch{SaveUUID: "u", Generation: 3}, Version: 2}))
		r, err := rd.Next()
		Expect(err).NotTo(HaveOccurred())
		Expect([]any{r.Line, r.Tick, r.Kind}).To(Equal([]any{2, int64(1), "belief"}))
		r, err = rd.Next()
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Line).To(Equal(3))
		_, err = rd.Next()
		Expect(errors.Is(err, io.EOF)).To(BeTrue())
	})

	It("reads version 3 as version 2 spelt it: the branch and what an encounter's id spells put back", func() {
		file := `{"branches":[{"generation":3,"save_uuid":"u"}],"keyframe_every":24,"kind":"header","layers":["core"],"schema":"chronicle.trace","seed_id":"s","version":3}` + "\n" +
			`{"branch":0,"fired":false,"id":"encounter@1/market/[a,b]","kind":"encounter","roll":{"threshold":0.5,"value":0.75},"seq":0,"tick":1}` + "\n"
		rd, err := compare.NewReader(strings.NewReader(file))
		Expect(err).NotTo(HaveOccurred())
		Expect(rd.Header).To(Equal(compare.Header{SeedID: "s", Branch: compare.Branch{SaveUUID: "u", Generation: 3}, Version: 3}))
		r, err := rd.Next()
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Fields).To(Equal(map[string]any{
			"branch": map[string]any{"generation": 3.0, "save_uuid": "u"}, "fired": false, "id": "encounter@1/market/[a,b]", "kind": "encounter",
			"pair": []any{"a", "b"}, "site": "market", "seq": 0.0, "tick": 1.0,
			"roll": map[string]any{"key": "encounter@1/market/[a,b]", "natural": 0.75, "pinned": false, "purpose": "encounter", "threshold": 0.5, "value": 0.75},
		}))
	})

	DescribeTable("refuses a file that is not a trace it can read",
		func(file, want string) {
			_, err := compare.NewReader(strings.NewReader(file))
			Expect(err).To(MatchError(want))
		},
		Entry("empty", "", "trace line 1: empty file, want a header"),
		Entry("a record first", `{"kind":"belief","tick":1}`+"\n", "trace line 1: not a chronicle.trace header"),
		Entry("another schema", strings.Replace(goodHeader, "chronicle.trace", "other", 1), "trace line 1: not a chronicle.trace header"),
		Entry("a version it does not know", strings.Replace(goodHeader, `"version":2`, `"version":4`, 1), "trace line 1: version 4, this reader knows versions 1 to 3"),
		Entry("version 3 without its branches", strings.Replace(goodHeader, `"version":2`, `"version":3`, 1), "trace line 1: trace header: version 3 without branches"),
		Entry("no seed", strings.Replace(goodHeader, `"seed_id":"s"`, `"seed_id":""`, 1), "trace line 1: the header has no seed_id"),
		Entry("no branch", strings.Replace(goodHeader, `"generation":3,`, ``, 1), "trace line 1: the header has no branch (save_uuid, generation)"),
	)

	DescribeTable("refuses a record it cannot align",
		func(records, want string) {
			rd, err := compare.NewReader(strings.NewReader(goodHeader + records))
			Expect(err).NotTo(HaveOccurred())
			for err == nil {
				_, err = rd.Next()
			}
			Expect(err).To(MatchError(want))
		},
		Entry("not JSON", "not json\n", "trace line 2: invalid character 'o' in literal null (expecting 'u')"),
		Entry("not an object", "null\n", "trace line 2: want a JSON object"),
		Entry("no tick", `{"kind":"belief"}`+"\n", "trace line 2: record has no tick (a whole number), got <nil>"),
		Entry("no kind", `{"tick":1}`+"\n", "trace line 2: record has no kind"),
		Entry("ticks going back", `{"kind":"belief","tick":2}`+"\n"+`{"kind":"belief","tick":1}`+"\n", "trace line 3: tick 1 after tick 2: records are in tick order"),
		Entry("a last line cut short", `{"kind":"belief","tick":2}`, "trace line 2: no final newline: the file is cut short"),
	)
})
