package expect_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/expect"
)

// unmarshal is what DecodeRecord must give: encoding/json into a map.
func unmarshal(line []byte) (expect.Record, error) {
	var r expect.Record
	err := json.Unmarshal(line, &r)
	return r, err
}

var _ = Describe("a sieve", func() {
	needs := func(line string, needles ...string) bool {
		var s expect.Sieve
		for _, n := range needles {
			s.All = append(s.All, []byte(n))
		}
		return s.Needed([]byte(line))
	}
	It("finds a needle wherever the line holds it whole, its opening quote included", func() {
		Expect(needs(`"fired":true}`, `"fired":true`)).To(BeTrue(), "at the start")
		Expect(needs(`{"a":1,"fired":true}`, `"fired":true`)).To(BeTrue(), "inside")
		Expect(needs(`{"pair":["bjorn","frida"]}`, `"frida"`, `"bjorn"`)).To(BeTrue(), "every needle")
		Expect(needs(`{"teller":"xfrida","pair":["frida"]}`, `"frida"`)).To(BeTrue(), "after a near miss")
	})
	It("does not take the rest of a needle for the needle", func() {
		Expect(needs(`{"misfired":true}`, `"fired":true`)).To(BeFalse(), "a longer key")
		Expect(needs(`{"teller":"xfrida"}`, `"frida"`)).To(BeFalse(), "a longer string")
		Expect(needs(`frida"`, `"frida"`)).To(BeFalse(), "at the very start, no quote before it")
		Expect(needs(`{"pair":["bjorn"]}`, `"frida"`, `"bjorn"`)).To(BeFalse(), "one needle missing")
	})
})

var _ = Describe("DecodeRecord", func() {
	It("gives what encoding/json gives on every line of every committed trace golden", func() {
		paths, err := filepath.Glob(filepath.Join("..", "..", "goldens", "*", "trace.jsonl"))
		Expect(err).NotTo(HaveOccurred())
		more, err := filepath.Glob(filepath.Join("..", "..", "goldens", "*", "*", "trace.jsonl"))
		Expect(err).NotTo(HaveOccurred())
		paths = append(paths, more...)
		Expect(len(paths)).To(BeNumerically(">", 20), "the trace goldens")
		lines := 0
		for _, p := range paths {
			f, err := os.Open(p)
			Expect(err).NotTo(HaveOccurred())
			sc := bufio.NewScanner(f)
			sc.Buffer(make([]byte, 1<<20), 64<<20)
			for sc.Scan() {
				want, err := unmarshal(sc.Bytes())
				Expect(err).NotTo(HaveOccurred())
				got, err := expect.DecodeRecord(sc.Bytes())
				Expect(err).NotTo(HaveOccurred(), "%s: %s", p, sc.Text())
				if !reflect.DeepEqual(got, want) {
					Fail(p + ": decoded otherwise: " + sc.Text())
				}
				some, err := expect.DecodeKeys(sc.Bytes(), partKeys)
				Expect(err).NotTo(HaveOccurred())
				if !reflect.DeepEqual(some, only(want, partKeys)) {
					Fail(p + ": DecodeKeys decoded otherwise: " + sc.Text())
				}
				lines++
			}
			Expect(sc.Err()).NotTo(HaveOccurred())
			Expect(f.Close()).To(Succeed())
		}
		Expect(lines).To(BeNumerically(">", 10000))
	})

	DescribeTable("decodes what encoding/json decodes, and refuses what it refuses",
		func(line string) {
			want, werr := unmarshal([]byte(line))
			got, gerr := expect.DecodeRecord([]byte(line))
			Expect(gerr != nil).To(Equal(werr != nil), "encoding/json: %v, DecodeRecord: %v", werr, gerr)
			if werr == nil {
				Expect(got).To(Equal(want))
			}
			some, serr := expect.DecodeKeys([]byte(line), []string{"a", "c"})
			Expect(serr != nil).To(Equal(werr != nil), "encoding/json: %v, DecodeKeys: %v", werr, serr)
			if werr == nil {
				Expect(some).To(Equal(only(want, []string{"a", "c"})))
			}
		},
		Entry("escapes", `{"a":"q\"\\\/\b\f\n\r\t\u00e9\u2028"}`),
		Entry("a surrogate pair", `{"a":"\ud83d\ude00"}`),
		Entry("an unpaired surrogate", `{"a":"\ud83d x"}`),
		Entry("a low surrogate alone", `{"a":"\ude00"}`),
		Entry("invalid UTF-8", "{\"a\":\"\xff\xe2\x82\"}"),
		Entry("numbers", `{"a":[0,-0,1.5,-2e-3,1E+2,123456789012345678901234567890]}`),
		Entry("a number out of range", `{"a":1e400}`),
		Entry("a leading zero", `{"a":01}`),
		Entry("a bare minus", `{"a":-}`),
		Entry("a dot without digits", `{"a":1.}`),
		Entry("nesting, empties, literals", ` { "a" : [ {}, [], null, true, false ] , "b":{"c":{"d":[1]}} } `),
		Entry("a repeated key: the last wins", `{"a":1,"a":2}`),
		Entry("a control character in a string", "{\"a\":\"x\ty\"}"),
		Entry("not an object", `[1,2]`),
		Entry("trailing data", `{"a":1} x`),
		Entry("a trailing comma", `{"a":1,}`),
		Entry("truncated", `{"a":"x`),
		Entry("an invalid escape", `{"a":"\x"}`),
		Entry("a short unicode escape", `{"a":"\u12"}`),
	)
})

// partKeys are the keys the specs ask DecodeKeys for: a top-level scalar,
// a nested object, a list, and one no record has.
var partKeys = []string{"kind", "roll", "pair", "values", "nowhere"}

// only is a record with just the given keys.
func only(r expect.Record, keys []string) expect.Record {
	out := expect.Record{}
	for _, k := range keys {
		if v, ok := r[k]; ok {
			out[k] = v
		}
	}
	return out
}

// FuzzDecodeRecord holds DecodeRecord to encoding/json on any input: both
// refuse it, or both decode it to the same value; and DecodeKeys refuses
// what they refuse and otherwise gives just the keys asked for.
func FuzzDecodeRecord(f *testing.F) {
	for _, s := range []string{
		`{"branch":{"generation":0,"save_uuid":"x"},"kind":"encounter","pair":["a","b"],"roll":{"natural":0.25,"pinned":false},"seq":3,"tick":12}`,
		`{"a":"\ud83d\ude00\u00e9","b":[1e-5,-0.0,true,null]}`,
		`{"a":1,}`, "{\"a\":\"\xff\"}", ` {"a" : [ ] } `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		want, werr := unmarshal(line)
		got, gerr := expect.DecodeRecord(line)
		if (werr != nil) != (gerr != nil) {
			t.Fatalf("encoding/json: %v, DecodeRecord: %v, on %q", werr, gerr, line)
		}
		if werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("decoded %#v, encoding/json %#v, on %q", got, want, line)
		}
		some, serr := expect.DecodeKeys(line, partKeys)
		if (serr != nil) != (werr != nil) {
			t.Fatalf("encoding/json: %v, DecodeKeys: %v, on %q", werr, serr, line)
		}
		if werr == nil && !reflect.DeepEqual(some, only(want, partKeys)) {
			t.Fatalf("DecodeKeys gave %#v, want %#v, on %q", some, only(want, partKeys), line)
		}
	})
}

// BenchmarkDecodeRecord decodes one encounter line of T2.1's trace golden,
// the kind of record a long run's trace expectations read most.
func BenchmarkDecodeRecord(b *testing.B) {
	line := []byte(`{"branch":{"generation":0,"save_uuid":"563d5eda-2703-8dbe-8746-89f9e40a72c7"},"fired":true,"id":"encounter@14/market/[fralia,maurice]","kind":"encounter","pair":["fralia","maurice"],"roll":{"key":"encounter@14/market/[fralia,maurice]","natural":0.3163386391447206,"pinned":false,"purpose":"encounter","threshold":0.5,"value":0.3163386391447206},"seq":455,"site":"market","tick":14}`)
	b.Run("impl=DecodeRecord", func(b *testing.B) {
		for b.Loop() {
			if _, err := expect.DecodeRecord(line); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=encoding-json", func(b *testing.B) {
		for b.Loop() {
			if _, err := unmarshal(line); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSieve times a sieve deciding encounter lines: the pattern
// {kind: encounter, fired: true, pair: {includes: [frida]}}, whose needles
// are "fired":true and "frida", over a line holding neither, one holding
// the first only and one holding both (impl=quote-anchored is Needed,
// impl=bytes.Contains the plain search it replaced).
func BenchmarkSieve(b *testing.B) {
	s := expect.Sieve{All: [][]byte{[]byte(`"fired":true`), []byte(`"frida"`)}}
	lines := [][]byte{
		[]byte(`{"branch":{"generation":0,"save_uuid":"9d51412a-db69-8be8-8e97-662d63025555"},"fired":false,"id":"encounter@2/mill/[dagny,erik]","kind":"encounter","pair":["dagny","erik"],"roll":{"key":"encounter@2/mill/[dagny,erik]","natural":0.7562061306732138,"pinned":false,"purpose":"encounter","threshold":0.5,"value":0.7562061306732138},"seq":10,"site":"mill","tick":2}`),
		[]byte(`{"branch":{"generation":0,"save_uuid":"9d51412a-db69-8be8-8e97-662d63025555"},"fired":true,"id":"encounter@2/inn/[bjorn,sigrid]","kind":"encounter","pair":["bjorn","sigrid"],"roll":{"key":"encounter@2/inn/[bjorn,sigrid]","natural":0.08251255634749954,"pinned":false,"purpose":"encounter","threshold":0.5,"value":0.08251255634749954},"seq":7,"site":"inn","tick":2}`),
		[]byte(`{"branch":{"generation":0,"save_uuid":"9d51412a-db69-8be8-8e97-662d63025555"},"fired":true,"id":"encounter@2/inn/[bjorn,frida]","kind":"encounter","pair":["bjorn","frida"],"roll":{"key":"encounter@2/inn/[bjorn,frida]","natural":0.08251255634749954,"pinned":false,"purpose":"encounter","threshold":0.5,"value":0.08251255634749954},"seq":7,"site":"inn","tick":2}`),
	}
	plain := func(line []byte) bool {
		for _, n := range s.All {
			if !bytes.Contains(line, n) {
				return false
			}
		}
		return true
	}
	for i, line := range lines {
		if s.Needed(line) != plain(line) || s.Needed(line) != (i == 2) {
			b.Fatalf("line %d: Needed %v, bytes.Contains %v", i, s.Needed(line), plain(line))
		}
	}
	b.Run("impl=quote-anchored", func(b *testing.B) {
		for b.Loop() {
			for _, line := range lines {
				s.Needed(line)
			}
		}
	})
	b.Run("impl=bytes.Contains", func(b *testing.B) {
		for b.Loop() {
			for _, line := range lines {
				plain(line)
			}
		}
	})
}
