package ladder

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/page"
)

// PageInput gathers what the triage page (package page) shows for one run
// of a fixture: the run's artifacts and engine data, the goldens under
// root (the repository root) for the overlays, and the failure lines the
// gate printed for it. res is nil for a run that did not complete; its
// section then shows the failure lines alone.
func PageInput(root string, f *fixture.Fixture, res *Result, failures []string) page.Input {
	if res == nil || f.Sweep != nil {
		return pageInput(root, f, "", nil, failures)
	}
	return pageInput(root, f, res.Dir, res.Engine, failures)
}

// ReportedPageInput is PageInput for a run the suite made, from what its
// spec left in dir (reports/<rung>/): the artifacts and the engine data
// (page.EngineFile) the spec wrote after the run. The page is built from
// them alone, never from a second run. A dir without engine data is a
// run that did not complete.
func ReportedPageInput(root, dir string, f *fixture.Fixture, failures []string) page.Input {
	if f.Sweep != nil {
		return pageInput(root, f, "", nil, failures)
	}
	e, err := page.ReadEngine(filepath.Join(dir, page.EngineFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return pageInput(root, f, "", nil, failures)
	case err != nil:
		in := pageInput(root, f, "", nil, failures)
		in.Notes = append(in.Notes, fmt.Sprintf("The run's engine data could not be read, so there is nothing to scrub through: %v.", err))
		return in
	}
	return pageInput(root, f, dir, e, failures)
}

// SavePageEngine keeps what the page needs from the engine at the end of
// a run (page.Engine) beside the run's artifacts, for ReportedPageInput.
func SavePageEngine(res *Result) error {
	if res.Engine == nil {
		return nil // a sweep: no world to scrub through
	}
	return page.WriteEngine(res.Path(page.EngineFile), res.Engine)
}

// pageInput is the page's input for the run whose artifacts are in dir
// with engine data e; dir "" is a run that did not complete.
func pageInput(root string, f *fixture.Fixture, dir string, e *page.Engine, failures []string) page.Input {
	in := page.Input{
		Name: f.Name(), Title: f.Title, Source: fmt.Sprintf("%s:%d", f.File, f.Pos.Line), Failures: failures,
		Commands:  Commands(f),
		TraceFile: "reports/" + f.Name() + "/" + TraceFile,
	}
	if f.Sweep != nil {
		// A sweep is many runs summarised: the page shows its failures and
		// where its aggregates are, whatever res is.
		in.Notes = append(in.Notes, fmt.Sprintf("A sweep writes per-seed aggregates (reports/%s/%s) and their summary (%s), not a dense file or a trace: there is no tick to scrub through.",
			f.Name(), AggregatesFile, SummaryFile))
		return in
	}
	if dir == "" {
		in.Notes = append(in.Notes, "The run did not complete, so there is nothing to scrub through: the failure above says why.")
		return in
	}
	in.Dense, in.Trace, in.Engine = page.Path(filepath.Join(dir, DenseFile)), page.Path(filepath.Join(dir, TraceFile)), e
	goldens := filepath.Join(root, filepath.FromSlash(f.GoldenDir()))
	golden := func(name string) page.Artifact {
		path := filepath.Join(goldens, name)
		fi, err := os.Stat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			in.Notes = append(in.Notes, fmt.Sprintf("There is no golden %s/%s to compare with.", f.GoldenDir(), name))
		case err != nil:
			in.Notes = append(in.Notes, fmt.Sprintf("The golden %s/%s could not be read: %v.", f.GoldenDir(), name, err))
		case !fi.Mode().IsRegular():
			in.Notes = append(in.Notes, fmt.Sprintf("The golden %s/%s could not be read: it is not a file.", f.GoldenDir(), name))
		default:
			return page.Path(path)
		}
		return nil
	}
	in.GoldenDense, in.GoldenTrace = golden(DenseFile), golden(TraceFile)
	return in
}
