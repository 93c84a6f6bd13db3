package expr_test

import (
	"github.com/chronicle/ladder/ladder/expr"
	"github.com/chronicle/ladder/sim/rules"
)

// fakeEnv is a run state made of maps. Its defines are the engine's
// defaults unless a spec replaces them.
type fakeEnv struct {
	tick      int64
	defines   map[string]float64
	beliefs   map[[2]string]expr.Belief
	believers map[string]int
	holders   map[string]int
	grudges   map[[2]string]expr.Grudge
	opinions  map[[3]string]expr.Opinion
}

func newEnv() *fakeEnv {
	d := rules.Default()
	defines := map[string]float64{}
	for _, f := range rules.Fields() {
		v, _ := d.Value(f.Name)
		defines[f.Name] = v
	}
	return &fakeEnv{
		tick:    5,
		defines: defines,
		beliefs: map[[2]string]expr.Belief{
			{"w1", "theft@2"}:          {Confidence: 0.9, Verbatim: 0.5, Gist: 0.25, Sources: 2, Formed: 3},
			{"w2", "theft@2"}:          {Confidence: 0.72, Verbatim: 0.125, Gist: 0.875, Sources: 1},
			{"npc_1", "a.b:c~d-e@7"}:   {Confidence: 0.1, Verbatim: 0.2, Gist: 0.3, Sources: 7},
			{"listener", "killing@10"}: {Confidence: 0.0009765625, Verbatim: 1, Gist: 1, Sources: 0},
		},
		believers: map[string]int{"theft@2": 3, "killing@10": 1},
		holders:   map[string]int{"theft@2": 4, "killing@10": 2},
		grudges:   map[[2]string]expr.Grudge{{"loser", "player"}: {Emotional: 0.8, Evidentiary: 0.45}},
		opinions:  map[[3]string]expr.Opinion{{"jon", "player", "reliability"}: {Alpha: 1, Beta: 2, Mean: 1.0 / 3}},
	}
}

func (e *fakeEnv) Tick() int64 { return e.tick }

func (e *fakeEnv) Define(name string) (float64, bool) {
	v, ok := e.defines[name]
	return v, ok
}

func (e *fakeEnv) Belief(holder, claim string) (expr.Belief, bool) {
	b, ok := e.beliefs[[2]string{holder, claim}]
	return b, ok
}

func (e *fakeEnv) Believers(claim string) int { return e.believers[claim] }

func (e *fakeEnv) Holders(claim string) int { return e.holders[claim] }

func (e *fakeEnv) Grudge(holder, target string) (expr.Grudge, bool) {
	g, ok := e.grudges[[2]string{holder, target}]
	return g, ok
}

func (e *fakeEnv) Opinion(observer, subject, dimension string) (expr.Opinion, bool) {
	o, ok := e.opinions[[3]string{observer, subject, dimension}]
	return o, ok
}

// defineNames lists every define the engine has.
func defineNames() []string {
	var out []string
	for _, f := range rules.Fields() {
		out = append(out, f.Name)
	}
	return out
}
