package verdict

import (
	"fmt"
	"strings"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/triage"
)

// The checks of the two lines a failing run prints before its problems.
const (
	// RootCheck is the root cause: the earliest divergent cause, with its
	// trace line and page link.
	RootCheck = "root"
	// DriftCheck is the run's drift class: value, control-flow, identity
	// or input drift, naming the first change of its class.
	DriftCheck = "drift"
)

// causeFirst puts a failing run's root cause and drift class before its
// problems. It reads the run's trace against its golden (package triage):
// only a run that failed pays for it, and a run with no trace golden to
// read (a new rung, a sweep, a golden missing or broken) gets no such
// lines. The state digest's problem learns which layer of state moved
// first, from the earliest keyframe that differs.
func causeFirst(res *ladder.Result, v Verdict, problems []Problem) []Problem {
	f := res.Fixture
	c := res.Compared
	if len(problems) == 0 || res.SweepGoldens != "" || c == nil || c.Trace.Missing || c.Trace.Err != nil || c.Trace.Path == "" {
		return problems
	}
	end, _ := res.CutShort()
	rep, err := triage.AlignFilesBefore(c.Trace.Path, res.Path(artifact.TraceFile), end)
	if err != nil {
		return append([]Problem{problem(f, DriftCheck, -1, "could not align the trace with its golden: %v", err)}, problems...)
	}
	first := firstTicked(problems)
	var root, class Problem
	switch {
	case len(v.Drift) > 0:
		d := v.Drift[0]
		more := ""
		if n := len(v.Drift) - 1; n > 0 {
			more = fmt.Sprintf(" (and %d more inputs)", n)
		}
		root = problem(f, RootCheck, -1, "the inputs moved: %s %s → %s%s; what the run did follows from them", d.What, d.Golden, d.Actual, more)
		class = problem(f, DriftCheck, -1, "input drift (%s moved%s); in the trace: %s", d.What, more, rep.Summary())
	case rep.Earliest == nil:
		// The trace agrees record for record: nothing the engine derived
		// moved, only what is read off it (a dense cell, a checkpoint) or a
		// golden edited by hand. The first problem is the root already.
		problems[0].Class = triage.ValueDrift.String()
		return problems
	case first != nil && first.Tick < rep.Earliest.Tick:
		class = problem(f, DriftCheck, -1, "%s", rep.Summary())
		what := ""
		if first.Golden != "" || first.Actual != "" {
			what = fmt.Sprintf(": golden %s, actual %s", first.Golden, first.Actual)
		}
		root = problem(f, RootCheck, first.Tick, "tick %d, %s %s%s — no trace record moved before it: a value derived at read time (decay, a stage, a weight) moved",
			first.Tick, first.Check, first.Column, what)
		root.Column, root.Golden, root.Actual = first.Column, first.Golden, first.Actual
	default:
		e := rep.Earliest
		root = problem(f, RootCheck, e.Tick, "%s — %s", e, e.Decision())
		root.Column, root.Golden, root.Actual = strings.Trim(e.Key, `"`), e.Golden, e.Actual
		root.record, root.hasRecord = e.Seq, e.Seq >= 0
		class = problem(f, DriftCheck, e.Tick, "%s", rep.Summary())
		// The drift line links to the change it names.
		named := map[triage.Class]*triage.Difference{triage.IdentityDrift: rep.First[triage.Renamed], triage.ControlFlowDrift: rep.FirstControlFlow()}[rep.Class()]
		if named != nil {
			class.Tick, class.record, class.hasRecord = named.Tick, named.Seq, named.Seq >= 0
		}
	}
	root.Line, class.Line = f.Pos.Line, f.Pos.Line
	class.Class = rep.Class().String()
	if len(v.Drift) > 0 {
		class.Class = "input drift"
	}
	if rep.Layer != "" {
		for i := range problems {
			if problems[i].Check == artifact.CheckpointsFile && problems[i].Column == "state_digest" {
				problems[i].Message = digestLayer(problems[i].Message, rep.Layer, rep.LayerTick)
			}
		}
	}
	return append([]Problem{root, class}, problems...)
}

// firstTicked is the earliest problem found at a tick, nil when none
// was: a count judged over a range is placed at its first tick without
// having seen anything differ there, so it is not one.
func firstTicked(ps []Problem) *Problem {
	var out *Problem
	for i := range ps {
		if ps[i].Tick >= 0 && !ps[i].Ranged && (out == nil || ps[i].Tick < out.Tick) {
			out = &ps[i]
		}
	}
	return out
}

// digestLayer shortens a state digest's two hashes and says which layer
// of state first differs: the digest is one hash over every section, but
// the trace's keyframes hold the sections apart.
func digestLayer(msg, layer string, tick int64) string {
	for _, w := range strings.Fields(msg) {
		h := strings.TrimRight(w, ",")
		if len(h) == 64 && strings.Trim(h, "0123456789abcdef") == "" {
			msg = strings.Replace(msg, h, h[:12]+"…", 1)
		}
	}
	return strings.Replace(msg, "(the engine's state differs;",
		fmt.Sprintf("(the engine's state differs, first in %s: the keyframe at tick %d;", layer, tick), 1)
}
