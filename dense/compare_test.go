package dense_test

import (
	"errors"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/dense"
)

// lines joins records with a newline after each, as the format requires.
func lines(records ...string) []byte {
	return []byte(strings.Join(records, "\n") + "\n")
}

func divergence(golden, actual []byte) dense.Divergence {
	GinkgoHelper()
	d, err := dense.Compare(golden, actual)
	Expect(err).NotTo(HaveOccurred())
	Expect(d).NotTo(BeNil())
	return *d
}

var _ = Describe("Compare", func() {
	golden := lines(
		"tick,a/x,w1/theft-1/verbatim,w1/held",
		"0,0.1,0.5,True",
		"2,0.2,,True",
		"4,0.3,0.557396,False",
		"6,0.4,0.6,False",
	)

	It("returns nil for identical files", func() {
		d, err := dense.Compare(golden, append([]byte(nil), golden...))
		Expect(err).NotTo(HaveOccurred())
		Expect(d).To(BeNil())
	})

	It("returns nil for identical files even if they are malformed", func() {
		d, err := dense.Compare([]byte("oops"), []byte("oops"))
		Expect(err).NotTo(HaveOccurred())
		Expect(d).To(BeNil())
	})

	It("reports a cell divergence in the shape CI parses", func() {
		actual := []byte(strings.Replace(string(golden), "0.557396", "999.0", 1))
		Expect(divergence(golden, actual)).To(Equal(dense.Divergence{
			Line: 4, Tick: "4", Column: "w1/theft-1/verbatim", Index: 2,
			Golden: "0.557396", Actual: "999.0", Kind: dense.KindCell,
		}))
		Expect(divergence(golden, actual).String()).To(Equal(
			`first divergence at tick 4, column "w1/theft-1/verbatim": golden 0.557396, actual 999.0`))
	})

	It("shows an empty field as a quoted empty string", func() {
		actual := []byte(strings.Replace(string(golden), "2,0.2,,True", "2,0.2,0.72,True", 1))
		d := divergence(golden, actual)
		Expect(d.Line).To(Equal(3))
		Expect(d.String()).To(Equal(`first divergence at tick 2, column "w1/theft-1/verbatim": golden "", actual 0.72`))
	})

	It("reports a divergence in the tick column", func() {
		actual := []byte(strings.Replace(string(golden), "6,0.4", "7,0.4", 1))
		d := divergence(golden, actual)
		Expect(d.Index).To(Equal(0))
		Expect(d.String()).To(Equal(`first divergence at tick 6, column "tick": golden 6, actual 7`))
	})

	It("reports the first differing value even when the first differing byte is a separator", func() {
		actual := []byte(strings.Replace(string(golden), "0,0.1,0.5,True", "0,0.1,0.55,True", 1))
		Expect(divergence(golden, actual).String()).To(Equal(
			`first divergence at tick 0, column "w1/theft-1/verbatim": golden 0.5, actual 0.55`))
	})

	It("reports a field the actual row lacks", func() {
		actual := []byte(strings.Replace(string(golden), "4,0.3,0.557396,False", "4,0.3,0.557396", 1))
		d := divergence(golden, actual)
		Expect(d.Actual).To(Equal(dense.Missing))
		Expect(d.String()).To(Equal(`first divergence at tick 4, column "w1/held": golden False, actual <missing>`))
	})

	It("reports a field beyond the header by number", func() {
		actual := []byte(strings.Replace(string(golden), "4,0.3,0.557396,False", "4,0.3,0.557396,False,9", 1))
		d := divergence(golden, actual)
		Expect(d.Column).To(BeEmpty())
		Expect(d.Index).To(Equal(4))
		Expect(d.String()).To(Equal(`first divergence at tick 4, column 5: golden <missing>, actual 9`))
	})

	It("quotes values that would be ambiguous bare", func() {
		g := lines("tick,s", "1,a b", `2,"x,y"`)
		a := lines("tick,s", "1,a b", `2,"x,""y"""`)
		Expect(divergence(g, a).String()).To(Equal(`first divergence at tick 2, column "s": golden "x,y", actual "x,\"y\""`))
	})

	It("reports an actual truncated in the middle of a row", func() {
		actual := golden[:len(golden)-5] // ends "6,0.4,0.6,F"
		d := divergence(golden, actual)
		Expect(d.String()).To(Equal(`first divergence at tick 6, column "w1/held": golden False, actual F`))
	})

	It("reports values written differently", func() {
		g := lines("tick,s,t", "1,x,y")
		a := lines("tick,s,t", `1,"x",y`)
		d := divergence(g, a)
		Expect(d.Kind).To(Equal(dense.KindSyntax))
		Expect(d.String()).To(Equal(`first divergence at tick 1, column "s": same values written differently: golden "x,y\n", actual "\"x\",y\n"`))
	})

	It("reports an actual missing its final newline", func() {
		d := divergence(golden, golden[:len(golden)-1])
		Expect(d.Kind).To(Equal(dense.KindSyntax))
		Expect(d.String()).To(Equal(`first divergence at tick 6, column "w1/held": same values written differently: golden "False\n", actual "False"`))
	})

	It("reports a header divergence", func() {
		actual := []byte(strings.Replace(string(golden), "a/x", "a/y", 1))
		d := divergence(golden, actual)
		Expect(d).To(Equal(dense.Divergence{Line: 1, Column: "a/x", Index: 1, Golden: "a/x", Actual: "a/y", Kind: dense.KindHeader}))
		g := lines("tick,b,a/x", "0,1,2")
		a := lines("tick,b,a/y", "0,1,2")
		Expect(divergence(g, a).String()).To(Equal(`header differs at column 3: golden "a/x", actual "a/y"`))
	})

	It("reports an empty actual as a header divergence", func() {
		Expect(divergence(golden, nil).String()).To(Equal(`header differs at column 1: golden "tick", actual <missing>`))
	})

	It("reports an actual header with an extra column", func() {
		g := lines("tick,a", "0,1")
		a := lines("tick,a,b", "0,1,2")
		Expect(divergence(g, a).String()).To(Equal(`header differs at column 3: golden <missing>, actual "b"`))
	})

	It("reports a header written differently", func() {
		g := lines("tick,a", "0,1")
		Expect(divergence(g, []byte("tick,a")).String()).To(Equal(
			`header differs at column 2: same values written differently: golden "a\n", actual "a"`))
	})

	It("reports missing rows", func() {
		actual := golden[:strings.Index(string(golden), "2,0.2")]
		d := divergence(golden, actual)
		Expect(d).To(Equal(dense.Divergence{Line: 3, Tick: "2", Column: "tick", Golden: "2", Actual: dense.Missing,
			Kind: dense.KindMissingRows, Rows: 3}))
		Expect(d.String()).To(Equal("actual ends before tick 2 (golden has 3 more rows)"))
		last := golden[:strings.Index(string(golden), "6,0.4")]
		Expect(divergence(golden, last).String()).To(Equal("actual ends before tick 6 (golden has 1 more row)"))
	})

	It("reports extra rows", func() {
		actual := append(append([]byte(nil), golden...), "48,1,2,True\n50,1,2,True\n"...)
		d := divergence(golden, actual)
		Expect(d).To(Equal(dense.Divergence{Line: 6, Tick: "48", Column: "tick", Golden: dense.Missing, Actual: "48",
			Kind: dense.KindExtraRows, Rows: 2}))
		Expect(d.String()).To(Equal("actual has extra rows from tick 48"))
	})

	It("counts records, not physical lines, past quoted newlines", func() {
		g := lines("tick,note,v", "0,\"two\nlines\",1", `1,"say ""a""",2`, "2,\"x\ny\",3")
		a := []byte(strings.Replace(string(g), ",3\n", ",4\n", 1))
		d := divergence(g, a)
		Expect(d.Line).To(Equal(4))
		Expect(d.String()).To(Equal(`first divergence at tick 2, column "v": golden 3, actual 4`))
	})

	It("finds the record when the difference is inside a quoted newline field", func() {
		g := lines("tick,note", "0,\"a\nb\nc\"")
		a := lines("tick,note", "0,\"a\nb\nd\"")
		d := divergence(g, a)
		Expect(d.Line).To(Equal(2))
		Expect(d.String()).To(Equal(`first divergence at tick 0, column "note": golden "a\nb\nc", actual "a\nb\nd"`))
	})

	It("reports a malformed actual field as written", func() {
		actual := []byte(strings.Replace(string(golden), "4,0.3,0.557396", `4,0.3,0.5"57396`, 1))
		d := divergence(golden, actual)
		Expect(d.String()).To(Equal(`first divergence at tick 4, column "w1/theft-1/verbatim": golden 0.557396, actual "0.5\"57396,False\n"`))
	})

	DescribeTable("rejects a golden that is malformed where it is read",
		func(g, a []byte, sentinel error, line, column int, want string) {
			d, err := dense.Compare(g, a)
			Expect(d).To(BeNil())
			Expect(err).To(MatchError(want))
			Expect(errors.Is(err, sentinel)).To(BeTrue())
			var ferr *dense.FormatError
			Expect(errors.As(err, &ferr)).To(BeTrue())
			Expect(ferr.Line).To(Equal(line))
			Expect(ferr.Column).To(Equal(column))
		},
		Entry("empty", []byte{}, lines("tick"), dense.ErrNoHeader, 1, 0,
			"dense: malformed golden at line 1: missing header"),
		Entry("no final newline", []byte("tick,a\n0,1\n1,2"), lines("tick,a", "0,1", "1,3"), dense.ErrNoFinalNewline, 3, 0,
			"dense: malformed golden at line 3: missing newline at end of file"),
		Entry("ragged row", lines("tick,a,b", "0,1,2", "1,2"), lines("tick,a,b", "0,1,2", "1,3"), dense.ErrFieldCount, 3, 3,
			"dense: malformed golden at line 3, column 3: wrong number of fields: got 2, want 3"),
		Entry("long row", lines("tick,a", "0,1,2"), lines("tick,a", "0,1,3"), dense.ErrFieldCount, 2, 3,
			"dense: malformed golden at line 2, column 3: wrong number of fields: got 3, want 2"),
		Entry("unterminated quote", lines("tick,a", "0,1", `1,"2`), lines("tick,a", "0,1", `1,"3`), dense.ErrUnterminatedQuote, 3, 2,
			"dense: malformed golden at line 3, column 2: quoted field not closed"),
		Entry("bare quote", lines("tick,a", `0,1"`), lines("tick,a", `0,2"`), dense.ErrBareQuote, 2, 2,
			`dense: malformed golden at line 2, column 2: bare " in unquoted field`),
		Entry("text after quote", lines("tick,a", `0,"1"x`), lines("tick,a", `0,"2"x`), dense.ErrTextAfterQuote, 2, 2,
			`dense: malformed golden at line 2, column 2: text after closing " of quoted field`),
		Entry("CRLF line ends", []byte("tick,a\r\n0,1\r\n"), []byte("tick,a\r\n0,2\r\n"), dense.ErrCarriageReturn, 1, 2,
			`dense: malformed golden at line 1, column 2: \r in unquoted field`),
		Entry("first column not tick", lines("time,a", "0,1"), lines("time,a", "0,2"), dense.ErrFirstColumn, 1, 1,
			`dense: malformed golden at line 1, column 1: first column must be named "tick"`),
		Entry("missing rows of a ragged golden", lines("tick,a", "0,1", "1"), lines("tick,a", "0,1"), dense.ErrFieldCount, 3, 2,
			"dense: malformed golden at line 3, column 2: wrong number of fields: got 1, want 2"),
	)

	// Every sentence Describe can write, against a planted case of its
	// kind: a kind added without a case here fails.
	It("has a planted case of every kind, which reads as that kind", func() {
		g := lines("tick,a,b", "0,1,2", "1,1,2")
		planted := map[dense.DivergenceKind][2][]byte{
			dense.KindCell:        {g, lines("tick,a,b", "0,1,2", "1,1,3")},
			dense.KindHeader:      {g, lines("tick,a,c", "0,1,2", "1,1,2")},
			dense.KindMissingRows: {g, lines("tick,a,b", "0,1,2")},
			dense.KindExtraRows:   {g, lines("tick,a,b", "0,1,2", "1,1,2", "2,1,2")},
			dense.KindSyntax:      {g, lines("tick,a,b", "0,1,2", `1,"1",2`)},
		}
		phrase := map[dense.DivergenceKind]string{
			dense.KindCell:        `first divergence at tick 1, column "b": golden 2, actual 3`,
			dense.KindHeader:      `header differs at column 3: golden "b", actual "c"`,
			dense.KindMissingRows: "actual ends before tick 1 (golden has 1 more row)",
			dense.KindExtraRows:   "actual has extra rows from tick 2",
			dense.KindSyntax:      `first divergence at tick 1, column "a": same values written differently: golden "1,2\n", actual "\"1\",2\n"`,
		}
		kinds := 0
		for k := range 256 {
			kind := dense.DivergenceKind(k)
			if strings.HasPrefix(kind.String(), "DivergenceKind(") {
				continue
			}
			kinds++
			c, ok := planted[kind]
			Expect(ok).To(BeTrue(), "no planted case of the %s kind", kind)
			d := divergence(c[0], c[1])
			Expect(d.Kind).To(Equal(kind))
			Expect(d.String()).To(Equal(phrase[kind]))
		}
		Expect(kinds).To(Equal(len(planted)))
	})

	It("names each kind", func() {
		Expect([]string{dense.KindCell.String(), dense.KindHeader.String(), dense.KindMissingRows.String(),
			dense.KindExtraRows.String(), dense.KindSyntax.String(), dense.DivergenceKind(9).String()}).To(Equal(
			[]string{"cell", "header", "missing rows", "extra rows", "syntax", "DivergenceKind(9)"}))
	})
})
