package expect

import (
	"math"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder/expr"
	"github.com/chronicle/ladder/sim/canon"
)

// Number is an expected number: a literal, or an expression evaluated at
// the same tick. Either is compared bit for bit.
type Number struct {
	Literal float64
	Expr    *expr.Expr // nil for a literal
	Pos     Pos
}

// SameFloat is bit-for-bit equality, the only equality exact assertions
// accept (it also tells 0.0 from -0.0).
func SameFloat(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// compare checks got against the expected number at the current tick and
// records a failure at the number's position. what names the value
// ("belief(a, theft@1).confidence").
func (n *Number) compare(env expr.Env, o *Outcome, what string, got float64) bool {
	if n == nil {
		return true
	}
	t := env.Tick()
	want, src := n.Literal, ""
	if n.Expr != nil {
		v, err := n.Expr.Eval(env)
		if err != nil {
			o.Fail(t, n.Pos, "%s: cannot evaluate the expected value %s: %v", what, n.Expr, err)
			return false
		}
		want, src = v, " (= "+n.Expr.String()+")"
	}
	if !finite(want) {
		o.Fail(t, n.Pos, "%s: the expected value %s is %s: an assertion cannot compare with it", what, n.Expr, canon.FormatFloat(want))
		return false
	}
	if !SameFloat(got, want) {
		o.Fail(t, n.Pos, "%s = %s, want %s%s", what, canon.FormatFloat(got), canon.FormatFloat(want), src)
		return false
	}
	return true
}

func list(s []string) string { return "[" + strings.Join(s, ", ") + "]" }

// minus returns the elements of a not in b, in a's order.
func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func formatFloat(x float64) string { return canon.FormatFloat(x) }
