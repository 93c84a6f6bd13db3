package canon_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/canon"
)

// gravity is a Marshaler whose canonical form is an Ordered.
type gravity struct{ g, friction float64 }

func (p gravity) CanonJSON() any {
	return canon.Ordered{{"gravity", p.g}, {"friction", p.friction}}
}

// loop is a Marshaler that never bottoms out.
type loop struct{}

func (loop) CanonJSON() any { return loop{} }

func marshal(v any) string {
	GinkgoHelper()
	b, err := canon.Marshal(v)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

var _ = Describe("Marshal", func() {
	It("matches the published vector", func() {
		b, err := canon.Marshal(canon.Ordered{{"gravity", 9.8}, {"friction", 0.5}})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(Equal(`{"gravity":9.8,"friction":0.5}`))
		sum := sha256.Sum256(b)
		Expect(hex.EncodeToString(sum[:])).To(HavePrefix("1c365e6efa6e2c4a"))
	})

	It("sorts Object keys bytewise and keeps Ordered in declaration order", func() {
		fields := []canon.Field{{"b", 1}, {"a", 2}, {"B", 3}, {"é", 4}, {"a0", 5}}
		Expect(marshal(canon.Object(fields))).To(Equal(`{"B":3,"a":2,"a0":5,"b":1,"é":4}`))
		Expect(marshal(canon.Ordered(fields))).To(Equal(`{"b":1,"a":2,"B":3,"é":4,"a0":5}`))
	})

	It("writes a Raw value as it is, wherever it stands", func() {
		got, err := canon.Marshal(canon.Object{{Key: "b", Value: canon.Raw(`[{"x":1}]`)}, {Key: "a", Value: []any{canon.Raw(`"q"`), 2}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal(`{"a":["q",2],"b":[{"x":1}]}`))
	})

	It("sorts map keys", func() {
		Expect(marshal(map[string]any{"z": true, "a": nil, "m": "x"})).To(Equal(`{"a":null,"m":"x","z":true}`))
		Expect(marshal(map[string]string{"z": "1", "a": "2"})).To(Equal(`{"a":"2","z":"1"}`))
	})

	DescribeTable("writes each supported type in its one spelling",
		func(v any, want string) { Expect(marshal(v)).To(Equal(want)) },
		Entry("nil", nil, `null`),
		Entry("true", true, `true`),
		Entry("false", false, `false`),
		Entry("int", -42, `-42`),
		Entry("int8", int8(math.MinInt8), `-128`),
		Entry("int16", int16(math.MaxInt16), `32767`),
		Entry("int32", int32(math.MinInt32), `-2147483648`),
		Entry("int64", int64(math.MinInt64), `-9223372036854775808`),
		Entry("uint", uint(7), `7`),
		Entry("uint8", uint8(255), `255`),
		Entry("uint16", uint16(65535), `65535`),
		Entry("uint32", uint32(math.MaxUint32), `4294967295`),
		Entry("uint64", uint64(math.MaxUint64), `18446744073709551615`),
		Entry("float64 integral", 100.0, `100.0`),
		Entry("float64 tiny", 1e-05, `1e-05`),
		Entry("float64 negative zero", math.Copysign(0, -1), `-0.0`),
		Entry("[]any", []any{1, "a", nil, []any{}}, `[1,"a",null,[]]`),
		Entry("[]string", []string{"a", "b"}, `["a","b"]`),
		Entry("[]float64", []float64{0.1, 1e16}, `[0.1,1e+16]`),
		Entry("[]int", []int{1, -2}, `[1,-2]`),
		Entry("[]int64", []int64{math.MaxInt64}, `[9223372036854775807]`),
		Entry("[]Object", []canon.Object{{{"b", 1}, {"a", 2}}, {}}, `[{"a":2,"b":1},{}]`),
		Entry("nil slice", []string(nil), `[]`),
		Entry("nil map", map[string]any(nil), `{}`),
		Entry("empty Object", canon.Object{}, `{}`),
		Entry("Marshaler", gravity{9.8, 0.5}, `{"gravity":9.8,"friction":0.5}`),
		Entry("nested Marshaler", canon.Object{{"p", gravity{1, 0}}}, `{"p":{"gravity":1.0,"friction":0.0}}`),
	)

	DescribeTable("escapes strings minimally",
		func(s, want string) { Expect(marshal(s)).To(Equal(want)) },
		Entry("plain", "abc", `"abc"`),
		Entry("quote and backslash", `a"b\c`, `"a\"b\\c"`),
		Entry("two-character escapes", "\n\r\t\b\f", `"\n\r\t\b\f"`),
		Entry("other controls", "\x00\x01\x1f", `"\u0000\u0001\u001f"`),
		Entry("lowercase hex", "\x1a", `"\u001a"`),
		Entry("DEL stays raw", "\x7f", "\"\x7f\""),
		Entry("HTML characters stay raw", "<a&b>", `"<a&b>"`),
		Entry("non-ASCII stays raw", "é→😀\u2028", "\"é→😀\u2028\""),
		Entry("replacement character is valid", "\uFFFD", "\"\uFFFD\""),
	)

	It("appends to dst", func() {
		b, err := canon.AppendMarshal([]byte("x="), []int{1})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(Equal("x=[1]"))
	})

	DescribeTable("names the path of the offending value",
		func(v any, sentinel error, want string) {
			b, err := canon.AppendMarshal([]byte("keep"), v)
			Expect(string(b)).To(Equal("keep"))
			Expect(err).To(MatchError(want))
			Expect(errors.Is(err, sentinel)).To(BeTrue())
			var merr *canon.MarshalError
			Expect(errors.As(err, &merr)).To(BeTrue())
			Expect(merr.Err).To(MatchError(ContainSubstring(sentinel.Error())))
		},
		Entry("NaN in a record",
			canon.Object{{"records", []any{0, 1, 2, canon.Ordered{{"tick", 3}, {"value", math.NaN()}}}}},
			canon.ErrNaN, "canon: $.records[3].value: NaN is not allowed"),
		Entry("NaN in []float64", []float64{0, 1, math.NaN()}, canon.ErrNaN, "canon: $[2]: NaN is not allowed"),
		Entry("infinity", map[string]any{"x": math.Inf(-1)}, canon.ErrInf, "canon: $.x: infinity is not allowed"),
		Entry("unsupported type", make(chan int), canon.ErrUnsupportedType, "canon: $: unsupported type chan int"),
		Entry("float32", []any{float32(1)}, canon.ErrUnsupportedType, "canon: $[0]: unsupported type float32"),
		Entry("unsupported nested type", canon.Object{{"a", map[string]int{}}}, canon.ErrUnsupportedType,
			"canon: $.a: unsupported type map[string]int"),
		Entry("duplicate key in Object", canon.Object{{"a", canon.Object{{"k", 1}, {"j", 2}, {"k", 3}}}},
			canon.ErrDuplicateKey, `canon: $.a: duplicate key "k"`),
		Entry("duplicate key in Ordered", canon.Ordered{{"k", 1}, {"k", 1}}, canon.ErrDuplicateKey, `canon: $: duplicate key "k"`),
		Entry("invalid UTF-8 value under a non-identifier key", map[string]any{"w1/theft-1": []string{"\xff"}},
			canon.ErrInvalidUTF8, `canon: $["w1/theft-1"][0]: invalid UTF-8`),
		Entry("invalid UTF-8 key", map[string]string{"a\xffb": "x"}, canon.ErrInvalidUTF8, `canon: $["a\xffb"]: invalid UTF-8 in key`),
		Entry("surrogate half", "\xed\xa0\x80", canon.ErrInvalidUTF8, `canon: $: invalid UTF-8`),
		Entry("Marshaler that never bottoms out", canon.Object{{"l", loop{}}}, canon.ErrTooDeep,
			"canon: $: nesting deeper than 1000 levels"),
	)

	It("stops on a cyclic []any", func() {
		cycle := []any{nil}
		cycle[0] = cycle
		_, err := canon.Marshal(cycle)
		Expect(err).To(MatchError("canon: $: nesting deeper than 1000 levels"))
	})
})

// wrapped is a Marshaler standing for its inner value: it adds a level of
// depth but no level of JSON.
type wrapped struct{ inner any }

func (w wrapped) CanonJSON() any { return w.inner }

// The depth limit counts every level a value is reached through, whatever
// its type, and allows exactly 1000: each table entry nests 1 to depth
// 1000, then to the next depth the nesting reaches.
var _ = DescribeTable("the nesting limit",
	func(wrap func(any) any, levels, step int) {
		nest := func(n int) any {
			var v any = 1
			for range n {
				v = wrap(v)
			}
			return v
		}
		_, err := canon.Marshal(nest(levels))
		Expect(err).NotTo(HaveOccurred(), "the innermost value at depth %d", levels*step)
		_, err = canon.Marshal(nest(levels + 1))
		Expect(err).To(MatchError(canon.ErrTooDeep), "the innermost value at depth %d", (levels+1)*step)
	},
	Entry("[]any", func(v any) any { return []any{v} }, 1000, 1),
	Entry("Object", func(v any) any { return canon.Object{{"k", v}} }, 1000, 1),
	Entry("Ordered", func(v any) any { return canon.Ordered{{"k", v}} }, 1000, 1),
	Entry("map[string]any", func(v any) any { return map[string]any{"k": v} }, 1000, 1),
	Entry("[]Object, an array of objects: two levels each", func(v any) any { return []canon.Object{{{"k", v}}} }, 500, 2),
	Entry("a Marshaler", func(v any) any { return wrapped{v} }, 1000, 1),
)
