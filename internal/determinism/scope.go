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
var Engine = []*analysis.Analyzer{MapOrder, WallClock, Environ, FileSystem, Randomness, Concurrency, PlatformMath, Formatting}

// Writers is what holds where a golden, a trace, a digest or a verdict
// the determinism proof compares is spelt, outside the engine: those
// packages write files and may work beside the engine on goroutines of
// their own, in an order they fix themselves.
var Writers = []*analysis.Analyzer{MapOrder, WallClock, Environ, Randomness, PlatformMath, Formatting}

// Areas is the determinism scope: every package whose output reaches a
// golden, a trace, a state digest or an expectation's verdict. A package
// in none of them (the triage page, the tools, the explorer, the
// benchmarks) is not checked: what it writes is for people, and no
// golden holds it. A package under sim/ or views/ is in scope the day
// it is created.
var Areas = []Area{
	{"sim/...", "the engine: tick phases and state packages", Engine},
	{"views/...", "read-only aggregates over the engine's state, recomputed and compared", Engine},
	{"dense", "spells and compares dense.csv", Writers},
	{"ladder", "the recorder: runs a world, spells its trace and dense rows, writes the artifacts", Writers},
	{"ladder/artifact", "writes and digests trace.jsonl and dense.csv", Writers},
	{"ladder/checkpoint", "writes checkpoints.json", Writers},
	{"ladder/expect", "the expectations, whose verdict the determinism proof compares", Writers},
	{"ladder/expr", "evaluates a fixture's exact expected values", Writers},
	{"ladder/seal", "writes the manifests that seal golden sets", Writers},
	{"ladder/sweep", "writes a sweep's aggregates.csv and summary.json", Writers},
	{"ladder/regen", "regenerates goldens after the two-order proof", Writers},
	{"ladder/pending", "keeps and accepts pending goldens", Writers},
	{"tolerances", "the tolerance regimes a checkpoint is judged by", Writers},
}

// AreaOf returns the area a module-relative package path belongs to, the
// most specific when several match; false when it is in none.
func AreaOf(rel string) (Area, bool) {
	best, found := Area{}, false
	for _, a := range Areas {
		tree, isTree := strings.CutSuffix(a.Pattern, "/...")
		matches := rel == a.Pattern || (isTree && (rel == tree || strings.HasPrefix(rel, tree+"/")))
		if matches && (!found || len(a.Pattern) > len(best.Pattern)) {
			best, found = a, true
		}
	}
	return best, found
}
