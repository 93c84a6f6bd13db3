package shard

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
)

// CostsFile is the committed file of per-rung costs, relative to the
// repository root.
const CostsFile = "ladder/shard/costs.json"

// Refresh is the command that rewrites CostsFile from a full run.
const Refresh = "make ladder && go run ./tools/ladder costs"

// Costs are run times in milliseconds, by rung id.
type Costs map[string]int64

type costsFile struct {
	Costs   Costs  `json:"costs_ms"`
	Refresh string `json:"refresh"`
}

// ReadCosts reads CostsFile under root; a missing file is no costs (every
// rung then costs the same).
func ReadCosts(root string) (Costs, error) {
	b, err := os.ReadFile(root + "/" + CostsFile)
	if errors.Is(err, fs.ErrNotExist) {
		return Costs{}, nil
	}
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f costsFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("read %s: %w", CostsFile, err)
	}
	for _, r := range slices.Sorted(maps.Keys(f.Costs)) { // so that the same rung is named every time
		if c := f.Costs[r]; c < 0 {
			return nil, fmt.Errorf("read %s: %s costs %d ms", CostsFile, r, c)
		}
	}
	return f.Costs, nil
}

// Marshal writes costs as CostsFile holds them (sorted keys).
func (c Costs) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the refresh command reads as written: &&, not \u0026\u0026
	enc.SetIndent("", "  ")
	if err := enc.Encode(costsFile{Costs: c, Refresh: Refresh}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Spec is "k/n": part k (1-based) of n.
type Spec struct{ K, N int }

// ParseSpec reads "2/4".
func ParseSpec(s string) (Spec, error) {
	a, b, ok := strings.Cut(s, "/")
	k, errK := strconv.Atoi(a)
	n, errN := strconv.Atoi(b)
	if !ok || errK != nil || errN != nil || n < 1 || k < 1 || k > n {
		return Spec{}, fmt.Errorf("shard %q: want k/n with 1 <= k <= n, e.g. 2/4", s)
	}
	return Spec{k, n}, nil
}

// Plan deals rungs (ids, any order, duplicates ignored) into n parts,
// balanced by cost, deterministically. Each part lists its rungs by id.
func Plan(rungs []string, costs Costs, n int) [][]string {
	ids := slices.Compact(slices.Sorted(slices.Values(rungs)))
	fallback := median(costs)
	cost := func(r string) int64 {
		if c, ok := costs[r]; ok {
			return c
		}
		return fallback
	}
	slices.SortStableFunc(ids, func(a, b string) int { return cmp.Compare(cost(b), cost(a)) })
	parts := make([][]string, n)
	load := make([]int64, n)
	for _, r := range ids {
		k := 0
		for i := range load {
			if load[i] < load[k] {
				k = i
			}
		}
		parts[k] = append(parts[k], r)
		load[k] += cost(r)
	}
	for _, p := range parts {
		slices.Sort(p)
	}
	return parts
}

// median is the median known cost (the lower middle), or 1 when none is
// known.
func median(costs Costs) int64 {
	if len(costs) == 0 {
		return 1
	}
	var cs []int64
	for _, c := range costs {
		cs = append(cs, c)
	}
	slices.Sort(cs)
	return cs[(len(cs)-1)/2]
}

// Filter returns the Ginkgo label filter that runs part s of plan: for
// part 1 everything no other part selects, for the others their rungs. A
// part with no rungs is an error: more parts than rungs.
func Filter(plan [][]string, s Spec) (string, error) {
	if len(plan) != s.N {
		return "", fmt.Errorf("shard %d/%d: the plan has %d parts", s.K, s.N, len(plan))
	}
	for i, p := range plan {
		if len(p) == 0 {
			return "", fmt.Errorf("shard %d/%d would run no rung: %d parts is more than there are rungs to balance", i+1, s.N, s.N)
		}
	}
	if s.K > 1 {
		return strings.Join(plan[s.K-1], " || "), nil
	}
	var others []string
	for _, p := range plan[1:] {
		others = append(others, p...)
	}
	if len(others) == 0 {
		return "", nil // one part: everything
	}
	slices.Sort(others)
	return "!(" + strings.Join(others, " || ") + ")", nil
}
