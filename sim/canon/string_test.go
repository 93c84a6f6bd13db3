package canon_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/canon"
)

// referenceString spells s one byte at a time by the rules in the package
// documentation, as the specification AppendString's fast path is held to.
func referenceString(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", canon.ErrInvalidUTF8
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String(), nil
}

// plainIDs are two plain ids that put each byte inserted into them both
// in an eight-byte block and in the tail the fast path finishes one byte
// at a time (lengths 24 and 22 with the byte inserted), among lowercase
// letters and among bytes below 0x60, whose blocks test each byte class
// on its own.
var plainIDs = []TableEntry{
	Entry("lowercase, three blocks", NodeTimeout(10*time.Second), GracePeriod(time.Second), "market_17_bannered_mare"),
	Entry("capitals and digits, two blocks and a tail", NodeTimeout(10*time.Second), GracePeriod(time.Second), "MARKET_17_BANNERED_MA"),
}

// eachInsertion calls check with every byte value inserted at every
// position of plain, and returns how many texts it checked.
func eachInsertion(plain string, check func(s string, c byte, pos int)) int {
	examined := 0
	for c := 0; c < 256; c++ {
		for pos := 0; pos <= len(plain); pos++ {
			check(plain[:pos]+string([]byte{byte(c)})+plain[pos:], byte(c), pos)
			examined++
		}
	}
	return examined
}

var _ = Describe("AppendString", func() {
	DescribeTable("spells every byte value at every position of a plain id as the byte-at-a-time rules do",
		func(_ SpecContext, plain string) {
			examined := eachInsertion(plain, func(s string, c byte, pos int) {
				want, wantErr := referenceString(s)
				got, err := canon.AppendString([]byte("x"), s)
				if wantErr != nil {
					Expect(errors.Is(err, canon.ErrInvalidUTF8)).To(BeTrue(), "byte %#x at %d", c, pos)
					Expect(string(got)).To(Equal("x"), "dst is returned unchanged on error")
				} else {
					Expect(err).NotTo(HaveOccurred())
					Expect(string(got)).To(Equal("x"+want), "byte %#x at %d", c, pos)
				}
			})
			Expect(examined).To(Equal(256 * (len(plain) + 1)))
		},
		plainIDs,
	)

	It("matches Marshal on text with multi-byte runes and escapes past the first eight bytes", func() {
		for _, s := range []string{"", "abcdefgh", "abcdefghé", "abcdefgh\"ijk", "ørn_markarth_and_more\n", "ysolda 🐺 of whiterun\\"} {
			got, err := canon.AppendString(nil, s)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got)).To(Equal(marshal(s)))
		}
	})
})

var _ = Describe("Plain", func() {
	// Plain is what lets an encoder skip escaping, so it must say yes
	// exactly when the byte-at-a-time rules copy the text as it is: a
	// wrong no only costs time (the caller escapes and writes the same
	// bytes), so no spelling spec can see it; this one can.
	DescribeTable("says a text is plain exactly when the byte-at-a-time rules copy it unchanged",
		func(_ SpecContext, plain string) {
			plainCount := 0
			examined := eachInsertion(plain, func(s string, c byte, pos int) {
				want, err := referenceString(s)
				copied := err == nil && want == `"`+s+`"`
				Expect(canon.Plain([]byte(s))).To(Equal(copied), "byte %#x at %d", c, pos)
				if copied {
					plainCount++
				}
			})
			Expect(examined).To(Equal(256 * (len(plain) + 1)))
			// 0x20–0x7f (JSON does not escape DEL), less '"' and '\': 94 values.
			Expect(plainCount).To(Equal(94*(len(plain)+1)), "the plain bytes, space and DEL included, at every position")
		},
		plainIDs,
	)
})

var _ = Describe("AppendStringBytes", func() {
	It("spells bytes as AppendString spells the same text, escapes and invalid UTF-8 included", func() {
		for _, s := range []string{"", "encounter@12/market/[a,b]", "a\"b", "tab\there", "ørn", "\xff"} {
			want, wantErr := canon.AppendString([]byte("x"), s)
			got, err := canon.AppendStringBytes([]byte("x"), []byte(s))
			if wantErr == nil {
				Expect(err).NotTo(HaveOccurred(), "%q", s)
			} else {
				Expect(err).To(MatchError(wantErr), "%q", s)
			}
			Expect(string(got)).To(Equal(string(want)), "%q", s)
		}
	})
})

var _ = Describe("ErrorAt", func() {
	It("names the path as Marshal would, quoting keys that are not identifiers", func() {
		err := canon.ErrorAt(canon.ErrNaN, canon.KeyStep("beliefs"), canon.IndexStep(3), canon.KeyStep("held strength"))
		Expect(err).To(MatchError(`canon: $.beliefs[3]["held strength"]: NaN is not allowed`))
		Expect(err).To(MatchError(canon.ErrNaN))
		_, merr := canon.Marshal(canon.Object{{Key: "beliefs", Value: []any{1, 2, 3, canon.Object{{Key: "held strength", Value: math.NaN()}}}}})
		Expect(err).To(Equal(merr))
		Expect(canon.ErrorAt(canon.ErrInf)).To(MatchError("canon: $: infinity is not allowed"))
	})

	// Each edge of the identifier test: the first and last letter of each
	// case, the underscore, the digits (allowed after the first character
	// only), and the characters just outside each range.
	DescribeTable("quotes a key unless it is an identifier",
		func(key, want string) {
			Expect(canon.ErrorAt(canon.ErrNaN, canon.KeyStep(key))).To(MatchError("canon: $" + want + ": NaN is not allowed"))
		},
		Entry("a", "a", ".a"), Entry("z", "z", ".z"), Entry("A", "A", ".A"), Entry("Z", "Z", ".Z"), Entry("_", "_", "._"),
		Entry("digits after the first", "a0z9", ".a0z9"),
		Entry("a leading digit 0", "0a", `["0a"]`), Entry("a leading digit 9", "9a", `["9a"]`),
		Entry("` before a", "`", "[\"`\"]"), Entry("{ after z", "{", `["{"]`),
		Entry("@ before A", "@", `["@"]`), Entry("[ after Z", "[", `["["]`),
		Entry("/ before 0", "a/", `["a/"]`), Entry(": after 9", "a:", `["a:"]`),
		Entry("empty", "", `[""]`),
	)
})
