package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/coverage"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/pending"
	"github.com/chronicle/ladder/ladder/report"
	"github.com/chronicle/ladder/ladder/shard"
)

// shardFilter prints the Ginkgo label filter that runs part k/n of the
// rungs (make ladder SHARD=k/n runs it), narrowed to -rung when given.
func shardFilter(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("shard", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var names rungList
	fl.Var(&names, "rung", "only these rungs (as make ladder RUNG= takes them)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() != 1 {
		return errors.New("usage: ladder shard [-rung T2.1,...] <k/n>")
	}
	spec, err := shard.ParseSpec(fl.Arg(0))
	if err != nil {
		return err
	}
	filter, err := planFilter(".", spec)
	if err != nil {
		return err
	}
	if len(names) > 0 {
		var labels []string
		for _, n := range names {
			rung, _, _ := strings.Cut(n, "/")
			labels = append(labels, rung)
		}
		rungs := "(" + strings.Join(slices.Compact(slices.Sorted(slices.Values(labels))), " || ") + ")"
		if filter == "" {
			filter = rungs
		} else {
			filter = rungs + " && (" + filter + ")"
		}
	}
	fmt.Fprintln(stdout, filter)
	return nil
}

// planFilter plans the rungs of the fixture files under root by the
// committed costs and returns part spec's filter.
func planFilter(root string, spec shard.Spec) (string, error) {
	// Each file's rung id as its spec is labelled, a file that does not
	// load included, so that its failure runs in some shard.
	rungs, err := fixture.Rungs(filepath.Join(root, "fixtures"))
	if err != nil {
		return "", fmt.Errorf("shard: %w", err)
	}
	costs, err := shard.ReadCosts(root)
	if err != nil {
		return "", err
	}
	return shard.Filter(shard.Plan(rungs, costs, spec.N), spec)
}

// costs rewrites the committed cost file from a run's Ginkgo JSON report:
// each rung's run time (cases included) in whole milliseconds, at least 1.
// Rungs the report did not run keep their recorded cost.
func costs(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("costs", flag.ContinueOnError)
	fl.SetOutput(stderr)
	from := fl.String("from", filepath.Join(reportsDir(), report.GinkgoFile), "Ginkgo JSON report of a full run")
	if err := fl.Parse(args); err != nil {
		return err
	}
	b, err := os.ReadFile(*from)
	if err != nil {
		return fmt.Errorf("costs: %w", err)
	}
	var rs []types.Report
	if err := json.Unmarshal(b, &rs); err != nil {
		return fmt.Errorf("costs: %s: %w", *from, err)
	}
	measured := map[string]float64{}
	for _, r := range rs {
		for _, s := range r.SpecReports {
			if !report.Ran(s) {
				continue
			}
			for _, l := range s.Labels() {
				if rung, _ := fixture.RungOfFile(l + "-x.yaml"); rung == l {
					measured[l] += s.RunTime.Seconds() * 1000
				}
			}
		}
	}
	if len(measured) == 0 {
		return fmt.Errorf("costs: %s holds no rung that ran", *from)
	}
	c, err := shard.ReadCosts(".")
	if err != nil {
		return err
	}
	for rung, ms := range measured {
		c[rung] = max(1, int64(math.Ceil(ms)))
	}
	out, err := c.Marshal()
	if err != nil {
		return err
	}
	if err := artifact.Write(shard.CostsFile, out); err != nil { // whole or not at all: the file is committed
		return fmt.Errorf("costs: %w", err)
	}
	fmt.Fprintf(stdout, "costs: %d rung(s) measured from %s; %s holds %d\n", len(measured), *from, shard.CostsFile, len(c))
	return nil
}

// mergeReports joins shards' report directories into one.
func mergeReports(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("merge-reports", flag.ContinueOnError)
	fl.SetOutput(stderr)
	out := fl.String("out", "", "directory to write the merged junit.xml, ladder.json, failures.json, coverage.json, every run's directory (artifacts and pending changes) and the triage page into")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *out == "" || fl.NArg() == 0 {
		return errors.New("usage: ladder merge-reports -out DIR <shard report dir>...")
	}
	lock, err := report.Merge(*out, fl.Args())
	if err != nil {
		return err
	}
	defer lock.Close()
	fmt.Fprintf(stdout, "merged %d shard report(s) into %s\n", fl.NArg(), *out)
	// The page and the coverage verdict are both the merged run's; a page
	// that cannot be built does not hide the verdict.
	pageErr := writePage(*out, nil, stdout)
	if pending, err := pendingCount(*out); err == nil && pending > 0 {
		fmt.Fprintf(stdout, "%d pending change(s) merged: LADDER_REPORTS=%s go run ./tools/ladder review\n", pending, *out)
	}
	return errors.Join(pageErr, mergeCoverage(*out, fl.Args(), stdout))
}

// pendingCount counts the pending changes under a reports directory.
func pendingCount(dir string) (int, error) {
	all, err := pending.List(dir)
	return len(all), err
}

// mergeCoverage joins the shards' rule-regime coverage into out and judges
// it as the full ladder would: each shard alone is partial, so the gate's
// verdict on regimes no run reached is given here.
func mergeCoverage(out string, shards []string, stdout io.Writer) error {
	var parts []coverage.Report
	for _, dir := range shards {
		r, err := coverage.Read(filepath.Join(dir, coverage.ReportFile))
		if err != nil {
			return fmt.Errorf("merge coverage: %w", err)
		}
		parts = append(parts, r)
	}
	merged, err := coverage.Merge(parts)
	if err != nil {
		return err
	}
	if err := merged.Write(out); err != nil {
		return err
	}
	fmt.Fprintln(stdout, merged.Summary())
	return judge(merged, stdout)
}
