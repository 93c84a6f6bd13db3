package explore

import (
	"encoding/json"
	"fmt"
	"path/filepath"
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
	// corpus world it mutates when it is a mutant.
	First string `json:"first,omitempty"`
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
			g.First = first
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
