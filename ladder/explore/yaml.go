package explore

import (
	"bytes"
	"fmt"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
)

// Marshal writes a fixture's world in the fixture language: every key the
// loader reads for it, the defines that differ from the defaults, and
// expect as given (raw YAML items, for promoted rungs). Loading the bytes
// back yields the same world, which Load checks; a difference is a bug in
// this writer or in the loader.
func Marshal(f *fixture.Fixture, expect []*yaml.Node, cases *yaml.Node) ([]byte, error) {
	root := mapping()
	add(root, "rung", str(f.Rung))
	add(root, "title", str(f.Title))
	add(root, "tier", str(f.Tier))
	add(root, "seed_id", str(f.SeedID))
	add(root, "ticks", integer(f.Ticks))
	if f.Summary != "" {
		s := str(f.Summary)
		s.Style = yaml.FoldedStyle
		add(root, "summary", s)
	}
	if d := definesNode(f.Defines); len(d.Content) > 0 {
		add(root, "defines", d)
	}
	if len(f.Disabled) > 0 {
		add(root, "rules", flowMap("disable", flowSeq(strs(f.Disabled)...)))
	}
	if len(f.Items) > 0 {
		add(root, "items", flowSeq(strs(f.Items)...))
	}
	locs := mapping()
	for _, l := range f.Locations {
		v := flow(mapping())
		if l.Hold != "" {
			add(v, "hold", str(l.Hold))
		}
		if len(l.Tags) > 0 {
			add(v, "tags", flowSeq(strs(l.Tags)...))
		}
		add(locs, l.ID, v)
	}
	if len(f.Locations) > 0 {
		add(root, "locations", locs)
	}
	cast := mapping()
	for _, n := range f.Cast {
		v := flow(mapping())
		if n.Schedule.Home != "" {
			add(v, "home", str(n.Schedule.Home))
		}
		if n.Faction != "" {
			add(v, "faction", str(n.Faction))
		}
		if len(n.Schedule.Blocks) > 0 {
			add(v, "schedule", blocks(n.Schedule.Blocks))
		}
		add(cast, n.ID, v)
	}
	if len(f.Cast) > 0 {
		add(root, "cast", cast)
	}
	if len(f.Relationships) > 0 {
		rel := seq()
		for _, r := range f.Relationships {
			rel.Content = append(rel.Content, flowMap("from", str(r.From), "to", str(r.To), "trust", float(r.Trust)))
		}
		add(root, "relationships", rel)
	}
	if len(f.Kin) > 0 {
		kin := seq()
		for _, h := range f.Kin {
			kin.Content = append(kin.Content, flowSeq(strs(h)...))
		}
		add(root, "kin", kin)
	}
	if len(f.Roles) > 0 {
		rs := mapping()
		for _, r := range f.Roles {
			v := flow(mapping())
			add(v, "faction", str(r.Faction))
			if r.Holder != "" {
				add(v, "holder", str(r.Holder))
			}
			if r.Appointer != "" {
				add(v, "appointer", str(r.Appointer))
			}
			if len(r.Duties) > 0 {
				add(v, "duties", blocks(r.Duties))
			}
			add(rs, r.ID, v)
		}
		add(root, "roles", rs)
	}
	if len(f.Injections) > 0 {
		evs := seq()
		for _, in := range f.Injections {
			evs.Content = append(evs.Content, injection(in))
		}
		add(root, "events", evs)
	}
	if len(expect) > 0 {
		ex := seq()
		ex.Content = expect
		add(root, "expect", ex)
	}
	if cases != nil {
		add(root, "cases", cases)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return nil, fmt.Errorf("write fixture %s: %w", f.Rung, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("write fixture %s: %w", f.Rung, err)
	}
	return buf.Bytes(), nil
}

// definesNode holds the defines that differ from the defaults, in
// declaration order.
func definesNode(d rules.Defines) *yaml.Node {
	out := flow(mapping())
	def := rules.Default()
	for _, f := range rules.Fields() {
		v, _ := d.Value(f.Name)
		dv, _ := def.Value(f.Name)
		if v == dv {
			continue
		}
		if f.Kind == rules.IntDefine {
			add(out, f.Name, integer(int64(v)))
		} else {
			add(out, f.Name, float(v))
		}
	}
	return out
}

func blocks(bs []schedule.Block) *yaml.Node {
	out := flowSeq()
	for _, b := range bs {
		v := flowMap("at", str(b.At), "from", integer(b.From), "to", integer(b.To))
		if b.Every > 0 {
			add(v, "every", integer(b.Every))
		}
		if b.Since != 0 {
			add(v, "since", integer(b.Since))
		}
		if b.Until != schedule.Forever {
			add(v, "until", integer(b.Until))
		}
		if b.Meets != "" {
			add(v, "meets", str(b.Meets))
		}
		out.Content = append(out.Content, v)
	}
	return out
}

func injection(in sim.Injection) *yaml.Node {
	v := flowMap("tick", integer(in.Tick), "kind", str(in.Kind))
	if in.Kind == sim.Report {
		add(v, "from", str(in.From))
		add(v, "to", str(in.To))
		add(v, "claim", str(in.Claim))
		return v
	}
	if in.ID != in.Kind+"@"+strconv.FormatInt(in.Tick, 10) {
		add(v, "id", str(in.ID))
	}
	add(v, "actor", str(in.Actor))
	switch in.Kind {
	case sim.Theft:
		add(v, "victim", str(in.Victim))
		add(v, "item", str(in.Item))
	case sim.Killing, sim.Brawl:
		add(v, "victim", str(in.Victim))
	case sim.Favour:
		add(v, "recipient", str(in.Recipient))
	case sim.Invoke:
		add(v, "recipient", str(in.Recipient))
		add(v, "favour", str(in.Favour))
		add(v, "outcome", str(in.Outcome))
	case sim.Title:
		add(v, "recipient", str(in.Recipient))
		add(v, "title", str(in.TitleName))
	case sim.Secret:
		add(v, "implicates", str(in.Implicates))
	}
	add(v, "at", str(in.At))
	ws := flowSeq()
	for _, w := range in.Witnesses {
		if len(w.Says) == 0 {
			ws.Content = append(ws.Content, str(w.NPC))
			continue
		}
		says := flow(mapping())
		for _, r := range w.Says {
			add(says, r.Slot, str(r.Value))
		}
		ws.Content = append(ws.Content, flowMap("npc", str(w.NPC), "says", says))
	}
	add(v, "witnesses", ws)
	return v
}

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"} }
func seq() *yaml.Node     { return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"} }

func flow(n *yaml.Node) *yaml.Node { n.Style = yaml.FlowStyle; return n }

func flowSeq(items ...*yaml.Node) *yaml.Node {
	s := flow(seq())
	s.Content = items
	return s
}

// flowMap is a flow mapping of key, value pairs.
func flowMap(kv ...any) *yaml.Node {
	m := flow(mapping())
	for i := 0; i+1 < len(kv); i += 2 {
		add(m, kv[i].(string), kv[i+1].(*yaml.Node))
	}
	return m
}

func add(m *yaml.Node, key string, v *yaml.Node) { m.Content = append(m.Content, str(key), v) }

// str is a string scalar: the encoder quotes it where YAML would read it
// as something else (42, true), which the loader's ids need.
func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func strs(ss []string) []*yaml.Node {
	out := make([]*yaml.Node, len(ss))
	for i, s := range ss {
		out[i] = str(s)
	}
	return out
}

func integer(v int64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(v, 10)}
}

func boolean(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
}

// float writes a number as Python's repr does (the shortest text that
// reads back to the same float), so loading it gives the same bits.
func float(v float64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: canon.FormatFloat(v)}
}
