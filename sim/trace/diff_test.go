package trace_test

import (
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/trace"
)

func traceDiff(golden, actual []byte) *trace.Delta {
	GinkgoHelper()
	d, err := trace.Diff(golden, actual)
	Expect(err).NotTo(HaveOccurred())
	return d
}

// looping bounds a spec that runs Diff's merge loop on a few records,
// which ends only when both files are read to their ends: a loop that no
// longer ends fails its spec in seconds (Ginkgo abandons it) instead of
// hanging the suite.
var looping = []any{NodeTimeout(10 * time.Second), GracePeriod(time.Second)}

// bothV3 is a Delta's Versions for two files the encoder wrote.
var bothV3 = [2]int{trace.Version3, trace.Version3}

var _ = Describe("Diff", func() {
	It("finds nothing between identical traces", looping, func(SpecContext) {
		d := traceDiff(sample(), sample())
		Expect(d.Empty()).To(BeTrue())
		Expect(d.Kinds).To(BeEmpty())
		Expect(d.Summary()).To(Equal("0 records changed, 0 added, 0 removed"))
	})

	It("counts a record under another id as one renamed record, not one removed and one added", looping, func(SpecContext) {
		golden := sample()
		actual := []byte(strings.Replace(string(golden), `"via":"`+encID+`"`, `"via":"`+encID+`#2"`, 1))
		Expect(string(actual)).NotTo(Equal(string(golden)))
		d := traceDiff(golden, actual)
		Expect(*d).To(Equal(trace.Delta{Renamed: 1, Versions: [2]int{3, 3}, Kinds: []trace.KindDelta{{Kind: "transmission", Renamed: 1, First: 12}}}))
		Expect(d.Empty()).To(BeFalse())
		Expect(d.Summary()).To(Equal("0 records changed, 1 renamed, 0 added, 0 removed"))
		Expect(d.Kinds[0].String()).To(Equal("transmission: 0 changed, 1 renamed, 0 added, 0 removed, from tick 12"))
	})

	It("counts a changed field as one changed record of its kind", looping, func(SpecContext) {
		ls := lines(sample())
		ls[3] = strings.Replace(ls[3], `"confidence":0.72`, `"confidence":0.75`, 1)
		d := traceDiff(sample(), join(ls))
		Expect(*d).To(Equal(trace.Delta{Versions: bothV3, Changed: 1, Kinds: []trace.KindDelta{{Kind: "transmission", Changed: 1, First: 12}}}))
		Expect(d.Empty()).To(BeFalse())
		Expect(d.Kinds[0].String()).To(Equal("transmission: 1 changed, 0 added, 0 removed, from tick 12"))
	})

	It("counts an inserted record as one added record, although every later seq moved", looping, func(SpecContext) {
		ls := lines(sample())
		extra := strings.Replace(strings.Replace(ls[2], `"seq":1`, `"seq":9`, 1), "neighbor,witness", "merchant,witness", -1)
		var shifted []string
		for i, l := range ls {
			if i >= 2 {
				l = strings.Replace(l, `"seq":`+string(rune('0'+i-1)), `"seq":`+string(rune('0'+i)), 1)
			}
			shifted = append(shifted, l)
			if i == 1 {
				shifted = append(shifted, extra)
			}
		}
		d := traceDiff(sample(), join(shifted))
		Expect(*d).To(Equal(trace.Delta{Versions: bothV3, Added: 1, Kinds: []trace.KindDelta{{Kind: "encounter", Added: 1, First: 12}}}))
	})

	It("counts a dropped record as removed, and groups by kind in order of first tick", looping, func(SpecContext) {
		ls := lines(sample())
		changed := strings.Replace(ls[4], `"confidence":1.0`, `"confidence":0.5`, 1)
		d := traceDiff(sample(), join([]string{ls[0], ls[1], ls[3], changed}))
		Expect(*d).To(Equal(trace.Delta{Versions: bothV3, Removed: 1, Changed: 1, Kinds: []trace.KindDelta{
			{Kind: "encounter", Removed: 1, First: 12},
			{Kind: "belief", Changed: 1, First: 13},
		}}))
		Expect(d.Summary()).To(Equal("1 records changed, 0 added, 1 removed"))
		Expect(d.Empty()).To(BeFalse(), "a removal and a change do not cancel out")
	})

	It("counts a record replaced by another as one removed and one added: not an empty delta", looping, func(SpecContext) {
		ls := lines(sample())
		ls[2] = strings.ReplaceAll(ls[2], "neighbor,witness", "merchant,witness") // another pair met instead
		d := traceDiff(sample(), join(ls))
		Expect(*d).To(Equal(trace.Delta{Versions: bothV3, Added: 1, Removed: 1, Kinds: []trace.KindDelta{{Kind: "encounter", Added: 1, Removed: 1, First: 12}}}))
		Expect(d.Summary()).To(Equal("0 records changed, 1 added, 1 removed"))
		Expect(d.Empty()).To(BeFalse(), "as many records added as removed is still a change")
	})

	It("counts a change beside an added record, and is not empty", looping, func(SpecContext) {
		ls := lines(sample())
		ls[3] = strings.Replace(ls[3], `"confidence":0.72`, `"confidence":0.75`, 1)
		extra := strings.Replace(ls[4], `"holder":"neighbor"`, `"holder":"merchant"`, 1)
		d := traceDiff(sample(), join(append(ls, extra)))
		Expect(*d).To(Equal(trace.Delta{Versions: bothV3, Added: 1, Changed: 1, Kinds: []trace.KindDelta{
			{Kind: "transmission", Changed: 1, First: 12},
			{Kind: "belief", Added: 1, First: 13},
		}}))
		Expect(d.Empty()).To(BeFalse(), "one added and one changed do not cancel out")
	})

	It("matches keyframes and headers by tick, so a changed one is changed, not removed and added", looping, func(SpecContext) {
		ls := lines(sample())
		ls[0] = strings.Replace(ls[0], `"keyframe_every":24`, `"keyframe_every":12`, 1)
		ls[1] = strings.Replace(ls[1], `"kind":"keyframe"`, `"kind":"keyframe","extra":1`, 1)
		d := traceDiff(sample(), join(ls))
		Expect(*d).To(Equal(trace.Delta{Versions: bothV3, Changed: 2, Kinds: []trace.KindDelta{
			{Kind: "header", Changed: 1, First: 0}, {Kind: "keyframe", Changed: 1, First: 0},
		}}))
	})

	It("matches schedule and role records by what they are about, so a moved one is changed", looping, func(SpecContext) {
		emit := func(at, holder string) []byte {
			b := trace.Buffer{Header: header}
			b.Emit(trace.Record{Seq: 0, Tick: 7, Body: trace.Schedule{NPC: "smith", Change: "overridden", Override: "rewrite@4", At: at, From: 7, Rule: "schedule-rewrite", Cause: "death@3"}})
			b.Emit(trace.Record{Seq: 1, Tick: 7, Body: trace.Role{Role: "steward", Change: "appointed", Holder: holder, Previous: "", Rule: "succession", Cause: "vacancy"}})
			out, err := b.AppendJSONL(nil)
			Expect(err).NotTo(HaveOccurred())
			return out
		}
		d := traceDiff(emit("shrine", "ria"), emit("tavern", "jon"))
		Expect(*d).To(Equal(trace.Delta{Versions: bothV3, Changed: 2, Kinds: []trace.KindDelta{
			{Kind: "role", Changed: 1, First: 7}, {Kind: "schedule", Changed: 1, First: 7},
		}}))
	})

	It("refuses a line that is not JSON, saying which file", looping, func(SpecContext) {
		_, err := trace.Diff(sample(), []byte("{}\nnot json\n"))
		Expect(err).To(MatchError(HavePrefix("actual: trace line 2: ")))
	})
})

var _ = Describe("FieldDiff", func() {
	It("lists differing leaves by path, as written, ignoring seq and branch", func() {
		g := map[string]any{"seq": 1.0, "branch": map[string]any{"g": 1.0}, "kind": "x", "pair": []any{"a", "b"},
			"roll": map[string]any{"value": 0.5, "pinned": false}, "gone": true}
		a := map[string]any{"seq": 2.0, "branch": map[string]any{"g": 2.0}, "kind": "x", "pair": []any{"a", "c"},
			"roll": map[string]any{"value": 0.25, "pinned": false}, "new": map[string]any{}}
		Expect(trace.FieldDiff(g, a)).To(Equal([]trace.FieldChange{
			{Path: "gone", Golden: "true", Actual: "<missing>"},
			{Path: "new", Golden: "<missing>", Actual: "{}"},
			{Path: "pair[1]", Golden: `"b"`, Actual: `"c"`},
			{Path: "roll.value", Golden: "0.5", Actual: "0.25"},
		}))
	})
})

// FuzzDiff: a trace differs from itself in nothing, and the counts of a
// diff and of its mirror agree (added and removed swap).
func FuzzDiff(f *testing.F) {
	f.Add([]byte(`{"kind":"header"}`+"\n"+`{"kind":"rule","rule":"r","subject":"s","tick":1}`+"\n"),
		[]byte(`{"kind":"header"}`+"\n"+`{"kind":"rule","rule":"r","subject":"s","tick":2}`+"\n"))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		if d, err := trace.Diff(x, x); err == nil && !d.Empty() {
			t.Fatalf("a trace differs from itself: %+v", d)
		}
		d, err := trace.Diff(x, y)
		if err != nil {
			return
		}
		m, err := trace.Diff(y, x)
		if err != nil {
			t.Fatalf("Diff(x, y) works but Diff(y, x) fails: %v", err)
		}
		if d.Added != m.Removed || d.Removed != m.Added || d.Changed != m.Changed {
			t.Fatalf("not symmetric: %+v against %+v", d, m)
		}
		var sum int
		for _, k := range d.Kinds {
			sum += k.Added + k.Removed + k.Changed
		}
		if sum != d.Added+d.Removed+d.Changed {
			t.Fatalf("kinds hold %d records, totals %d", sum, d.Added+d.Removed+d.Changed)
		}
	})
}
