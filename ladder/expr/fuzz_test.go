package expr_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/chronicle/ladder/ladder/expr"
)

// totalEnv has every define, a belief for every (holder, claim) and counts
// for every claim, so an expression that parses must evaluate.
type totalEnv struct{ fakeEnv }

func (e *totalEnv) Belief(holder, claim string) (expr.Belief, bool) {
	return expr.Belief{Confidence: 0.9, Verbatim: float64(len(holder)) / 8, Gist: float64(len(claim)) / 16, Sources: len(holder) + len(claim)}, true
}

func (e *totalEnv) Believers(claim string) int { return len(claim) }

func (e *totalEnv) Holders(claim string) int { return 2 * len(claim) }

func (e *totalEnv) Grudge(holder, target string) (expr.Grudge, bool) {
	return expr.Grudge{Emotional: float64(len(holder)) / 8, Evidentiary: float64(len(target)) / 16}, true
}

func (e *totalEnv) Opinion(observer, subject, dimension string) (expr.Opinion, bool) {
	return expr.Opinion{Alpha: float64(len(observer)), Beta: float64(len(subject)), Mean: float64(len(dimension)) / 16}, true
}

// emptyEnv has nothing at all.
type emptyEnv struct{}

func (emptyEnv) Tick() int64                               { return -3 }
func (emptyEnv) Define(string) (float64, bool)             { return 0, false }
func (emptyEnv) Belief(string, string) (expr.Belief, bool) { return expr.Belief{}, false }
func (emptyEnv) Believers(string) int                      { return 0 }
func (emptyEnv) Holders(string) int                        { return 0 }
func (emptyEnv) Grudge(string, string) (expr.Grudge, bool) { return expr.Grudge{}, false }
func (emptyEnv) Opinion(string, string, string) (expr.Opinion, bool) {
	return expr.Opinion{}, false
}

var fuzzSeeds = []string{
	"", "1 + 2 * 3", "-(2 + 3)", "--2", "1e3", "1E-3", ".5", "5.", "1_000", "1e", "0x10",
	"tick", "defines.retell_decay", "defines . retell_decay", "defines.nope",
	"belief(witness, theft@2).confidence", "belief(w1, theft@0).confidence * defines.retell_decay",
	"noisy_or(belief(w1, theft@0).confidence * defines.retell_decay, belief(w2, theft@0).confidence * defines.retell_decay)",
	"exp2(-tick / defines.verbatim_half_life_ticks)", "exp2(-(tick - 2) / defines.verbatim_half_life_ticks)", "exp(1)",
	"believers(theft@3)", "holders(a.b:c~d-e@7)", "belief(listener, theft@0).sources", "noisy_or(0.72, 0.72, 0.72)",
	"grudge(loser, player).emotional", "grudge(loser, player).evidentiary * 2", "reputation(jon, player, reliability).mean",
	"reputation(jon, player).alpha", "grudge(loser).emotional", "grudge(a, b).felt",
	"belief(w1, theft@2)", "belief(, x).gist", "exp2(1, 2)", "foo(1)", "(1", "1)", "2 * (3",
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		x, err := expr.Parse(src)
		if err != nil {
			var se *expr.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) failed with %T, not a *SyntaxError: %v", src, err, err)
			}
			if x != nil || se.Offset < 0 || se.Offset > len(src) || se.Msg == "" {
				t.Fatalf("Parse(%q): expr %v, offset %d of %d, message %q", src, x, se.Offset, len(src), se.Msg)
			}
			return
		}
		if x.String() != src {
			t.Fatalf("String() = %q, want the source %q", x.String(), src)
		}
		refs := x.Refs()
		for i, r := range refs {
			if r.Name == "" || !slices.Contains([]expr.RefKind{expr.NPCRef, expr.ClaimRef, expr.EntityRef, expr.DimensionRef}, r.Kind) ||
				r.Offset < 0 || r.Offset+len(r.Name) > len(src) || src[r.Offset:r.Offset+len(r.Name)] != r.Name ||
				i > 0 && r.Offset <= refs[i-1].Offset {
				t.Fatalf("Parse(%q): bad ref %d %+v in %+v", src, i, r, refs)
			}
		}

		// Against an env that has everything, a parsed expression
		// evaluates, the same bits every time.
		total := &totalEnv{*newEnv()}
		v, err := x.Eval(total)
		if err != nil {
			t.Fatalf("Eval(%q) on a total env: %v", src, err)
		}
		if again, _ := x.Eval(total); math.Float64bits(again) != math.Float64bits(v) && !(math.IsNaN(v) && math.IsNaN(again)) {
			t.Fatalf("Eval(%q) gave %v then %v", src, v, again)
		}
		// Against an env that has nothing, it may fail but must not panic.
		_, _ = x.Eval(emptyEnv{})

		// Parentheses around the whole change nothing but the offsets.
		y, err := expr.Parse("(" + src + ")")
		if err != nil {
			t.Fatalf("(%s) does not parse: %v", src, err)
		}
		w, err := y.Eval(total)
		if err != nil || math.Float64bits(w) != math.Float64bits(v) && !(math.IsNaN(v) && math.IsNaN(w)) {
			t.Fatalf("(%s) = %v, %v; want %v", src, w, err, v)
		}
		shifted := slices.Clone(refs)
		for i := range shifted {
			shifted[i].Offset++
		}
		if !slices.Equal(y.Refs(), shifted) {
			t.Fatalf("(%s) refs %+v, want %+v", src, y.Refs(), shifted)
		}
	})
}
