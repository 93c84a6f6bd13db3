package compare

import (
	"fmt"
	"io"
	"strings"
)

// ClassName names a drift class as the report's lines do: "value drift",
// "threshold drift", "only in <run>" (control-flow drift).
func (r *Report) ClassName(d Drift) string {
	switch d {
	case ValueDrift:
		return "value drift"
	case ThresholdDrift:
		return "threshold drift"
	case OnlyA:
		return "only in " + r.A.Name
	default:
		return "only in " + r.B.Name
	}
}

// Agree reports whether the runs agree on everything compared: every roll,
// every belief set, and the dense files when they were compared.
func (r *Report) Agree() bool {
	return r.SameRolls() && r.FirstBelief == nil && (r.Dense.Skipped != "" || r.Dense.Identical)
}

// Verdict names the drift in one phrase: "same rolls", or which of value
// drift (a shared key rolled a different value), threshold drift (the same
// value against different odds) and control-flow drift (keys only one run
// rolled) there is.
func (r *Report) Verdict() string {
	if r.SameRolls() {
		return "same rolls: every key was rolled by both runs, with the same value and threshold"
	}
	var parts []string
	if n := r.Classes[ValueDrift].Count; n > 0 {
		parts = append(parts, fmt.Sprintf("value drift (%s rolled by both with different values: only a pin or a bug does that)", keys(n)))
	}
	if n := r.Classes[ThresholdDrift].Count; n > 0 {
		parts = append(parts, fmt.Sprintf("threshold drift (%s rolled the same value against different thresholds)", keys(n)))
	}
	if n := r.Classes[OnlyA].Count + r.Classes[OnlyB].Count; n > 0 {
		parts = append(parts, fmt.Sprintf("control-flow drift (%s rolled by one run only)", keys(n)))
	}
	if r.Classes[ValueDrift].Count == 0 {
		parts = append(parts, "no value drift")
	}
	return strings.Join(parts, "; ")
}

func keys(n int) string {
	if n == 1 {
		return "1 key"
	}
	return fmt.Sprintf("%d keys", n)
}

// Write prints the report: the two runs, the counts, the verdict, the
// first divergent roll, belief set and dense cell, then the rolls each
// class kept (Options.List of them), with how many more there are.
func (r *Report) Write(w io.Writer) error {
	var b strings.Builder
	for _, run := range []Run{r.A, r.B} {
		ticks := "no records"
		if run.LastTick >= 0 {
			ticks = fmt.Sprintf("records to tick %d", run.LastTick)
		}
		fmt.Fprintf(&b, "run %s: seed %s, branch %s, %s, %d records, %d rolls\n",
			run.Name, run.Header.SeedID, run.Header.Branch, ticks, run.Records, run.Rolls)
	}
	if r.A.Header.Branch == r.B.Header.Branch && !r.Agree() {
		fmt.Fprintf(&b, "note: two different runs on one branch %s: a case declares counterfactual_of so that its trace and log cannot be mistaken for another's\n", r.A.Header.Branch)
	}
	fmt.Fprintf(&b, "rolls: %s rolled by both: %d the same, %d value drift, %d threshold drift (%d outcomes differ); %d only in %s, %d only in %s\n",
		keys(r.Shared), r.Same, r.Classes[ValueDrift].Count, r.Classes[ThresholdDrift].Count, r.Flipped,
		r.Classes[OnlyA].Count, r.A.Name, r.Classes[OnlyB].Count, r.B.Name)
	fmt.Fprintf(&b, "verdict: %s\n", r.Verdict())
	if d := r.FirstRoll; d != nil {
		fmt.Fprintf(&b, "first divergent roll: tick %d, %s, %s\n", d.Tick(), r.ClassName(d.Drift), d.Key())
	} else {
		b.WriteString("first divergent roll: none\n")
	}
	if d := r.FirstBelief; d != nil {
		fmt.Fprintf(&b, "first divergent belief set: tick %d, %s holds %s in %s and %s in %s\n",
			d.Tick, d.Holder, set(d.A), r.A.Name, set(d.B), r.B.Name)
	} else {
		b.WriteString("first divergent belief set: none\n")
	}
	b.WriteString("first divergent dense cell: " + r.Dense.describe(r.A.Name, r.B.Name) + "\n")
	for _, d := range Drifts {
		cl := r.Classes[d]
		if cl.Count == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s (%d):\n", r.ClassName(d), cl.Count)
		for _, diff := range cl.Listed {
			switch {
			case diff.A != nil && diff.B != nil:
				fmt.Fprintf(&b, "  %s (%s)\n    %s: %s\n    %s: %s\n", diff.A.Key, diff.A.Where(), r.A.Name, diff.A.Describe(), r.B.Name, diff.B.Describe())
			case diff.A != nil:
				fmt.Fprintf(&b, "  %s (%s): %s\n", diff.A.Key, diff.A.Where(), diff.A.Describe())
			default:
				fmt.Fprintf(&b, "  %s (%s): %s\n", diff.B.Key, diff.B.Where(), diff.B.Describe())
			}
		}
		if more := cl.Count - len(cl.Listed); more > 0 {
			fmt.Fprintf(&b, "  … and %d more\n", more)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func set(vs []string) string {
	if len(vs) == 0 {
		return "nothing"
	}
	return "[" + strings.Join(vs, ", ") + "]"
}

// describe is the dense line of a report.
func (d DenseReport) describe(a, b string) string {
	if d.Skipped != "" {
		return "not compared: " + d.Skipped
	}
	if d.Identical {
		return "none (the dense files are identical)"
	}
	var s string
	if c := d.First; c != nil {
		s = fmt.Sprintf("tick %d, column %q: %s %s, %s %s", c.Tick, c.Column, a, cell(c.Golden), b, cell(c.Actual))
	} else {
		s = "none in the columns both runs have"
	}
	if len(d.Added)+len(d.Removed) > 0 {
		s += fmt.Sprintf(" (%d columns only in %s, %d only in %s)", len(d.Removed), a, len(d.Added), b)
	}
	if d.OnlyA+d.OnlyB > 0 {
		s += fmt.Sprintf(" (%d ticks only in %s, %d only in %s)", d.OnlyA, a, d.OnlyB, b)
	}
	return s
}

// cell shows a dense value, an empty one (not held) as "".
func cell(v string) string {
	if v == "" {
		return `""`
	}
	return v
}
