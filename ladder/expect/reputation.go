package expect

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/sim/social"
)

// reputation checks observer-local reputation (decision 0017) at every
// tick of its range, in one of two forms.
//
// One row, named by observer, subject and dimension: that it exists (or,
// with absent: true, that it does not — an observer who never received
// evidence has no row at all) and that alpha, beta and mean equal the
// numbers or expressions given, bit for bit. It examines ticks.
//
//	reputation: {observer: jon, subject: player, dimension: reliability, beta: 2, mean: "1 / 3"}
//
// Whose rows, for a subject and a dimension: observers is the set of NPCs
// who hold a row; changed is the set of NPCs whose row evidence moved at
// that very tick — "the rows of exactly these observers changed, and
// nobody else's". It examines every NPC of the cast at each tick, so a set
// that should be empty still looks at everyone.
//
//	at: 30
//	reputation: {subject: player, dimension: reliability, changed: [jon, olfina]}
type reputationKind struct{}

func (reputationKind) Name() string   { return "reputation" }
func (reputationKind) Timing() Timing { return AtEnd }
func (reputationKind) Doc() string {
	return "one observer's reputation row for a subject (alpha, beta, mean, or absent: true), or the set of observers who hold or changed a row; at the last tick unless timed"
}

type reputationCheck struct {
	observer, subject, dimension string
	at                           Pos
	absent                       *Pos
	alpha, beta, mean            *Number
	observers, changed           []string // sets; nil: unchecked
	observersAt, changedAt       Pos
}

func (reputationKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &reputationCheck{at: PosOf(n)}
	d.Object(n, path,
		Field{Name: "observer", Doc: "whose opinion: names one row", Decode: func(v *yaml.Node, p string) { c.observer = d.NPC(v, p) }},
		Field{Name: "subject", Required: true, Doc: "whom the opinion is of", Decode: func(v *yaml.Node, p string) { c.subject = d.Entity(v, p) }},
		Field{Name: "dimension", Required: true, Doc: "which reputation", Decode: func(v *yaml.Node, p string) { c.dimension = d.Dimension(v, p) }},
		Field{Name: "absent", Doc: "true: the observer holds no row (has received no evidence)", Decode: func(v *yaml.Node, p string) {
			if x, ok := d.Bool(v, p); ok && !x {
				d.Errorf(v, p, "absent: false checks nothing; remove it")
			}
			at := PosOf(v)
			c.absent = &at
		}},
		Field{Name: "alpha", Doc: "the row's α (evidence for, plus the prior), bit for bit", Decode: func(v *yaml.Node, p string) { c.alpha = d.Number(v, p) }},
		Field{Name: "beta", Doc: "the row's β (evidence against, plus the prior), bit for bit", Decode: func(v *yaml.Node, p string) { c.beta = d.Number(v, p) }},
		Field{Name: "mean", Doc: "the row's mean α / (α + β), bit for bit", Decode: func(v *yaml.Node, p string) { c.mean = d.Number(v, p) }},
		Field{Name: "observers", Doc: "instead of observer: exactly the NPCs who hold a row, in any order", Decode: func(v *yaml.Node, p string) { c.observers, c.observersAt = d.NPCList(v, p), PosOf(v) }},
		Field{Name: "changed", Doc: "instead of observer: exactly the NPCs whose row moved at that very tick", Decode: func(v *yaml.Node, p string) { c.changed, c.changedAt = d.NPCList(v, p), PosOf(v) }},
	)
	// Each Exclusive is called until one refuses (when generating the
	// schema, every one is: none refuses there).
	switch row := []string{"alpha", "beta", "mean"}; {
	case d.Exclusive(n, path, "give observer (one row) or observers/changed (whose rows), not both", []string{"observer"}, []string{"observers", "changed"}):
	case d.Exclusive(n, path, "alpha, beta, mean and absent check one observer's row; name the observer", []string{"observers", "changed"}, append(row, "absent")):
	case d.Exclusive(n, path, "absent: true cannot be combined with checks of the row's fields", []string{"absent"}, row):
	case d.Needs(n, path, "reputation needs an observer (one row) or observers/changed (whose rows)", "observer", "observers", "changed"):
	case c.observer != "" && c.observer == c.subject:
		d.Errorf(n, path, "an observer has no reputation in its own eyes")
	}
	return c
}

// Subject is the one row a check of an observer's opinion is about; a
// check of whose rows exist names its row per failure (about).
func (c *reputationCheck) Subject() Subject {
	if c.observer == "" {
		return Subject{}
	}
	return Subject{"social", "reputation/" + c.observer + "/" + c.subject + "/" + c.dimension}
}

func (c *reputationCheck) Unit() string {
	if c.observer == "" {
		return "NPCs (as observers)"
	}
	return "ticks"
}

// Finish fails an absent row, or an empty set of observers, in a world
// where no evidence can move a row.
func (c *reputationCheck) Finish(o *Outcome) {
	if o.Failed() || o.Examined == 0 {
		return
	}
	switch {
	case c.absent != nil:
		o.needSource(*c.absent, c.Unit(), "reputation")
	case c.observers != nil && len(c.observers) == 0:
		o.needSource(c.observersAt, c.Unit(), "reputation")
	case c.changed != nil && len(c.changed) == 0:
		o.needSource(c.changedAt, c.Unit(), "reputation")
	}
}

func (c *reputationCheck) AtTick(w World, o *Outcome) {
	t := w.Tick()
	if c.observer == "" {
		c.rows(w, o)
		return
	}
	o.Examine(1)
	name := fmt.Sprintf("reputation(%s, %s, %s)", c.observer, c.subject, c.dimension)
	op, ok := w.Reputation().Get(c.observer, c.subject, c.dimension)
	if c.absent != nil {
		if ok {
			o.Fail(t, *c.absent, "%s exists (alpha %s, beta %s), want none", name, formatFloat(op.Alpha), formatFloat(op.Beta))
		}
		return
	}
	if !ok {
		o.Fail(t, c.at, "%s does not exist (observers with a row: %s)", name, list(observersOf(w.Reputation(), c.subject, c.dimension, -1)))
		return
	}
	_ = c.alpha.compare(w, o, name+".alpha", op.Alpha) &&
		c.beta.compare(w, o, name+".beta", op.Beta) &&
		c.mean.compare(w, o, name+".mean", op.Mean())
}

// rows checks whose rows exist, and whose changed at this tick.
func (c *reputationCheck) rows(w World, o *Outcome) {
	t := w.Tick()
	o.Examine(int64(len(w.NPCs())))
	what := fmt.Sprintf("%s's %s", c.subject, c.dimension)
	if c.observers != nil {
		got, want := observersOf(w.Reputation(), c.subject, c.dimension, -1), slices.Sorted(slices.Values(c.observers))
		if !slices.Equal(got, want) {
			c.about(o, minus(got, want))
			o.Fail(t, c.observersAt, "observers with a row for %s = %s, want exactly %s (missing %s, unexpected %s)", what, list(got), list(want), list(minus(want, got)), list(minus(got, want)))
			return
		}
	}
	if c.changed != nil {
		got, want := observersOf(w.Reputation(), c.subject, c.dimension, t), slices.Sorted(slices.Values(c.changed))
		if !slices.Equal(got, want) {
			c.about(o, minus(got, want))
			o.Fail(t, c.changedAt, "rows for %s changed at tick %d for %s, want exactly %s (missing %s, unexpected %s)", what, t, list(got), list(want), list(minus(want, got)), list(minus(got, want)))
		}
	}
}

// observersOf lists, sorted, the observers with a row for subject and
// dimension — only those whose row last moved at tick changedAt, unless
// it is negative.
func observersOf(r *social.Reputation, subject, dimension string, changedAt int64) []string {
	var out []string
	for _, op := range r.All() {
		if op.Subject == subject && op.Dimension == dimension && (changedAt < 0 || op.Updated == changedAt) {
			out = append(out, op.Observer)
		}
	}
	slices.Sort(out)
	return out
}

// about names the row of the first observer a failed rows check did not
// expect; a missing observer has no row to open.
func (c *reputationCheck) about(o *Outcome, unexpected []string) {
	if len(unexpected) > 0 {
		o.About("social", "reputation/"+unexpected[0]+"/"+c.subject+"/"+c.dimension)
	}
}
