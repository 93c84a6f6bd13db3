package page

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// headOf is what a full decode says a record's head is.
func headOf(raw []byte) (head, bool) {
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if d.Decode(&m) != nil || d.More() {
		return head{}, false
	}
	var h head
	str := func(k string) (string, bool) {
		v, ok := m[k]
		if !ok {
			return "", true
		}
		s, ok := v.(string)
		return s, ok
	}
	num := func(k string) (int64, bool) {
		v, ok := m[k]
		if !ok {
			return 0, true
		}
		n, ok := v.(json.Number)
		if !ok {
			return 0, false
		}
		i, err := n.Int64()
		return i, err == nil
	}
	var ok [4]bool
	h.Kind, ok[0] = str("kind")
	h.Rule, ok[1] = str("rule")
	h.Tick, ok[2] = num("tick")
	h.Seq, ok[3] = num("seq")
	h.Fired, _ = m["fired"].(bool)
	return h, ok[0] && ok[1] && ok[2] && ok[3]
}

// TestPeekGoldens reads every line of every committed trace golden both
// ways: peek must name the same head as a full decode.
func TestPeekGoldens(t *testing.T) {
	paths, err := filepath.Glob("../../goldens/*/trace.jsonl")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no trace goldens: %v", err)
	}
	more, _ := filepath.Glob("../../goldens/*/*/trace.jsonl")
	lines := 0
	for _, p := range append(paths, more...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			want, ok := headOf(sc.Bytes())
			if !ok {
				t.Fatalf("%s: a line a full decode refuses: %.80s", p, sc.Text())
			}
			got, err := peek(sc.Bytes(), interned{})
			if err != nil || got != want {
				t.Fatalf("%s: peek %+v, %v; decode %+v: %.200s", p, got, err, want, sc.Text())
			}
			lines++
		}
	}
	t.Logf("%d lines of %d traces", lines, len(paths)+len(more))
}

// FuzzPeek: peek never panics, and on a line a full decode reads as one
// object it agrees with the decode or refuses the line.
func FuzzPeek(f *testing.F) {
	f.Add([]byte(`{"fired":true,"kind":"rule","rule":"r","seq":3,"tick":2,"values":{"tick":9,"kind":"x"}}`))
	f.Add([]byte(`{"kind":"enc\u006funter","pair":["a","b"],"roll":{"key":"k"},"seq":1,"tick":0}`))
	f.Add([]byte(` { "tick" : 2 , "kind":"event" } `))
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, err := peek(raw, interned{})
		want, ok := headOf(raw)
		if err == nil && ok && got != want {
			t.Fatalf("peek %+v, decode %+v: %q", got, want, raw)
		}
	})
}

// TestEncounterIDs holds EncounterID, which the page's script mirrors, to
// the id of every encounter in every trace golden.
func TestEncounterIDs(t *testing.T) {
	paths, _ := filepath.Glob("../../goldens/*/trace.jsonl")
	more, _ := filepath.Glob("../../goldens/*/*/trace.jsonl")
	n := 0
	for _, p := range append(paths, more...) {
		err := eachLine(Path(p), func(h head, decode func() (*traceLine, error)) (bool, error) {
			if h.Kind != string(KindEncounter) {
				return false, nil
			}
			r, err := record(decode)
			if err != nil {
				return true, err
			}
			if got := EncounterID(r.Tick, r.Fields[0], r.Fields[1], r.Fields[2]); got != r.ID {
				t.Fatalf("%s seq %d: EncounterID spells %q, the trace has %q", p, r.Seq, got, r.ID)
			}
			n++
			return false, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n == 0 {
		t.Fatal("no encounter in any trace golden: the check examined nothing")
	}
	t.Logf("%d encounters", n)
}
