package ladder_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/chronicle/ladder/dense"
	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/report"
	"github.com/chronicle/ladder/ladder/triage"
	"github.com/chronicle/ladder/ladder/verdict"
)

// rerunBudget bounds the determinism rerun: a run of more NPC-ticks (cast
// × ticks) than this is not rerun, so a city-sized rung costs its spec
// once. Every committed rung is far below it (the largest, T2.5, is
// 14,520); a 1,000-NPC town of 720 ticks is 720,000.
const rerunBudget = 100_000

// determinismRerun is the determinism check: after the last spec, every
// rung and case that ran (within rerunBudget) is run once more in this
// process, into a temporary directory, and must write the same dense.csv
// and trace.jsonl as its spec did, compared in chunks: a difference is
// state leaking from one world into the next, a determinism bug. It
// returns each difference as a problem of the run it concerns (check
// "determinism", naming the first record that differs and how), which the
// closing report counts as that run failing and files under it in
// junit.xml and failures.json; harness is what stopped the check itself.
// The triage page does not need it (it reads what the specs wrote).
// LADDER_PAGE=off skips it with the page: the matrix's legs compare
// goldens, and under an emulator a second run doubles each leg's time.
func determinismRerun(r Report) (runs []verdict.Problem, harness []string) {
	if os.Getenv("LADDER_PAGE") == "off" {
		return nil, nil
	}
	files, err := fixture.Discover(filepath.Join(root, "fixtures"), "fixtures")
	if err != nil {
		return nil, []string{fmt.Sprintf("determinism rerun: %v", err)}
	}
	tmp, err := os.MkdirTemp("", "ladder-rerun-")
	if err != nil {
		return nil, []string{fmt.Sprintf("determinism rerun: %v", err)}
	}
	defer os.RemoveAll(tmp)
	specs := report.RungSpecs(r)
	var skipped, hung []string
	rerun := 0
	for _, file := range files {
		for _, f := range file.Fixtures {
			spec, ok := specs[f.Name()+" "+f.Title]
			if !ok || f.Sweep != nil {
				continue // a sweep keeps no artifact per seed to compare
			}
			if stalled(spec) {
				hung = append(hung, f.Name()) // it would hang again, and wrote nothing to compare with
				continue
			}
			if cost := int64(len(f.Cast)) * f.Ticks; cost > rerunBudget {
				skipped = append(skipped, fmt.Sprintf("%s (%d NPC-ticks)", f.Name(), cost))
				continue
			}
			res, err := ladder.Run(f, ladder.Options{Dir: filepath.Join(tmp, filepath.FromSlash(f.Name())), Stall: stall})
			if err != nil && res == nil {
				runs = append(runs, rerunProblem(f, -1, fmt.Sprintf("the determinism rerun could not run: %v", err)))
				continue
			}
			rerun++
			if p, ok := sameAsJudged(f, filepath.Join(reports, filepath.FromSlash(f.Name())), res, err); !ok {
				runs = append(runs, p)
			}
		}
	}
	line := fmt.Sprintf("determinism rerun: %d runs made again in this process, %d differ", rerun, len(runs))
	if len(skipped) > 0 {
		line += fmt.Sprintf("; not rerun, over the budget of %d NPC-ticks: %s", rerunBudget, strings.Join(skipped, ", "))
	}
	if len(hung) > 0 {
		line += fmt.Sprintf("; not rerun, given up as hung: %s", strings.Join(hung, ", "))
	}
	fmt.Fprintln(os.Stdout, line)
	return runs, nil
}

// stalled reports whether a rung's spec gave its run up as hung.
func stalled(s types.SpecReport) bool {
	return slices.ContainsFunc(s.ReportEntries, func(e types.ReportEntry) bool { return e.Name == StalledEntry })
}

// rerunProblem is a determinism problem of f's run.
func rerunProblem(f *fixture.Fixture, tick int64, text string) verdict.Problem {
	p := verdict.Problem{Rung: f.Rung, Case: f.Case, Check: "determinism", Tick: tick, File: f.File, Line: f.Pos.Line,
		Message: fmt.Sprintf("%s determinism: %s (reproduce: make ladder)", f.Name(), text)}
	p.Link = p.PageLink()
	return p
}

// sameAsJudged compares a rerun's trace and dense file with the ones the
// rung's spec wrote in judged (its directory under the run's reports
// directory, reports/ or LADDER_REPORTS), in chunks, and names the first
// thing that differs. When the traces differ it aligns them (package
// triage) and names the first record that differs and how — a record
// renamed is the signature of an id drawn from a counter or an order
// shared between worlds — or, where they agree record for record (a
// header, a spelling), their first divergent line; when only the dense
// files differ, their first divergent tick and column. A file one of the
// two runs did not write is said in words, and stopped, when the rerun
// stopped part way, says why.
func sameAsJudged(f *fixture.Fixture, judged string, res *ladder.Result, stopped error) (verdict.Problem, bool) {
	name := f.Name()
	for _, file := range []string{artifact.TraceFile, artifact.DenseFile} {
		spec, again := filepath.Join(judged, file), res.Path(file)
		inSpec, err := exists(spec)
		if err != nil {
			return rerunProblem(f, -1, fmt.Sprintf("the determinism rerun could not compare with reports/%s/%s: %v", name, file, err)), false
		}
		inRerun, err := exists(again)
		if err != nil {
			return rerunProblem(f, -1, fmt.Sprintf("the determinism rerun could not read its own %s: %v", file, err)), false
		}
		var text string
		tick, class := int64(-1), ""
		switch {
		case !inSpec && !inRerun:
			text = fmt.Sprintf("neither the spec's run nor a second run in the same process wrote %s: nothing to compare", file)
		case !inSpec:
			text = fmt.Sprintf("the spec's run wrote no %s (it stopped before writing it) and a second run in the same process did: the engine is not deterministic", file)
		case !inRerun:
			text = fmt.Sprintf("a second run in the same process wrote no %s (it stopped before writing it) and the spec's run did: the engine is not deterministic", file)
		default:
			same, err := artifact.Same(spec, again)
			if err != nil {
				return rerunProblem(f, -1, fmt.Sprintf("the determinism rerun could not compare with reports/%s/%s: %v", name, file, err)), false
			}
			if same {
				continue
			}
			text = fmt.Sprintf("a second run in the same process wrote a different %s than the spec did: the engine is not deterministic", file)
			var first string
			if file == artifact.TraceFile {
				first, tick, class = traceDifference(spec, again)
			} else {
				first, tick, class = denseDifference(spec, again)
			}
			text += "; " + first
		}
		if stopped != nil {
			text += fmt.Sprintf("; the rerun stopped part way: %v", stopped)
		}
		if inSpec {
			text += fmt.Sprintf(" (compare reports/%s/%s with a rerun)", name, file)
		}
		p := rerunProblem(f, tick, text)
		p.Class = class
		return p, false
	}
	return verdict.Problem{}, true
}

// traceDifference names the first record of the spec's trace that the
// rerun's does not hold alike, with its tick and the run's drift class,
// from the two traces aligned; where they agree record for record, it is
// the first divergent line (the header, a spelling), with no class.
func traceDifference(spec, rerun string) (text string, tick int64, class string) {
	rep, err := triage.AlignFiles(spec, rerun)
	if err == nil && rep.Earliest != nil {
		return rep.SummaryAs("spec", "rerun"), rep.Earliest.Tick, rep.Class().String()
	}
	d, err := artifact.CompareTraceFiles(spec, rerun)
	switch {
	case err != nil:
		return "the traces could not be read to say where: " + err.Error(), -1, ""
	case d == nil:
		return "the traces' bytes differ", -1, "" // Same saw a difference the comparison does not: a file changed between the two reads
	case d.Line == 1:
		return d.Describe("spec", "rerun"), -1, "" // the header: at no tick
	}
	return d.Describe("spec", "rerun"), d.Tick, ""
}

// denseDifference names the dense files' first divergent tick and column.
// The traces are the same bytes, so no decision moved: a value derived at
// read time did, which the ladder calls value drift.
func denseDifference(spec, rerun string) (text string, tick int64, class string) {
	d, err := dense.CompareFiles(spec, rerun)
	switch {
	case err != nil:
		return "the dense files could not be read to say where: " + err.Error(), -1, ""
	case d == nil:
		return "the dense files' bytes differ", -1, ""
	}
	tick, err = strconv.ParseInt(d.Tick, 10, 64)
	if err != nil {
		tick = -1 // the header differs: no tick
	}
	return d.Describe("spec", "rerun"), tick, triage.ValueDrift.String()
}

// exists reports whether path exists; an error other than its absence is
// returned.
func exists(path string) (bool, error) {
	_, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}
