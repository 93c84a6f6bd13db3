package pageinput

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/coverage"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/page"
	"github.com/chronicle/ladder/ladder/sweep"
	"github.com/chronicle/ladder/ladder/sweeprun"
	"github.com/chronicle/ladder/ladder/verdict"
	"github.com/chronicle/ladder/ladder/whynot"
)

// PageInput gathers what the triage page (package page) shows for one run
// of a fixture: the run's artifacts (its trace holds the variant tree,
// contests and evidence), the goldens under root (the repository root) for
// the overlays, and the failure lines the gate printed for it. res is nil
// for a run that did not complete; its section then shows the failure
// lines alone.
func PageInput(root string, f *fixture.Fixture, res *ladder.Result, failures []string) page.Input {
	if res == nil || f.Sweep != nil {
		return pageInput(root, f, "", failures)
	}
	return pageInput(root, f, res.Dir, failures)
}

// ReportedPageInputs is PageInput for a run the suite made, from what its
// spec left under reports (reports/<rung>/): the artifacts the run wrote.
// The page is built from them alone, never from a second run. A run
// without a trace.jsonl did not complete (a run writes its artifacts
// whole, even one an error cut short). A case that is a counterfactual
// of another run is compared with that run when it ran too. A sweep's
// input carries its summary, and is followed by the input of the seed
// whose world its spec kept (RunSeedWorld), an ordinary section.
func ReportedPageInputs(root, reports string, f *fixture.Fixture, failures []string) []page.Input {
	if f.Sweep != nil {
		return sweepInputs(root, reports, f, failures)
	}
	in := reported(root, reports, f, failures)
	if other := f.CounterfactualOf; other != "" && in.Trace != nil {
		dir := filepath.Join(reports, filepath.FromSlash(other))
		if written(dir) {
			in.Partners = append(in.Partners, page.Partner{Name: other,
				Dense: page.Path(filepath.Join(dir, artifact.DenseFile)), Trace: page.Path(filepath.Join(dir, artifact.TraceFile))})
		}
	}
	return []page.Input{in}
}

// written reports whether a run left its artifacts in dir: its trace.jsonl
// and dense.csv, which the run writes whole when it ends, however it ends.
func written(dir string) bool {
	for _, name := range []string{artifact.TraceFile, artifact.DenseFile} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || !fi.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// reported is one run's input from its directory under reports.
func reported(root, reports string, f *fixture.Fixture, failures []string) page.Input {
	dir := filepath.Join(reports, filepath.FromSlash(f.Name()))
	if !written(dir) {
		return pageInput(root, f, "", failures)
	}
	return pageInput(root, f, dir, failures)
}

// pageInput is the page's input for the run whose artifacts are in dir;
// dir "" is a run that did not complete.
func pageInput(root string, f *fixture.Fixture, dir string, failures []string) page.Input {
	in := page.Input{
		Name: f.Name(), Tier: f.Tier, Title: f.Title, Source: fmt.Sprintf("%s:%d", f.File, f.Pos.Line), Failures: failures,
		Commands:  verdict.Commands(f),
		TraceFile: "reports/" + f.Name() + "/" + artifact.TraceFile,
	}
	for _, l := range f.Locations {
		loc := page.Location{ID: l.ID, Hold: l.Hold}
		if xy, ok := f.XY[l.ID]; ok {
			loc.XY = &xy
		}
		in.Locations = append(in.Locations, loc)
	}
	if f.Sweep != nil {
		// A sweep is many runs summarised: its section shows the bounds and
		// each seed's aggregates (sweepInputs), not a tick to scrub through.
		in.Locations = nil
		return in
	}
	if dir == "" {
		in.Notes = append(in.Notes, "The run did not complete, so there is nothing to scrub through: the failure above says why.")
		return in
	}
	in.Dense, in.Trace = page.Path(filepath.Join(dir, artifact.DenseFile)), page.Path(filepath.Join(dir, artifact.TraceFile))
	world := whynot.WorldOf(f)
	in.WhyNot = &world
	if _, err := os.Stat(filepath.Join(dir, artifact.EventsFile)); err == nil {
		in.Events = page.Path(filepath.Join(dir, artifact.EventsFile))
	}
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
	in.GoldenDense, in.GoldenTrace = golden(artifact.DenseFile), golden(artifact.TraceFile)
	return in
}

// sweepInputs is a sweep's section input, with its summary and
// aggregates, and the section of the seed world its spec kept.
func sweepInputs(root, reports string, f *fixture.Fixture, failures []string) []page.Input {
	in := pageInput(root, f, "", failures)
	dir := filepath.Join(reports, filepath.FromSlash(f.Name()))
	if _, err := os.Stat(filepath.Join(dir, artifact.SummaryFile)); err != nil {
		in.Notes = append(in.Notes, "The sweep did not complete, so there is no summary to show: the failure above says why.")
		return []page.Input{in}
	}
	in.Sweep = &page.SweepInput{Summary: page.Path(filepath.Join(dir, artifact.SummaryFile)), Aggregates: page.Path(filepath.Join(dir, artifact.AggregatesFile)), Seed: -1}
	out := []page.Input{in}
	if seed, ok := keptSeed(dir); ok {
		sf, err := SeedWorld(f, seed)
		if err != nil {
			out[0].Notes = append(out[0].Notes, fmt.Sprintf("Seed %d's world cannot be shown: %v.", seed, err))
			return out
		}
		in.Sweep.SeedWorld, in.Sweep.Seed = sf.Name(), seed
		w := reported(root, reports, sf, nil)
		w.MaxRecords = seedWorldRecords
		w.Notes = append(w.Notes, fmt.Sprintf("Seed %s of the sweep %s, run once more with its trace kept: an ordinary run, with no goldens of its own.", sf.SeedID, f.Name()))
		out = append(out, w)
	}
	return out
}

// seedWorldRecords caps the feed a seed world's section embeds: it is
// there for a look around a city of a thousand, not to triage a failure,
// and a quarter of a failing rung's cap keeps the page small.
const seedWorldRecords = page.DefaultMaxRecords / 4

// seedDir is where a sweep's kept seed world goes, under the sweep's own
// reports directory: reports/T2.8/seed-17/.
func seedDir(seed int) string { return "seed-" + strconv.Itoa(seed) }

// keptSeed finds the seed world a sweep's spec kept in dir.
func keptSeed(dir string) (int, bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, false
	}
	for _, e := range entries {
		var n int
		if _, err := fmt.Sscanf(e.Name(), "seed-%d", &n); err == nil && e.IsDir() && seedDir(n) == e.Name() {
			if written(filepath.Join(dir, e.Name())) {
				return n, true
			}
		}
	}
	return 0, false
}

// SeedWorld is seed i of a sweep as an ordinary run: the same towns
// (sweep.Towns) under the seed's own seed id, for as many ticks as the
// sweep measures, with no expectations. It is named "<rung>/seed-<i>"
// and has no goldens: it is there to be looked at.
func SeedWorld(f *fixture.Fixture, i int) (*fixture.Fixture, error) {
	s := f.Sweep
	if s == nil || i < 0 || i >= s.Seeds {
		return nil, fmt.Errorf("%s has no seed %d", f.Name(), i)
	}
	cfg, err := sweep.Towns(f.WorldConfig(), s.Towns)
	if err != nil {
		return nil, err
	}
	w := *f
	w.Sweep, w.Case, w.Cases = nil, seedDir(i), nil
	w.Title = fmt.Sprintf("%s — seed %d's world", f.Title, i)
	w.SeedID, w.Ticks = sweeprun.SeedID(f, i), s.At[len(s.At)-1]+1
	w.Locations, w.Cast, w.Injections, w.XY = cfg.Locations, cfg.Cast, cfg.Injections, nil
	w.InjectionPos = make([]fixture.Pos, len(w.Injections))
	w.Expect, w.Checkpoints, w.ComparedBy, w.CounterfactualOf = nil, fixture.Checkpoints{}, nil, ""
	return &w, nil
}

// RunSeedWorld runs, after a sweep, the world of its seed of interest
// (page.SeedOfInterest: the seed farthest from the pilot on the first
// bound that does not hold, else on the first bound) into
// <res.Dir>/seed-<i>/ with its artifacts, so the page can open it as an
// ordinary section: one seed's run, bounded by the sweep's towns and
// ticks. It returns the seed, -1 when the sweep has no bound.
func RunSeedWorld(res *ladder.Result) (int, error) {
	f := res.Fixture
	v, err := page.BuildSweep(&page.SweepInput{Summary: page.Path(res.Path(artifact.SummaryFile)), Aggregates: page.Path(res.Path(artifact.AggregatesFile))})
	if err != nil {
		return -1, err
	}
	seed, _ := page.SeedOfInterest(v)
	if seed < 0 {
		return -1, nil
	}
	w, err := SeedWorld(f, seed)
	if err != nil {
		return -1, err
	}
	out, err := ladder.Run(w, ladder.Options{Dir: filepath.Join(res.Dir, seedDir(seed))})
	if err != nil {
		return -1, err
	}
	// A seed's world is there to be looked at, not a run of the ladder:
	// the rule-regime coverage does not meter it.
	if err := os.Remove(out.Path(coverage.RunFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return -1, err
	}
	return seed, nil
}
