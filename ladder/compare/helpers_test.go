package compare_test

import (
	"fmt"
	"strings"

	"github.com/chronicle/ladder/ladder/compare"
)

// trace builds a trace file: a header for seed s on generation gen, then
// the records, numbered.
type trace struct {
	gen  int64
	seed string
	recs []string
}

func newTrace(gen int64) *trace { return &trace{gen: gen, seed: "s"} }

func (t *trace) add(format string, args ...any) *trace {
	body := fmt.Sprintf(format, args...)
	t.recs = append(t.recs, fmt.Sprintf(`{%s,"seq":%d}`, body, len(t.recs)))
	return t
}

// roll adds a record of kind with a roll (kind "rule" gets a rule name).
func (t *trace) roll(tick int64, kind, key string, value, threshold float64) *trace {
	extra := ""
	if kind == "rule" {
		extra = `,"rule":"mutation-policy"`
	}
	return t.add(`"kind":%q%s,"roll":{"key":%q,"natural":%v,"pinned":false,"threshold":%v,"value":%v},"tick":%d`, kind, extra, key, value, threshold, value, tick)
}

func (t *trace) belief(tick int64, holder, variant string) *trace {
	claim, _, _ := strings.Cut(variant, "#")
	return t.add(`"change":"formed","claim":%q,"holder":%q,"kind":"belief","tick":%d,"variant":%q`, claim, holder, tick, variant)
}

func (t *trace) keyframe(tick int64, beliefs ...[2]string) *trace {
	var rows []string
	for _, b := range beliefs {
		claim, _, _ := strings.Cut(b[1], "#")
		rows = append(rows, fmt.Sprintf(`{"claim":%q,"holder":%q,"variant":%q}`, claim, b[0], b[1]))
	}
	return t.add(`"beliefs":[%s],"kind":"keyframe","tick":%d`, strings.Join(rows, ","), tick)
}

func (t *trace) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"branch":{"generation":%d,"save_uuid":"u"},"keyframe_every":24,"kind":"header","schema":"chronicle.trace","seed_id":%q,"version":1}`+"\n", t.gen, t.seed)
	for _, r := range t.recs {
		b.WriteString(r + "\n")
	}
	return b.String()
}

func side(name string, t *trace) compare.Side {
	return compare.Side{Name: name, Trace: strings.NewReader(t.String())}
}

// runs compares two synthetic traces, keeping every difference.
func runs(a, b *trace) (*compare.Report, error) {
	return compare.Runs(side("a", a), side("b", b), compare.Options{List: -1})
}
