package explore

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder/coverage"
	"github.com/chronicle/ladder/sim/rules"
)

// CoverageFile is what an exploration reached of the rule regimes,
// written under Options.Out.
const CoverageFile = "coverage.json"

// Coverage is what the explored worlds reached of the rule regimes that
// the rules declare (sim/rules), metered by the ladder's own meter on
// each world's base run: for each regime, how many worlds reached it and
// the first (by index) that did. A world replays from its seed and
// index, so "first" is a world anyone can run again.
type Coverage struct {
	Seed    uint64          `json:"seed"`
	Shard   string          `json:"shard"`
	Worlds  int             `json:"worlds"`
	Reached int             `json:"reached"`
	Of      int             `json:"of"`
	Regimes []RegimeReached `json:"regimes"`
	index   map[string]int
}

// RegimeReached is one declared regime and the worlds that reached it.
type RegimeReached struct {
	Number int    `json:"number"`
	Rule   string `json:"rule"`
	Regime string `json:"regime"`
	// Unreachable is the catalogue's reason when no world can reach it.
	Unreachable string `json:"unreachable,omitempty"`
	Worlds      int    `json:"worlds"`
	// First is the first world to reach it, "seed S world I", with the
	// corpus world it mutates when it is a mutant, and FirstWorld its
	// index (I), for a program: merging a campaign's shards keeps the
	// lowest across them.
	First      string `json:"first,omitempty"`
	FirstWorld *int64 `json:"first_world,omitempty"`
}

func newCoverage(opt Options) *Coverage {
	c := &Coverage{Seed: opt.Seed, Shard: fmt.Sprintf("%d/%d", opt.Shard, opt.Shards), index: map[string]int{}}
	for _, r := range rules.Catalogue() {
		for _, g := range r.Regimes {
			c.index[r.Name+"\x00"+g.Name] = len(c.Regimes)
			c.Regimes = append(c.Regimes, RegimeReached{Number: r.Number, Rule: r.Name, Regime: g.Name, Unreachable: g.Unreachable})
		}
	}
	c.Of = len(c.Regimes)
	return c
}

// add counts a world's reached regimes; worlds come in index order.
func (c *Coverage) add(cs *Case, reached []coverage.Reached) {
	c.Worlds++
	first := cs.World.String()
	if cs.Parent != nil {
		first += fmt.Sprintf(" (a mutant of world %d)", cs.Parent.Index)
	}
	for _, r := range reached {
		i, ok := c.index[r.Rule+"\x00"+r.Regime]
		if !ok {
			continue
		}
		g := &c.Regimes[i]
		if g.Worlds == 0 {
			index := cs.World.Index
			g.First, g.FirstWorld = first, &index
			c.Reached++
		}
		g.Worlds++
	}
}

func (c *Coverage) reached() int { return c.Reached }

// Missing names the reachable regimes no world reached, in catalogue
// order.
func (c *Coverage) Missing() []string {
	var out []string
	for _, g := range c.Regimes {
		if g.Worlds == 0 && g.Unreachable == "" {
			out = append(out, fmt.Sprintf("rule %d %s: %s", g.Number, g.Rule, g.Regime))
		}
	}
	return out
}

// Line is the summary's coverage line.
func (c *Coverage) Line() string {
	missing := c.Missing()
	s := fmt.Sprintf("explore: %d of %d rule regimes reached by %d worlds", c.Reached, c.Of, c.Worlds)
	switch {
	case len(missing) == 0:
		return s + ", every reachable one"
	case len(missing) <= 6:
		return s + "; not reached: " + strings.Join(missing, "; ")
	}
	return fmt.Sprintf("%s; %d reachable ones not reached (%s)", s, len(missing), CoverageFile)
}

// Write writes the coverage as CoverageFile under dir.
func (c *Coverage) Write(dir string) (string, error) {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, CoverageFile)
	return path, writeAtomic(path, append(b, '\n'))
}

// mergeCoverage joins a campaign's shards' coverage into one
// exploration's of all their worlds: each regime's world count summed,
// its first world the lowest-indexed across the shards. The shards must
// meter the same catalogue.
func mergeCoverage(parts []*Coverage) (*Coverage, error) {
	first := parts[0]
	m := &Coverage{Seed: first.Seed, Shard: "1/1", Of: first.Of, Regimes: slices.Clone(first.Regimes)}
	for i := range m.Regimes {
		m.Regimes[i].Worlds, m.Regimes[i].First, m.Regimes[i].FirstWorld = 0, "", nil
	}
	for _, c := range parts {
		if len(c.Regimes) != len(m.Regimes) {
			return nil, fmt.Errorf("coverage: shards of %s and %s meter %d and %d regimes: built from different commits?", first.Shard, c.Shard, len(m.Regimes), len(c.Regimes))
		}
		m.Worlds += c.Worlds
		for i, g := range c.Regimes {
			r := &m.Regimes[i]
			if g.Number != r.Number || g.Rule != r.Rule || g.Regime != r.Regime || g.Unreachable != r.Unreachable {
				return nil, fmt.Errorf("coverage: shards of %s and %s meter different regimes (rule %d %s: %s, rule %d %s: %s): built from different commits?",
					first.Shard, c.Shard, r.Number, r.Rule, r.Regime, g.Number, g.Rule, g.Regime)
			}
			if g.Worlds > 0 && g.FirstWorld == nil {
				return nil, fmt.Errorf("coverage: shard %s: rule %d %s: %s was reached but names no first_world", c.Shard, g.Number, g.Rule, g.Regime)
			}
			r.Worlds += g.Worlds
			if g.FirstWorld != nil && (r.FirstWorld == nil || *g.FirstWorld < *r.FirstWorld) {
				r.First, r.FirstWorld = g.First, g.FirstWorld
			}
		}
	}
	for _, r := range m.Regimes {
		if r.Worlds > 0 {
			m.Reached++
		}
	}
	return m, nil
}
