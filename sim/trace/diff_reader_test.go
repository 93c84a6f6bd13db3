package trace_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/trace"
)

// splitmix is a tiny deterministic generator.
type splitmix uint64

func (s *splitmix) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// randomRecords is a trace in tick order whose records repeat identities,
// so matching in file order within a tick is exercised.
func randomRecords(r *splitmix) []string {
	out := []string{`{"kind":"header","keyframe_every":24}`}
	tick := 0
	for range int(r.next() % 14) {
		tick += int(r.next() % 2)
		switch r.next() % 3 {
		case 0:
			out = append(out, fmt.Sprintf(`{"id":"e%d","kind":"encounter","tick":%d,"v":%d}`, r.next()%3, tick, r.next()%2))
		case 1:
			out = append(out, fmt.Sprintf(`{"kind":"rule","rule":"r%d","subject":"s","tick":%d,"v":%d}`, r.next()%2, tick, r.next()%2))
		default:
			out = append(out, fmt.Sprintf(`{"kind":"keyframe","npcs":[%d],"tick":%d}`, r.next()%2, tick))
		}
	}
	return out
}

// wholeDiff is Diff as it was before it read a tick at a time: every
// record of both files held, matched by identity across the whole file,
// then what only one side has paired by trace.IDChanged in file order —
// the oracle.
func wholeDiff(golden, actual []string) trace.Delta {
	type rec struct{ id, kind, body, tick string }
	parse := func(lines []string) []rec {
		var out []rec
		for _, l := range lines {
			r := rec{body: l}
			r.kind = between(l, `"kind":"`, `"`)
			tick := between(l, `"tick":`, `,`)
			if tick == "" {
				tick = strings.TrimSuffix(between(l, `"tick":`, `}`), "}")
			}
			key := between(l, `"id":"`, `"`) + between(l, `"rule":"`, `"`)
			if r.kind == "keyframe" || r.kind == "header" {
				key = ""
			}
			r.id, r.tick = tick+"|"+r.kind+"|"+key, tick
			out = append(out, r)
		}
		return out
	}
	g, a := parse(golden), parse(actual)
	pending := map[string][]int{}
	for i, r := range g {
		pending[r.id] = append(pending[r.id], i)
	}
	var d trace.Delta
	var added []rec
	for _, r := range a {
		q := pending[r.id]
		if len(q) == 0 {
			added = append(added, r)
			continue
		}
		pending[r.id] = q[1:]
		if g[q[0]].body != r.body {
			d.Changed++
		}
	}
	left := map[int]bool{}
	for _, q := range pending {
		for _, i := range q {
			left[i] = true
		}
	}
	decode := func(line string) map[string]any {
		var m map[string]any
		Expect(json.Unmarshal([]byte(line), &m)).To(Succeed())
		return m
	}
	for _, r := range added {
		paired := false
		for i := range g {
			if left[i] && g[i].tick == r.tick && trace.IDChanged(decode(g[i].body), decode(r.body)) {
				delete(left, i)
				paired = true
				break
			}
		}
		if paired {
			d.Renamed++
		} else {
			d.Added++
		}
	}
	d.Removed = len(left)
	return d
}

func between(s, open, close string) string {
	i := strings.Index(s, open)
	if i < 0 {
		return ""
	}
	s = s[i+len(open):]
	if j := strings.Index(s, close); j >= 0 {
		return s[:j]
	}
	return s
}

var _ = Describe("DiffReaders", func() {
	It("refuses a trace whose ticks go backwards", looping, func(SpecContext) {
		_, err := trace.Diff([]byte(`{"kind":"header"}`+"\n"+`{"kind":"rule","tick":2}`+"\n"+`{"kind":"rule","tick":1}`+"\n"), []byte(`{"kind":"header"}`+"\n"))
		Expect(err).To(MatchError("golden: trace line 3: tick 1 after tick 2: a trace is in tick order"))
	})

	It("reports a malformed golden before a malformed actual, wherever each is", looping, func(SpecContext) {
		golden := []byte(`{"kind":"header"}` + "\n" + `{"kind":"rule","tick":5}` + "\n" + "not json\n")
		_, err := trace.Diff(golden, []byte("not json either\n"))
		Expect(err).To(MatchError(HavePrefix("golden: trace line 3: ")))
	})

	// 2,000 pairs of traces: a second natively, three under qemu-i386 and
	// over ten when the matrix runs packages side by side, so its bound
	// is a minute (still well inside the two-minute suite limit). It comes
	// last in its container, so a merge loop that never ends fails one of
	// the ten-second specs above first.
	It("counts as matching the two whole files does, a tick at a time", NodeTimeout(time.Minute), GracePeriod(time.Second), func(SpecContext) {
		r := splitmix(1)
		for range 2000 {
			g := randomRecords(&r)
			a := randomRecords(&r)
			if r.next()%2 == 0 {
				a = append([]string(nil), g...)
				if len(a) > 1 {
					i := 1 + int(r.next()%uint64(len(a)-1))
					a[i] = strings.Replace(a[i], `"v":0`, `"v":1`, 1)
				}
			}
			d, err := trace.DiffReaders(strings.NewReader(strings.Join(g, "\n")+"\n"), strings.NewReader(strings.Join(a, "\n")+"\n"))
			Expect(err).NotTo(HaveOccurred())
			want := wholeDiff(g, a)
			Expect([]int{d.Added, d.Removed, d.Changed, d.Renamed}).To(Equal([]int{want.Added, want.Removed, want.Changed, want.Renamed}), "golden %q\nactual %q", g, a)
		}
	})
})
