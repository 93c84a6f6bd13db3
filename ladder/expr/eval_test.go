package expr_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/expr"
	"github.com/chronicle/ladder/sim/detmath"
)

// Runtime float64 operations: Go folds untyped constant expressions
// exactly, so an expected value spelled 0.1 + 0.2 in a table would be 0.3,
// not the IEEE sum an expression computes. These round once per operation.
func add(a, b float64) float64 { return a + b }
func sub(a, b float64) float64 { return a - b }
func mul(a, b float64) float64 { return float64(a * b) }
func div(a, b float64) float64 { return a / b }

// noisyOr is the pairwise rule written out, folded left.
func noisyOr(xs ...float64) float64 {
	acc := xs[0]
	for _, x := range xs[1:] {
		acc = 1 - float64(float64(1-acc)*float64(1-x))
	}
	return acc
}

// g formats a float so that it parses back to the same bits.
func g(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// eval parses and evaluates src against env, failing on any error.
func eval(src string, env expr.Env) float64 {
	GinkgoHelper()
	x, err := expr.Parse(src)
	Expect(err).NotTo(HaveOccurred(), "parse %q", src)
	v, err := x.Eval(env)
	Expect(err).NotTo(HaveOccurred(), "eval %q", src)
	return v
}

// sameBits compares two floats bit for bit, which Equal (==) does not:
// it calls -0 equal to 0.
func sameBits(got, want float64) {
	GinkgoHelper()
	Expect(math.Float64bits(got)).To(Equal(math.Float64bits(want)), "got %v (%#x), want %v (%#x)", got, math.Float64bits(got), want, math.Float64bits(want))
}

var _ = Describe("Eval", func() {
	var env *fakeEnv
	BeforeEach(func() { env = newEnv() })

	DescribeTable("arithmetic: precedence, associativity, unary minus, parentheses",
		func(src string, want float64) { sameBits(eval(src, env), want) },
		Entry(nil, "1 + 2 * 3", 7.0),
		Entry(nil, "(1 + 2) * 3", 9.0),
		Entry(nil, "2 * 3 + 4", 10.0),
		Entry(nil, "1 - 2 * 3 + 4", -1.0),
		Entry(nil, "1+2*3-4/2", 5.0),
		Entry("subtraction is left-associative", "10 - 4 - 3", 3.0),
		Entry("division is left-associative", "64 / 4 / 2", 8.0),
		Entry("* and / share a level, left to right", "1 / 4 * 2", 0.5),
		Entry("addition is left-associative to the last bit", "0.1 + 0.2 + 0.3", add(add(0.1, 0.2), 0.3)),
		Entry("parentheses regroup it", "0.1 + (0.2 + 0.3)", add(0.1, add(0.2, 0.3))),
		Entry(nil, "0.1 + 0.2", 0.30000000000000004),
		Entry(nil, "1 / 3", div(1, 3)),
		Entry("unary minus binds tighter than *", "-2 * 3", -6.0),
		Entry("minus a negative", "2 - -3", 5.0),
		Entry(nil, "-2 * -3", 6.0),
		Entry("minus a group", "-(2 + 3)", -5.0),
		Entry("double minus", "--2", 2.0),
		Entry("double minus, spaced", "- - 2", 2.0),
		Entry("negative zero", "-0", math.Copysign(0, -1)),
		Entry("zero minus zero is positive", "0 - 0", 0.0),
		Entry("deep parentheses", "((((7))))", 7.0),
		Entry("whitespace of every kind", " \t1\n+\r2 ", 3.0),
		Entry("division by zero", "1 / 0", math.Inf(1)),
		Entry("negative division by zero", "-1 / 0", math.Inf(-1)),
		Entry("overflow", "1e308 * 10", math.Inf(1)),
	)

	It("yields NaN for 0/0 rather than failing", func() {
		Expect(math.IsNaN(eval("0 / 0", env))).To(BeTrue())
	})

	DescribeTable("numbers",
		func(src string, want float64) { sameBits(eval(src, env), want) },
		Entry(nil, "0", 0.0),
		Entry(nil, "42", 42.0),
		Entry(nil, "3.25", 3.25),
		Entry("a leading dot", ".5", 0.5),
		Entry("a trailing dot", "5.", 5.0),
		Entry("leading zeros are decimal", "007", 7.0),
		Entry("an exponent", "1e3", 1000.0),
		Entry("an upper-case negative exponent", "1E-3", 0.001),
		Entry("a signed exponent", "1.5e+2", 150.0),
		Entry(nil, "2.5e-1", 0.25),
		Entry("digit separators", "1_000", 1000.0),
		Entry("a minus after an exponent's digits is subtraction", "1e-1-1", sub(0.1, 1)),
		Entry("a plus after a number is addition", "2+1", 3.0),
		Entry("the shortest repr of a double", "0.7200000000000001", 0.7200000000000001),
		Entry("a subnormal", "5e-324", math.SmallestNonzeroFloat64),
		Entry("the largest double", "1.7976931348623157e308", math.MaxFloat64),
	)

	DescribeTable("names",
		func(src string, want float64) { sameBits(eval(src, env), want) },
		Entry("tick", "tick", 5.0),
		Entry(nil, "tick * 2 - 1", 9.0),
		Entry(nil, "-tick", -5.0),
		Entry("a float define", "defines.retell_decay", 0.8),
		Entry("an integer define, as a float", "defines.ticks_per_day", 24.0),
		Entry(nil, "defines.witness_confidence", 0.9),
		Entry("space before the dot", "defines .retell_decay", 0.8),
		Entry("belief confidence", "belief(w1, theft@2).confidence", 0.9),
		Entry("belief verbatim", "belief(w1, theft@2).verbatim", 0.5),
		Entry("belief gist", "belief(w1, theft@2).gist", 0.25),
		Entry("belief sources, as a float", "belief(w1, theft@2).sources", 2.0),
		Entry("the tick a belief formed, as a float", "belief(w1, theft@2).formed", 3.0),
		Entry("the order two holders heard a claim in", "belief(w2, theft@2).formed - belief(w1, theft@2).formed", -3.0),
		Entry("grudge emotional", "grudge(loser, player).emotional", 0.8),
		Entry("grudge evidentiary", "grudge(loser, player).evidentiary", 0.45),
		Entry("reputation alpha", "reputation(jon, player, reliability).alpha", 1.0),
		Entry("reputation beta", "reputation(jon, player, reliability).beta", 2.0),
		Entry("reputation mean", "reputation(jon, player, reliability).mean", 1.0/3),
		Entry("spaces inside belief(...) and before the field's dot", "belief( w1 , theft@2 ) .gist", 0.25),
		Entry("ids with every character ids allow", "belief(npc_1, a.b:c~d-e@7).sources", 7.0),
		Entry("believers", "believers(theft@2)", 3.0),
		Entry("holders", "holders(theft@2)", 4.0),
		Entry("spaces around a claim", "holders( killing@10 )", 2.0),
		Entry("a claim nobody holds", "believers(heist)", 0.0),
		Entry("the retold confidence of T0.3", "belief(w1, theft@2).confidence * defines.retell_decay", 0.7200000000000001),
		Entry("one rounding per operation", "belief(w1, theft@2).confidence * defines.retell_decay + 0.1", add(mul(0.9, 0.8), 0.1)),
		Entry("names in arithmetic", "believers(theft@2) / holders(theft@2) - tick", sub(div(3, 4), 5)),
	)

	DescribeTable("functions",
		func(src string, want float64) { sameBits(eval(src, env), want) },
		Entry("noisy_or of one value is the value", "noisy_or(0.3)", 0.3),
		Entry("noisy_or of T0.3's two retold reports", "noisy_or(0.7200000000000001, 0.7200000000000001)", 0.9216000000000001),
		Entry("noisy_or of 0.72 twice, one ulp lower", "noisy_or(0.72, 0.72)", 0.9216),
		Entry("noisy_or of expressions", "noisy_or(belief(w1, theft@2).confidence * defines.retell_decay, belief(w2, theft@2).confidence)",
			noisyOr(mul(0.9, 0.8), 0.72)),
		Entry("noisy_or with a certainty", "noisy_or(0.4, 1)", 1.0),
		Entry("exp2 of an integer is exact", "exp2(-10)", 0.0009765625),
		Entry("exp2 of T0.2's verbatim at tick 24", "exp2(-24 / defines.verbatim_half_life_ticks)", 0.7937005259840997),
		Entry("exp2 of T0.2's gist at tick 720", "exp2(-720 / defines.gist_half_life_ticks)", 0.5946035575013605),
		Entry("exp2 over tick", "exp2(-(tick - 2) / defines.verbatim_half_life_ticks)", detmath.Exp2(div(-3, 72))),
		Entry("exp", "exp(1)", detmath.Exp(1)),
		Entry("nested calls", "noisy_or(exp2(-1), exp(-1), belief(w2, theft@2).gist)", noisyOr(0.5, detmath.Exp(-1), 0.875)),
		Entry("a call in arithmetic", "1 - exp2(0 - 1) * 2", 0.0),
		Entry("space before the parenthesis", "exp2 (3)", 8.0),
	)

	Describe("noisy_or folds left", func() {
		DescribeTable("noisy_or(a, b, c) is noisy_or(noisy_or(a, b), c), bit for bit",
			func(a, b, c float64) {
				args := fmt.Sprintf("%s, %s, %s", g(a), g(b), g(c))
				flat := eval("noisy_or("+args+")", env)
				nested := eval(fmt.Sprintf("noisy_or(noisy_or(%s, %s), %s)", g(a), g(b), g(c)), env)
				sameBits(flat, nested)
				sameBits(flat, noisyOr(a, b, c))
			},
			Entry(nil, 0.1, 0.2, 0.3),
			Entry(nil, 0.72, 0.72, 0.72),
			Entry(nil, 0.9, 0.123456789, 0.987654321),
			Entry(nil, 0.0, 0.0, 0.0),
			Entry(nil, 1.0, 0.5, 0.25),
			Entry(nil, 1e-17, 0.3, 0.7),
			Entry("a triple where folding right differs", 0.1, 0.1, 0.3),
		)

		It("is not the right fold: the order of reports matters to the last bit", func() {
			left := eval("noisy_or(0.1, 0.1, 0.3)", env)
			right := eval("noisy_or(0.1, noisy_or(0.1, 0.3))", env)
			Expect(math.Float64bits(left)).NotTo(Equal(math.Float64bits(right)))
			sameBits(left, 0.43300000000000005)
		})

		It("holds for many arguments and random values", func() {
			r := rand.New(rand.NewPCG(1, 2))
			for range 500 {
				n := 2 + r.IntN(5)
				xs := make([]float64, n)
				for i := range xs {
					xs[i] = r.Float64()
				}
				flat := "noisy_or(" + g(xs[0])
				nested := g(xs[0])
				for _, x := range xs[1:] {
					flat += ", " + g(x)
					nested = "noisy_or(" + nested + ", " + g(x) + ")"
				}
				flat += ")"
				sameBits(eval(flat, env), eval(nested, env))
				sameBits(eval(flat, env), noisyOr(xs...))
			}
		})
	})

	DescribeTable("exp2 and exp are the engine's detmath, bit for bit",
		func(x float64) {
			sameBits(eval("exp2("+g(x)+")", env), detmath.Exp2(x))
			sameBits(eval("exp("+g(x)+")", env), detmath.Exp(x))
			sameBits(eval("exp2(-"+g(x)+")", env), detmath.Exp2(-x))
			sameBits(eval("exp(-"+g(x)+")", env), detmath.Exp(-x))
		},
		Entry(nil, 0.0),
		Entry(nil, 1.0),
		Entry(nil, 0.5),
		Entry(nil, 1.0/3),
		Entry(nil, 0.3333333333333333),
		Entry(nil, 10.0),
		Entry(nil, 0.75),
		Entry(nil, 1e-9),
		Entry(nil, 3.7252902984e-09),
		Entry(nil, 700.0),
		Entry(nil, 709.78),
		Entry(nil, 745.2),
		Entry(nil, 1023.5),
		Entry(nil, 1074.0),
		Entry(nil, 1075.0),
		Entry(nil, 1e300),
	)

	It("matches detmath over a sweep of decay ages", func() {
		for t := int64(0); t <= 720; t++ {
			env.tick = t
			sameBits(eval("exp2(-tick / defines.verbatim_half_life_ticks)", env), detmath.Exp2(div(-float64(t), 72)))
			sameBits(eval("exp2(-tick / defines.gist_half_life_ticks)", env), detmath.Exp2(div(-float64(t), 960)))
		}
	})

	It("reads the env afresh on every evaluation", func() {
		x, err := expr.Parse("tick + belief(w1, theft@2).confidence + defines.retell_decay")
		Expect(err).NotTo(HaveOccurred())
		v, err := x.Eval(env)
		Expect(err).NotTo(HaveOccurred())
		sameBits(v, add(add(5, 0.9), 0.8))
		env.tick = 10
		env.defines["retell_decay"] = 0.5
		env.beliefs[[2]string{"w1", "theft@2"}] = expr.Belief{Confidence: 0.25}
		v, err = x.Eval(env)
		Expect(err).NotTo(HaveOccurred())
		sameBits(v, 10.75)
	})

	Describe("errors", func() {
		DescribeTable("a belief that does not exist names holder, claim and tick",
			func(src, want string) {
				x, err := expr.Parse(src)
				Expect(err).NotTo(HaveOccurred())
				_, err = x.Eval(env)
				Expect(err).To(MatchError(want))
			},
			Entry("no such holder", "belief(w3, theft@2).confidence", "w3 holds no belief in theft@2 at tick 5"),
			Entry("no such claim", "belief(w1, theft@9).gist", "w1 holds no belief in theft@9 at tick 5"),
			Entry("inside arithmetic, on the right", "1 + belief(w3, theft@2).gist", "w3 holds no belief in theft@2 at tick 5"),
			Entry("inside arithmetic, on the left", "belief(w3, theft@2).gist * 2", "w3 holds no belief in theft@2 at tick 5"),
			Entry("under unary minus", "-belief(w3, theft@2).verbatim", "w3 holds no belief in theft@2 at tick 5"),
			Entry("in a later argument", "noisy_or(0.5, belief(w3, theft@2).confidence)", "w3 holds no belief in theft@2 at tick 5"),
			Entry("in exp2", "exp2(belief(w3, theft@2).sources)", "w3 holds no belief in theft@2 at tick 5"),
			Entry("the first missing belief, left to right", "belief(a, x).gist + belief(b, y).gist", "a holds no belief in x at tick 5"),
			Entry("no such grudge", "grudge(player_friend, player).emotional", "player_friend bears no grudge against player at tick 5"),
			Entry("no such opinion", "reputation(jon, player, standing).mean", "jon has no opinion of player's standing at tick 5"),
		)

		It("names the tick it was evaluated at", func() {
			x, err := expr.Parse("belief(w3, theft@2).confidence")
			Expect(err).NotTo(HaveOccurred())
			env.tick = 17
			_, err = x.Eval(env)
			Expect(err).To(MatchError("w3 holds no belief in theft@2 at tick 17"))
		})

		It("fails when the env lacks a define the parser knows", func() {
			delete(env.defines, "retell_decay")
			x, err := expr.Parse("2 * defines.retell_decay")
			Expect(err).NotTo(HaveOccurred())
			_, err = x.Eval(env)
			Expect(err).To(MatchError(`unknown define "retell_decay"`))
		})
	})
})
