package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/pageinput"
	"github.com/chronicle/ladder/ladder/regen"
	"github.com/chronicle/ladder/ladder/runfiles"
	"github.com/chronicle/ladder/ladder/whynot"
)

// whyNot answers why an NPC does not hold a claim at a tick — or why it
// does — from a run's written files (package ladder/whynot): the last
// ladder run's under reports/, any directory laid out like it (a CI
// artifact), or the committed goldens. It never runs the fixture.
func whyNot(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("why-not", flag.ContinueOnError)
	fl.SetOutput(stderr)
	name := fl.String("rung", "", "rung, rung/case, or a sweep's seed world (T2.8/seed-19)")
	npc := fl.String("npc", "", "the NPC")
	claim := fl.String("claim", "", "the claim id")
	at := fl.Int64("at", -1, "tick to answer as of (default: the run's last tick)")
	var src runfiles.Source
	addSourceFlags(fl, &src)
	asJSON := fl.Bool("json", false, "write the answer as JSON")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *name == "" || *npc == "" || *claim == "" || fl.NArg() > 0 {
		return errors.New("usage: ladder why-not -rung R -npc X -claim C [-at T] [-reports DIR | -golden | -golden-at COMMIT] [-json]")
	}
	if err := src.Check(); err != nil {
		return fmt.Errorf("why-not: %w", err)
	}
	f, err := runFixture(*name)
	if err != nil {
		return err
	}
	run, err := openWhyNot(f, src)
	if err != nil {
		return fmt.Errorf("why-not: %w", err)
	}
	tick := *at
	if tick < 0 {
		_, tick = run.Ticks()
	}
	a, err := run.Explain(*npc, *claim, tick)
	if err != nil {
		return err
	}
	if *asJSON {
		return a.WriteJSON(stdout)
	}
	return a.WriteText(stdout)
}

// runFixture is the fixture of a run name: a rung, a case, or a sweep's
// seed world ("T2.8/seed-19", run by the sweep's spec into its reports).
// An unknown name is answered with the closest one.
func runFixture(name string) (*fixture.Fixture, error) {
	all, err := regen.Select(".", nil)
	if err != nil {
		return nil, err
	}
	rung, rest, _ := strings.Cut(name, "/")
	var names []string
	for _, f := range all {
		switch {
		case f.Name() == name:
			if f.Sweep != nil {
				return nil, fmt.Errorf("why-not: %s is a sweep: it keeps no trace of its own, only its seed world does (-rung %s/seed-N, under %s/%s/)", name, name, reportsDir(), name)
			}
			return f, nil
		case f.Rung == rung && f.Sweep != nil && strings.HasPrefix(rest, "seed-"):
			var seed int
			if _, err := fmt.Sscanf(rest, "seed-%d", &seed); err != nil {
				return nil, fmt.Errorf("why-not: %q: want %s/seed-N for a seed world of %s", name, rung, rung)
			}
			return pageinput.SeedWorld(f, seed)
		}
		names = append(names, f.Name())
	}
	return nil, fmt.Errorf("why-not: no rung or case %q%s", name, fixture.Suggest(name, names))
}

// openWhyNot indexes f's run where src finds its files (package
// ladder/runfiles): its trace and dense file, and its event log when the
// run kept one (goldens keep none).
func openWhyNot(f *fixture.Fixture, src runfiles.Source) (*whynot.Run, error) {
	run, err := runfiles.Locate(f, src, reportsDir())
	if err != nil {
		return nil, err
	}
	var files whynot.Files
	for _, a := range []struct {
		file string
		into *io.Reader
	}{{runfiles.TraceFile, &files.Trace}, {runfiles.DenseFile, &files.Dense}, {runfiles.EventsFile, &files.Events}} {
		if a.file == runfiles.EventsFile && (src.Golden || src.GoldenAt != "") {
			continue
		}
		r, err := run.Open(a.file)
		if a.file == runfiles.EventsFile && errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		defer r.Close()
		*a.into = r
	}
	return whynot.Read(f.Name(), run.Where, files, whynot.WorldOf(f))
}
