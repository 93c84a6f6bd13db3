package expect

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/jsonschema"
)

// curve checks believers(claim) at every tick of the run against a step
// function written as tick: count pairs (the count holds from its tick
// until the next step's). It always covers the whole run, so timing keys
// are refused. It examines ticks.
//
//	curve: {claim: theft@10, believers: {0: 0, 10: 5, 14: 6}}
type curveKind struct{}

func (curveKind) Name() string   { return "curve" }
func (curveKind) Timing() Timing { return WholeRunOnly }
func (curveKind) Doc() string {
	return "believers(claim) at every tick against a step function of tick: count; always the whole run"
}

type curveCheck struct {
	claim string
	steps []step
	at    Pos // of believers
}

type step struct {
	tick, count int64
	at          Pos
}

func (curveKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &curveCheck{}
	d.Object(n, path,
		Field{Name: "claim", Required: true, Doc: "the claim whose believers are counted", Decode: func(v *yaml.Node, p string) { c.claim = d.Claim(v, p) }},
		Field{Name: "believers", Required: true, Doc: "tick: count steps from tick 0, ticks increasing; each count holds until the next step",
			Schema: jsonschema.Map(&jsonschema.Schema{Pattern: TickKeySchemaPattern}, jsonschema.Integer().Min(0)), Decode: func(v *yaml.Node, p string) {
				for v != nil && v.Kind == yaml.AliasNode {
					v = v.Alias
				}
				c.at = PosOf(v)
				if v.Kind != yaml.MappingNode {
					d.Errorf(v, p, "want a mapping of tick: believer count (a step function)")
					return
				}
				for i := 0; i+1 < len(v.Content); i += 2 {
					kp := fmt.Sprintf("%s[%s]", p, v.Content[i].Value)
					t, ok1 := d.TickKey(v.Content[i], kp)
					cnt, ok2 := d.Int(v.Content[i+1], kp)
					if !ok1 || !ok2 {
						continue
					}
					if len(c.steps) == 0 && t != 0 {
						d.Errorf(v.Content[i], kp, "a curve starts at tick 0")
					}
					if len(c.steps) > 0 && t <= c.steps[len(c.steps)-1].tick {
						d.Errorf(v.Content[i], kp, "curve ticks must increase")
					}
					c.steps = append(c.steps, step{t, cnt, PosOf(v.Content[i])})
				}
			}},
	)
	return c
}

func (c *curveCheck) Unit() string { return "ticks" }

// Finish fails a curve of nobody, ever (every step 0), when the claim was
// not in the world at any tick: nobody could have believed it.
func (c *curveCheck) Finish(o *Outcome) {
	if c.nobody() && !o.Failed() && o.Examined > 0 && o.Candidates == 0 {
		o.couldNot(c.at, c.Unit(), fmt.Sprintf("claim %s was not in the world at any tick, so nobody could have believed it", c.claim))
	}
}

// nobody reports whether every step of the curve is 0: a negative.
func (c *curveCheck) nobody() bool {
	return !slices.ContainsFunc(c.steps, func(s step) bool { return s.count != 0 })
}

func (c *curveCheck) AtTick(w World, o *Outcome) {
	o.Examine(1)
	t := w.Tick()
	if _, minted := w.Store().Claim(c.claim); minted {
		o.Candidates++
	}
	var want step
	for _, s := range c.steps {
		if s.tick <= t {
			want = s
		}
	}
	if got := int64(w.Believers(c.claim)); got != want.count {
		o.Fail(t, want.at, "believers(%s) = %d, want %d on the curve", c.claim, got, want.count)
	}
}
