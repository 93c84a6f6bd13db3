package coverage

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/sim/rules"
)

// RunFile is the file a run writes its reached regimes to, beside its
// artifacts (reports/<run>/regimes.json). It is evidence, not a golden:
// the regimes a run reaches are in its trace, which is one.
const RunFile = "regimes.json"

// ReportFile is the whole ladder's coverage, under reports/.
const ReportFile = "coverage.json"

// Run is what one run reached, as RunFile holds it.
type Run struct {
	Run     string    `json:"run"`
	Reached []Reached `json:"reached"`
}

// WriteRun writes a run's reached regimes into its directory, atomically.
func WriteRun(dir, name string, reached []Reached) error {
	if reached == nil {
		reached = []Reached{}
	}
	b, err := json.MarshalIndent(Run{Run: name, Reached: reached}, "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", RunFile, err)
	}
	return artifact.Write(filepath.Join(dir, RunFile), append(b, '\n'))
}

// ReadRuns reads every RunFile under reports, in run-name order.
func ReadRuns(reports string) ([]Run, error) {
	var out []Run
	err := filepath.WalkDir(reports, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || d.Name() != RunFile {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var r Run
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if r.Run == "" {
			return fmt.Errorf("%s: names no run", path)
		}
		out = append(out, r)
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	slices.SortFunc(out, func(a, b Run) int { return strings.Compare(a.Run, b.Run) })
	return out, err
}

// Report is the ladder's coverage of the catalogue's regimes: every
// declared regime, with the runs that reached it.
type Report struct {
	// Expected is every run the ladder has (a sweep rung writes no trace
	// and is not metered); Runs the runs this report metered. Complete
	// when Runs holds every expected run: only then can a regime reached by
	// no run fail the gate.
	Expected []string `json:"expected"`
	Runs     []string `json:"runs"`
	Complete bool     `json:"complete"`
	Regimes  []Row    `json:"regimes"`
}

// Row is one regime of the catalogue.
type Row struct {
	Number int    `json:"number"`
	Rule   string `json:"rule"`
	Regime string `json:"regime"`
	// Sign is the trace record that shows it, in words.
	Sign        string   `json:"sign"`
	Unreachable string   `json:"unreachable,omitempty"`
	Runs        []RunHit `json:"runs"`
}

// RunHit is one run that reached a regime.
type RunHit struct {
	Run string `json:"run"`
	Hit
}

// Name is the row as messages cite it: "rule 11 accumulation-threshold: re-armed".
func (r Row) Name() string { return fmt.Sprintf("rule %d %s: %s", r.Number, r.Rule, r.Regime) }

// Build makes the report of the runs given against the catalogue;
// expected lists every run the ladder has.
func Build(runs []Run, expected []string) Report {
	rep := Report{Expected: slices.Sorted(slices.Values(expected)), Runs: []string{}}
	type key struct{ rule, regime string }
	at := map[key]int{}
	for _, r := range rules.Catalogue() {
		for _, g := range r.Regimes {
			at[key{r.Name, g.Name}] = len(rep.Regimes)
			rep.Regimes = append(rep.Regimes, Row{Number: r.Number, Rule: r.Name, Regime: g.Name, Sign: Describe(g.Sign),
				Unreachable: g.Unreachable, Runs: []RunHit{}})
		}
	}
	for _, run := range runs {
		rep.Runs = append(rep.Runs, run.Run)
		for _, h := range run.Reached {
			// A regime the catalogue no longer declares (a report from
			// older code) has no row to count in.
			if i, ok := at[key{h.Rule, h.Regime}]; ok {
				rep.Regimes[i].Runs = append(rep.Regimes[i].Runs, RunHit{Run: run.Run, Hit: h.Hit})
			}
		}
	}
	slices.Sort(rep.Runs)
	rep.Runs = slices.Compact(rep.Runs)
	rep.Complete = len(rep.Expected) > 0 && missing(rep.Expected, rep.Runs) == nil
	return rep
}

// Missing lists the expected runs the report did not meter.
func (r Report) Missing() []string { return missing(r.Expected, r.Runs) }

func missing(want, have []string) []string {
	var out []string
	for _, w := range want {
		if _, ok := slices.BinarySearch(have, w); !ok {
			out = append(out, w)
		}
	}
	return out
}

// Unreached lists the regimes no run reached that are not listed as
// unreachable: on a complete report, each is a failure of the gate.
func (r Report) Unreached() []Row {
	var out []Row
	for _, row := range r.Regimes {
		if len(row.Runs) == 0 && row.Unreachable == "" {
			out = append(out, row)
		}
	}
	return out
}

// Contradicted lists the regimes listed as unreachable that some run
// reached: the listed reason is wrong, and the entry must go.
func (r Report) Contradicted() []Row {
	var out []Row
	for _, row := range r.Regimes {
		if len(row.Runs) > 0 && row.Unreachable != "" {
			out = append(out, row)
		}
	}
	return out
}

// Problems are the gate's verdict on a complete report, one line each:
// every regime reached by no run, and every listed-unreachable regime a
// run reached. An incomplete report (a subset or a shard) has none: a
// regime may be reached by a run it left out.
func (r Report) Problems() []string {
	if !r.Complete {
		return nil
	}
	var out []string
	for _, row := range r.Unreached() {
		out = append(out, fmt.Sprintf("%s is reached by no run (its sign: %s)", row.Name(), row.Sign))
	}
	for _, row := range r.Contradicted() {
		out = append(out, fmt.Sprintf("%s is listed as unreachable (%s) but %s reached it at tick %d: the reason is wrong",
			row.Name(), row.Unreachable, row.Runs[0].Run, row.Runs[0].First))
	}
	return out
}

// Remedy is what to do about Problems, said once after them.
const Remedy = "a regime no run reaches is code no golden guards: add a case or a rung that reaches it " +
	"(docs/adding-a-rung.md, \"Rule regimes\"), or, if no world can, give it an Unreachable reason in " +
	"sim/rules/registry.go; `go run ./tools/ladder coverage` shows which runs reach what"

// Summary is the report in one line, for the ladder's closing summary.
func (r Report) Summary() string {
	reached, listed := 0, 0
	for _, row := range r.Regimes {
		switch {
		case len(row.Runs) > 0:
			reached++
		case row.Unreachable != "":
			listed++
		}
	}
	s := fmt.Sprintf("coverage: %d of %d rule regimes reached by %d runs", reached, len(r.Regimes), len(r.Runs))
	if listed > 0 {
		s += fmt.Sprintf(", %d listed unreachable", listed)
	}
	if n := len(r.Unreached()); n > 0 {
		s += fmt.Sprintf(", %d reached by no run", n)
	}
	if !r.Complete {
		s += fmt.Sprintf(" (a partial run: %d of %d runs; only a full run is judged)", len(r.Runs), len(r.Expected))
	}
	return s + " (" + ReportFile + ")"
}

// Write writes the report to reports/coverage.json, atomically.
func (r Report) Write(reports string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", ReportFile, err)
	}
	return artifact.Write(filepath.Join(reports, ReportFile), append(b, '\n'))
}

// Read reads a report written by Write.
func Read(path string) (Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Report{}, err
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return Report{}, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// Merge joins the reports of shards into one, as if one run had made
// them: their runs together, each regime's runs together. A run metered in
// two shards is an error, as the shards split the runs.
func Merge(parts []Report) (Report, error) {
	var runs []Run
	seen := map[string]int{}
	var expected []string
	for i, p := range parts {
		expected = append(expected, p.Expected...)
		hits := map[string][]Reached{}
		for _, row := range p.Regimes {
			for _, h := range row.Runs {
				hits[h.Run] = append(hits[h.Run], Reached{Number: row.Number, Rule: row.Rule, Regime: row.Regime, Hit: h.Hit})
			}
		}
		for _, name := range p.Runs {
			if prev, dup := seen[name]; dup {
				return Report{}, fmt.Errorf("merge coverage: run %s was metered by two shards (%d and %d)", name, prev+1, i+1)
			}
			seen[name] = i
			runs = append(runs, Run{Run: name, Reached: hits[name]})
		}
	}
	slices.Sort(expected)
	return Build(runs, slices.Compact(expected)), nil
}
