package expr

import (
	"fmt"

	"github.com/chronicle/ladder/sim/detmath"
)

// Belief is what an expression can read of a belief at the evaluation
// tick. Formed is the tick its holder first held it: comparing two
// holders' formed ticks says in which order a rumour reached them (T4a.2).
type Belief struct {
	Confidence, Verbatim, Gist float64
	Sources                    int
	Formed                     int64
}

// Grudge is what an expression can read of a grudge at the evaluation
// tick: its strengths as of that tick.
type Grudge struct {
	Emotional, Evidentiary float64
}

// Opinion is what an expression can read of one observer's reputation row.
type Opinion struct {
	Alpha, Beta, Mean float64
}

// Env is the run state an expression is evaluated against.
type Env interface {
	Tick() int64
	Define(name string) (float64, bool)
	Belief(holder, claim string) (Belief, bool)
	Believers(claim string) int
	Holders(claim string) int
	Grudge(holder, target string) (Grudge, bool)
	Opinion(observer, subject, dimension string) (Opinion, bool)
}

// Eval evaluates the expression. It fails when the expression reads
// something that does not exist at this tick, such as a belief not yet
// formed.
func (e *Expr) Eval(env Env) (float64, error) { return e.root.eval(env) }

type node interface {
	eval(Env) (float64, error)
}

type number struct{ v float64 }

func (n number) eval(Env) (float64, error) { return n.v, nil }

type tickNode struct{}

func (tickNode) eval(env Env) (float64, error) { return float64(env.Tick()), nil }

type define struct{ name string }

func (d define) eval(env Env) (float64, error) {
	v, ok := env.Define(d.name)
	if !ok {
		return 0, fmt.Errorf("unknown define %q", d.name)
	}
	return v, nil
}

type neg struct{ n node }

func (n neg) eval(env Env) (float64, error) {
	v, err := n.n.eval(env)
	return -v, err
}

type binary struct {
	op   byte
	l, r node
}

// eval applies one IEEE operation; the conversions round each result to
// float64 so no multiply is fused into a neighbouring add.
func (b binary) eval(env Env) (float64, error) {
	l, err := b.l.eval(env)
	if err != nil {
		return 0, err
	}
	r, err := b.r.eval(env)
	if err != nil {
		return 0, err
	}
	switch b.op {
	case '+':
		return float64(l + r), nil
	case '-':
		return float64(l - r), nil
	case '*':
		return float64(l * r), nil
	default:
		return float64(l / r), nil
	}
}

type beliefField struct{ holder, claim, field string }

func (b beliefField) eval(env Env) (float64, error) {
	bel, ok := env.Belief(b.holder, b.claim)
	if !ok {
		return 0, fmt.Errorf("%s holds no belief in %s at tick %d", b.holder, b.claim, env.Tick())
	}
	switch b.field {
	case "confidence":
		return bel.Confidence, nil
	case "verbatim":
		return bel.Verbatim, nil
	case "gist":
		return bel.Gist, nil
	case "formed":
		return float64(bel.Formed), nil
	default:
		return float64(bel.Sources), nil
	}
}

type grudgeField struct{ holder, target, field string }

func (g grudgeField) eval(env Env) (float64, error) {
	gr, ok := env.Grudge(g.holder, g.target)
	if !ok {
		return 0, fmt.Errorf("%s bears no grudge against %s at tick %d", g.holder, g.target, env.Tick())
	}
	if g.field == "emotional" {
		return gr.Emotional, nil
	}
	return gr.Evidentiary, nil
}

type opinionField struct{ observer, subject, dimension, field string }

func (o opinionField) eval(env Env) (float64, error) {
	op, ok := env.Opinion(o.observer, o.subject, o.dimension)
	if !ok {
		return 0, fmt.Errorf("%s has no opinion of %s's %s at tick %d", o.observer, o.subject, o.dimension, env.Tick())
	}
	switch o.field {
	case "alpha":
		return op.Alpha, nil
	case "beta":
		return op.Beta, nil
	}
	return op.Mean, nil
}

type count struct{ fn, claim string }

func (c count) eval(env Env) (float64, error) {
	if c.fn == "believers" {
		return float64(env.Believers(c.claim)), nil
	}
	return float64(env.Holders(c.claim)), nil
}

type call struct {
	fn   string
	args []node
}

func (c call) eval(env Env) (float64, error) {
	vals := make([]float64, len(c.args))
	for i, a := range c.args {
		v, err := a.eval(env)
		if err != nil {
			return 0, err
		}
		vals[i] = v
	}
	switch c.fn {
	case "exp2":
		return detmath.Exp2(vals[0]), nil
	case "exp":
		return detmath.Exp(vals[0]), nil
	default: // noisy_or, folded left: the order corroborating reports arrive.
		// Written here rather than calling claims.NoisyOr on purpose: an
		// expected value must not be computed by the code it checks.
		acc := vals[0]
		for _, v := range vals[1:] {
			acc = 1 - float64(float64(1-acc)*float64(1-v))
		}
		return acc, nil
	}
}
