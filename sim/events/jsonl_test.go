package events_test

import (
	"bytes"
	"errors"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/events"
)

// equateEmpty treats a nil and an empty attribute map or witness list as
// the same, as the hash does.
var equateEmpty = cmpopts.EquateEmpty()

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

var _ = Describe("JSON lines", func() {
	It("writes one canonical line per record with every field, keys sorted", func() {
		l := buildLog(events.Branch{SaveUUID: "s1"}, []events.Event{
			{ID: "theft@2", Kind: "theft", Tick: 2, Attrs: map[string]string{"item": "ring", "actor": "thief"}, Witnesses: []string{"guard"}},
		})
		line, err := events.AppendJSON(nil, l.Records()[0])
		Expect(err).NotTo(HaveOccurred())
		Expect(string(line)).To(Equal(`{"branch":{"generation":0,"save_uuid":"s1"},` +
			`"event":{"attrs":{"actor":"thief","item":"ring"},"id":"theft@2","kind":"theft","tick":2,"witnesses":["guard"]},` +
			`"hash":"90d0d479eb013d9370d954ddd6dd5f06a5cc8e82e75c0e9e03b95dbd8634663c",` +
			`"prev":"0000000000000000000000000000000000000000000000000000000000000000","seq":0}`))
	})

	It("reads back every record it writes, and the chain still verifies", func() {
		recs := buildLog(riften, append(sampleEvents(), events.Event{ID: "bare", Kind: "k", Tick: 20})).Records()
		var back []events.Record
		for _, r := range recs {
			line, err := events.AppendJSON(nil, r)
			Expect(err).NotTo(HaveOccurred())
			got, err := events.ParseJSON(line)
			Expect(err).NotTo(HaveOccurred())
			back = append(back, got)
		}
		Expect(cmp.Diff(recs, back, equateEmpty)).To(BeEmpty())
		Expect(events.Verify(back)).To(Succeed())
	})

	It("never reads a line with one byte changed as the same record", func() {
		recs := buildLog(riften, sampleEvents()).Records()
		tried := 0
		for _, r := range recs {
			line, err := events.AppendJSON(nil, r)
			Expect(err).NotTo(HaveOccurred())
			for i := range line {
				for _, mask := range []byte{0x01, 0x20, 0x80} {
					changed := bytes.Clone(line)
					changed[i] ^= mask
					tried++
					got, err := events.ParseJSON(changed)
					if err == nil {
						Expect(cmp.Diff(r, got, equateEmpty)).NotTo(BeEmpty(), "byte %d of seq %d ^ %#x parsed as the same record", i, r.Seq, mask)
					}
				}
			}
		}
		Expect(tried).To(BeNumerically(">", 1000))
	})

	DescribeTable("refuses anything but the canonical line of a record",
		func(line, message string) {
			_, err := events.ParseJSON([]byte(line))
			Expect(err).To(MatchError(ContainSubstring(message)))
		},
		Entry("not JSON", `{"seq":`, "unexpected EOF"),
		Entry("an unknown field", `{"seq":0,"extra":1}`, `unknown field "extra"`),
		Entry("a missing branch", `{"event":{"attrs":{},"id":"a","kind":"k","tick":0,"witnesses":[]},"hash":"","prev":"","seq":0}`, "no branch"),
		Entry("a missing tick", `{"branch":{"generation":0,"save_uuid":""},"event":{"attrs":{},"id":"a","kind":"k","witnesses":[]},"hash":"","prev":"","seq":0}`, "an event without attrs, id, kind, tick and witnesses"),
		Entry("a missing hash", `{"branch":{"generation":0,"save_uuid":""},"event":{"attrs":{},"id":"a","kind":"k","tick":0,"witnesses":[]},"prev":"","seq":0}`, "no hash, prev or seq"),
		Entry("a seq that is not an integer", `{"seq":1.5}`, "cannot unmarshal number 1.5"),
		Entry("two records on a line", `{"seq":0} {"seq":1}`, "data after the record"),
		Entry("white space", `{"branch":{"generation":0,"save_uuid":""}, "event":{"attrs":{},"id":"a","kind":"k","tick":0,"witnesses":[]},"hash":"","prev":"","seq":0}`, "column 43: not the canonical spelling"),
		Entry("a key in another case", `{"Branch":{"generation":0,"save_uuid":""},"event":{"attrs":{},"id":"a","kind":"k","tick":0,"witnesses":[]},"hash":"","prev":"","seq":0}`, "column 3: not the canonical spelling"),
		Entry("keys out of order", `{"branch":{"generation":0,"save_uuid":""},"event":{"attrs":{},"id":"a","kind":"k","tick":0,"witnesses":[]},"prev":"","hash":"","seq":0}`, "not the canonical spelling"),
		Entry("a repeated key", `{"branch":{"generation":0,"save_uuid":""},"event":{"attrs":{},"id":"a","kind":"k","tick":0,"witnesses":[]},"hash":"","hash":"","prev":"","seq":0}`, "not the canonical spelling"),
		Entry("an escaped letter", `{"branch":{"generation":0,"save_uuid":""},"event":{"attrs":{},"id":"\u0061","kind":"k","tick":0,"witnesses":[]},"hash":"","prev":"","seq":0}`, "not the canonical spelling"),
	)

	Describe("Writer", func() {
		It("writes the records appended since its last call, and the whole log by the end", func() {
			evs := sampleEvents()
			l := events.NewLog(riften)
			var out bytes.Buffer
			w := events.NewWriter(&out)
			Expect(w.Follow(l)).To(Succeed())
			Expect(out.Len()).To(BeZero(), "an empty log writes nothing")
			for i, e := range evs {
				_, err := l.Append(e)
				Expect(err).NotTo(HaveOccurred())
				if i%2 == 1 {
					Expect(w.Follow(l)).To(Succeed())
					Expect(strings.Count(out.String(), "\n")).To(Equal(i + 1))
				}
			}
			Expect(w.Follow(l)).To(Succeed())
			Expect(w.Written()).To(Equal(len(evs)))
			var want []byte
			for _, r := range l.Records() {
				line, err := events.AppendJSON(nil, r)
				Expect(err).NotTo(HaveOccurred())
				want = append(append(want, line...), '\n')
			}
			Expect(out.String()).To(Equal(string(want)))
		})

		It("reports a failed write and a log shorter than what it wrote", func() {
			l := buildLog(riften, sampleEvents())
			Expect(events.NewWriter(failWriter{}).Follow(l)).To(MatchError("events: write records from seq 0: disk full"))
			w := events.NewWriter(&bytes.Buffer{})
			Expect(w.Follow(l)).To(Succeed())
			Expect(w.Follow(events.NewLog(riften))).To(MatchError("events: the log has 0 records, fewer than the 5 already written"))
		})
	})

	It("Since returns copies of the records an observer has not seen", func() {
		l := buildLog(riften, sampleEvents())
		Expect(l.Since(5)).To(BeNil())
		Expect(l.Since(9)).To(BeNil())
		Expect(cmp.Diff(l.Records(), l.Since(-1))).To(BeEmpty())
		tail := l.Since(3)
		Expect(cmp.Diff(l.Records()[3:], tail)).To(BeEmpty())
		tail[0].Event.Attrs["victim"] = "someone else"
		Expect(events.Verify(l.Records())).To(Succeed(), "the copy is the caller's")
	})
})
