package rerun

import (
	"fmt"
	"strings"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/audit"
	"github.com/chronicle/ladder/sim/trace"
)

// auditFeed hands trace records to an auditor once there is one.
type auditFeed struct{ a *audit.Auditor }

func (s *auditFeed) Emit(r trace.Record) {
	if s.a != nil {
		s.a.Emit(r)
	}
}

// AuditRun runs f with regime 2's audit alone (no artifacts, no
// expectations) and returns how much each invariant examined and every
// finding, warns included: `ladder audit`, and the audit's benchmarks.
func AuditRun(f *fixture.Fixture, opt audit.Options) ([]audit.Examined, []audit.Finding, error) {
	feed := &auditFeed{}
	w, err := ladder.Build(f, feed)
	if err != nil {
		return nil, nil, err
	}
	feed.a = audit.New(w, opt)
	var findings []audit.Finding
	lastFull := false
	for t := int64(0); t < f.Ticks; t++ {
		if err := w.Step(); err != nil {
			return nil, nil, f.Locate(err)
		}
		rep, err := feed.a.Tick()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", f.Name(), err)
		}
		findings, lastFull = append(findings, rep.Findings...), rep.Full
	}
	if !lastFull {
		findings = append(findings, feed.a.Full().Findings...)
	}
	return feed.a.Examined(), findings, nil
}

// AuditSummary says how many records each invariant examined over a run,
// for its report: "regime 2 examined one-claim-per-event 12, …".
func AuditSummary(ex []audit.Examined) string {
	parts := make([]string, len(ex))
	for i, e := range ex {
		parts[i] = fmt.Sprintf("%s %d", e.Invariant, e.Records)
	}
	return "regime 2 examined " + strings.Join(parts, ", ")
}
