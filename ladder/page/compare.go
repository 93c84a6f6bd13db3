package page

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"

	cmp "github.com/chronicle/ladder/ladder/compare"
	"github.com/chronicle/ladder/sim/trace"
)

// Partner is another run a section is compared with, beside its golden:
// a case and the run it is a counterfactual of, or any pair the page is
// asked to show. Its artifacts are read like the section's own.
type Partner struct {
	Name         string
	Dense, Trace Artifact
}

// Other is the second timeline of a comparison: the golden of a failing
// run, or a partner run, over the section's embedded ticks.
type Other struct {
	Name   string // "golden", or the partner run's name
	Tracks *Tracks
	Feed   []Record // its records within the section's feed window
	Cmp    *Comparison
}

// Comparison is what ladder compare says of two runs, as the page shows
// it: the drift named as the command line names it (value, threshold or
// control-flow drift, from the rolls aligned by key), the first divergent
// roll and belief set, and the first record where the traces part.
type Comparison struct {
	A, B    string // the runs, as ladder compare names them: the other first
	Verdict string // "" when the rolls were not compared (Skipped says why)
	Skipped string
	// Classes counts the rolls of each drift class, in ladder/compare's
	// order, with its name.
	Classes      []ClassCount
	Shared, Same int
	FirstRoll    *FirstRoll
	FirstBelief  *cmp.BeliefDivergence
	// FirstRecord is the first line where the two traces differ (nil when
	// they are identical or were not compared).
	FirstRecord *FirstRecord
}

// ClassCount is one drift class and how many rolls it has.
type ClassCount struct {
	Name  string
	Count int
}

// FirstRoll is the first roll that is not the same in both runs.
type FirstRoll struct {
	Tick       int64
	Key, Class string
	// A and B describe the roll in each run ("" when that run did not
	// roll it); SeqA and SeqB are the seq of the record that rolled it,
	// -1 when none.
	A, B       string
	SeqA, SeqB int64
}

// FirstRecord is the first trace line where two runs part.
type FirstRecord struct {
	Tick      int64
	Kind, Key string
	Seq       int64  // of the record in the section's own run, -1 when it has none there
	Text      string // ladder's one-line description
}

// DefaultMaxCompareBytes bounds the traces the page aligns roll by roll:
// every record of both runs is decoded, so a larger pair is left to the
// command line (ladder compare), and the section says so.
const DefaultMaxCompareBytes = 64 << 20

// compareRuns compares other's trace with the section's own.
func compareRuns(otherName string, other, own Artifact, ownName string, limit int64) (*Comparison, error) {
	c := &Comparison{A: otherName, B: ownName}
	d, err := compareTraces(other, own)
	if err != nil {
		return nil, err
	}
	note := ""
	if branchesOnly(d) {
		// Two timelines of one world (a case and the run it is a
		// counterfactual of): each has its own branch, so every line
		// differs by its branch key, from the header on, and every event
		// by its hash. Aligned with those left out, the first line that
		// differs is the first record that differs in what it says.
		aligned, ok, err := compareUnbranched(other, own, limit)
		if err != nil {
			return nil, err
		}
		if ok {
			d, note = aligned, " (branch keys aside: each run is its own timeline)"
		}
	}
	if d != nil {
		c.FirstRecord = &FirstRecord{Tick: d.Tick, Kind: d.Kind, Key: d.Key, Seq: seqOf(d), Text: d.Describe(otherName, ownName) + note}
	}
	for _, a := range []Artifact{other, own} {
		if n, ok := size(a); ok && n > limit {
			c.Skipped = fmt.Sprintf("the traces are larger than %d MB, so their rolls are not aligned here: run `go run ./tools/ladder compare` for the drift", limit>>20)
			return c, nil
		}
	}
	// An artifact that cannot be opened is an error; traces that cannot
	// be aligned (another seed) are a note on the comparison.
	var rep *cmp.Report
	var align error
	if err := both(other, own, func(ra, rb io.Reader) error {
		rep, align = cmp.Runs(cmp.Side{Name: otherName, Trace: ra}, cmp.Side{Name: ownName, Trace: rb}, cmp.Options{List: 1})
		return nil
	}); err != nil {
		return nil, err
	}
	if align != nil {
		c.Skipped = fmt.Sprintf("the rolls could not be aligned: %v", align)
		return c, nil
	}
	c.Verdict, c.Shared, c.Same, c.FirstBelief = rep.Verdict(), rep.Shared, rep.Same, rep.FirstBelief
	for _, k := range cmp.Drifts {
		c.Classes = append(c.Classes, ClassCount{Name: rep.ClassName(k), Count: rep.Classes[k].Count})
	}
	if f := rep.FirstRoll; f != nil {
		fr := &FirstRoll{Tick: f.Tick(), Key: f.Key(), Class: rep.ClassName(f.Drift), SeqA: -1, SeqB: -1}
		if f.A != nil {
			fr.A, fr.SeqA = f.A.Describe(), int64(f.A.Line-2)
		}
		if f.B != nil {
			fr.B, fr.SeqB = f.B.Describe(), int64(f.B.Line-2)
		}
		c.FirstRoll = fr
	}
	return c, nil
}

// branchesOnly reports whether two traces part only by their branch
// keys: the first line that differs differs in nothing else.
func branchesOnly(d *trace.Divergence) bool {
	return d != nil && d.Form() == trace.FormBranch
}

// branchKeys are what a version-3 trace's lines say of their branch: the
// header's list of branches, each record's branch, and an event's hash
// in the canonical log's chain, which is chained over its branch (the
// keys are sorted, and a later key always follows each).
var branchKeys = regexp.MustCompile(`"branches":\[[^\]]*\],|"branch":[0-9]+,|"hash":"[0-9a-f]{64}",`)

// compareUnbranched compares two traces with their branch keys left
// out, line for line, so each line keeps its number. Both are read
// whole: a pair larger than limit is not aligned (ok false).
func compareUnbranched(a, b Artifact, limit int64) (d *trace.Divergence, ok bool, err error) {
	var out [2][]byte
	for i, x := range []Artifact{a, b} {
		if n, known := size(x); !known || n > limit {
			return nil, false, nil
		}
		r, err := x.Open()
		if err != nil {
			return nil, false, err
		}
		raw, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			return nil, false, err
		}
		out[i] = branchKeys.ReplaceAll(raw, nil)
	}
	return trace.Compare(out[0], out[1]), true, nil
}

// seqOf reads the seq of the section's own record at a divergence (its
// line text), -1 when that side has no record there.
func seqOf(d *trace.Divergence) int64 {
	h, err := peek([]byte(d.Actual), interned{})
	if err != nil || d.Actual == "" || d.Actual[0] != '{' {
		return -1
	}
	return h.Seq
}

// size is an artifact's size, when it is known without reading it.
func size(a Artifact) (int64, bool) {
	switch a := a.(type) {
	case Path:
		fi, err := os.Stat(string(a))
		if err != nil {
			return 0, false
		}
		return fi.Size(), true
	case Data:
		return int64(len(a)), true
	}
	return 0, false
}

// otherFeed reads another run's feed records within the window.
func otherFeed(src Artifact, w Window, limit int) ([]Record, error) {
	var out []Record
	err := eachLine(src, func(h head, decode func() (*traceLine, error)) (bool, error) {
		switch {
		case h.Tick > w.To:
			return true, nil
		case h.Tick < w.From || !shown(h.Kind) || len(out) == limit:
			return false, nil
		}
		r, err := record(decode)
		out = append(out, r)
		return false, err
	})
	return out, err
}

// Dent is what a contest did to the winner's confidence: the
// variant-resolution evaluation's before and after, and its reason.
type Dent struct {
	Before, After, Reason string
}

// dentKey keys a contest by its tick and holder/claim.
func dentKey(tick int64, subject string) string { return strconv.FormatInt(tick, 10) + " " + subject }
