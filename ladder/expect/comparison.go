package expect

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/compare"
	"github.com/chronicle/ladder/ladder/jsonschema"
	"github.com/chronicle/ladder/sim"
)

// comparison asserts a counterfactual the way the seed words it: this run
// and another run of the same fixture file (against: the rung or a case,
// on another branch) share a seed, so they roll the same dice, and where
// their worlds differ is confined to a declared scope. Aligned by roll
// key (ladder/compare):
//
//   - every key both runs rolled has the same value in both — always: a
//     different value means a pin or a bug;
//
//   - a key only one run rolled lies inside only_in_one: none (the default:
//     both runs roll exactly the same keys), any, or one scope or a list of
//     scopes, each any of sites, npcs (a participant is one of them),
//     purposes, from and to (ticks, inclusive); a key is inside when it
//     satisfies every constraint of some scope;
//
//   - with first_divergence, the first roll that is not the same in both
//     runs (a key only one rolled, a different value or threshold) is at
//     that tick.
//
//     comparison:
//     against: T2.3
//     only_in_one: {sites: [market], from: 4, to: 4}
//     first_divergence: 4
//
// Ids in scopes are this fixture's. The runner supplies the other run as
// an index of its rolls (Run.Compare) and this run's rolls stream past it.
// It examines the keys both runs rolled; with none it has checked nothing
// and fails.
type comparisonKind struct{}

func (comparisonKind) Name() string   { return "comparison" }
func (comparisonKind) Timing() Timing { return WholeRunOnly }
func (comparisonKind) Doc() string {
	return "this run against another run of the file, roll key by roll key: same values for shared keys, keys rolled by one run only inside only_in_one, the first divergence; always the whole run"
}

// Comparing is a check that compares its run with another run of the
// fixture's file, named by Against: the loader resolves the name (and
// refuses two runs on one branch), the runner supplies that run's rolls.
type Comparing interface {
	Check
	Against() (name string, at Pos)
}

var _ Comparing = (*comparisonCheck)(nil)

type comparisonCheck struct {
	against   string
	againstAt Pos
	any       bool    // only_in_one: any
	scopes    []scope // empty and !any: no key may be rolled by one run only
	scopeAt   Pos
	first     *posInt
	at        Pos
}

// scope is a region where a key rolled by one run only is expected.
type scope struct {
	sites, npcs, purposes []string
	from, to              int64
}

func (s scope) holds(k compare.Key) bool {
	switch {
	case k.Tick < s.from || k.Tick > s.to:
		return false
	case len(s.sites) > 0 && !slices.Contains(s.sites, k.Site):
		return false
	case len(s.purposes) > 0 && !slices.Contains(s.purposes, k.Purpose):
		return false
	case len(s.npcs) > 0 && !slices.ContainsFunc(k.Participants, func(p string) bool { return slices.Contains(s.npcs, p) }):
		return false
	}
	return true
}

func (comparisonKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &comparisonCheck{at: PosOf(n), scopeAt: PosOf(n)}
	d.Object(n, path,
		Field{Name: "against", Required: true, Doc: "the other run: the rung (T2.3) or one of its cases (T2.3/swapped), on another branch", Decode: func(v *yaml.Node, p string) {
			c.against, c.againstAt = d.Str(v, p), PosOf(v)
		}},
		Field{Name: "only_in_one", Doc: "where keys rolled by one run only may lie: none (the default), any, a scope or a list of scopes",
			Schema: scopesSchema, Decode: func(v *yaml.Node, p string) {
				c.scopeAt = PosOf(v)
				c.decodeScopes(d, resolve(v), p)
			}},
		Field{Name: "first_divergence", Doc: "the tick of the first roll that is not the same in both runs", Decode: func(v *yaml.Node, p string) {
			if t, ok := d.Tick(v, p); ok {
				c.first = &posInt{t, PosOf(v)}
			}
		}},
	)
	return c
}

// scopesSchema is what only_in_one accepts (decodeScopes branches on the
// node's shape).
var scopesSchema = func() *jsonschema.Schema {
	names := func(doc string) *jsonschema.Schema {
		s := jsonschema.Array(jsonschema.String()).Doc(doc)
		s.MinItems = new(1)
		return s
	}
	purposes := jsonschema.Array(jsonschema.Enum(sim.Purposes()...)).Doc("the key's roll purposes")
	purposes.MinItems = new(1)
	tick := TickSchema()
	scope := jsonschema.Object(
		jsonschema.Prop("sites", names("the locations where the key's roll is made")),
		jsonschema.Prop("npcs", names("NPCs of whom one is among the key's participants")),
		jsonschema.Prop("purposes", purposes),
		jsonschema.Prop("from", tick.Doc("the first tick, inclusive")),
		jsonschema.Prop("to", TickSchema().Doc("the last tick, inclusive")),
	).Doc("a key is inside a scope when it satisfies every constraint given")
	scope.MinProperties = new(1) // an empty scope admits every key: the loader asks for only_in_one: any
	list := jsonschema.Array(scope)
	list.MinItems = new(1)
	return jsonschema.AnyOf(jsonschema.Enum("none", "any"), scope, list)
}()

func (c *comparisonCheck) decodeScopes(d Decoder, v *yaml.Node, p string) {
	switch v.Kind {
	case yaml.ScalarNode:
		switch d.Str(v, p) {
		case "none":
		case "any":
			c.any = true
		default:
			d.Errorf(v, p, "want none, any, a scope {sites, npcs, purposes, from, to} or a list of scopes, got %q", v.Value)
		}
	case yaml.SequenceNode:
		if len(v.Content) == 0 {
			d.Errorf(v, p, "an empty list of scopes admits no key: write only_in_one: none")
		}
		d.List(v, p, func(_ int, s *yaml.Node, sp string) { c.decodeScope(d, resolve(s), sp) })
	default:
		c.decodeScope(d, v, p)
	}
}

func (c *comparisonCheck) decodeScope(d Decoder, n *yaml.Node, p string) {
	s := scope{to: math.MaxInt64}
	given := 0
	names := func(each func(*yaml.Node, string) string) func(*yaml.Node, string) []string {
		return func(l *yaml.Node, lp string) []string {
			given++
			var out []string
			d.List(l, lp, func(_ int, x *yaml.Node, xp string) {
				if id := each(x, xp); id != "" {
					out = append(out, id)
				}
			})
			if len(resolve(l).Content) == 0 {
				d.Errorf(l, lp, "an empty list matches no key; leave the key out to match any")
			}
			return out
		}
	}
	before := d.Errors()
	if !d.Object(n, p,
		Field{Name: "sites", Decode: func(v *yaml.Node, vp string) { s.sites = names(d.Location)(v, vp) }},
		Field{Name: "npcs", Decode: func(v *yaml.Node, vp string) { s.npcs = names(d.NPC)(v, vp) }},
		Field{Name: "purposes", Decode: func(v *yaml.Node, vp string) { s.purposes = names(purpose(d))(v, vp) }},
		Field{Name: "from", Decode: func(v *yaml.Node, vp string) {
			given++
			s.from, _ = d.Tick(v, vp)
		}},
		Field{Name: "to", Decode: func(v *yaml.Node, vp string) {
			given++
			if t, ok := d.Tick(v, vp); ok {
				s.to = t
			}
		}},
	) {
		return
	}
	switch {
	case d.Errors() != before:
	case given == 0:
		d.Errorf(n, p, "an empty scope admits every key: write only_in_one: any")
	case s.to < s.from:
		d.Errorf(n, p, "to (%d) is before from (%d)", s.to, s.from)
	default:
		c.scopes = append(c.scopes, s)
	}
}

// purpose decodes a roll purpose, one the engine draws (sim.Purposes): a
// misspelt one would admit no key.
func purpose(d Decoder) func(*yaml.Node, string) string {
	return func(n *yaml.Node, p string) string {
		v := d.Ident(n, p)
		if purposes := sim.Purposes(); v != "" && !slices.Contains(purposes, v) {
			d.Errorf(n, p, "unknown roll purpose %q%s (roll purposes: %s)", v, d.Suggest(v, purposes), strings.Join(purposes, ", "))
			return ""
		}
		return v
	}
}

// Against names the run compared with.
func (c *comparisonCheck) Against() (string, Pos) { return c.against, c.againstAt }

func (c *comparisonCheck) Unit() string { return "roll keys compared" }

// comparisonRun is one run's state of a comparison, kept in its Outcome.
type comparisonRun struct {
	m        *compare.Matcher
	err      error
	drift    int
	drifted  [2]compare.Roll // the first: this run's roll, the other's
	outside  int
	stray    compare.Roll // the first key outside the scopes
	strayOf  string       // which run rolled it
	diverged bool
	first    compare.Roll // the first divergent roll (either run's)
}

// Counterpart finds the rolls of the run a comparison names.
type Counterpart func(name string) (*compare.Index, error)

// Compare hands every comparison the rolls of the run it names, before
// the run's first trace record. A comparison of a run the runner never
// called Compare for fails as not compared.
func (r *Run) Compare(find Counterpart) {
	for i, e := range r.items {
		c, ok := e.Check.(*comparisonCheck)
		if !ok {
			continue
		}
		st := &comparisonRun{}
		if ix, err := find(c.against); err != nil {
			st.err = err
		} else {
			st.m = ix.Match()
		}
		r.outcomes[i].state = st
	}
}

// Index makes the run index its own rolls as its trace records pass, for
// the comparisons of other runs that name this one.
func (r *Run) Index(x *compare.Indexer) { r.indexer = x }

// lineOf is a record's line in trace.jsonl: its seq after the header.
func lineOf(rec Record) int {
	seq, _ := rec["seq"].(float64)
	return int(seq) + 2
}

func (c *comparisonCheck) ObserveTrace(rec Record, o *Outcome) {
	st, _ := o.state.(*comparisonRun)
	if st == nil || st.err != nil {
		return
	}
	roll, ok, err := compare.RollOf(rec, lineOf(rec))
	switch {
	case err != nil:
		st.err = fmt.Errorf("this run's trace line %d: %w", lineOf(rec), err)
		return
	case !ok:
		return
	}
	other, paired := st.m.Pair(roll)
	if !paired {
		c.oneRunOnly(st, roll, "this run")
		return
	}
	o.Examine(1)
	if !compare.SameValue(roll.Value, other.Value) {
		if st.drift == 0 {
			st.drifted = [2]compare.Roll{roll, other}
		}
		st.drift++
		st.diverge(roll)
	} else if !compare.SameValue(roll.Threshold, other.Threshold) {
		st.diverge(roll)
	}
}

// oneRunOnly judges a key one run rolled and the other did not.
func (c *comparisonCheck) oneRunOnly(st *comparisonRun, r compare.Roll, rolledBy string) {
	st.diverge(r)
	if c.any {
		return
	}
	k, err := r.Parts()
	if err == nil && slices.ContainsFunc(c.scopes, func(s scope) bool { return s.holds(k) }) {
		return
	}
	if st.outside == 0 || r.Tick < st.stray.Tick {
		st.stray, st.strayOf = r, rolledBy
	}
	st.outside++
}

// diverge notes a divergent roll: the earliest tick wins, this run's
// rolls (seen first) on a tie.
func (st *comparisonRun) diverge(r compare.Roll) {
	if !st.diverged || r.Tick < st.first.Tick {
		st.diverged, st.first = true, r
	}
}

func (c *comparisonCheck) Finish(o *Outcome) {
	st, _ := o.state.(*comparisonRun)
	if st == nil {
		o.Fail(-1, c.at, "not compared: the runner gave this run no counterpart to compare with %s", c.against)
		return
	}
	if st.err != nil {
		o.Fail(-1, c.againstAt, "cannot compare with %s: %v", c.against, st.err)
		return
	}
	st.m.Unpaired(func(r compare.Roll) { c.oneRunOnly(st, r, c.against) })
	type problem struct {
		tick int64
		at   Pos
		text string
	}
	var problems []problem
	if st.drift > 0 {
		here, there := st.drifted[0], st.drifted[1]
		problems = append(problems, problem{here.Tick, c.againstAt, fmt.Sprintf(
			"%s rolled by both runs with different values, first %s (%s): %s here, %s in %s; "+
				"a roll is a function of its key, so only a pin or a bug moves one",
			keyCount(st.drift), here.Key, here.Where(), here.Describe(), there.Describe(), c.against)})
	}
	if st.outside > 0 {
		declared := "only_in_one"
		if len(c.scopes) == 0 {
			declared = "only_in_one: none (every key must be rolled by both runs)"
		}
		r := st.stray
		problems = append(problems, problem{r.Tick, c.scopeAt, fmt.Sprintf(
			"%s rolled by one run only, outside %s: first %s, only in %s: %s, rolled by %s at line %d",
			keyCount(st.outside), declared, r.Key, st.strayOf, r.Where(), r.By, r.Line)})
	}
	if f := c.first; f != nil {
		switch {
		case !st.diverged:
			problems = append(problems, problem{-1, f.at, fmt.Sprintf("the runs' rolls never diverge, want the first divergence at tick %d", f.v)})
		case st.first.Tick != f.v:
			problems = append(problems, problem{st.first.Tick, f.at, fmt.Sprintf("the first divergent roll is at tick %d (%s), want tick %d", st.first.Tick, st.first.Key, f.v)})
		}
	}
	if len(problems) == 0 {
		return
	}
	texts := make([]string, len(problems))
	for i, p := range problems {
		texts[i] = p.text
	}
	o.Fail(problems[0].tick, problems[0].at, "%s", strings.Join(texts, "; and "))
}

func keyCount(n int) string {
	if n == 1 {
		return "1 roll key"
	}
	return fmt.Sprintf("%d roll keys", n)
}
