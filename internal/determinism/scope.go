package determinism

import (
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Area is a set of packages, by module-relative pattern, and the
// analyzers that hold there, with the reason they hold.
type Area struct {
	// Pattern is a module-relative package path ("ladder") or a tree
	// ("sim/...", the package and everything under it).
	Pattern   string
	Why       string
	Analyzers []*analysis.Analyzer
}

// Engine is every analyzer: what holds in the engine and its views.
var Engine = []*analysis.Analyzer{MapOrder, WallClock, Environ, FileSystem, Randomness, Concurrency, PlatformMath, Fusion, Formatting}

// Writers is what holds where a golden, a trace, a digest or a verdict
// the determinism proof compares is spelt, outside the engine: those
// packages write files and may work beside the engine on goroutines of
// their own, in an order they fix themselves.
var Writers = []*analysis.Analyzer{MapOrder, WallClock, Environ, Randomness, PlatformMath, Fusion, Formatting}

// Areas is the determinism scope: every package whose output can reach
// a golden, a trace, a state digest or an expectation's verdict (which
// the determinism proof compares too). It is drawn wide on purpose — a
// whole tree, less the few packages that write only for people — so that
// a new package is checked the day it is created. Every package the run
// (ladder) and the golden writers (ladder/regen, ladder/pending) link
// must be in an area with analyzers; a spec holds that.
var Areas = []Area{
	{"sim/...", "the engine: its tick phases and state packages", Engine},
	{"views/...", "read-only aggregates of the engine's state, recomputed and compared", Engine},
	{"dense/...", "spells and compares dense.csv", Writers},
	{"tolerances/...", "the regimes a checkpoint is judged by", Writers},
	{"internal/frames", "names the frames of a panic in a run's error", Writers},
	{"ladder/...", "the recorder, the expectations and every writer of an artifact or a golden", Writers},
	// Outside: what these write is for people, and no golden holds it.
	{"ladder/report", "outside: junit.xml and failures.json for CI, and the lock that names a run's process", nil},
	{"ladder/explore", "outside: generates worlds from a seeded generator of its own; a finding is a fixture, judged like any rung", nil},
	{"ladder/harness", "outside: specs of the ladder's machinery, no code of its own", nil},
}

// AreaOf returns the area a module-relative package path belongs to, the
// most specific when several match; false when it is in none or in one
// outside the scope (no analyzers).
func AreaOf(rel string) (Area, bool) {
	best, found := Area{}, false
	for _, a := range Areas {
		tree, isTree := strings.CutSuffix(a.Pattern, "/...")
		matches := rel == a.Pattern || (isTree && (rel == tree || strings.HasPrefix(rel, tree+"/")))
		if matches && (!found || len(a.Pattern) > len(best.Pattern)) {
			best, found = a, true
		}
	}
	return best, found && len(best.Analyzers) > 0
}
