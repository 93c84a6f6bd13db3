package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/chronicle/ladder/ladder/coverage"
)

// coverageTable prints the rule × regime table of the last `make ladder`
// (reports/coverage.json): every regime each rule declares, with the runs
// that reached it and the tick each first did. -unreached lists only the
// regimes no run reached; -rule narrows to one rule. It exits non-zero
// when a complete report has a problem, as the gate does.
func coverageTable(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("coverage", flag.ContinueOnError)
	fl.SetOutput(stderr)
	reports := fl.String("reports", "reports", "the reports directory of a ladder run")
	only := fl.Bool("unreached", false, "list only the regimes no run reached")
	rule := fl.String("rule", "", "only this rule (its name or number)")
	runs := fl.Int("runs", 4, "runs to name per regime before counting the rest (0: all)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return errors.New("usage: ladder coverage [-reports DIR] [-unreached] [-rule NAME] [-runs N]")
	}
	rep, err := coverage.Read(filepath.Join(*reports, coverage.ReportFile))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s has no %s: run `make ladder` first (a full run, for the gate's verdict)", *reports, coverage.ReportFile)
	}
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "rule\tregime\treached by")
	shown, last := 0, ""
	for _, row := range rep.Regimes {
		if *rule != "" && row.Rule != *rule && fmt.Sprint(row.Number) != *rule {
			continue
		}
		if *only && (len(row.Runs) > 0 || row.Unreachable != "") {
			continue
		}
		name := ""
		if row.Rule != last {
			name, last = fmt.Sprintf("%2d %s", row.Number, row.Rule), row.Rule
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", name, row.Regime, reachedBy(row, *runs))
		shown++
	}
	if shown == 0 && *rule != "" {
		return fmt.Errorf("no rule %q in the report (names and numbers: see sim/rules/registry.go)", *rule)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(stdout, rep.Summary())
	if !rep.Complete {
		fmt.Fprintf(stdout, "not judged: %d of the ladder's runs did not run, e.g. %s\n", len(rep.Missing()), rep.Missing()[0])
		return nil
	}
	return judge(rep, stdout)
}

// judge fails on a complete report's problems, as the gate does.
func judge(rep coverage.Report, stdout io.Writer) error {
	problems := rep.Problems()
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("coverage: %s\n(%s)", strings.Join(problems, "\ncoverage: "), coverage.Remedy)
}

// reachedBy names the runs of a row with the tick each first reached it:
// "T3.1 (t20), T3.1/heard-it-all (t14) and 2 more".
func reachedBy(row coverage.Row, max int) string {
	if len(row.Runs) == 0 {
		if row.Unreachable != "" {
			return "unreachable: " + row.Unreachable
		}
		return "NO RUN — its sign: " + row.Sign
	}
	var names []string
	for i, h := range row.Runs {
		if max > 0 && i == max {
			names = append(names, fmt.Sprintf("and %d more", len(row.Runs)-max))
			break
		}
		names = append(names, fmt.Sprintf("%s (t%d)", h.Run, h.First))
	}
	return strings.Join(names, ", ")
}
