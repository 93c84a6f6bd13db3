package verdict

import (
	"strings"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/record"
	"github.com/chronicle/ladder/sim/audit"
)

// auditProblem is the problem of a run whose audit failed, located at
// the earliest finding's tick and invariant.
func auditProblem(f *fixture.Fixture, fs []audit.Finding) (Problem, bool) {
	if len(fs) == 0 {
		return Problem{}, false
	}
	p := problem(f, "audit", fs[0].Tick, "%s", strings.TrimPrefix(record.AuditLine(fs), "audit: "))
	p.Column, p.Actual = fs[0].Invariant, fs[0].Record
	return p, true
}

// watchProblem is the problem of a run whose evidence could not be kept
// whole: the log not written, a digest not taken, the audit not fed.
func watchProblem(f *fixture.Fixture, errs []string) (Problem, bool) {
	if len(errs) == 0 {
		return Problem{}, false
	}
	return problem(f, "watch", -1, "%s", strings.Join(errs, "; ")), true
}
