package checkpoint_test

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/sim/canon"
)

func ptr(f float64) *float64 { return &f }

// exactFloats compares *float64 by bits, so -0 ≠ 0 and a NaN equals itself.
var exactFloats = cmp.Comparer(func(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return math.Float64bits(*a) == math.Float64bits(*b)
})

func goldenFile() checkpoint.File {
	return checkpoint.File{
		Rung: "T0.1", Case: "", SeedID: "ladder-T0.1", DefinesHash: "d8e4f9b6e758845a", FixtureHash: "1d429f54160e7ac8",
		Defines: map[string]json.Number{"retell_decay": "0.8", "ticks_per_day": "24", "witness_confidence": "0.9"},
		Outcome: checkpoint.Outcome{Ticks: 24, Events: 1, Claims: 1, Variants: 1, Beliefs: 1, LogHead: "ab12"},
		Samples: []checkpoint.Sample{
			{Tick: 0, Values: map[string]*float64{"believers": ptr(0), "witness_confidence": nil}},
			{Tick: 6, Values: map[string]*float64{"believers": ptr(1), "witness_confidence": ptr(0.9)}},
			{Tick: 23, Values: map[string]*float64{"believers": ptr(1), "witness_confidence": ptr(0.9)}},
		},
	}
}

const goldenJSON = `{
  "case": "",
  "checkpoints": [
    {
      "tick": 0,
      "values": {
        "believers": 0.0,
        "witness_confidence": null
      }
    },
    {
      "tick": 6,
      "values": {
        "believers": 1.0,
        "witness_confidence": 0.9
      }
    },
    {
      "tick": 23,
      "values": {
        "believers": 1.0,
        "witness_confidence": 0.9
      }
    }
  ],
  "defines": {
    "retell_decay": 0.8,
    "ticks_per_day": 24,
    "witness_confidence": 0.9
  },
  "defines_hash": "d8e4f9b6e758845a",
  "fixture_hash": "1d429f54160e7ac8",
  "outcome": {
    "beliefs": 1,
    "claims": 1,
    "events": 1,
    "log_head": "ab12",
    "ticks": 24,
    "variants": 1
  },
  "rung": "T0.1",
  "seed_id": "ladder-T0.1"
}
`

var _ = Describe("File.Marshal", func() {
	It("writes sorted keys, repr floats and null, one value per line", func() {
		b, err := goldenFile().Marshal()
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Diff(goldenJSON, string(b))).To(BeEmpty())
	})

	It("writes empty samples and empty value sets as [] and {}", func() {
		b, err := checkpoint.File{Samples: []checkpoint.Sample{{Tick: 3}}}.Marshal()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(ContainSubstring(`"values": {}`))
		b, err = checkpoint.File{}.Marshal()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(ContainSubstring(`"checkpoints": [],`))
	})

	It("refuses a value with no canonical form", func() {
		f := goldenFile()
		f.Samples[1].Values["witness_confidence"] = ptr(math.Inf(1))
		_, err := f.Marshal()
		Expect(err).To(MatchError(canon.ErrInf))
		Expect(err).To(MatchError(`marshal checkpoints: canon: $.checkpoints[1].values.witness_confidence: infinity is not allowed`))
	})
})

var _ = Describe("Marshal → Parse", func() {
	It("round-trips a file, null values included", func() {
		b, err := goldenFile().Marshal()
		Expect(err).NotTo(HaveOccurred())
		f, err := checkpoint.Parse("goldens/T0.1-witness/checkpoints.json", b)
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Diff(goldenFile(), f, exactFloats)).To(BeEmpty())
		Expect(f.Samples[0].Values).To(HaveKey("witness_confidence"), "null is a present name, not a missing one")
		Expect(f.Samples[0].Values["witness_confidence"]).To(BeNil())
	})

	It("round-trips awkward floats bit for bit", func() {
		awkward := map[string]*float64{
			"a_tenth": ptr(0.1), "b_tiny": ptr(1e-05), "c_subnormal": ptr(5e-324), "d_max": ptr(math.MaxFloat64),
			"e_negative_zero": ptr(math.Copysign(0, -1)), "f_negative": ptr(-2.5), "g_big_int": ptr(1e16), "h_third": ptr(1.0 / 3),
		}
		in := checkpoint.File{Rung: "T9", Case: "swapped", Samples: []checkpoint.Sample{{Tick: -1, Values: awkward}}}
		b, err := in.Marshal()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(ContainSubstring(`"e_negative_zero": -0.0`))
		Expect(string(b)).To(ContainSubstring(`"g_big_int": 1e+16`))
		out, err := checkpoint.Parse("x.json", b)
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Diff(in, out, exactFloats)).To(BeEmpty())
		again, err := out.Marshal()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(again)).To(Equal(string(b)))
	})

	It("round-trips an empty file up to empty-versus-nil", func() {
		b, err := checkpoint.File{}.Marshal()
		Expect(err).NotTo(HaveOccurred())
		out, err := checkpoint.Parse("x.json", b)
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Diff(checkpoint.File{}, out, cmpopts.EquateEmpty())).To(BeEmpty())
	})
})

// at returns the 1-based line and byte column of the first occurrence of
// token in doc.
func at(doc, token string) (line, col int) {
	i := strings.Index(doc, token)
	Expect(i).To(BeNumerically(">=", 0), "token %q not in doc", token)
	line = strings.Count(doc[:i], "\n") + 1
	col = i - (strings.LastIndex(doc[:i], "\n") + 1) + 1
	return line, col
}

// The broken documents, each with the token its error must point at.
var (
	malformedDoc = strings.Replace(goldenJSON, `"fixture_hash": "1d429f54160e7ac8",`, `"fixture_hash": "1d429f54160e7ac8";`, 1)
	unknownDoc   = strings.Replace(goldenJSON, `"rung": "T0.1",`, `"rung": "T0.1",`+"\n"+`  "bogus": true,`, 1)
	wrongTypeDoc = strings.Replace(goldenJSON, `"ticks": 24,`, `"ticks": "24",`, 1)
	nanDoc       = strings.Replace(goldenJSON, `"witness_confidence": 0.9`, `"witness_confidence": NaN`, 1)
	trailingDoc  = goldenJSON + "{}\n"
)

var _ = Describe("Parse errors", func() {
	DescribeTable("are *ParseError on the offending line, at or just after the offending token",
		func(doc, token, message string, cause any) {
			_, err := checkpoint.Parse("goldens/T0.1-witness/checkpoints.json", []byte(doc))
			var pe *checkpoint.ParseError
			Expect(errors.As(err, &pe)).To(BeTrue(), "%v", err)
			line, col := at(doc, token)
			Expect(pe.File).To(Equal("goldens/T0.1-witness/checkpoints.json"))
			Expect(pe.Line).To(Equal(line))
			Expect(pe.Column).To(BeNumerically(">=", col))
			Expect(pe.Column).To(BeNumerically("<=", col+len(token)))
			Expect(pe.Err).To(MatchError(ContainSubstring(message)))
			Expect(err.Error()).To(HavePrefix("goldens/T0.1-witness/checkpoints.json:" + strconv.Itoa(pe.Line) + ":" + strconv.Itoa(pe.Column) + ": "))
			if cause != nil {
				Expect(errors.As(err, cause)).To(BeTrue(), "unwraps to %T", cause)
			}
		},
		Entry("malformed JSON", malformedDoc, ";", "invalid character ';' after object key:value pair", new(*json.SyntaxError)),
		Entry("wrong type", wrongTypeDoc, `"24"`, "cannot unmarshal string into Go struct field", new(*json.UnmarshalTypeError)),
		Entry("NaN token", nanDoc, "NaN", "invalid character 'N' looking for beginning of value", new(*json.SyntaxError)),
		Entry("trailing data", trailingDoc, "{}\n", "trailing data after the checkpoints object", nil),
		Entry("trailing data on the same line", strings.TrimSuffix(goldenJSON, "\n")+"garbage", "garbage", "trailing data", nil),
		Entry("number out of float64 range", strings.Replace(goldenJSON, "0.9\n", "1e400\n", 1), "1e400", "cannot unmarshal number 1e400", new(*json.UnmarshalTypeError)),
		Entry("a define given as a string", strings.Replace(goldenJSON, `"retell_decay": 0.8`, `"retell_decay": "0.8"`, 1), `"0.8"`,
			`define "retell_decay": "0.8" is not a number`, nil),
	)

	It("refuses an integer define beyond int64", func() {
		_, err := checkpoint.Parse("c.json", []byte(strings.Replace(goldenJSON, `"ticks_per_day": 24`, `"ticks_per_day": 99999999999999999999`, 1)))
		Expect(err).To(MatchError(`c.json:1:1: define ticks_per_day: "99999999999999999999" is not a number`))
	})

	It("reports an unknown field by name", func() {
		_, err := checkpoint.Parse("c.json", []byte(unknownDoc))
		var pe *checkpoint.ParseError
		Expect(errors.As(err, &pe)).To(BeTrue())
		Expect(pe.Err).To(MatchError(ContainSubstring(`unknown key "bogus"`)))
		line, col := at(unknownDoc, `"bogus"`)
		Expect([]int{pe.Line, pe.Column}).To(Equal([]int{line, col}))
	})

	It("locates a truncated document where it ends", func() {
		doc := goldenJSON[:200]
		_, err := checkpoint.Parse("c.json", []byte(doc))
		var pe *checkpoint.ParseError
		Expect(errors.As(err, &pe)).To(BeTrue())
		Expect(pe.Err).To(MatchError("unexpected end of JSON input"))
		Expect(pe.Line).To(Equal(strings.Count(doc, "\n") + 1))
	})

	It("reports an empty file at 1:1", func() {
		_, err := checkpoint.Parse("c.json", nil)
		Expect(err).To(MatchError("c.json:1:1: unexpected end of JSON input"))
	})

	DescribeTable("point exactly at the offending byte",
		func(doc, token string) {
			_, err := checkpoint.Parse("c.json", []byte(doc))
			var pe *checkpoint.ParseError
			Expect(errors.As(err, &pe)).To(BeTrue())
			line, col := at(doc, token)
			Expect([]int{pe.Line, pe.Column}).To(Equal([]int{line, col}))
		},
		Entry("malformed JSON", malformedDoc, ";"),
		Entry("wrong type", wrongTypeDoc, `"24"`),
		Entry("NaN token", nanDoc, "NaN"),
		Entry("unknown field", unknownDoc, `"bogus"`),
		Entry("trailing data", trailingDoc, "{}\n"),
	)

	DescribeTable("refuse every kind of trailing data",
		func(trailer string) {
			_, err := checkpoint.Parse("c.json", []byte(goldenJSON+trailer))
			Expect(err).To(MatchError(ContainSubstring("trailing data")))
		},
		Entry("an object", "{}"),
		Entry("a number", "1"),
		Entry("a word", "x"),
		Entry("a closing brace", "}"),
		Entry("a closing bracket", "]"),
	)

	DescribeTable("refuse keys that are not exactly the format's",
		func(doc string) {
			_, err := checkpoint.Parse("c.json", []byte(doc))
			Expect(err).To(HaveOccurred())
		},
		Entry("a misspelt key", `{"rungs": "T0.1"}`),
		Entry("a key in the wrong case", `{"RUNG": "T0.1", "Defines_Hash": "x"}`),
		Entry("a repeated key", `{"rung": "T0.1", "rung": "T0.2"}`),
	)

	It("accepts trailing whitespace", func() {
		_, err := checkpoint.Parse("c.json", []byte(goldenJSON+"\n \t\n"))
		Expect(err).NotTo(HaveOccurred())
	})
})
