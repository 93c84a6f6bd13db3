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
	in := page.Input{
		Name: f.Name(), Title: f.Title, Source: fmt.Sprintf("%s:%d", f.File, f.Pos.Line), Failures: failures,
		TraceFile: "reports/" + f.Name() + "/" + TraceFile,
	}
	if f.Sweep != nil {
		// A sweep is many runs summarised: the page shows its failures and
		// where its aggregates are, whatever res is.
		in.Notes = append(in.Notes, fmt.Sprintf("A sweep writes per-seed aggregates (reports/%s/%s) and their summary (%s), not a dense file or a trace: there is no tick to scrub through.",
			f.Name(), AggregatesFile, SummaryFile))
		return in
	}
	if res == nil {
		in.Notes = append(in.Notes, "The run did not complete, so there is nothing to scrub through: the failure above says why.")
		return in
	}
	in.Dense, in.Trace, in.Engine = page.Path(res.Path(DenseFile)), page.Path(res.Path(TraceFile)), res.Engine
	dir := filepath.Join(root, filepath.FromSlash(f.GoldenDir()))
	golden := func(name string) page.Artifact {
		path := filepath.Join(dir, name)
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
