package expect_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/fixture"
)

// FuzzTraceMatch feeds arbitrary JSON records to trace patterns of every
// shape (scalars, nested roll, open values, set, subset): matching must
// never panic, and a pattern examines a record only when it is of its
// kind, once.
func FuzzTraceMatch(f *testing.F) {
	for _, seed := range []string{
		`{"kind":"encounter","tick":1,"pair":["a","b"],"site":"m","roll":{"value":0.5,"pinned":true}}`,
		`{"kind":"rule","tick":2,"rule":"witness-creates-belief","values":{"confidence":0.9}}`,
		`{"kind":"encounter","tick":1,"pair":"a","roll":[1]}`,
		`{"kind":"encounter","tick":1,"pair":[1,null]}`,
		`{"kind":7}`,
	} {
		f.Add(seed)
	}
	src := `rung: T2.9
title: t
tier: 2
seed_id: s
ticks: 10
locations: {m: {}}
cast: {a: {}, b: {}}
expect:
  - {trace: {match: {kind: encounter, pair: [a, b], site: m, roll: {value: 0.5, pinned: true}}, count: 1}}
  - {trace: {match: {kind: encounter, pair: {includes: [a]}}, count: 1}}
  - {trace: {match: {kind: rule, rule: witness-creates-belief, values: {confidence: 0.9}}, count: 1}}
`
	fs, err := fixture.Parse("fixtures/T2.9-t.yaml", []byte(src))
	if err != nil {
		f.Fatal(err)
	}
	items := fs[0].Expect
	f.Fuzz(func(t *testing.T, line string) {
		var rec expect.Record
		if json.Unmarshal([]byte(line), &rec) == nil {
			r := expect.Start(items)
			r.Trace(rec)
			for _, res := range r.Finish() {
				if res.Examined > 1 {
					t.Fatalf("one record examined %d times", res.Examined)
				}
				if res.Examined == 1 && !strings.Contains(res.Unit, rec["kind"].(string)) {
					t.Fatalf("record of kind %v examined by the pattern over %s", rec["kind"], res.Unit)
				}
			}
		}
	})
}
