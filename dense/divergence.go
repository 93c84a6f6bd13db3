package dense

import (
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Missing stands for a row or field that one side does not have.
const Missing = "<missing>"

// DivergenceKind says what sort of difference a Divergence describes.
type DivergenceKind uint8

const (
	// KindCell means a field of a data row differs, or is absent on one side.
	KindCell DivergenceKind = iota
	// KindHeader means a column name differs, or is absent on one side.
	KindHeader
	// KindMissingRows means actual ends at a row boundary before the golden
	// does.
	KindMissingRows
	// KindExtraRows means actual goes on after the golden's last row.
	KindExtraRows
	// KindSyntax means the records hold the same values but are written
	// differently (quoting, or a record's final newline). Golden and Actual
	// then hold raw text from the first differing field to the record's end,
	// at most 64 bytes of it.
	KindSyntax
)

var kindNames = [...]string{"cell", "header", "missing rows", "extra rows", "syntax"}

// String returns the kind's name, such as "missing rows".
func (k DivergenceKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("DivergenceKind(%d)", uint8(k))
}

// Divergence locates the first difference between a golden and an actual
// dense file.
type Divergence struct {
	Line   int    // 1-based record number in the golden where the first difference is
	Tick   string // first field of that row ("" when the divergence is in the header)
	Column string // header name of the first differing field ("" when it lies beyond the header)
	Index  int    // 0-based column index
	// Golden and Actual are the differing field values as written (unquoted),
	// or Missing when a row or field is absent. A field of actual that does
	// not parse is given raw, up to the end of its line (at most 64 bytes).
	Golden, Actual string
	Kind           DivergenceKind
	// Rows counts the golden rows actual lacks (KindMissingRows) or the extra
	// rows actual has (KindExtraRows).
	Rows int
}

// String describes d in one sentence without its line number (callers add
// file names and lines), calling the two sides golden and actual. A cell
// divergence reads
//
//	first divergence at tick 4, column "w1/theft-1/verbatim": golden 0.557396, actual 999.0
//
// Values are shown bare when that is unambiguous and quoted otherwise (an
// empty field shows as ""); column numbers in the sentences count from 1.
func (d Divergence) String() string { return d.Describe("golden", "actual") }

// Describe is String with the two sides named a (the first file given to
// Compare) and b: two runs of the same code are "run 1" and "run 2", not
// golden and actual.
func (d Divergence) Describe(a, b string) string {
	switch d.Kind {
	case KindHeader:
		return fmt.Sprintf("header differs at column %d: %s %s, %s %s", d.Index+1, a, quoted(d.Golden), b, quoted(d.Actual))
	case KindMissingRows:
		rows := "rows"
		if d.Rows == 1 {
			rows = "row"
		}
		return fmt.Sprintf("%s ends before tick %s (%s has %d more %s)", b, shown(d.Tick), a, d.Rows, rows)
	case KindExtraRows:
		return b + " has extra rows from tick " + shown(d.Tick)
	case KindSyntax:
		return fmt.Sprintf("%s: same values written differently: %s %s, %s %s", d.where(), a, quoted(d.Golden), b, quoted(d.Actual))
	default:
		return fmt.Sprintf("%s: %s %s, %s %s", d.where(), a, shown(d.Golden), b, shown(d.Actual))
	}
}

// where names the divergence's position: its header column, or its tick and
// column.
func (d Divergence) where() string {
	if d.Line == 1 {
		return "header differs at column " + strconv.Itoa(d.Index+1)
	}
	column := strconv.Quote(d.Column)
	if d.Column == "" {
		column = strconv.Itoa(d.Index + 1)
	}
	return "first divergence at tick " + shown(d.Tick) + ", column " + column
}

// quoted returns s quoted, or Missing as it is.
func quoted(s string) string {
	if s == Missing {
		return s
	}
	return strconv.Quote(s)
}

// shown returns s bare when it is non-empty printable text without spaces,
// quotes or commas, and quoted otherwise.
func shown(s string) string {
	if s == "" {
		return `""`
	}
	for _, r := range s {
		if r == utf8.RuneError || r == '"' || r == ',' || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}
