package expect

import (
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/jsonschema"
)

// claims checks the claims in the store: how many there are (count), and
// for one claim (id) that it exists, how many variants it has, and with
// lineage: intact that every variant but the original names an existing
// predecessor and leads back to the original without a cycle. It examines
// ticks.
type claimsKind struct{}

func (claimsKind) Name() string   { return "claims" }
func (claimsKind) Timing() Timing { return AtEnd }
func (claimsKind) Doc() string {
	return "the store's claims: how many, and one claim's variants and intact lineage; at the last tick unless timed"
}

type claimsCheck struct {
	count     *posInt
	id        string
	idAt      Pos
	variants  *posInt
	lineage   bool
	lineageAt Pos
}

func (claimsKind) Decode(d Decoder, n *yaml.Node, path string) Check {
	c := &claimsCheck{}
	d.Object(n, path,
		Field{Name: "count", Doc: "how many claims the store holds", Decode: func(v *yaml.Node, p string) {
			if x, ok := d.Int(v, p); ok {
				c.count = &posInt{x, PosOf(v)}
			}
		}},
		Field{Name: "id", Doc: "one claim, which must exist", Decode: func(v *yaml.Node, p string) { c.id, c.idAt = d.Claim(v, p), PosOf(v) }},
		Field{Name: "variants", Doc: "how many variants the claim has", Decode: func(v *yaml.Node, p string) {
			if x, ok := d.Int(v, p); ok {
				c.variants = &posInt{x, PosOf(v)}
			}
		}},
		Field{Name: "lineage", Doc: "intact: every variant but the original names an existing predecessor and leads back to the original", Schema: jsonschema.Enum("intact"), Decode: func(v *yaml.Node, p string) {
			if s := d.Str(v, p); s != "intact" {
				d.Errorf(v, p, "lineage can only be checked to be intact (lineage: intact)")
				return
			}
			c.lineage, c.lineageAt = true, PosOf(v)
		}},
	)
	d.Requires(n, path, "variants and lineage need the claim's id", "id", "variants", "lineage")
	d.Needs(n, path, "claims needs count, or id with variants and/or lineage", "count", "id")
	return c
}

func (c *claimsCheck) Unit() string { return "ticks" }

// Finish fails a count of no claims in a world whose events mint none.
func (c *claimsCheck) Finish(o *Outcome) {
	if c.count != nil && c.count.v == 0 && !o.Failed() && o.Examined > 0 {
		o.needSource(c.count.at, c.Unit(), "claims")
	}
}

// AtTick checks the claims as of the tick. What it reads only grows —
// claims are minted, variants derived, never removed or changed — so it
// counts claims and variants without listing them, and checks each
// variant's lineage once, when it first sees it: a variant is intact when
// its predecessor is the original or a variant already found intact
// (o.state keeps them). It examines the tick, and each variant whose
// lineage it checks.
func (c *claimsCheck) AtTick(w World, o *Outcome) {
	o.Examine(1)
	t, s := w.Tick(), w.Store()
	if c.count != nil {
		if n := s.ClaimCount(); int64(n) != c.count.v {
			got := s.ClaimIDs()
			o.Fail(t, c.count.at, "%d claims %s, want %d", n, list(got), c.count.v)
			return
		}
	}
	if c.id == "" {
		return
	}
	cl, ok := s.Claim(c.id)
	if !ok {
		o.Fail(t, c.idAt, "claim %s does not exist", c.id)
		return
	}
	n := s.VariantCountOf(c.id)
	if c.variants != nil && int64(n) != c.variants.v {
		vs := s.Variants(c.id)
		ids := make([]string, len(vs))
		for i, v := range vs {
			ids[i] = v.ID
		}
		o.Fail(t, c.variants.at, "claim %s has %d variants %s, want %d", c.id, len(vs), list(ids), c.variants.v)
		return
	}
	if !c.lineage {
		return
	}
	intact, _ := o.state.(map[string]bool)
	if intact == nil {
		intact = map[string]bool{cl.Variant: true}
		o.state = intact
	}
	for i := range n {
		vid := c.id + "#v" + strconv.Itoa(i)
		if intact[vid] {
			continue
		}
		o.Examine(1)
		seen := map[string]bool{}
		for id := vid; !intact[id]; {
			cur, ok := s.Variant(id)
			switch {
			case !ok:
				o.Fail(t, c.lineageAt, "variant %s: its lineage names %s, which does not exist", vid, id)
				return
			case seen[id]:
				o.Fail(t, c.lineageAt, "variant %s: its lineage loops at %s", vid, id)
				return
			case cur.Predecessor == "":
				o.Fail(t, c.lineageAt, "variant %s has no predecessor and is not the original %s: an orphan", id, cl.Variant)
				return
			}
			seen[id] = true
			id = cur.Predecessor
		}
		for id := range seen {
			intact[id] = true
		}
	}
}
