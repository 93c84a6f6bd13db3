package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/chronicle/ladder/ladder/page"
	"github.com/chronicle/ladder/ladder/report"
)

// pairs is the -compare flag: A,B, given once per pair.
type pairs []report.Pair

func (p *pairs) String() string { return fmt.Sprint(*p) }

func (p *pairs) Set(v string) error {
	a, b, ok := strings.Cut(v, ",")
	if !ok || a == "" || b == "" {
		return fmt.Errorf("want two runs as A,B, got %q", v)
	}
	*p = append(*p, report.Pair{A: a, B: b})
	return nil
}

// pageCmd rebuilds the triage page from what the last `make ladder` left
// in reports/ — its Ginkgo report (ladder.json) for the failure lines,
// each run's artifacts — running nothing, and adds the
// comparisons -compare asks for.
func pageCmd(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("page", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var ps pairs
	fl.Var(&ps, "compare", "compare run `A,B` on A's section (both from the last ladder run; repeatable)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return errors.New("usage: ladder page [-compare A,B]...")
	}
	release, err := readReports(reportsDir())
	if err != nil {
		return err
	}
	defer release()
	return writePage(reportsDir(), ps, stdout)
}

// writePage builds the triage page from a reports directory — its Ginkgo
// report for the failure lines, each run's artifacts — and writes it
// there as index.html.
func writePage(dir string, ps pairs, stdout io.Writer) error {
	b, err := os.ReadFile(filepath.Join(dir, report.GinkgoFile))
	if err != nil {
		return fmt.Errorf("page: no ladder run to build it from (run make ladder first): %w", err)
	}
	var rs []types.Report
	if err := json.Unmarshal(b, &rs); err != nil {
		return fmt.Errorf("page: %s/%s: %w", dir, report.GinkgoFile, err)
	}
	if len(rs) != 1 {
		return fmt.Errorf("page: %s/%s holds %d suites, want the ladder's one", dir, report.GinkgoFile, len(rs))
	}
	inputs, problems, err := report.PageInputs(".", dir, rs[0], ps)
	if err != nil {
		return fmt.Errorf("page: %w", err)
	}
	html, err := page.Page(inputs, page.Options{})
	if html == nil {
		return fmt.Errorf("page: %w", err)
	}
	problems = append(problems, errorLines(err)...)
	out := filepath.Join(dir, filepath.Base(page.File))
	if err := page.Write(out, html); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "triage page: %s (%d sections, %d KB)\n", out, len(inputs), (len(html)+1023)/1024)
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	return nil
}

func errorLines(err error) []string {
	if err == nil {
		return nil
	}
	return []string{err.Error()}
}
