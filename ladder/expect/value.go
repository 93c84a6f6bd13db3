package expect

import (
	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/expr"
)

// value checks an arbitrary expression against an expected number (a
// literal or another expression), bit for bit, at every tick of its range.
// A NaN or infinite value on either side fails. It examines ticks.
//
//	value: {expr: "believers(theft@1)", equals: "holders(theft@1) - 1"}
type valueKind struct{}

func (valueKind) Name() string   { return "value" }
func (valueKind) Timing() Timing { return AtEnd }
func (valueKind) Doc() string {
	return "an expression equals a number or another expression, bit for bit; at the last tick unless timed"
}

type valueCheck struct {
	expr   *expr.Expr
	exprAt Pos
	equals *Number
}

func (valueKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &valueCheck{}
	d.Object(n, path,
		Field{Name: "expr", Required: true, Doc: "the value computed", Decode: func(v *yaml.Node, p string) { c.expr, c.exprAt = d.Expression(v, p), PosOf(v) }},
		Field{Name: "equals", Required: true, Doc: "what it must equal, bit for bit", Decode: func(v *yaml.Node, p string) { c.equals = d.Number(v, p) }},
	)
	return c
}

func (c *valueCheck) Unit() string    { return "ticks" }
func (c *valueCheck) Finish(*Outcome) {}

func (c *valueCheck) AtTick(w World, o *Outcome) {
	o.Examine(1)
	got, err := c.expr.Eval(w)
	if err != nil {
		o.Fail(w.Tick(), c.exprAt, "%s: %v", c.expr, err)
		return
	}
	if !finite(got) {
		o.Fail(w.Tick(), c.exprAt, "%s = %s: an assertion cannot compare it", c.expr, formatFloat(got))
		return
	}
	c.equals.compare(w, o, c.expr.String(), got)
}
