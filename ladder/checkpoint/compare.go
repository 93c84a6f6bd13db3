package checkpoint

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/tolerances"
)

// Report is the outcome of comparing an actual run with its golden.
// Failures are behavioural drift, one sentence each, and Diffs the same
// failures located (name, tick, values); Drift is input drift, and
// Warnings says the same in one sentence per input.
type Report struct {
	Failures []string
	Diffs    []Diff
	Warnings []string
	Drift    []Drift
}

// Diff is one behavioural difference: a checkpoint's value at a tick, a
// sampled tick one side lacks (Name ""), or an outcome field (Name
// "outcome.<field>", Tick -1: the outcome is the end of the run).
type Diff struct {
	Name           string
	Tick           int64
	Golden, Actual string
	Message        string
}

// Drift is one input that moved: a define (What "define retell_decay"),
// the fixture (What "fixture_hash"), the seed, or — for a golden that
// predates recorded define values — the defines hash.
type Drift struct {
	What           string
	Golden, Actual string
}

// Absent stands for a define one side does not have.
const Absent = "absent"

func (d Drift) String() string {
	return fmt.Sprintf("input drift: %s changed (golden %s, actual %s); values still compared — regenerate to record the new inputs", d.What, d.Golden, d.Actual)
}

// drift lists the inputs that moved: each define by name when both files
// record define values (in name order), else the defines hash; then the
// fixture and the seed.
func drift(golden, actual File) []Drift {
	var out []Drift
	if golden.DefinesHash != actual.DefinesHash {
		if golden.Defines == nil || actual.Defines == nil {
			out = append(out, Drift{What: "defines_hash", Golden: golden.DefinesHash, Actual: actual.DefinesHash})
		} else {
			before := len(out)
			names := slices.Collect(maps.Keys(golden.Defines))
			for n := range actual.Defines {
				if _, ok := golden.Defines[n]; !ok {
					names = append(names, n)
				}
			}
			slices.Sort(names)
			for _, name := range names {
				g, gok := golden.Defines[name]
				a, aok := actual.Defines[name]
				if gok && aok && g == a {
					continue
				}
				out = append(out, Drift{What: "define " + name, Golden: numberOr(g, gok), Actual: numberOr(a, aok)})
			}
			if len(out) == before { // the same values under another hash: say so rather than nothing
				out = append(out, Drift{What: "defines_hash", Golden: golden.DefinesHash, Actual: actual.DefinesHash})
			}
		}
	}
	if golden.FixtureHash != actual.FixtureHash {
		out = append(out, Drift{What: "fixture_hash", Golden: golden.FixtureHash, Actual: actual.FixtureHash})
	}
	if golden.SeedID != actual.SeedID {
		out = append(out, Drift{What: "seed_id", Golden: golden.SeedID, Actual: actual.SeedID})
	}
	return out
}

func numberOr(n json.Number, ok bool) string {
	if !ok {
		return Absent
	}
	return string(n)
}

// Compare checks actual against golden under the regime. Messages name the
// checkpoint, tick, golden and actual values.
func Compare(golden, actual File, r tolerances.Regime) Report {
	var rep Report
	fail := func(d Diff, format string, args ...any) {
		d.Message = fmt.Sprintf(format, args...)
		rep.Diffs = append(rep.Diffs, d)
		rep.Failures = append(rep.Failures, d.Message)
	}
	rep.Drift = drift(golden, actual)
	for _, d := range rep.Drift {
		rep.Warnings = append(rep.Warnings, d.String())
	}
	g, a := golden.Outcome, actual.Outcome
	for _, f := range []struct {
		name   string
		gv, av any
	}{
		{"ticks", g.Ticks, a.Ticks}, {"events", g.Events, a.Events}, {"claims", g.Claims, a.Claims},
		{"variants", g.Variants, a.Variants}, {"beliefs", g.Beliefs, a.Beliefs}, {"log_head", g.LogHead, a.LogHead},
		{"state_digest", digestOrAbsent(g.StateDigest), digestOrAbsent(a.StateDigest)},
	} {
		if f.gv != f.av {
			fail(Diff{Name: "outcome." + f.name, Tick: -1, Golden: fmt.Sprint(f.gv), Actual: fmt.Sprint(f.av)},
				"outcome.%s: golden %v, actual %v", f.name, f.gv, f.av)
		}
	}
	actualAt := map[int64]Sample{}
	for _, s := range actual.Samples {
		actualAt[s.Tick] = s
	}
	goldenTicks := map[int64]bool{}
	for _, gs := range golden.Samples {
		goldenTicks[gs.Tick] = true
		as, ok := actualAt[gs.Tick]
		if !ok {
			fail(Diff{Tick: gs.Tick, Golden: "sampled", Actual: "not sampled"}, "checkpoint tick %d: in the golden, not sampled by the run", gs.Tick)
			continue
		}
		if gs.StateDigest != as.StateDigest {
			fail(Diff{Name: "state_digest", Tick: gs.Tick, Golden: digestOrAbsent(gs.StateDigest), Actual: digestOrAbsent(as.StateDigest)},
				"state digest at tick %d: golden %s, actual %s (the engine's state differs; the digest is exact, regime 0)",
				gs.Tick, digestOrAbsent(gs.StateDigest), digestOrAbsent(as.StateDigest))
		}
		for _, name := range unionKeys(gs.Values, as.Values) {
			gv, gok := gs.Values[name]
			av, aok := as.Values[name]
			d := Diff{Name: name, Tick: gs.Tick, Golden: show(gv), Actual: show(av)}
			switch {
			case !gok:
				d.Golden = "not sampled"
				fail(d, "checkpoint %q at tick %d: not in the golden, actual %s", name, gs.Tick, show(av))
			case !aok:
				d.Actual = "not sampled"
				fail(d, "checkpoint %q at tick %d: golden %s, not sampled by the run", name, gs.Tick, show(gv))
			case gv == nil || av == nil:
				if gv != av {
					fail(d, "checkpoint %q at tick %d: golden %s, actual %s", name, gs.Tick, show(gv), show(av))
				}
			default:
				ok, err := r.Within(*gv, *av)
				if err != nil {
					fail(d, "checkpoint %q at tick %d: %v", name, gs.Tick, err)
				} else if !ok {
					fail(d, "checkpoint %q at tick %d: golden %s, actual %s (|Δ| %s > %s, regime %d)",
						name, gs.Tick, show(gv), show(av), canon.FormatFloat(absDiff(*gv, *av)), canon.FormatFloat(r.Margin), r.ID)
				}
			}
		}
	}
	for _, as := range actual.Samples {
		if !goldenTicks[as.Tick] {
			fail(Diff{Tick: as.Tick, Golden: "not sampled", Actual: "sampled"}, "checkpoint tick %d: sampled by the run, not in the golden", as.Tick)
		}
	}
	return rep
}

// digestOrAbsent shows a state digest, or says that a file has none (a
// golden written before state digests were recorded).
func digestOrAbsent(d string) string {
	if d == "" {
		return Absent
	}
	return d
}

func absDiff(x, y float64) float64 {
	if x > y {
		return x - y
	}
	return y - x
}

func show(v *float64) string {
	if v == nil {
		return "null"
	}
	return canon.FormatFloat(*v)
}

func unionKeys(a, b map[string]*float64) []string {
	var out []string
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
