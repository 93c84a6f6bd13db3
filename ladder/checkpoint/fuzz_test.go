package checkpoint_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chronicle/ladder/ladder/checkpoint"
)

// FuzzParse checks that Parse never panics, that every error is a
// *ParseError with a position inside the input, and that whatever Parse
// accepts survives Marshal → Parse unchanged (and Marshal is a fixed point).
func FuzzParse(f *testing.F) {
	f.Add([]byte(goldenJSON))
	f.Add([]byte(malformedDoc))
	f.Add([]byte(unknownDoc))
	f.Add([]byte(wrongTypeDoc))
	f.Add([]byte(nanDoc))
	f.Add([]byte(trailingDoc))
	f.Add([]byte(`{"checkpoints":[{"tick":1,"values":{"a":null,"b":-0.0}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := checkpoint.Parse("f.json", data)
		if err != nil {
			var pe *checkpoint.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is %T, not *ParseError", err, err)
			}
			lines := bytes.Count(data, []byte("\n")) + 1
			if pe.Line < 1 || pe.Line > lines || pe.Column < 1 {
				t.Fatalf("position %d:%d outside a %d-line input", pe.Line, pe.Column, lines)
			}
			return
		}
		out, err := file.Marshal()
		if err != nil {
			t.Fatalf("Marshal of a parsed file: %v", err)
		}
		back, err := checkpoint.Parse("f.json", out)
		if err != nil {
			t.Fatalf("Parse of Marshal output: %v\n%s", err, out)
		}
		if d := cmp.Diff(file, back, exactFloats, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("round trip changed the file (-parsed +reparsed):\n%s", d)
		}
		again, err := back.Marshal()
		if err != nil || !bytes.Equal(out, again) {
			t.Fatalf("Marshal is not a fixed point: %v\n%s\n%s", err, out, again)
		}
	})
}
