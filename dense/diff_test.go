package dense_test

import (
	"errors"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/dense"
)

// byHolder groups holder/claim/field columns over holders.
func byHolder(col string) string {
	if parts := strings.Split(col, "/"); len(parts) == 3 {
		return "*/" + parts[1] + "/" + parts[2]
	}
	return col
}

func diff(golden, actual []byte) *dense.Delta {
	GinkgoHelper()
	d, err := dense.Diff(golden, actual)
	Expect(err).NotTo(HaveOccurred())
	return d
}

var _ = Describe("Diff", func() {
	golden := lines(
		"tick,a/at,a/t@1/confidence,b/t@1/confidence",
		"0,home,,",
		"1,home,0.9,",
		"2,road,0.9,0.72",
		"3,road,0.9,0.72",
	)

	It("finds nothing between identical files", func() {
		d := diff(golden, golden)
		Expect(d.Empty()).To(BeTrue())
		Expect(d.Shared).To(Equal(4))
		Expect(d.Summary()).To(Equal("0 cells changed in 0 columns; 0 added, 0 removed"))
	})

	It("lists every changed cell in tick order, then header order", func() {
		actual := lines(
			"tick,a/at,a/t@1/confidence,b/t@1/confidence",
			"0,home,,",
			"1,road,0.9,",
			"2,road,0.9,0.7",
			"3,road,0.9,0.7",
		)
		d := diff(golden, actual)
		Expect(d.Cells).To(Equal([]dense.Change{
			{Tick: 1, Column: "a/at", Golden: "home", Actual: "road"},
			{Tick: 2, Column: "b/t@1/confidence", Golden: "0.72", Actual: "0.7"},
			{Tick: 3, Column: "b/t@1/confidence", Golden: "0.72", Actual: "0.7"},
		}))
		Expect(d.Summary()).To(Equal("3 cells changed in 2 columns, ticks 1-3; 0 added, 0 removed"))
	})

	It("aligns columns by name, so a column inserted mid-header is one added column", func() {
		actual := lines(
			"tick,a/at,a/t@1/confidence,ab/t@1/confidence,b/t@1/confidence",
			"0,home,,,",
			"1,home,0.9,,",
			"2,road,0.9,0.5,0.72",
			"3,road,0.9,0.5,0.72",
		)
		d := diff(golden, actual)
		Expect(d.Added).To(Equal([]string{"ab/t@1/confidence"}))
		Expect(d.Removed).To(BeEmpty())
		Expect(d.Shared).To(Equal(4))
		Expect(d.Cells).To(Equal([]dense.Change{
			{Tick: 2, Column: "ab/t@1/confidence", Golden: "", Actual: "0.5"},
			{Tick: 3, Column: "ab/t@1/confidence", Golden: "", Actual: "0.5"},
		}), "an absent column reads as empty: only the cells where it holds a value change")
		Expect(d.Groups(byHolder)).To(Equal([]dense.Group{
			{Key: "*/t@1/confidence", Columns: 1, Added: 1, Cells: 2, First: 2, Last: 3, Numeric: false},
		}))
	})

	It("reports removed columns and rows one side lacks", func() {
		actual := lines(
			"tick,a/at,a/t@1/confidence",
			"0,home,",
			"1,home,0.9",
			"2,road,0.9",
		)
		d := diff(golden, actual)
		Expect(d.Removed).To(Equal([]string{"b/t@1/confidence"}))
		Expect(d.MissingTicks).To(Equal([]int64{3}))
		Expect(d.ExtraTicks).To(BeEmpty())
		Expect(d.Cells).To(Equal([]dense.Change{{Tick: 2, Column: "b/t@1/confidence", Golden: "0.72", Actual: ""}}))
		Expect(d.Summary()).To(Equal("1 cell changed in 1 column, tick 2; 0 added, 1 removed; actual lacks 1 row from tick 3"))

		d = diff(actual, golden)
		Expect(d.ExtraTicks).To(Equal([]int64{3}))
		Expect(d.Summary()).To(HaveSuffix("; 1 added, 0 removed; actual has 1 row more from tick 3"))
	})

	It("groups columns, counting columns, cells, the tick range and the largest numeric change", func() {
		g := lines("tick,a/t/c,b/t/c,c/t/c,a/t/stage", "0,0.5,0.5,0.5,heard", "1,0.5,0.5,0.5,heard", "2,0.5,0.5,0.5,heard")
		a := lines("tick,a/t/c,b/t/c,c/t/c,a/t/stage", "0,0.5,0.5,0.5,heard", "1,0.25,0.5,0.49,dormant", "2,0.25,0.4,0.5,dormant")
		groups := diff(g, a).Groups(byHolder)
		Expect(groups).To(Equal([]dense.Group{
			{Key: "*/t/c", Columns: 3, Cells: 4, First: 1, Last: 2, MaxDelta: 0.25, Numeric: true},
			{Key: "*/t/stage", Columns: 1, Cells: 2, First: 1, Last: 2},
		}))
		Expect(groups[0].String()).To(Equal("*/t/c: 3 columns, 4 cells, ticks 1-2, max |Δ| 0.25"))
		Expect(groups[1].String()).To(Equal("*/t/stage: 1 column, 2 cells, ticks 1-2"))
	})

	It("folds a column's consecutive identical changes into one run, and breaks runs at unchanged ticks", func() {
		g := lines("tick,x,y", "0,1,a", "1,1,a", "2,1,a", "3,1,a", "4,1,a", "5,1,a")
		a := lines("tick,x,y", "0,2,a", "1,2,b", "2,1,b", "3,2,c", "4,3,a", "5,3,a")
		runs := diff(g, a).Runs()
		Expect(runs).To(Equal([]dense.Run{
			{Column: "x", First: 0, Last: 1, Cells: 2, Golden: "1", Actual: "2"},
			{Column: "x", First: 3, Last: 3, Cells: 1, Golden: "1", Actual: "2"},
			{Column: "x", First: 4, Last: 5, Cells: 2, Golden: "1", Actual: "3"},
			{Column: "y", First: 1, Last: 2, Cells: 2, Golden: "a", Actual: "b"},
			{Column: "y", First: 3, Last: 3, Cells: 1, Golden: "a", Actual: "c"},
		}))
		Expect(runs[0].String()).To(Equal("ticks 0-1 (2 cells): 1 → 2"))
		Expect(runs[1].String()).To(Equal("tick 3: 1 → 2"))
	})

	It("writes counts with thousands separators", func() {
		header := "tick,x"
		gl, al := []string{header}, []string{header}
		for t := range 1234 {
			gl = append(gl, strconv.Itoa(t)+",1")
			al = append(al, strconv.Itoa(t)+",2")
		}
		d := diff(lines(gl...), lines(al...))
		Expect(d.Summary()).To(Equal("1,234 cells changed in 1 column, ticks 0-1233; 0 added, 0 removed"))
		Expect(d.Runs()).To(HaveLen(1))
	})

	DescribeTable("refuses a malformed file, saying which",
		func(golden, actual []byte, want string) {
			_, err := dense.Diff(golden, actual)
			var fe *dense.FormatError
			Expect(errors.As(err, &fe)).To(BeTrue(), "%v", err)
			Expect(err).To(MatchError(want))
		},
		Entry("an empty golden", []byte{}, golden, "golden: dense: malformed golden at line 1: missing header"),
		Entry("an actual without its final newline", golden, golden[:len(golden)-1], "actual: dense: malformed golden at line 5: missing newline at end of file"),
		Entry("a short row", lines("tick,x", "0,1", "1"), golden, "golden: dense: malformed golden at line 3, column 2: wrong number of fields: got 1, want 2"),
		Entry("a tick that is not an integer", lines("tick,x", "zero,1"), golden, `golden: dense: malformed golden at line 2, column 1: tick "zero" is not an integer`),
		Entry("ticks out of order", lines("tick,x", "1,1", "1,1"), golden, "golden: dense: malformed golden at line 3, column 1: tick 1 does not follow tick 1"),
		Entry("a repeated column", lines("tick,x,y,x", "0,1,2,3"), golden, `golden: dense: malformed golden at line 1, column 4: duplicate column name "x"`),
		Entry("a first column that is not tick", lines("t,x", "0,1"), golden, `golden: dense: malformed golden at line 1, column 1: first column must be named "tick"`),
	)
})
