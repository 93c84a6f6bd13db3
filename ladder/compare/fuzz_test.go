package compare_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/chronicle/ladder/ladder/compare"
)

// FuzzParseKey: a key that parses prints back to itself.
func FuzzParseKey(f *testing.F) {
	for _, s := range []string{"encounter@12/m/[a,b]", "p@0//[]", "e@1/m/[a,]", "@1/m/[a]", "e@01/m/[a]", "x@2/a/b/[c]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := compare.ParseKey(s)
		if err != nil {
			return
		}
		if k.String() != s {
			t.Fatalf("ParseKey(%q) = %+v, which prints as %q", s, k, k.String())
		}
	})
}

// FuzzRuns: any two inputs either fail to read with an error or compare
// without panicking, and comparing a run with itself finds nothing.
func FuzzRuns(f *testing.F) {
	a := newTrace(0).roll(1, "encounter", "encounter@1/m/[a,b]", 0.1, 0.5).belief(1, "b", "t@1#v0").keyframe(2, [2]string{"b", "t@1#v0"}).String()
	b := newTrace(1).roll(1, "encounter", "encounter@1/m/[a,b]", 0.3, 0.5).roll(2, "rule", "mutation@2/m/[a,b]", 0.2, 0.1).String()
	f.Add([]byte(a), []byte(b))
	f.Add([]byte(a), []byte(a[:len(a)-1]))
	f.Add([]byte(b), []byte(strings.Replace(b, `"tick":2`, `"tick":0`, 1)))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		rep, err := compare.Runs(compare.Side{Name: "x", Trace: bytes.NewReader(x)}, compare.Side{Name: "y", Trace: bytes.NewReader(y)}, compare.Options{List: 1})
		if err != nil {
			return
		}
		shared := rep.Same + rep.Classes[compare.ValueDrift].Count + rep.Classes[compare.ThresholdDrift].Count
		if shared != rep.Shared || rep.Shared+rep.Classes[compare.OnlyA].Count != rep.A.Rolls || rep.Shared+rep.Classes[compare.OnlyB].Count != rep.B.Rolls {
			t.Fatalf("counts do not add up: %+v", rep)
		}
		self, err := compare.Runs(compare.Side{Name: "x", Trace: bytes.NewReader(x)}, compare.Side{Name: "x", Trace: bytes.NewReader(x)}, compare.Options{})
		if err != nil {
			t.Fatalf("x read once but not twice: %v", err)
		}
		if !self.SameRolls() || self.FirstBelief != nil {
			t.Fatalf("a run differs from itself: %+v", self)
		}
	})
}
