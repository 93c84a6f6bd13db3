package trace_test

import (
	"bytes"
	"testing"

	"github.com/chronicle/ladder/sim/trace"
)

// FuzzCompare checks Compare's location contract on arbitrary bytes: nil
// exactly when the files are equal; otherwise every line before Line is the
// same in both files, and Golden and Actual are each file's line number Line
// ("<missing>" past the end).
func FuzzCompare(f *testing.F) {
	f.Add([]byte("h\na\nb\n"), []byte("h\na\nc\n"))
	f.Add([]byte("h\na\n"), []byte("h\na\nb\n"))
	f.Add([]byte("h\na\nb\n"), []byte("h\na"))
	f.Add([]byte(`{"kind":"event","id":"x","tick":3}`+"\n"), []byte(`{"kind":"event","id":"y","tick":3}`+"\n"))
	f.Add([]byte(""), []byte("\n"))
	f.Fuzz(func(t *testing.T, golden, actual []byte) {
		d := trace.Compare(golden, actual)
		if (d == nil) != bytes.Equal(golden, actual) {
			t.Fatalf("Compare(%q, %q) = %+v", golden, actual, d)
		}
		if d == nil {
			return
		}
		if d.Line < 1 {
			t.Fatalf("line %d", d.Line)
		}
		nthLine := func(b []byte) (prefix []byte, line string) {
			rest := b
			for i := 1; i < d.Line; i++ {
				nl := bytes.IndexByte(rest, '\n')
				if nl < 0 {
					t.Fatalf("Compare(%q, %q): line %d is past the end", golden, actual, d.Line)
				}
				rest = rest[nl+1:]
			}
			prefix = b[:len(b)-len(rest)]
			if len(rest) == 0 {
				return prefix, "<missing>"
			}
			if nl := bytes.IndexByte(rest, '\n'); nl >= 0 {
				rest = rest[:nl]
			}
			return prefix, string(rest)
		}
		gp, gl := nthLine(golden)
		ap, al := nthLine(actual)
		if !bytes.Equal(gp, ap) {
			t.Fatalf("Compare(%q, %q): lines before %d differ", golden, actual, d.Line)
		}
		if gl != d.Golden || al != d.Actual {
			t.Fatalf("Compare(%q, %q) = golden %q actual %q, want %q and %q", golden, actual, d.Golden, d.Actual, gl, al)
		}
		if gl == "<missing>" && al == "<missing>" {
			t.Fatalf("both sides missing")
		}
	})
}
