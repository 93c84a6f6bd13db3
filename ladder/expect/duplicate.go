package expect

import (
	"errors"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/sim/claims"
)

// duplicate_rejected demands that the store refuse a second belief for an
// existing (holder, claim) on every path that creates beliefs (Witness and
// Hear), with ErrDuplicateBelief, leaving the store unchanged. It fails
// when the holder holds no belief to duplicate. It examines ticks.
type duplicateKind struct{}

func (duplicateKind) Name() string   { return "duplicate_rejected" }
func (duplicateKind) Timing() Timing { return AtEnd }
func (duplicateKind) Doc() string {
	return "the store refuses a second belief for an existing (holder, claim) on every path that creates beliefs; at the last tick unless timed"
}

type duplicateCheck struct {
	holder, claim string
	at            Pos
}

func (duplicateKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &duplicateCheck{at: PosOf(n)}
	d.Object(n, path,
		Field{Name: "holder", Required: true, Doc: "an NPC holding the claim", Decode: func(v *yaml.Node, p string) { c.holder = d.NPC(v, p) }},
		Field{Name: "claim", Required: true, Doc: "the claim held", Decode: func(v *yaml.Node, p string) { c.claim = d.Claim(v, p) }},
	)
	return c
}

func (c *duplicateCheck) Unit() string    { return "ticks" }
func (c *duplicateCheck) Finish(*Outcome) {}

func (c *duplicateCheck) AtTick(w World, o *Outcome) {
	o.Examine(1)
	t, s := w.Tick(), w.Store()
	b, ok := s.Belief(c.holder, c.claim)
	if !ok {
		o.Fail(t, c.at, "%s holds no belief in %s, so there is nothing to duplicate", c.holder, c.claim)
		return
	}
	before, snapshot := s.BeliefCount(), *b
	_, errW := s.Witness(c.holder, b.Variant, t, 1, "duplicate_rejected probe")
	_, errH := s.Hear(c.holder, claims.Testimony{Teller: "probe", Chain: []string{"probe"}, Variant: b.Variant, Tick: t, Via: "duplicate_rejected probe", Confidence: 1})
	for _, p := range []struct {
		path string
		err  error
	}{{"Witness", errW}, {"Hear", errH}} {
		if !errors.Is(p.err, claims.ErrDuplicateBelief) {
			o.Fail(t, c.at, "store.%s for existing belief(%s, %s) returned %v, want ErrDuplicateBelief", p.path, c.holder, c.claim, p.err)
			return
		}
	}
	if after, _ := s.Belief(c.holder, c.claim); s.BeliefCount() != before || after.Confidence != snapshot.Confidence || after.Variant != snapshot.Variant || len(after.Evidence) != len(snapshot.Evidence) {
		o.Fail(t, c.at, "a refused duplicate changed the store")
	}
}
