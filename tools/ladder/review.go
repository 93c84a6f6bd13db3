package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chronicle/ladder/dense"
	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/history"
	"github.com/chronicle/ladder/ladder/pending"
	"github.com/chronicle/ladder/ladder/record"
	"github.com/chronicle/ladder/ladder/regen"
	"github.com/chronicle/ladder/ladder/report"
	"github.com/chronicle/ladder/sim/trace"
	"github.com/chronicle/ladder/tolerances"
)

// reportsDir is where runs leave their evidence: LADDER_REPORTS, as the
// suite reads it, or reports/.
func reportsDir() string { return cmp.Or(os.Getenv("LADDER_REPORTS"), "reports") }

// readReports takes the reports directory dir shared, for a command that
// reads a run's reports (review, accept, reject, verify, page): a run
// holds it exclusively while it clears and writes it, so this fails at
// once, naming the run, instead of reading half of one run and half of
// another. The returned func releases it.
func readReports(dir string) (release func(), err error) {
	lock, err := report.LockShared(dir)
	if err != nil {
		return nil, err
	}
	return func() {
		if lock != nil {
			lock.Close()
		}
	}, nil
}

// review prints one block per pending change: where it first diverges,
// how far it goes (columns, cells, ticks; trace records by kind;
// checkpoints) and whether it can be accepted.
func review(args []string, stdout io.Writer) error {
	if p := regen.Interrupted("."); p != nil {
		fmt.Fprintf(stdout, "warning: %s\n\n", p.Advice())
	}
	release, err := readReports(reportsDir())
	if err != nil {
		return err
	}
	defer release()
	all, err := pending.List(reportsDir())
	if err != nil {
		return err
	}
	ms := all
	if len(args) > 0 {
		if ms, err = pending.Select(all, args); err != nil {
			return err
		}
	}
	if len(ms) == 0 {
		fmt.Fprintf(stdout, "nothing pending under %s/ (a ladder run leaves a pending change for each rung whose artifacts differ from its goldens)\n", reportsDir())
		return nil
	}
	code, err := pending.CodeHash(".")
	if err != nil {
		return err
	}
	repo, err := pending.OpenRepo(".")
	if err != nil {
		return err
	}
	acceptable := 0
	for _, m := range ms {
		ok, err := reviewOne(stdout, repo, m, code)
		if err != nil {
			return fmt.Errorf("review %s: %w", m.Name, err)
		}
		if ok {
			acceptable++
		}
	}
	fmt.Fprintf(stdout, "%d pending change(s): %d can be accepted, %d cannot\n", len(ms), acceptable, len(ms)-acceptable)
	return nil
}

func reviewOne(out io.Writer, repo *pending.Repo, m pending.Manifest, code string) (bool, error) {
	dir := filepath.Join(reportsDir(), filepath.FromSlash(m.Name))
	fmt.Fprintf(out, "%s %s — %s (fixture %s, code %s)\n", m.Name, m.State, m.Fixture, m.FixtureHash, m.CodeHash)
	for i, p := range m.Problems {
		label := "first:"
		if i > 0 {
			label = "then: "
		}
		fmt.Fprintf(out, "  %s %s\n", label, withoutCommands(p))
	}
	if m.Aborted != "" {
		fmt.Fprintf(out, "  aborted: %s\n", m.Aborted)
	}
	// Compared with the golden set the repository derives for the rung,
	// as accept would write it, not with the one pending.json names.
	var set string
	if f, err := repo.Fixture(m); err == nil {
		set = f.GoldenDir()
	}
	for _, name := range ladder.ArtifactOrder(slices.Collect(maps.Keys(m.Artifacts))) {
		if set == "" {
			break // the blockers below say why
		}
		actual := filepath.Join(dir, name)
		golden := filepath.Join(filepath.FromSlash(set), name)
		// As accept compares them: the manifest by what it seals, the
		// set's history aside.
		changes, err := regen.Changes(".", set, []string{name}, map[string]string{name: actual})
		switch {
		case err != nil:
			return false, err
		case len(changes) == 0:
			fmt.Fprintf(out, "  %s: unchanged\n", name)
			continue
		case changes[0].New:
			fmt.Fprintf(out, "  %s: new (%s)\n", name, size(name, actual))
			continue
		}
		if err := summarise(out, name, golden, actual); err != nil {
			return false, err
		}
	}
	blockers := repo.Blockers(reportsDir(), m, code)
	for _, b := range blockers {
		fmt.Fprintf(out, "  cannot be accepted: %s\n", b)
	}
	if len(blockers) == 0 {
		reason := ""
		if m.State == "changed" {
			reason = `-reason "…" `
		}
		fmt.Fprintf(out, "  accept: go run ./tools/ladder accept %s%s   reject: go run ./tools/ladder reject %s\n", reason, m.Name, m.Name)
	} else {
		fmt.Fprintf(out, "  rerun: make ladder RUNG=%s   reject: go run ./tools/ladder reject %s\n", m.Name, m.Name)
	}
	fmt.Fprintln(out)
	return len(blockers) == 0, nil
}

// withoutCommands drops the reproduce/regenerate suffix of a failure line.
func withoutCommands(line string) string {
	if i := strings.LastIndex(line, " (reproduce: "); i >= 0 {
		return line[:i]
	}
	return line
}

// size describes a new artifact by its extent, reading it a record or a
// line at a time.
func size(name, path string) string {
	f, err := os.Open(path)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	switch name {
	case artifact.DenseFile:
		if rows, cols, err := dense.Count(f); err == nil {
			return fmt.Sprintf("%d rows, %d columns", rows, cols)
		}
	case artifact.TraceFile:
		n := 0
		if err := artifact.Lines(f, func([]byte) bool { n++; return false }); err == nil {
			return fmt.Sprintf("%d records", n)
		}
	}
	if fi, err := os.Stat(path); err == nil {
		return fmt.Sprintf("%d bytes", fi.Size())
	}
	return "unreadable"
}

// summarise prints how far an artifact's change goes, in its own terms,
// reading both files a record at a time.
func summarise(out io.Writer, name, golden, actual string) error {
	g, err := os.Open(golden)
	if err != nil {
		return err
	}
	defer g.Close()
	a, err := os.Open(actual)
	if err != nil {
		return err
	}
	defer a.Close()
	switch name {
	case artifact.DenseFile:
		d, err := dense.DiffReaders(g, a, 0) // every cell counted, none kept
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "  %s: %s\n", name, d.Summary())
		for _, g := range d.Groups(record.ColumnGroup) {
			fmt.Fprintf(out, "    %s\n", g)
		}
	case artifact.TraceFile:
		d, err := trace.DiffReaders(g, a)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "  %s: %s\n", name, d.Summary())
		for _, k := range d.Kinds {
			fmt.Fprintf(out, "    %s\n", k)
		}
	case artifact.ManifestFile:
		fmt.Fprintf(out, "  %s: reseals the set (its digests follow the files above; accepting writes it with them)\n", name)
	case artifact.AggregatesFile, artifact.SummaryFile:
		// A sweep's files are small: a line per seed, a line per field.
		gb, errG := io.ReadAll(g)
		ab, errA := io.ReadAll(a)
		if err := errors.Join(errG, errA); err != nil {
			return err
		}
		gl, al := strings.Split(string(gb), "\n"), strings.Split(string(ab), "\n")
		differ, first := 0, -1
		for i := range max(len(gl), len(al)) {
			if i >= len(gl) || i >= len(al) || gl[i] != al[i] {
				differ++
				if first < 0 {
					first = i
				}
			}
		}
		unit, total := "lines", len(al)-1 // the last element follows the final newline
		if name == artifact.AggregatesFile {
			unit, total = "seed lines", total-1 // and the first is the header
		}
		fmt.Fprintf(out, "  %s: %d of %d %s differ, the first at line %d\n", name, differ, total, unit, first+1)
	case artifact.CheckpointsFile:
		gb, errG := io.ReadAll(g)
		ab, errA := io.ReadAll(a)
		if err := errors.Join(errG, errA); err != nil {
			return err
		}
		gf, errG := checkpoint.Parse("golden "+name, gb)
		af, errA := checkpoint.Parse("actual "+name, ab)
		if err := errors.Join(errG, errA); err != nil {
			return err
		}
		rep := checkpoint.Compare(gf, af, tolerances.ByteIdentity)
		switch n := len(rep.Failures); n {
		case 0:
			fmt.Fprintf(out, "  %s: values unchanged\n", name)
		default:
			fmt.Fprintf(out, "  %s: %d value(s) differ; first: %s\n", name, n, rep.Failures[0])
		}
		for _, w := range rep.Warnings {
			fmt.Fprintf(out, "    %s\n", w)
		}
	}
	return nil
}

// pick parses the arguments of accept and reject, given fl with the
// command's own flags: names, or -all, and the flags before, between or
// after them.
func pick(fl *flag.FlagSet, args []string, stderr io.Writer) ([]pending.Manifest, error) {
	command := fl.Name()
	fl.SetOutput(stderr)
	all := fl.Bool("all", false, "every pending change")
	names, err := parseAnywhere(fl, args)
	if err != nil {
		return nil, err
	}
	if *all == (len(names) > 0) {
		return nil, fmt.Errorf("%s: name rungs or cases (T2.1, T2.3/swapped), or pass -all", command)
	}

	ms, err := pending.List(reportsDir())
	if err != nil {
		return nil, err
	}
	if *all {
		if len(ms) == 0 {
			return nil, fmt.Errorf("%s: nothing pending under %s/", command, reportsDir())
		}
		return ms, nil
	}
	return pending.Select(ms, names)
}

// parseAnywhere parses fl's flags wherever they stand among the
// positional arguments, which it returns in order: `accept T2.1 -reason
// "…"` reads as `accept -reason "…" T2.1`, and `blame T2.1 -tick 44` as
// `blame -tick 44 T2.1`.
func parseAnywhere(fl *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fl.Parse(args); err != nil {
			return nil, err
		}
		if fl.NArg() == 0 {
			return positional, nil
		}
		positional, args = append(positional, fl.Arg(0)), fl.Args()[1:]
	}
}

// accept copies reviewed pending changes into goldens/ without rerunning,
// recording in each set's history why (-reason, required of a set that
// changes).
func accept(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("accept", flag.ContinueOnError)
	reason := fl.String("reason", "", "why the goldens change, recorded in each set's history (required unless every set is new)")
	release, err := readReports(reportsDir())
	if err != nil {
		return err
	}
	defer release()
	ms, err := pick(fl, args, stderr)
	if err != nil {
		return err
	}
	acc, rec, err := pending.Accept(".", reportsDir(), ms, strings.TrimSpace(*reason))
	if !rec.Empty() {
		fmt.Fprintf(stdout, "workspace: %s\n", rec)
	}
	if err != nil {
		return err
	}
	for _, a := range acc {
		files := "no file changed"
		if len(a.Files) > 0 {
			files = strings.Join(a.Files, ", ")
		}
		fmt.Fprintf(stdout, "accepted %s → %s: %s\n", a.Name, a.GoldenDir, files)
		if a.History != nil && a.History.State == history.Changed {
			fmt.Fprintf(stdout, "  history: %s\n", a.History)
		}
	}
	fmt.Fprintln(stdout, "commit the goldens with a line saying why they changed: git diff --stat goldens/")
	fmt.Fprintln(stdout, "then run make test: specs outside the ladder read the goldens too, and an intended change must leave it green")
	return nil
}

// reject discards pending changes.
func reject(args []string, stdout, stderr io.Writer) error {
	release, err := readReports(reportsDir())
	if err != nil {
		return err
	}
	defer release()
	ms, err := pick(flag.NewFlagSet("reject", flag.ContinueOnError), args, stderr)
	if err != nil {
		return err
	}
	if err := pending.Reject(reportsDir(), ms); err != nil {
		return err
	}
	for _, m := range ms {
		fmt.Fprintf(stdout, "rejected %s (its artifacts stay in %s/%s until the next run)\n", m.Name, reportsDir(), m.Name)
	}
	return nil
}
