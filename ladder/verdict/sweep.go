package verdict

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
)

// verifySweep compares a sweep's artifacts with their goldens byte for
// byte: each seed is deterministic, so any difference is a change of
// behaviour, reported at its first differing line (the seed and the
// aggregate for the aggregates file).
func verifySweep(r *ladder.Result) Verdict {
	f := r.Fixture
	var v Verdict
	root := r.SweepGoldens
	if p, ok := missingGoldens(root, f); ok {
		v.Problems = append(v.Problems, p)
		return v
	}
	dir := filepath.Join(root, filepath.FromSlash(f.GoldenDir()))
	for _, name := range artifact.SweepNames {
		golden, err := os.ReadFile(filepath.Join(dir, name))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			v.Problems = append(v.Problems, missingGolden(root, f, name))
			continue
		case err != nil:
			v.Problems = append(v.Problems, problem(f, name, -1, "cannot read the golden: %v", err))
			continue
		}
		actual, err := os.ReadFile(r.Path(name))
		if err != nil {
			v.Problems = append(v.Problems, problem(f, name, -1, "cannot read the run's: %v", err))
			continue
		}
		if p, ok := sweepDivergence(f, name, golden, actual); ok {
			v.Problems = append(v.Problems, p)
		}
	}
	return v
}

// sweepDivergence is the first line where a sweep artifact differs from
// its golden; in the aggregates file, the seed and the first aggregate
// that differ.
func sweepDivergence(f *fixture.Fixture, name string, golden, actual []byte) (Problem, bool) {
	if bytes.Equal(golden, actual) {
		return Problem{}, false
	}
	g, a := strings.Split(string(golden), "\n"), strings.Split(string(actual), "\n")
	i := 0
	for i < len(g) && i < len(a) && g[i] == a[i] {
		i++
	}
	at := func(l []string) string {
		if i < len(l) {
			return l[i]
		}
		return "(end of file)"
	}
	if name == artifact.AggregatesFile && i > 0 && i < len(g) && i < len(a) {
		header := strings.Split(g[0], ",")
		gc, ac := strings.Split(g[i], ","), strings.Split(a[i], ",")
		for c := 1; c < len(gc) && c < len(ac) && c < len(header) && gc[0] == ac[0]; c++ {
			if gc[c] != ac[c] {
				p := problem(f, name, -1, "first divergence at line %d, seed %s, aggregate %q: golden %s, actual %s "+
					"(each seed is deterministic, so any difference is a change of behaviour; the bounds say whether the distribution still holds)",
					i+1, gc[0], header[c], gc[c], ac[c])
				p.Column, p.Golden, p.Actual = header[c], gc[c], ac[c]
				return p, true
			}
		}
	}
	p := problem(f, name, -1, "first different line %d: golden `%s`, actual `%s`", i+1, at(g), at(a))
	p.Golden, p.Actual = at(g), at(a)
	return p, true
}
