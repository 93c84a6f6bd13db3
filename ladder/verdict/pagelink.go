package verdict

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/page"
)

// PageLink is the most specific place on the triage page a problem
// names: its rung at its tick, and there the belief, NPC, social record
// or trace record it is about — read off the problem's column (a dense
// column, a trace record), off what a failed expectation says it is
// about (expect.Subject: a failed trace negative's first matching
// record, an npc's, role's, schedule's, obligation's or reputation's
// row, the first missing holder's "why not?"), or off an expectation's
// message (belief(holder, claim), grudge(holder, target)). A problem
// without a tick links to its rung.
func (p Problem) PageLink() string {
	name := p.Rung
	if p.Case != "" {
		name += "/" + p.Case
	}
	return page.LinkTo(name, p.Tick, p.target())
}

// FailureLine is the problem as the gate prints it: its message and its
// page link.
func (p Problem) FailureLine() string { return p.Message + " (page: " + p.PageLink() + ")" }

var (
	beliefCall = regexp.MustCompile(`\bbelief\(([^,()\s]+), ([^,()\s]+)\)`)
	grudgeCall = regexp.MustCompile(`\bgrudge\(([^,()\s]+), ([^,()\s]+)\)`)
	seqField   = regexp.MustCompile(`"seq":(\d+)`)
)

// beliefFields are a belief block's dense suffixes (docs/dense-columns.md).
var beliefFields = []string{"variant", "confidence", "verbatim", "gist", "stage", "sources"}

func (p Problem) target() page.Target {
	if p.Tick < 0 {
		return page.Target{}
	}
	switch p.Check {
	case artifact.DenseFile:
		parts := strings.Split(p.Column, "/")
		switch {
		case len(parts) == 2 && (parts[1] == "at" || parts[1] == "alive"):
			return page.NPCTarget(parts[0])
		case len(parts) == 3 && slices.Contains(beliefFields, parts[2]):
			return page.BeliefTarget(parts[0], parts[1])
		case len(parts) >= 3 && slices.ContainsFunc(page.Blocks, func(b page.Block) bool {
			return b.Name == parts[0] && len(b.Key) == len(parts)-2 && slices.Contains(b.Fields, parts[len(parts)-1])
		}):
			return page.SocialTarget(parts[0], strings.Join(parts[1:len(parts)-1], "/"))
		}
	case artifact.TraceFile, RootCheck, DriftCheck:
		if p.hasRecord {
			return page.TraceTarget(p.record)
		}
	case "expect":
		if slices.Contains(page.Targets, p.about.Kind) {
			return page.Target{Kind: p.about.Kind, Value: p.about.Value}
		}
		if m := beliefCall.FindStringSubmatch(p.Message); m != nil {
			return page.BeliefTarget(m[1], m[2])
		}
		if m := grudgeCall.FindStringSubmatch(p.Message); m != nil {
			return page.SocialTarget("grudge", m[1]+"/"+m[2])
		}
	}
	return page.Target{}
}

// recordSeq reads a trace line's seq.
func recordSeq(line string) (int64, bool) {
	if m := seqField.FindStringSubmatch(line); m != nil {
		if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			return n, true
		}
	}
	return 0, false
}
