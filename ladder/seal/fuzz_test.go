package seal_test

import (
	"bytes"
	"testing"

	"github.com/chronicle/ladder/ladder/seal"
)

// FuzzParse holds Parse to its contract on any input: it never panics,
// and whatever it accepts is exactly the file Encode writes for the
// manifest it returns — one spelling per manifest, its hash its own.
func FuzzParse(f *testing.F) {
	m := seal.Manifest{Set: "T2.3/swapped", Files: map[string]string{
		"dense.csv": "04be7c1e0f3c2f6a8c5b0e4f3a9d7b2c1e6f8a0d3c5b7e9f1a2c4e6b8d0f2a4c",
	}}
	good, err := m.Encode()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"files":{},"format":"chronicle.golden-seal.v1","manifest_sha256":"","set":""}`))
	f.Add([]byte("null"))
	f.Add([]byte(`{"files":{"a":"b"}}{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := seal.Parse(data)
		if err != nil {
			return
		}
		hash := m.Hash
		again, err := m.Encode()
		if err != nil {
			t.Fatalf("accepted %q, cannot encode it: %v", data, err)
		}
		if !bytes.Equal(again, data) || m.Hash != hash {
			t.Fatalf("accepted %q, which encodes as %q", data, again)
		}
	})
}
