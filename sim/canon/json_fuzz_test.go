package canon_test

import (
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/chronicle/ladder/sim/canon"
)

func FuzzMarshalString(f *testing.F) {
	for _, seed := range []string{"", "abc", `a"b\c`, "\n\r\t\b\f\x00\x1f\x7f", "<&>", "é😀\u2028", "\xff", "\xed\xa0\x80", "a\xc3"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := canon.Marshal(s)
		if !utf8.ValidString(s) {
			if !errors.Is(err, canon.ErrInvalidUTF8) {
				t.Fatalf("invalid UTF-8 %q: got %q, %v", s, out, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if !json.Valid(out) {
			t.Fatalf("%q encodes to invalid JSON %q", s, out)
		}
		var back string
		if err := json.Unmarshal(out, &back); err != nil || back != s {
			t.Fatalf("%q encodes to %q which decodes to %q (%v)", s, out, back, err)
		}
		for _, c := range out {
			if c < 0x20 {
				t.Fatalf("%q encodes to %q with a raw control character", s, out)
			}
		}
	})
}
