package ladder

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/rules"
)

// Sealed returns the files a run of f writes and its manifest seals, in
// the order they are written and checked: a sweep rung's aggregates and
// summary, every other rung's dense file, checkpoints and trace.
func Sealed(f *fixture.Fixture) []string {
	if f.Sweep != nil {
		return artifact.SweepNames
	}
	return artifact.RungNames
}

// Artifacts returns every golden file of f's set: the files its manifest
// seals, then the manifest.
func Artifacts(f *fixture.Fixture) []string {
	return append(slices.Clone(Sealed(f)), artifact.ManifestFile)
}

// ArtifactOrder sorts artifact names as runs write them: a rung's
// artifacts in artifact.RungNames order, then any other name bytewise, the
// manifest last — for listings that know names but not the fixture.
func ArtifactOrder(names []string) []string {
	rank := func(n string) int {
		if i := slices.Index(artifact.RungNames, n); i >= 0 {
			return i
		}
		if i := slices.Index(artifact.SweepNames, n); i >= 0 {
			return i
		}
		if n == artifact.ManifestFile {
			return len(artifact.RungNames) + 1
		}
		return len(artifact.RungNames)
	}
	out := slices.Clone(names)
	slices.SortFunc(out, func(a, b string) int { return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a, b)) })
	return out
}

// recordedDefines returns the defines of the layers a world uses as
// checkpoints.json records them, beside their hash: each value as its
// canonical JSON number, so a drift warning can name the define that
// moved.
func recordedDefines(d rules.Defines, layers rules.Layers) (map[string]json.Number, error) {
	out := map[string]json.Number{}
	for _, f := range d.Canonical(layers) {
		b, err := canon.Marshal(f.Value)
		if err != nil {
			return nil, fmt.Errorf("record define %s: %w", f.Key, err)
		}
		out[f.Key] = json.Number(b)
	}
	return out, nil
}
