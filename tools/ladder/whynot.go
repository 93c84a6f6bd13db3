package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/regen"
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
	reports := fl.String("reports", "", "a directory laid out like reports/ to read the run from (default: "+reportsDir()+")")
	golden := fl.Bool("golden", false, "read the committed goldens (goldens/<rung>-<slug>[/<case>]/) instead of a run")
	asJSON := fl.Bool("json", false, "write the answer as JSON")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *name == "" || *npc == "" || *claim == "" || fl.NArg() > 0 {
		return errors.New("usage: ladder why-not -rung R -npc X -claim C [-at T] [-reports DIR | -golden] [-json]")
	}
	if *golden && *reports != "" {
		return errors.New("why-not: -golden and -reports name two places to read the run from: pick one")
	}
	f, err := runFixture(*name)
	if err != nil {
		return err
	}
	dir, err := runDir(f, *reports, *golden)
	if err != nil {
		return err
	}
	run, err := whynot.Open(f.Name(), dir, whynot.WorldOf(f))
	if err != nil {
		return err
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
			return ladder.SeedWorld(f, seed)
		}
		names = append(names, f.Name())
	}
	return nil, fmt.Errorf("why-not: no rung or case %q%s", name, fixture.Suggest(name, names))
}

// runDir is where a run's files are: under the reports directory, or its
// golden set.
func runDir(f *fixture.Fixture, reports string, golden bool) (string, error) {
	if golden {
		dir := filepath.FromSlash(f.GoldenDir())
		if _, err := os.Stat(filepath.Join(dir, whynot.TraceFile)); err != nil {
			return "", fmt.Errorf("why-not: %s has no golden trace (a seed world has no goldens; a new rung none yet): %w", f.Name(), err)
		}
		return dir, nil
	}
	if reports == "" {
		reports = reportsDir()
	}
	dir := filepath.Join(reports, filepath.FromSlash(f.Name()))
	if _, err := os.Stat(filepath.Join(dir, whynot.TraceFile)); errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("why-not: %s: %s holds no trace.jsonl: run `make ladder RUNG=%s` first, or read the goldens with -golden", f.Name(), dir, f.Rung)
	}
	return dir, nil
}
