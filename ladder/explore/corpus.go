package explore

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/chronicle/ladder/ladder/coverage"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/rules"
)

// Guided exploration. A world that first reaches a rule regime — or
// first reaches two regimes of one rule together — joins the corpus, and
// about half of each later round's worlds are drawn by mutating a corpus
// world instead of from scratch: an event moved, a define pushed to its
// boundary, an NPC added or removed, a rule switched. A world near one
// that reached something rare is likelier to reach its neighbours than a
// fresh one is (the coverage-guided fuzzers' bet, on the rule regimes the
// ladder meters).
//
// The corpus changes only between rounds of Options.Round worlds, from the
// worlds of the rounds before, judged in index order: world i's parent,
// and so world i, is the same for any number of workers. A worker that
// draws a world of round r waits until round r − 1 is judged.

// DefaultRound is how many of a shard's worlds share one corpus
// (Options.Round): enough that two workers rarely wait at a round's end.
const DefaultRound = 64

// mutantStream sets the stream a world's mutation is drawn from apart
// from the world's own and its swarm vector's.
const mutantStream = 0x6d75_7461_6e74_0001

// entry is a corpus world: what it reached first.
type entry struct {
	cs  *Case
	why string // e.g. "first reached rule 11 accumulation-threshold: re-armed"
}

// corpus is the worlds that first reached something, published round by
// round.
type corpus struct {
	round   int64 // worlds a round
	mu      sync.Mutex
	ready   *sync.Cond
	rounds  int // rounds judged
	stopped bool
	entries []entry
	// after[r] is how many entries the corpus held once r rounds were
	// judged: round r draws from those alone, whatever the judge has
	// taken since.
	after []int

	// The judge's side, taken in index order.
	seen  map[string]bool // regimes reached, "rule\x00regime"
	pairs map[string]bool // regime pairs of one rule reached in one world
}

func newCorpus(round int64) *corpus {
	c := &corpus{round: round, seen: map[string]bool{}, pairs: map[string]bool{}, after: []int{0}}
	c.ready = sync.NewCond(&c.mu)
	return c
}

// snapshot waits until every round before round is judged and returns the
// corpus as it stood then; nil when the exploration stopped.
func (c *corpus) snapshot(round int) ([]entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.rounds < round && !c.stopped {
		c.ready.Wait()
	}
	if c.stopped {
		return nil, false
	}
	n := c.after[round]
	return c.entries[:n:n], true
}

// stop releases every waiting worker.
func (c *corpus) stop() {
	c.mu.Lock()
	c.stopped = true
	c.mu.Unlock()
	c.ready.Broadcast()
}

// judge notes a world's reached regimes, in index order, and keeps it
// when it reached a regime or a pair of one rule's regimes first; k is
// its place in the shard's sequence, and the round it closes is
// published.
func (c *corpus) judge(k int64, cs *Case, reached []coverage.Reached) {
	var news []string
	byRule := map[string][]string{}
	for _, r := range reached {
		key := r.Rule + "\x00" + r.Regime
		if !c.seen[key] {
			c.seen[key] = true
			news = append(news, fmt.Sprintf("rule %d %s: %s", r.Number, r.Rule, r.Regime))
		}
		byRule[r.Rule] = append(byRule[r.Rule], r.Regime)
	}
	for _, rule := range slices.Sorted(maps.Keys(byRule)) {
		rs := byRule[rule]
		for i := range rs {
			for _, b := range rs[i+1:] {
				if key := rule + "\x00" + rs[i] + "\x00" + b; !c.pairs[key] {
					c.pairs[key] = true
					if len(news) == 0 {
						news = append(news, fmt.Sprintf("rule %s: %s with %s", rule, rs[i], b))
					}
				}
			}
		}
	}
	c.mu.Lock()
	if len(news) > 0 {
		c.entries = append(c.entries, entry{cs: cs, why: "first reached " + strings.Join(news, "; ")})
	}
	if (k+1)%c.round == 0 {
		c.rounds = int((k + 1) / c.round)
		c.after = append(c.after, len(c.entries))
		c.ready.Broadcast()
	}
	c.mu.Unlock()
}

// draw makes world w, the k-th of its shard: from scratch, or, in a
// round after the first with a corpus to draw from, every other world
// (by its own stream) a mutant of a corpus world. ok is false when the
// exploration stopped while it waited.
func (c *corpus) draw(k int64, w World, sz Sizes) (*Case, bool, error) {
	round := int(k / c.round)
	r := rand.New(rand.NewPCG(w.Seed^mutantStream, uint64(w.Index)))
	if round == 0 || r.IntN(2) == 0 {
		cs, err := Load(w, Generate(w, sz))
		return cs, true, err
	}
	entries, ok := c.snapshot(round)
	if !ok {
		return nil, false, nil
	}
	if len(entries) == 0 {
		cs, err := Load(w, Generate(w, sz))
		return cs, true, err
	}
	parent := entries[r.IntN(len(entries))]
	// A mutation the loader refuses (an event moved before its cause)
	// is tried again; a world none of whose tries loads is drawn fresh.
	for range 8 {
		g, err := reparse(parent.cs.Loaded)
		if err != nil {
			break
		}
		what := mutate(r, g, sz)
		name(g, w)
		g.SeedID = parent.cs.Loaded.SeedID // the parent's dice: the change is the mutation's
		g.Summary = fmt.Sprintf("Drawn by ladder explore (seed %d, world %d) by mutating world %d (%s): %s.", w.Seed, w.Index, parent.cs.World.Index, parent.why, what)
		if !living(g) {
			continue
		}
		if cs, err := Load(w, g); err == nil {
			cs.Parent, cs.Mutation = &parent.cs.World, what
			return cs, true, nil
		}
	}
	cs, err := Load(w, Generate(w, sz))
	return cs, true, err
}

// mutate changes one to three things of a world and says what: an event
// moved or repeated, a define pushed to a boundary, an NPC added or
// removed, a rule switched.
func mutate(r *rand.Rand, f *fixture.Fixture, sz Sizes) string {
	var did []string
	for range 1 + r.IntN(3) {
		switch r.IntN(6) {
		case 0:
			did = append(did, moveEvent(r, f))
		case 5:
			did = append(did, repeatEvent(r, f))
		case 1:
			did = append(did, defineToBoundary(r, f))
		case 2:
			if len(f.Cast) < sz.MaxNPCs {
				did = append(did, addNPC(r, f))
			}
		case 3:
			if len(f.Cast) > sz.MinNPCs {
				i := r.IntN(len(f.Cast))
				did = append(did, "removed "+f.Cast[i].ID)
				dropNPCs(f, i, i+1)
			}
		case 4:
			did = append(did, switchRule(r, f))
		}
	}
	return strings.Join(slices.DeleteFunc(did, func(s string) bool { return s == "" }), ", ")
}

// moveEvent moves an injection by up to a day either way, or onto the
// tick of another, and keeps the list in tick order.
func moveEvent(r *rand.Rand, f *fixture.Fixture) string {
	if len(f.Injections) == 0 {
		return ""
	}
	i := r.IntN(len(f.Injections))
	in := &f.Injections[i]
	from := in.Tick
	switch to := f.Injections[r.IntN(len(f.Injections))].Tick; {
	case r.IntN(3) == 0:
		in.Tick = to + int64(r.IntN(3)) - 1 // beside another: one tick either side
	default:
		in.Tick += int64(r.IntN(2*int(f.Defines.TicksPerDay)+1)) - f.Defines.TicksPerDay
	}
	in.Tick = min(max(in.Tick, 0), f.Ticks-1)
	slices.SortStableFunc(f.Injections, func(a, b sim.Injection) int { return cmpInt(a.Tick, b.Tick) })
	return fmt.Sprintf("moved %s from tick %d to %d", in.Kind, from, in.Tick)
}

// repeatEvent does an event again, up to a day later: the same kind,
// parties and place, a favour called in twice, an offence told again —
// where the rules' "already" regimes are.
func repeatEvent(r *rand.Rand, f *fixture.Fixture) string {
	if len(f.Injections) == 0 {
		return ""
	}
	in := f.Injections[r.IntN(len(f.Injections))]
	in.Tick = min(in.Tick+1+r.Int64N(f.Defines.TicksPerDay), f.Ticks-1)
	in.ID = "" // the loader names it by kind and tick
	in.Witnesses = slices.Clone(in.Witnesses)
	f.Injections = append(f.Injections, in)
	slices.SortStableFunc(f.Injections, func(a, b sim.Injection) int { return cmpInt(a.Tick, b.Tick) })
	return fmt.Sprintf("repeated %s at tick %d", in.Kind, in.Tick)
}

// defineToBoundary pushes an integer define to a boundary of its range:
// 0 or 1, one either side of its value, or half of it.
func defineToBoundary(r *rand.Rand, f *fixture.Fixture) string {
	var ints []rules.Field
	for _, d := range rules.Fields() {
		if d.Kind == rules.IntDefine {
			ints = append(ints, d)
		}
	}
	d := ints[r.IntN(len(ints))]
	x, _ := f.Defines.Value(d.Name)
	v := int64(x)
	to := [...]int64{0, 1, v - 1, v + 1, v / 2}[r.IntN(5)]
	if f.Defines.SetInt(d.Name, to) != nil || f.Defines.Validate() != nil {
		_ = f.Defines.SetInt(d.Name, v) // outside its range: left as it was
		return ""
	}
	return fmt.Sprintf("%s %d → %d", d.Name, v, to)
}

// addNPC adds a copy of a cast member under a new id: the same home and
// schedule, so it meets whom the other meets.
func addNPC(r *rand.Rand, f *fixture.Fixture) string {
	src := f.Cast[r.IntN(len(f.Cast))]
	n := src
	n.ID = "m" + strconv.Itoa(len(f.Cast))
	for slices.ContainsFunc(f.Cast, func(c sim.NPC) bool { return c.ID == n.ID }) {
		n.ID += "x"
	}
	n.Schedule.Blocks = slices.Clone(src.Schedule.Blocks)
	f.Cast = append(f.Cast, n)
	return "added " + n.ID + " like " + src.ID
}

// switchRule switches one switchable rule off, or back on.
func switchRule(r *rand.Rand, f *fixture.Fixture) string {
	var names []string
	for _, rule := range rules.Catalogue() {
		if !rule.Invariant {
			names = append(names, rule.Name)
		}
	}
	name := names[r.IntN(len(names))]
	if i := slices.Index(f.Disabled, name); i >= 0 {
		f.Disabled = slices.Delete(f.Disabled, i, i+1)
		return "switched " + name + " on"
	}
	f.Disabled = append(f.Disabled, name)
	return "switched " + name + " off"
}

// living reports whether every NPC an injection names is alive at its
// tick, replaying the killings in tick order: the loader cannot see a
// death, and the engine refuses an event whose party died before it.
func living(f *fixture.Fixture) bool {
	dead := map[string]bool{}
	for _, in := range f.Injections {
		names := []string{in.Actor, in.Victim, in.Recipient, in.From, in.To}
		for _, w := range in.Witnesses {
			names = append(names, w.NPC)
		}
		for _, n := range names {
			if dead[n] {
				return false
			}
		}
		if in.Kind == sim.Killing {
			dead[in.Victim] = true
		}
	}
	return true
}
