package report

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/ladder/verdict"
)

// FailedRun is one failed run as the closing summary lists it: its
// problems in the order its spec printed them (root cause first), the
// earliest tick any of them was found at (-1 when none was; a count
// judged over a range, placed at its first tick, does not count) and its
// drift class when the run has a drift line.
type FailedRun struct {
	Name     string
	Tier     string
	Tick     int64
	Class    string
	Problems []verdict.Problem
}

// rungTier reads the tier off a rung id: "3" of T3.2, "4b" of T4b.1.
var rungTier = regexp.MustCompile(`^T([0-9]+)([a-z]?)`)

// tierKey orders tiers numerically, then by letter: 2 < 4a < 4b < 10.
func tierKey(rung string) (int, string) {
	m := rungTier.FindStringSubmatch(rung)
	if m == nil {
		return 1 << 30, ""
	}
	n, _ := strconv.Atoi(m[1])
	return n, m[2]
}

// FailedRuns groups problems by run and orders the runs as a person
// should read them: by tier, lowest first (a lower tier's mechanism is
// under every higher one's), then by the earliest tick at which the run
// diverges (a run without a tick last), then by name. It does not depend
// on the order the specs ran in, so a randomized suite reads the same.
// Problems without a rung (a harness spec's) are left out.
func FailedRuns(problems []verdict.Problem) []FailedRun {
	byName := map[string]*FailedRun{}
	var names []string
	for _, p := range problems {
		if p.Rung == "" {
			continue
		}
		name := p.Rung
		if p.Case != "" {
			name += "/" + p.Case
		}
		r := byName[name]
		if r == nil {
			n, letter := tierKey(p.Rung)
			r = &FailedRun{Name: name, Tier: strconv.Itoa(n) + letter, Tick: -1}
			byName[name] = r
			names = append(names, name)
		}
		r.Problems = append(r.Problems, p)
		if p.Tick >= 0 && !p.Ranged && (r.Tick < 0 || p.Tick < r.Tick) {
			r.Tick = p.Tick
		}
		if p.Class != "" && r.Class == "" {
			r.Class = p.Class
		}
	}
	out := make([]FailedRun, 0, len(names))
	for _, n := range names {
		out = append(out, *byName[n])
	}
	slices.SortFunc(out, func(a, b FailedRun) int {
		an, al := tierKey(a.Name)
		bn, bl := tierKey(b.Name)
		return cmp.Or(cmp.Compare(an, bn), cmp.Compare(al, bl),
			cmp.Compare(uint64(a.Tick), uint64(b.Tick)), // -1 is the largest
			cmp.Compare(a.Name, b.Name))
	})
	return out
}

// ClosingFile is where a red run's closing block is kept, under the
// reports directory, for `make ladder` to print again once Ginkgo's own
// summary has been printed: the block, then the count line.
const ClosingFile = "closing.txt"

// ClosingLines is the block the ladder ends with when runs failed: one
// "start here:" line with the first run's first problem (its root cause,
// commands and page link), then every failed run on one line — tier
// order, earliest divergence first — with its class and first problem.
func ClosingLines(runs []FailedRun) []string {
	if len(runs) == 0 {
		return nil
	}
	first := runs[0]
	where := "no tick"
	if first.Tick >= 0 {
		where = fmt.Sprintf("tick %d", first.Tick)
	}
	p := first.Problems[0]
	out := []string{fmt.Sprintf("start here: %s at %s: %s (page: %s)", first.Name, where, oneLine(strings.TrimPrefix(p.Message, first.Name+" ")), cmp.Or(p.Link, p.PageLink()))}
	out = append(out, fmt.Sprintf("failed runs (%d), by tier, then earliest divergent tick:", len(runs)))
	width := 0
	for _, r := range runs {
		width = max(width, len(r.Name))
	}
	for _, r := range runs {
		tick := "-"
		if r.Tick >= 0 {
			tick = strconv.FormatInt(r.Tick, 10)
		}
		class := cmp.Or(r.Class, "-")
		line := strings.TrimSuffix(withoutCommands(oneLine(strings.TrimPrefix(r.Problems[0].Message, r.Name+" "))), ";")
		out = append(out, fmt.Sprintf("  %-*s  tick %-5s  %-18s  %s", width, r.Name, tick, class, line))
	}
	return out
}

// oneLine joins a message's lines (a fixture's load errors, its command
// on a line of its own) with "; ".
func oneLine(msg string) string { return strings.ReplaceAll(strings.TrimSpace(msg), "\n", "; ") }

// withoutCommands drops the reproduce suffix of a problem's message: the
// start-here line carries it, and each run's is the same command.
func withoutCommands(msg string) string {
	if i := strings.LastIndex(msg, " (reproduce: "); i >= 0 {
		return msg[:i]
	}
	return msg
}
