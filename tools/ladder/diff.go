package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/chronicle/ladder/dense"
	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/report"
)

// diffGolden prints a rung's dense change cell by cell: the column set
// change, then per column its runs of changed cells (tick range, golden →
// actual). The actual side is the last run's reports/<rung>/dense.csv, or
// a fresh run of the rung when there is none (or with -run).
func diffGolden(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("diff-golden", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fresh := fl.Bool("run", false, "run the rung now instead of reading its last run's artifacts")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() != 1 {
		return errors.New("usage: ladder diff-golden [-run] <rung[/case]>")
	}
	f, err := find(fl.Arg(0))
	if err != nil {
		return err
	}
	goldenPath := filepath.Join(filepath.FromSlash(f.GoldenDir()), artifact.DenseFile)
	golden, err := os.ReadFile(goldenPath)
	if err != nil {
		return fmt.Errorf("diff-golden: %w", err)
	}
	source := filepath.Join(reportsDir(), filepath.FromSlash(f.Name()), artifact.DenseFile)
	actual, err := os.ReadFile(source)
	if *fresh || errors.Is(err, fs.ErrNotExist) {
		actual, err = runArtifact(f, artifact.DenseFile)
		source = "a fresh run of " + f.Name()
	}
	if err != nil {
		return fmt.Errorf("diff-golden: %w", err)
	}
	d, err := dense.Diff(golden, actual)
	if err != nil {
		return fmt.Errorf("diff-golden: %w", err)
	}
	w := bufio.NewWriter(stdout)
	fmt.Fprintf(w, "%s dense.csv: golden %s, actual %s\n%s\n", f.Name(), filepath.ToSlash(goldenPath), filepath.ToSlash(source), d.Summary())
	for _, c := range d.Added {
		fmt.Fprintf(w, "+ column %s\n", c)
	}
	for _, c := range d.Removed {
		fmt.Fprintf(w, "- column %s\n", c)
	}
	column := ""
	for _, r := range d.Runs() {
		if r.Column != column {
			column = r.Column
			fmt.Fprintln(w, column)
		}
		fmt.Fprintf(w, "  %s\n", r)
	}
	return w.Flush()
}

// runArtifact runs a rung into a scratch directory under the reports
// directory (which the next ladder run clears, should this be killed) and
// returns one of its artifacts.
func runArtifact(f *fixture.Fixture, name string) ([]byte, error) {
	if err := report.Adopt(reportsDir()); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(reportsDir(), ".run-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	stall, err := ladder.StallLimit()
	if err != nil {
		return nil, err
	}
	res, err := ladder.Run(f, ladder.Options{Dir: dir, Stall: stall})
	if err != nil {
		return nil, err
	}
	return os.ReadFile(res.Path(name))
}

// textconv writes a dense file as one line per held cell — `tick 12
// ulfric/theft@10/confidence = 0.72` — so a diff of two versions shows the
// cells that changed instead of whole 4 KB rows (git's diff.<driver>.textconv
// runs it; docs/regenerating-goldens.md shows the one-line set-up). A file
// that is not a well-formed dense file is written as it is, after a line
// saying so, so that git diff still works on it.
func textconv(args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return errors.New("usage: ladder textconv <dense.csv>")
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	t, err := dense.Parse(data)
	if err != nil {
		fmt.Fprintf(w, "# not a well-formed dense file (%v); shown as it is\n", err)
		w.Write(data)
		return w.Flush()
	}
	for i, row := range t.Rows {
		for j, v := range row[1:] {
			if v != "" {
				fmt.Fprintf(w, "tick %d %s = %s\n", t.Ticks[i], t.Header[j+1], v)
			}
		}
	}
	return w.Flush()
}
