package ladder

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/claims"
)

// checker evaluates a fixture's expectations as the run advances. Each
// expectation reports its first failing tick, and how many more ticks
// failed, so an `always` that breaks early is one line, not hundreds.
type checker struct {
	f        *fixture.Fixture
	v        view
	failures map[int]*failure
}

type failure struct {
	first string
	last  int64 // the last tick that failed
	more  int   // how many later ticks failed
}

func newChecker(f *fixture.Fixture, v view) *checker {
	return &checker{f: f, v: v, failures: map[int]*failure{}}
}

func (c *checker) fail(e fixture.Expectation, tick int64, format string, args ...any) {
	if f := c.failures[e.Index]; f != nil {
		if tick != f.last {
			f.more, f.last = f.more+1, tick
		}
		return
	}
	where := fmt.Sprintf("expect[%d] (%s:%d:%d)", e.Index, c.f.File, e.Pos.Line, e.Pos.Column)
	if tick >= 0 {
		where += fmt.Sprintf(" at tick %d", tick)
	}
	c.failures[e.Index] = &failure{first: where + ": " + fmt.Sprintf(format, args...), last: tick}
}

// messages returns one line per failed expectation, in fixture order.
func (c *checker) messages() []string {
	var out []string
	for _, e := range c.f.Expect {
		if f := c.failures[e.Index]; f != nil {
			msg := f.first
			if f.more > 0 {
				msg += fmt.Sprintf(" (and %d more ticks)", f.more)
			}
			out = append(out, msg)
		}
	}
	return out
}

// at checks every state expectation whose range includes the current tick.
func (c *checker) at() {
	t := c.v.Tick()
	for _, e := range c.f.Expect {
		if t < e.When.From || t > e.When.To {
			continue
		}
		switch {
		case e.Belief != nil:
			c.belief(e, t)
		case e.Holders != nil:
			c.holders(e, t)
		case e.Curve != nil:
			c.curve(e, t)
		case e.Claims != nil:
			c.claims(e, t)
		case e.Variant != nil:
			c.variant(e, t)
		case e.Value != nil:
			c.value(e, t)
		case e.NPC != nil:
			c.npc(e, t)
		case e.Dup != nil:
			c.duplicate(e, t)
		}
	}
}

// end checks the expectations over the whole record: trace and events.
// Trace expectations match the run's trace file itself (jsonl), so they
// see exactly the fields and values a reader of trace.jsonl sees.
func (c *checker) end(jsonl []byte) error {
	var records []map[string]any
	for _, e := range c.f.Expect {
		switch {
		case e.Trace != nil:
			if records == nil {
				var err error
				if records, err = plainRecords(jsonl); err != nil {
					return err
				}
			}
			c.trace(e, records)
		case e.Events != nil:
			n := int64(0)
			for _, r := range c.v.w.Log().Records() {
				if r.Event.Kind == e.Events.Kind && r.Event.Tick >= e.When.From && r.Event.Tick <= e.When.To {
					n++
				}
			}
			if n != e.Events.Count {
				c.fail(e, -1, "%d %s events in ticks [%d, %d], want %d", n, e.Events.Kind, e.When.From, e.When.To, e.Events.Count)
			}
		}
	}
	return nil
}

// number evaluates an expected number at the current tick.
func (c *checker) number(n *fixture.Number) (float64, string, error) {
	if n.Expr == nil {
		return n.Literal, "", nil
	}
	v, err := n.Expr.Eval(c.v)
	return v, " (= " + n.Expr.String() + ")", err
}

// sameFloat is bit-for-bit equality, the only equality exact assertions
// accept (it also tells 0.0 from -0.0).
func sameFloat(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

func (c *checker) compareNumber(e fixture.Expectation, t int64, what string, got float64, want *fixture.Number) {
	if want == nil {
		return
	}
	w, src, err := c.number(want)
	if err != nil {
		c.fail(e, t, "%s: cannot evaluate the expected value %s: %v", what, want.Expr, err)
		return
	}
	if !sameFloat(got, w) {
		c.fail(e, t, "%s = %s, want %s%s", what, canon.FormatFloat(got), canon.FormatFloat(w), src)
	}
}

func (c *checker) belief(e fixture.Expectation, t int64) {
	x := e.Belief
	b, ok := c.v.w.Store().Belief(x.Holder, x.Claim)
	name := fmt.Sprintf("belief(%s, %s)", x.Holder, x.Claim)
	if x.Absent {
		if ok {
			c.fail(e, t, "%s exists (variant %s, confidence %s), want none", name, b.Variant, canon.FormatFloat(b.Confidence))
		}
		return
	}
	if !ok {
		c.fail(e, t, "%s does not exist", name)
		return
	}
	m := c.v.w.Store().Memory()
	c.compareNumber(e, t, name+".confidence", b.Confidence, x.Confidence)
	c.compareNumber(e, t, name+".verbatim", b.VerbatimAt(t, m), x.Verbatim)
	c.compareNumber(e, t, name+".gist", b.GistAt(t, m), x.Gist)
	if x.Stage != nil {
		if got := string(b.StageAt(t, m)); got != *x.Stage {
			c.fail(e, t, "%s.stage = %s, want %s", name, got, *x.Stage)
		}
	}
	if x.Variant != nil && b.Variant != *x.Variant {
		c.fail(e, t, "%s.variant = %s, want %s", name, b.Variant, *x.Variant)
	}
	if x.Sources != nil && int64(len(b.Origins)) != *x.Sources {
		c.fail(e, t, "%s.sources = %d %v, want %d", name, len(b.Origins), b.Origins, *x.Sources)
	}
	if x.SourceChain != nil && !slices.Equal(b.SourceChain(), x.SourceChain) {
		c.fail(e, t, "%s.source_chain = %s, want %s", name, list(b.SourceChain()), list(x.SourceChain))
	}
	if x.CheckEvidence {
		c.evidence(e, t, name, b.Evidence, x.Evidence)
	}
	if x.Slots != nil {
		v, _ := c.v.w.Store().Variant(b.Variant)
		c.slots(e, t, name+" slots", v.Slots, x.Slots)
	}
}

func (c *checker) evidence(e fixture.Expectation, t int64, name string, got []claims.Evidence, want []fixture.EvidenceExpect) {
	if len(got) != len(want) {
		c.fail(e, t, "%s has %d evidence records %s, want %d", name, len(got), showEvidence(got), len(want))
		return
	}
	for i, w := range want {
		g := got[i]
		mismatch := func(field, gv, wv string) {
			c.fail(e, t, "%s.evidence[%d].%s = %s, want %s", name, i, field, gv, wv)
		}
		switch {
		case w.Type != nil && string(g.Type) != *w.Type:
			mismatch("type", string(g.Type), *w.Type)
		case w.Source != nil && g.Source != *w.Source:
			mismatch("source", g.Source, *w.Source)
		case w.Via != nil && g.Via != *w.Via:
			mismatch("via", g.Via, *w.Via)
		case w.Tick != nil && g.Tick != *w.Tick:
			mismatch("tick", fmt.Sprint(g.Tick), fmt.Sprint(*w.Tick))
		case w.Counted != nil && g.Counted != *w.Counted:
			mismatch("counted", fmt.Sprint(g.Counted), fmt.Sprint(*w.Counted))
		default:
			continue
		}
		return
	}
}

func showEvidence(evs []claims.Evidence) string {
	parts := make([]string, len(evs))
	for i, ev := range evs {
		parts[i] = fmt.Sprintf("%s@%d", ev.Type, ev.Tick)
		if ev.Source != "" {
			parts[i] += " from " + ev.Source
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (c *checker) slots(e fixture.Expectation, t int64, name string, got claims.Slots, want []fixture.SlotValue) {
	for _, w := range want {
		s, ok := got.Get(w.Slot)
		switch {
		case !ok:
			c.fail(e, t, "%s: no slot %q", name, w.Slot)
			return
		case s.Value != w.Value:
			c.fail(e, t, "%s: %s = %s, want %s", name, w.Slot, s.Value, w.Value)
			return
		}
	}
}

func (c *checker) holders(e fixture.Expectation, t int64) {
	x := e.Holders
	var got []string
	for _, h := range c.v.w.Store().Holders(x.Claim) {
		if x.Resident != "" && c.v.resident(h) != x.Resident {
			continue
		}
		if x.NotResident != "" && c.v.resident(h) == x.NotResident {
			continue
		}
		got = append(got, h)
	}
	scope := "holders of " + x.Claim
	if x.Resident != "" {
		scope += " resident in " + x.Resident
	}
	if x.NotResident != "" {
		scope += " not resident in " + x.NotResident
	}
	if x.Through != "" {
		for _, h := range got {
			b, _ := c.v.w.Store().Belief(h, x.Claim)
			if h != x.Through && !slices.Contains(b.SourceChain(), x.Through) {
				c.fail(e, t, "%s's belief in %s came by %s, not through %s", h, x.Claim, list(b.SourceChain()), x.Through)
				return
			}
		}
	}
	if x.Count != nil && int64(len(got)) != *x.Count {
		c.fail(e, t, "%d %s %s, want %d", len(got), scope, list(got), *x.Count)
		return
	}
	if x.Exactly != nil {
		want := slices.Sorted(slices.Values(x.Exactly))
		if !slices.Equal(got, want) {
			c.fail(e, t, "%s = %s, want exactly %s (missing %s, unexpected %s)", scope, list(got), list(want), list(minus(want, got)), list(minus(got, want)))
			return
		}
	}
	if x.Only != nil {
		if extra := minus(got, x.Only); len(extra) > 0 {
			c.fail(e, t, "%s include %s, outside the allowed %s", scope, list(extra), list(x.Only))
		}
	}
}

func (c *checker) curve(e fixture.Expectation, t int64) {
	x := e.Curve
	var want int64
	for _, s := range x.Steps {
		if s.Tick <= t {
			want = s.Count
		}
	}
	if got := int64(c.v.Believers(x.Claim)); got != want {
		c.fail(e, t, "believers(%s) = %d, want %d on the curve", x.Claim, got, want)
	}
}

func (c *checker) claims(e fixture.Expectation, t int64) {
	x := e.Claims
	s := c.v.w.Store()
	if x.Count != nil {
		if got := s.ClaimIDs(); int64(len(got)) != *x.Count {
			c.fail(e, t, "%d claims %s, want %d", len(got), list(got), *x.Count)
			return
		}
	}
	if x.ID != "" {
		if _, ok := s.Claim(x.ID); !ok {
			c.fail(e, t, "claim %s does not exist", x.ID)
			return
		}
		vs := s.Variants(x.ID)
		if x.Variants != nil && int64(len(vs)) != *x.Variants {
			ids := make([]string, len(vs))
			for i, v := range vs {
				ids[i] = v.ID
			}
			c.fail(e, t, "claim %s has %d variants %s, want %d", x.ID, len(vs), list(ids), *x.Variants)
			return
		}
		if x.Lineage {
			c.lineage(e, t, x.ID)
		}
	}
}

// lineage checks that every variant of a claim but the original names an
// existing predecessor, and that following predecessors always reaches the
// original without a cycle.
func (c *checker) lineage(e fixture.Expectation, t int64, claim string) {
	s := c.v.w.Store()
	cl, _ := s.Claim(claim)
	for _, v := range s.Variants(claim) {
		seen := map[string]bool{}
		for id := v.ID; id != cl.Variant; {
			cur, ok := s.Variant(id)
			switch {
			case !ok:
				c.fail(e, t, "variant %s: its lineage names %s, which does not exist", v.ID, id)
				return
			case seen[id]:
				c.fail(e, t, "variant %s: its lineage loops at %s", v.ID, id)
				return
			case cur.Predecessor == "":
				c.fail(e, t, "variant %s has no predecessor and is not the original %s: an orphan", id, cl.Variant)
				return
			}
			seen[id] = true
			id = cur.Predecessor
		}
	}
}

// duplicate tries every belief-creating path of the store for an existing
// (holder, claim) and demands each refuse with ErrDuplicateBelief, changing
// nothing.
func (c *checker) duplicate(e fixture.Expectation, t int64) {
	x := e.Dup
	s := c.v.w.Store()
	b, ok := s.Belief(x.Holder, x.Claim)
	if !ok {
		c.fail(e, t, "%s holds no belief in %s, so there is nothing to duplicate", x.Holder, x.Claim)
		return
	}
	before, snapshot := s.BeliefCount(), *b
	_, errW := s.Witness(x.Holder, b.Variant, t, 1, "duplicate_rejected probe")
	_, errH := s.Hear(x.Holder, claims.Testimony{Teller: "probe", Chain: []string{"probe"}, Variant: b.Variant, Tick: t, Via: "duplicate_rejected probe", Confidence: 1})
	for _, p := range []struct {
		path string
		err  error
	}{{"Witness", errW}, {"Hear", errH}} {
		if !errors.Is(p.err, claims.ErrDuplicateBelief) {
			c.fail(e, t, "store.%s for existing belief(%s, %s) returned %v, want ErrDuplicateBelief", p.path, x.Holder, x.Claim, p.err)
			return
		}
	}
	if after, _ := s.Belief(x.Holder, x.Claim); s.BeliefCount() != before || after.Confidence != snapshot.Confidence || after.Variant != snapshot.Variant || len(after.Evidence) != len(snapshot.Evidence) {
		c.fail(e, t, "a refused duplicate changed the store")
	}
}

func (c *checker) variant(e fixture.Expectation, t int64) {
	x := e.Variant
	v, ok := c.v.w.Store().Variant(x.ID)
	if !ok {
		c.fail(e, t, "variant %s does not exist", x.ID)
		return
	}
	if x.Predecessor != nil && v.Predecessor != *x.Predecessor {
		c.fail(e, t, "variant %s predecessor = %q, want %q", x.ID, v.Predecessor, *x.Predecessor)
		return
	}
	if x.CheckDiff {
		got := make([]fixture.Change, len(v.Diff))
		for i, d := range v.Diff {
			got[i] = fixture.Change{Slot: d.Slot, From: d.From, To: d.To}
		}
		want := slices.Clone(x.Diff)
		slices.SortFunc(want, func(a, b fixture.Change) int { return strings.Compare(a.Slot, b.Slot) })
		if !slices.Equal(got, want) {
			c.fail(e, t, "variant %s diff = %v, want %v", x.ID, got, want)
			return
		}
	}
	if x.Slots != nil {
		c.slots(e, t, "variant "+x.ID, v.Slots, x.Slots)
	}
}

func (c *checker) value(e fixture.Expectation, t int64) {
	x := e.Value
	got, err := x.Expr.Eval(c.v)
	if err != nil {
		c.fail(e, t, "%s: %v", x.Expr, err)
		return
	}
	c.compareNumber(e, t, x.Expr.String(), got, &x.Equals)
}

func (c *checker) npc(e fixture.Expectation, t int64) {
	x := e.NPC
	if x.Alive != nil && c.v.w.Alive(x.ID) != *x.Alive {
		c.fail(e, t, "%s alive = %v, want %v", x.ID, c.v.w.Alive(x.ID), *x.Alive)
	}
	if x.At != nil && c.v.w.At(x.ID) != *x.At {
		c.fail(e, t, "%s is at %q, want %q", x.ID, c.v.w.At(x.ID), *x.At)
	}
}

func (c *checker) trace(e fixture.Expectation, records []map[string]any) {
	x := e.Trace
	n := int64(0)
	for _, r := range records {
		tick, _ := r["tick"].(float64)
		if int64(tick) >= e.When.From && int64(tick) <= e.When.To && matches(x.Match, r) {
			n++
		}
	}
	want, _ := canon.Marshal(x.Match)
	switch {
	case x.Count != nil && n != *x.Count:
		c.fail(e, -1, "%d trace records match %s in ticks [%d, %d], want %d", n, want, e.When.From, e.When.To, *x.Count)
	case x.Count == nil && x.Exists && n == 0:
		c.fail(e, -1, "no trace record matches %s in ticks [%d, %d]", want, e.When.From, e.When.To)
	case x.Count == nil && !x.Exists && n > 0:
		c.fail(e, -1, "%d trace records match %s in ticks [%d, %d], want none", n, want, e.When.From, e.When.To)
	}
}

// matches reports whether every field of want is in got with an equal
// value; nested mappings match recursively, lists element by element.
func matches(want, got any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok || !matches(wv, gv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !matches(w[i], g[i]) {
				return false
			}
		}
		return true
	case float64:
		g, ok := got.(float64)
		return ok && sameFloat(g, w)
	default:
		return want == got
	}
}

// plainRecords decodes the records of a trace file (every line after the
// header) into the plain values fixtures match against.
func plainRecords(jsonl []byte) ([]map[string]any, error) {
	lines := bytes.Split(bytes.TrimSuffix(jsonl, []byte("\n")), []byte("\n"))
	out := make([]map[string]any, 0, len(lines))
	for i, line := range lines[1:] {
		var rec map[string]any
		if err := json.Unmarshal(line, &rec); err != nil {
			return nil, fmt.Errorf("trace line %d: %w", i+2, err)
		}
		out = append(out, rec)
	}
	return out, nil
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
