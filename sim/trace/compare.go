package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Divergence is the first record where two trace files differ.
type Divergence struct {
	Line           int    // 1-based line in the golden (the header is line 1)
	Tick           int64  // of the golden record (the actual one if the golden ended)
	Kind           string // record kind
	Key            string // what the record is about: an encounter id, a rule and subject…
	Golden, Actual string // the two lines, "<missing>" past the end of a file
}

func (d Divergence) String() string { return d.Describe("golden", "actual") }

// Describe is String with the two sides named a (the first trace given to
// Compare) and b: two runs of the same code are "run 1" and "run 2", not
// golden and actual.
func (d Divergence) Describe(a, b string) string {
	return fmt.Sprintf("first divergent record at line %d (tick %d, %s %s): %s %s, %s %s",
		d.Line, d.Tick, d.Kind, d.Key, a, shorten(d.Golden), b, shorten(d.Actual))
}

// shorten drops the branch key (the same on every line of a file, so never
// the difference) and truncates long records for a one-line message.
func shorten(s string) string {
	const limit = 200
	if i := strings.Index(s, `"branch":{`); i >= 0 {
		if j := strings.Index(s[i:], "},"); j >= 0 {
			s = s[:i] + s[i+j+2:]
		}
	}
	if len(s) > limit {
		return s[:limit] + "…"
	}
	return s
}

// Compare byte-compares two trace files and, when they differ, locates the
// first differing line without decoding the lines before it. It returns nil
// when the files are identical.
func Compare(golden, actual []byte) *Divergence {
	if bytes.Equal(golden, actual) {
		return nil
	}
	n := min(len(golden), len(actual))
	i := 0
	for i < n && golden[i] == actual[i] {
		i++
	}
	start := bytes.LastIndexByte(golden[:i], '\n') + 1
	line := bytes.Count(golden[:start], []byte("\n")) + 1
	g, a := lineAt(golden, start), lineAt(actual, start)
	d := &Divergence{Line: line, Golden: g, Actual: a}
	ref := g
	if g == "<missing>" {
		ref = a
	}
	var rec map[string]any
	if json.Unmarshal([]byte(ref), &rec) == nil {
		if t, ok := rec["tick"].(float64); ok {
			d.Tick = int64(t)
		}
		d.Kind, _ = rec["kind"].(string)
		d.Key = keyOf(rec)
	}
	return d
}

func lineAt(b []byte, start int) string {
	if start >= len(b) {
		return "<missing>"
	}
	rest := b[start:]
	if end := bytes.IndexByte(rest, '\n'); end >= 0 {
		rest = rest[:end]
	}
	return string(rest)
}

// keyOf names what a decoded record is about, per kind.
func keyOf(r map[string]any) string {
	str := func(k string) string { s, _ := r[k].(string); return s }
	switch Kind(str("kind")) {
	case KindEncounter, KindEvent:
		return fmt.Sprintf("%q", str("id"))
	case KindTransmission:
		return fmt.Sprintf("%q", str("teller")+"->"+str("listener")+" "+str("claim")+" via "+str("via"))
	case KindRule:
		return fmt.Sprintf("%q", str("rule")+" "+str("subject"))
	case KindBelief:
		return fmt.Sprintf("%q", str("holder")+"/"+str("claim")+" "+str("change"))
	case KindSupersession:
		return fmt.Sprintf("%q", str("holder")+"/"+str("claim")+" "+str("loser")+" lost to "+str("winner"))
	}
	return `""`
}
