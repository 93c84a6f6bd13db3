package report

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder/verdict"
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
// the repository root, to which Go file locations are made relative. A
// rung's testcase is placed on the fixture line of its first problem (the
// expectation or case that failed), as failures.json places it. late are
// problems found after the specs ran (the determinism rerun): each fails
// its run's testcase, a passing one included, so junit counts what the
// summary counts; those of no rung, the closing report's failed steps,
// fail one testcase of the harness suite (closingCase).
func NewJUnit(r types.Report, root string, late ...verdict.Problem) JUnit {
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
		state, message := s.State, s.Failure.Message
		for _, p := range lateFor(s, late) {
			if !state.Is(types.SpecStateFailureStates) {
				state, message = types.SpecStateFailed, ""
			}
			message = strings.TrimPrefix(message+"\n"+p.Message, "\n")
		}
		if line := problemLine(s); line > 0 && state.Is(types.SpecStateFailureStates) {
			c.Line = line
		}
		text := message
		if loc := s.Failure.Location; loc.FileName != "" {
			text += fmt.Sprintf("\n%s:%d", relative(abs, loc.FileName), loc.LineNumber)
		}
		problem := &JUnitProblem{Message: firstLine(message), Type: state.String(), Text: text}
		switch {
		case state.Is(types.SpecStateFailed):
			c.Failure = problem
			js.Failures++
		case state.Is(types.SpecStateFailureStates):
			c.Error = problem
			js.Errors++
		case state.Is(types.SpecStateSkipped | types.SpecStatePending):
			c.Skipped = &JUnitProblem{Message: firstLine(s.Failure.Message)}
			js.Skipped++
		}
		js.Tests++
		js.Time += c.Time
		js.Cases = append(js.Cases, c)
	}
	if c, ok := closingCase(late); ok {
		js := bySuite[harness]
		if js == nil {
			js = &JUnitSuite{Name: harness}
			bySuite[harness] = js
		}
		js.Cases = append(js.Cases, c)
		js.Tests++
		js.Failures++
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

// ClosingNode is the text of the suite's closing report node, whose steps
// (the triage page, the determinism rerun, the seal summary) run after
// every spec: it is no spec, so Ginkgo's report holds no testcase for it.
const ClosingNode = "ladder summary"

// closingCase is the testcase of the closing report's failed steps: the
// late problems of no rung (Check "harness"), all in one failure. A step
// that fails then fails junit.xml too, where a CI reads the verdict —
// not only the exit status, beside a count of rungs that all passed.
func closingCase(late []verdict.Problem) (JUnitCase, bool) {
	var lines []string
	for _, p := range late {
		if p.Rung == "" {
			lines = append(lines, p.Message)
		}
	}
	if len(lines) == 0 {
		return JUnitCase{}, false
	}
	text := strings.Join(lines, "\n")
	return JUnitCase{Name: ClosingNode, Classname: harness, Failure: &JUnitProblem{Message: firstLine(text), Type: types.SpecStateFailed.String(), Text: text}}, true
}

// problemsOf decodes a rung spec's problems (its FailureEntry entries),
// in its order; an entry that does not decode is left out.
func problemsOf(s types.SpecReport) []verdict.Problem {
	var out []verdict.Problem
	for _, e := range s.ReportEntries {
		var p verdict.Problem
		if e.Name == FailureEntry && Decode(e, &p) == nil {
			out = append(out, p)
		}
	}
	return out
}

// problemLine is the fixture line a failed rung's testcase is placed on:
// that of its first problem located inside the fixture (the expectation
// or field that failed), else its first problem's — the root and drift
// lines, like the goldens', are located on the rung or case itself.
func problemLine(s types.SpecReport) int {
	ps := problemsOf(s)
	for _, p := range ps {
		if p.Line > 0 && p.Line != s.LeafNodeLocation.LineNumber {
			return p.Line
		}
	}
	if len(ps) > 0 {
		return ps[0].Line
	}
	return 0
}

// RunName is the run a rung spec is of: its text's first word (a spec is
// named "<rung>[/<case>] <title>").
func RunName(s types.SpecReport) string {
	name, _, _ := strings.Cut(s.LeafNodeText, " ")
	return name
}

// lateFor returns the late problems about a rung spec's run.
func lateFor(s types.SpecReport, late []verdict.Problem) []verdict.Problem {
	if tierOf(s) == harness {
		return nil
	}
	var out []verdict.Problem
	for _, p := range late {
		if name := p.Rung + strings.TrimSuffix("/"+p.Case, "/"); name == RunName(s) {
			out = append(out, p)
		}
	}
	return out
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
