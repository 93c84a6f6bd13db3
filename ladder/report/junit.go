package report

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"
)

// JUnit is a junit.xml document.
type JUnit struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     float64      `xml:"time,attr"`
	Suites   []JUnitSuite `xml:"testsuite"`
}

// JUnitSuite is one tier's testcases.
type JUnitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     float64     `xml:"time,attr"`
	Cases    []JUnitCase `xml:"testcase"`
}

// JUnitCase is one spec that ran.
type JUnitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr"`
	Line      int           `xml:"line,attr"`
	Time      float64       `xml:"time,attr"`
	Failure   *JUnitProblem `xml:"failure,omitempty"`
	Error     *JUnitProblem `xml:"error,omitempty"`
	Skipped   *JUnitProblem `xml:"skipped,omitempty"`
}

// JUnitProblem is a failure, error or skip: its first line as the message
// attribute, the whole text as content.
type JUnitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// harness is the suite name of specs that are not rungs.
const harness = "harness"

// Ran reports whether a spec ran: a spec a label filter, a focus or a
// shard left out is skipped without a message; one that called Skip has
// its reason.
func Ran(s types.SpecReport) bool {
	return s.LeafNodeType == types.NodeTypeIt && !(s.State == types.SpecStateSkipped && s.Failure.Message == "")
}

// tierOf returns a spec's tier label ("tier2"), or harness.
func tierOf(s types.SpecReport) string {
	for _, l := range s.Labels() {
		if strings.HasPrefix(l, "tier") {
			return l
		}
	}
	return harness
}

// NewJUnit builds the JUnit document of a run: specs grouped by tier,
// suites in tier order with the harness last, testcases by name. root is
// the repository root, to which Go file locations are made relative.
func NewJUnit(r types.Report, root string) JUnit {
	abs, _ := filepath.Abs(root)
	bySuite := map[string]*JUnitSuite{}
	for _, s := range r.SpecReports {
		if !Ran(s) {
			continue
		}
		tier := tierOf(s)
		js := bySuite[tier]
		if js == nil {
			js = &JUnitSuite{Name: tier}
			bySuite[tier] = js
		}
		c := JUnitCase{Name: s.FullText(), Classname: tier, File: relative(abs, s.LeafNodeLocation.FileName),
			Line: s.LeafNodeLocation.LineNumber, Time: s.RunTime.Seconds()}
		text := s.Failure.Message
		if loc := s.Failure.Location; loc.FileName != "" {
			text += fmt.Sprintf("\n%s:%d", relative(abs, loc.FileName), loc.LineNumber)
		}
		problem := &JUnitProblem{Message: firstLine(s.Failure.Message), Type: s.State.String(), Text: text}
		switch {
		case s.State.Is(types.SpecStateFailed):
			c.Failure = problem
			js.Failures++
		case s.State.Is(types.SpecStateFailureStates):
			c.Error = problem
			js.Errors++
		case s.State.Is(types.SpecStateSkipped | types.SpecStatePending):
			c.Skipped = &JUnitProblem{Message: firstLine(s.Failure.Message)}
			js.Skipped++
		}
		js.Tests++
		js.Time += c.Time
		js.Cases = append(js.Cases, c)
	}
	doc := JUnit{XMLName: xml.Name{Local: "testsuites"}, Name: r.SuiteDescription}
	for _, js := range bySuite {
		slices.SortFunc(js.Cases, func(a, b JUnitCase) int { return cmp.Compare(a.Name, b.Name) })
		doc.Suites = append(doc.Suites, *js)
	}
	sortSuites(doc.Suites)
	doc.total()
	return doc
}

// relative makes an absolute file name relative to the repository root
// (absRoot), in slash form; a fixture's location already is.
func relative(absRoot, file string) string {
	if rel, err := filepath.Rel(absRoot, file); err == nil && filepath.IsAbs(file) {
		return filepath.ToSlash(rel)
	}
	return file
}

// sortSuites orders suites by tier, the harness last.
func sortSuites(s []JUnitSuite) {
	slices.SortFunc(s, func(a, b JUnitSuite) int {
		return cmp.Or(cmp.Compare(boolInt(a.Name == harness), boolInt(b.Name == harness)), cmp.Compare(a.Name, b.Name))
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// total recomputes the document's counts from its suites.
func (j *JUnit) total() {
	j.Tests, j.Failures, j.Errors, j.Skipped, j.Time = 0, 0, 0, 0, 0
	for _, s := range j.Suites {
		j.Tests += s.Tests
		j.Failures += s.Failures
		j.Errors += s.Errors
		j.Skipped += s.Skipped
		j.Time += s.Time
	}
}

// Marshal writes the document with an XML header.
func (j JUnit) Marshal() ([]byte, error) {
	b, err := xml.MarshalIndent(j, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("write junit: %w", err)
	}
	return append(append([]byte(xml.Header), b...), '\n'), nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// ParseJUnit reads a junit.xml this package wrote.
func ParseJUnit(data []byte) (JUnit, error) {
	var j JUnit
	if err := xml.Unmarshal(data, &j); err != nil {
		return JUnit{}, fmt.Errorf("read junit: %w", err)
	}
	return j, nil
}
