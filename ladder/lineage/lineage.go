package lineage

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	cmp "github.com/chronicle/ladder/ladder/compare"
	"github.com/chronicle/ladder/ladder/recfields"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/trace"
)

// Lineage is a run's claims and beliefs as its trace tells them.
type Lineage struct {
	Claims  []Claim  // sorted by id
	Beliefs []Belief // sorted by holder, then claim
}

// Claim is one claim's lineage.
type Claim struct {
	ID, Kind      string
	Tick          int64
	Variants      []Variant      // in minting order, v0 first
	Supersessions []Supersession // in the order they happened
}

// Variant is one immutable version of a claim.
type Variant struct {
	ID, Predecessor string
	Diff            []claims.Change // relative to the predecessor
	Slots           claims.Slots
	Reason, By      string // why it exists ("event", "mutation:memory", …) and who produced it
	Tick            int64
}

// Supersession is one holder's contest between two variants.
type Supersession struct {
	Holder, Loser, Winner, Via string
	Tick                       int64
	Kept                       bool // the holder's own variant won
}

// Belief is one holder's evidence for one claim, oldest first, and what
// it makes of the belief: when it formed, when it was last reinforced
// (its last evidence), and the distinct origins counted towards its
// confidence, sorted.
type Belief struct {
	Holder, Claim    string
	Evidence         []claims.Evidence
	FormedAt, Anchor int64
	Origins          []string
}

// Claim returns the claim with the given id.
func (l *Lineage) Claim(id string) (*Claim, bool) {
	i, ok := slices.BinarySearchFunc(l.Claims, id, func(c Claim, id string) int { return strings.Compare(c.ID, id) })
	if !ok {
		return nil, false
	}
	return &l.Claims[i], true
}

// Variant returns the variant with the given id.
func (l *Lineage) Variant(id string) (*Variant, bool) {
	c, ok := l.Claim(trace.ClaimOf(id))
	if !ok {
		return nil, false
	}
	for i := range c.Variants {
		if c.Variants[i].ID == id {
			return &c.Variants[i], true
		}
	}
	return nil, false
}

// Belief returns holder's belief in claim.
func (l *Lineage) Belief(holder, claim string) (*Belief, bool) {
	i, ok := slices.BinarySearchFunc(l.Beliefs, [2]string{holder, claim}, func(b Belief, k [2]string) int {
		return cmpPair(b.Holder, b.Claim, k[0], k[1])
	})
	if !ok {
		return nil, false
	}
	return &l.Beliefs[i], true
}

func cmpPair(a1, a2, b1, b2 string) int {
	if c := strings.Compare(a1, b1); c != 0 {
		return c
	}
	return strings.Compare(a2, b2)
}

// ErrNoVariants is Read's error for a trace written before the trace
// carried variant records and the evidence on belief records (docs/
// trace-schema.md, "Compatibility"): beliefs or contests, and no variant
// record, or a belief change that heard something without its evidence.
// Such a file cannot draw a variant tree or a provenance.
var ErrNoVariants = errors.New("the trace was written before it carried variant records and belief evidence (issue 43): it cannot tell the variant tree or a belief's evidence; read a newer run, or run the fixture again with -rerun")

// Read reads the lineage from a trace file, up to tick until (every
// record when until < 0).
func Read(r io.Reader, until int64) (*Lineage, error) {
	rd, err := cmp.NewReader(r)
	if err != nil {
		return nil, err
	}
	b := NewBuilder()
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if until >= 0 && rec.Tick > until {
			break
		}
		if err := b.Add(rec); err != nil {
			return nil, err
		}
	}
	return b.Lineage()
}

// Builder collects a lineage from records in file order.
type Builder struct {
	events  map[string]event
	claims  map[string]*Claim
	beliefs map[[2]string]*Belief
	// held counts belief records, so that a file written before variant
	// records is told from a run that minted no claim.
	held, variants int
}

type event struct {
	kind string
	tick int64
}

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder {
	return &Builder{events: map[string]event{}, claims: map[string]*Claim{}, beliefs: map[[2]string]*Belief{}}
}

// Add takes one record: an event (a claim's kind and tick), a variant, a
// supersession, a belief change's evidence; others are passed over. A
// record the lineage cannot place (a variant of no event, evidence of a
// belief before it formed) is an error naming its line.
func (b *Builder) Add(rec cmp.Record) error {
	d := recfields.Of(rec.Fields)
	var err error
	switch trace.Kind(rec.Kind) {
	case trace.KindEvent:
		b.events[d.Str("id")] = event{kind: d.Str("event"), tick: rec.Tick}
	case trace.KindVariant:
		err = b.variant(d, rec.Tick)
	case trace.KindSupersession:
		err = b.supersession(d, rec.Tick)
	case trace.KindBelief:
		err = b.belief(d, rec.Tick)
	default:
		return nil
	}
	if err == nil {
		err = d.Err()
	}
	if err != nil {
		return fmt.Errorf("trace line %d: %s record: %w", rec.Line, rec.Kind, err)
	}
	return nil
}

func (b *Builder) variant(d *recfields.Fields, tick int64) error {
	b.variants++
	id, claim := d.Str("id"), d.Str("claim")
	c := b.claims[claim]
	if c == nil {
		ev, ok := b.events[claim]
		if !ok {
			return fmt.Errorf("variant %s: no event %s before it", id, claim)
		}
		c = &Claim{ID: claim, Kind: ev.kind, Tick: ev.tick}
		b.claims[claim] = c
	}
	v := Variant{ID: id, Predecessor: d.Str("predecessor"), Reason: d.Str("reason"), By: d.Str("by"), Tick: tick}
	for _, row := range d.Objects("diff") {
		r := recfields.Of(row)
		v.Diff = append(v.Diff, claims.Change{Slot: r.Str("slot"), From: r.Str("from"), To: r.Str("to")})
		d.Take("", r)
	}
	for _, row := range d.Objects("slots") {
		r := recfields.Of(row)
		v.Slots = append(v.Slots, claims.Slot{Name: r.Str("name"), Type: claims.SlotType(r.Str("type")), Value: r.Str("value")})
		d.Take("", r)
	}
	if v.Predecessor != "" && !slices.ContainsFunc(c.Variants, func(x Variant) bool { return x.ID == v.Predecessor }) {
		return fmt.Errorf("variant %s: its predecessor %s was not minted before it", id, v.Predecessor)
	}
	c.Variants = append(c.Variants, v)
	return nil
}

func (b *Builder) supersession(d *recfields.Fields, tick int64) error {
	claim := d.Str("claim")
	c := b.claims[claim]
	switch {
	case c == nil && b.variants == 0:
		return ErrNoVariants
	case c == nil:
		return fmt.Errorf("a contest of %s, whose variants were never minted", claim)
	}
	c.Supersessions = append(c.Supersessions, Supersession{
		Holder: d.Str("holder"), Loser: d.Str("loser"), Winner: d.Str("winner"), Via: d.Str("via"), Tick: tick, Kept: d.Bool("kept"),
	})
	return nil
}

func (b *Builder) belief(d *recfields.Fields, tick int64) error {
	b.held++
	m := d.Object("evidence")
	if m == nil {
		switch d.Str("change") {
		case trace.BeliefRepeated, trace.BeliefDormant, trace.BeliefForgotten:
			return nil // a change that heard nothing
		}
		if b.variants == 0 {
			return ErrNoVariants
		}
		return fmt.Errorf("%s's belief in %s is %s without the evidence it heard", d.Str("holder"), d.Str("claim"), d.Str("change"))
	}
	e := recfields.Of(m)
	piece := claims.Evidence{
		Type: claims.EvidenceType(e.Str("type")), Tick: tick, Variant: e.Str("variant"), Chain: e.Strs("chain"),
		Via: e.Str("via"), Confidence: e.Number("confidence"), Counted: e.Bool("counted"),
	}
	d.Take("evidence.", e)
	if len(piece.Chain) > 0 {
		piece.Source = piece.Chain[len(piece.Chain)-1]
	}
	holder, claim, change := d.Str("holder"), d.Str("claim"), d.Str("change")
	key := [2]string{holder, claim}
	bl := b.beliefs[key]
	switch {
	case bl == nil && change != trace.BeliefFormed:
		return fmt.Errorf("%s's belief in %s is %s before it formed", holder, claim, change)
	case bl == nil:
		bl = &Belief{Holder: holder, Claim: claim, FormedAt: tick, Origins: []string{piece.Root(holder)}}
		b.beliefs[key] = bl
	case change == trace.BeliefFormed:
		return fmt.Errorf("%s's belief in %s formed twice", holder, claim)
	case piece.Counted && change != trace.BeliefContested:
		// A counted report that is not a contest's is a new origin
		// (docs/trace-schema.md, the belief record's evidence).
		if i, found := slices.BinarySearch(bl.Origins, piece.Root(holder)); !found {
			bl.Origins = slices.Insert(bl.Origins, i, piece.Root(holder))
		}
	}
	bl.Evidence = append(bl.Evidence, piece)
	bl.Anchor = tick
	return nil
}

// Lineage returns what the builder has read, sorted.
func (b *Builder) Lineage() (*Lineage, error) {
	if b.held > 0 && b.variants == 0 {
		return nil, ErrNoVariants
	}
	l := &Lineage{}
	for _, id := range sortedKeys(b.claims) {
		l.Claims = append(l.Claims, *b.claims[id])
	}
	keys := make([][2]string, 0, len(b.beliefs))
	for k := range b.beliefs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y [2]string) int { return cmpPair(x[0], x[1], y[0], y[1]) })
	for _, k := range keys {
		l.Beliefs = append(l.Beliefs, *b.beliefs[k])
	}
	return l, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
