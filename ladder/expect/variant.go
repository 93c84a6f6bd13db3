package expect

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/jsonschema"
	"github.com/chronicle/ladder/sim/claims"
)

// variant checks one variant: its predecessor (null for the original), its
// whole chain of predecessors back to the original (predecessors, a
// sequence, nearest first: [] for the original), its diff (a set of slot
// changes, each slot: [from, to]; compared whole, order-free) and some of
// its slots. It examines ticks; before the variant exists it fails.
type variantKind struct{}

func (variantKind) Name() string   { return "variant" }
func (variantKind) Timing() Timing { return AtEnd }
func (variantKind) Doc() string {
	return "one variant's predecessor, chain of predecessors, slot diff and slots; at the last tick unless timed"
}

type variantCheck struct {
	id          string
	idAt        Pos
	predecessor *posString // "" means none (the original)
	chain       []string   // nil: unchecked
	chainAt     Pos
	diff        []change // nil: unchecked
	diffAt      Pos
	slots       []SlotValue
}

type change struct{ Slot, From, To string }

// diffSchema is a variant's diff: slot: [from, to].
var diffSchema = func() *jsonschema.Schema {
	pair := jsonschema.Array(jsonschema.String())
	pair.MinItems, pair.MaxItems = new(2), new(2)
	return jsonschema.Map(jsonschema.String(), pair.Doc("[from, to]"))
}()

func (variantKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &variantCheck{}
	d.Object(n, path,
		Field{Name: "id", Required: true, Doc: "the variant", Decode: func(v *yaml.Node, p string) { c.id, c.idAt = d.VariantID(v, p), PosOf(v) }},
		Field{Name: "predecessor", Doc: "the variant it was mutated from; null for the original", Decode: func(v *yaml.Node, p string) {
			s := ""
			if !d.Null(v) {
				s = d.VariantID(v, p)
			}
			c.predecessor = &posString{s, PosOf(v)}
		}},
		Field{Name: "predecessors", Doc: "its whole chain back to the original, nearest first ([] for the original)", Decode: func(v *yaml.Node, p string) {
			c.chain, c.chainAt = []string{}, PosOf(v)
			d.List(v, p, func(_ int, item *yaml.Node, ip string) { c.chain = append(c.chain, d.VariantID(item, ip)) })
		}},
		Field{Name: "diff", Doc: "the slots its mutation changed, each slot: [from, to]; compared whole, in any order", Schema: diffSchema, Decode: func(v *yaml.Node, p string) {
			c.diff, c.diffAt = []change{}, PosOf(v)
			claim, _, _ := strings.Cut(c.id, "#v")
			kind := d.ClaimKind(claim)
			d.Entries(v, p, func(k, val *yaml.Node, dp string) {
				// A slot the claim does not have never changes, so a
				// misspelt one is refused here, as in slots.
				if slots := d.SlotNames(kind); kind != "" && !slices.Contains(slots, k.Value) {
					d.Errorf(k, dp, "a %s has no slot %q%s", kind, k.Value, d.Suggest(k.Value, slots))
					return
				}
				val = resolve(val)
				if val.Kind != yaml.SequenceNode || len(val.Content) != 2 {
					d.Errorf(val, dp, "a slot change is [from, to]")
					return
				}
				c.diff = append(c.diff, change{Slot: k.Value, From: d.Ident(val.Content[0], dp+"[0]"), To: d.Ident(val.Content[1], dp+"[1]")})
			})
			slices.SortFunc(c.diff, func(a, b change) int { return strings.Compare(a.Slot, b.Slot) })
		}},
		Field{Name: "slots", Doc: "some of its slots and the value each holds", Decode: func(v *yaml.Node, p string) {
			claim, _, _ := strings.Cut(c.id, "#v")
			c.slots = d.SlotValues(v, p, d.ClaimKind(claim))
		}},
	)
	return c
}

func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func (c *variantCheck) Unit() string    { return "ticks" }
func (c *variantCheck) Finish(*Outcome) {}

func (c *variantCheck) AtTick(w World, o *Outcome) {
	o.Examine(1)
	t := w.Tick()
	v, ok := w.Store().Variant(c.id)
	if !ok {
		o.Fail(t, c.idAt, "variant %s does not exist", c.id)
		return
	}
	if c.predecessor != nil && v.Predecessor != c.predecessor.v {
		o.Fail(t, c.predecessor.at, "variant %s predecessor = %q, want %q", c.id, v.Predecessor, c.predecessor.v)
		return
	}
	if c.chain != nil {
		got, err := predecessors(w.Store(), v.Predecessor)
		if err != nil {
			o.Fail(t, c.chainAt, "variant %s: %v", c.id, err)
			return
		}
		if !slices.Equal(got, c.chain) {
			o.Fail(t, c.chainAt, "variant %s predecessors = %s, want %s", c.id, list(got), list(c.chain))
			return
		}
	}
	if c.diff != nil {
		got := make([]change, len(v.Diff))
		for i, d := range v.Diff {
			got[i] = change{Slot: d.Slot, From: d.From, To: d.To}
		}
		if !slices.Equal(got, c.diff) {
			o.Fail(t, c.diffAt, "variant %s diff = %v, want %v", c.id, fmt.Sprint(got), fmt.Sprint(c.diff))
			return
		}
	}
	if c.slots != nil {
		checkSlots(t, o, "variant "+c.id, v.Slots, c.slots)
	}
}

// predecessors walks a variant's lineage from its predecessor back to the
// original, nearest first. A missing link or a loop is an error: the chain
// it would report is not a lineage.
func predecessors(s *claims.Store, from string) ([]string, error) {
	out := []string{}
	for id := from; id != ""; {
		if slices.Contains(out, id) {
			return nil, fmt.Errorf("its lineage loops at %s", id)
		}
		v, ok := s.Variant(id)
		if !ok {
			return nil, fmt.Errorf("its lineage names %s, which does not exist", id)
		}
		out = append(out, id)
		id = v.Predecessor
	}
	return out, nil
}
