package page

import (
	"encoding/json"
	"slices"
)

// interner numbers strings in order of first use, so the embedded data
// names each id, variant and number once.
type interner struct {
	index map[string]int
	list  []string
}

func (in *interner) id(s string) int {
	if i, ok := in.index[s]; ok {
		return i
	}
	if in.index == nil {
		in.index = map[string]int{}
	}
	in.index[s] = len(in.list)
	in.list = append(in.list, s)
	return len(in.list) - 1
}

func (in *interner) ids(ss []string) []int {
	out := make([]int, len(ss))
	for i, s := range ss {
		out[i] = in.id(s)
	}
	return out
}

func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// data returns the section's embedded data: compact JSON of arrays of
// integers, every string replaced by its index in "s". doc.go describes
// the layout; page.js reads it.
func (s *Section) data() ([]byte, error) {
	var in interner
	out := map[string]any{"div": s.Divergence}
	if s.Actual == nil {
		out["s"] = in.list
		return json.Marshal(out)
	}
	r := s.Rows
	out["rows"] = []int64{r.First, r.Last, int64(r.N), r.From, r.To, int64(bit(r.Capped)), r.Sample}
	var npcs []any
	for _, n := range s.Actual.NPCs {
		var ch [][]int64
		for _, p := range n.Changes {
			ch = append(ch, []int64{p.Tick, int64(bit(p.Alive)), int64(in.id(p.At))})
		}
		npcs = append(npcs, []any{in.id(n.ID), ch})
	}
	out["npc"] = npcs
	out["bel"] = beliefData(&in, s.Actual)
	if s.Golden != nil {
		out["gbel"] = beliefData(&in, s.Golden)
	}
	if s.HasSocial() {
		out["soc"] = socialData(&in, s.Actual)
		if s.Golden != nil {
			out["gsoc"] = socialData(&in, s.Golden)
		}
	}
	var ev []any
	if s.Lineage != nil {
		for _, b := range s.Lineage.Beliefs {
			var items []any
			for _, e := range s.Evidence[[2]string{b.Holder, b.Claim}] {
				items = append(items, []any{e.Tick, in.id(e.Type), in.ids(e.Chain), in.id(e.Via), in.id(e.Variant), in.id(e.Confidence), bit(e.Counted)})
			}
			ev = append(ev, []any{in.id(b.Holder), in.id(b.Claim), items})
		}
	}
	out["ev"] = ev
	var vm [][3]int64
	for _, m := range s.Makers() {
		vm = append(vm, [3]int64{int64(in.id(m.Variant)), m.Tick, m.Seq})
	}
	out["vm"] = vm
	if st := s.Strengths; st != nil {
		var bs []any
		for _, b := range st.Tracks {
			var ch [][3]int64
			for _, c := range b.Changes {
				ch = append(ch, [3]int64{c.Tick, int64(in.id(c.Verbatim)), int64(in.id(c.Gist))})
			}
			bs = append(bs, []any{in.id(b.Holder), in.id(b.Claim), ch})
		}
		out["str"] = map[string]any{"w": []int64{st.From, st.To, int64(bit(st.Capped))}, "b": bs}
	}
	if s.Lineage != nil {
		var cl [][2]int64
		for _, c := range s.Lineage.Claims {
			cl = append(cl, [2]int64{int64(in.id(c.ID)), c.Tick})
		}
		out["cl"] = cl
	}
	out["feed"] = feedData(&in, s.Feed)
	var vs []any
	for _, o := range s.Others {
		c := comparisonData(&in, o.Cmp)
		if o.Name == "golden" {
			out["gfeed"], out["gcmp"] = feedData(&in, o.Feed), c
			continue
		}
		vs = append(vs, map[string]any{"n": in.id(o.Name), "bel": beliefData(&in, o.Tracks), "feed": feedData(&in, o.Feed), "cmp": c})
	}
	if vs != nil {
		out["vs"] = vs
	}
	if m := s.Map; m != nil {
		var pl [][]any
		for _, p := range m.Places {
			pl = append(pl, []any{in.id(p.ID), p.X, p.Y})
		}
		out["map"] = map[string]any{"pl": pl, "car": in.ids(m.Carriers)}
	}
	if s.HasSocial() {
		out["sch"] = s.changeData(&in)
	}
	if w := s.WhyNot; w != nil {
		out["wn"] = whyNotData(&in, w)
	}
	out["win"] = []int64{s.Window.From, s.Window.To, int64(bit(s.Window.Capped))}
	if s.Window.Capped {
		ticks := make([]int64, 0, len(s.Counts))
		for t := range s.Counts {
			ticks = append(ticks, t)
		}
		slices.Sort(ticks)
		cnt := make([][6]int64, len(ticks))
		for i, t := range ticks {
			c := s.Counts[t]
			cnt[i] = [6]int64{t, int64(c[0]), int64(c[1]), int64(c[2]), int64(c[3]), int64(c[4])}
		}
		out["cnt"] = cnt
	}
	out["s"] = in.list
	return json.Marshal(out)
}

// feedData is a feed's records: [tick, kind, fired, seq step, field…],
// the kind by its index in kinds, the seq as the step from the record
// before (records are in seq order, so the steps are small).
func feedData(in *interner, recs []Record) [][]int64 {
	out := make([][]int64, 0, len(recs))
	prev := int64(0)
	for _, r := range recs {
		row := []int64{r.Tick, int64(slices.Index(kinds, r.Kind)), int64(bit(r.Fired)), r.Seq - prev}
		prev = r.Seq
		for _, f := range r.Fields {
			row = append(row, int64(in.id(f)))
		}
		out = append(out, row)
	}
	return out
}

// comparisonData is a Comparison as the script reads it.
func comparisonData(in *interner, c *Comparison) map[string]any {
	if c == nil {
		return nil
	}
	out := map[string]any{"a": in.id(c.A), "b": in.id(c.B), "verdict": in.id(c.Verdict), "skipped": in.id(c.Skipped),
		"shared": c.Shared, "same": c.Same}
	var cl [][2]int
	for _, k := range c.Classes {
		cl = append(cl, [2]int{in.id(k.Name), k.Count})
	}
	out["classes"] = cl
	if r := c.FirstRoll; r != nil {
		out["roll"] = []any{r.Tick, in.id(r.Key), in.id(r.Class), in.id(r.A), in.id(r.B), r.SeqA, r.SeqB}
	}
	if b := c.FirstBelief; b != nil {
		out["belief"] = []any{b.Tick, in.id(b.Holder), in.ids(b.A), in.ids(b.B)}
	}
	if r := c.FirstRecord; r != nil {
		out["record"] = []any{r.Tick, in.id(r.Kind), in.id(r.Key), r.Seq, in.id(r.Text)}
	}
	return out
}

func beliefData(in *interner, tr *Tracks) []any {
	var out []any
	for _, b := range tr.Beliefs {
		var ch [][]int
		for _, c := range b.Changes {
			ch = append(ch, []int{int(c.Tick), bit(c.Held), in.id(c.Variant), in.id(c.Confidence), in.id(c.Stage), in.id(c.Sources)})
		}
		out = append(out, []any{in.id(b.Holder), in.id(b.Claim), ch})
	}
	return out
}

func socialData(in *interner, tr *Tracks) []any {
	out := []any{}
	for _, x := range tr.Social {
		var ch [][]int64
		for _, c := range x.Changes {
			row := []int64{c.Tick}
			for _, v := range c.Values {
				row = append(row, int64(in.id(v)))
			}
			ch = append(ch, row)
		}
		out = append(out, []any{blockIndex(x.Block), in.id(x.Key), ch})
	}
	return out
}

// changeData lists the social changes, each with the index in "feed" of
// the rule evaluation behind it (-1 when that record is not embedded).
func (s *Section) changeData(in *interner) [][]int64 {
	rules := map[int64]int{}
	for i, r := range s.Feed {
		if r.Kind == KindRule {
			rules[r.Seq] = i
		}
	}
	out := make([][]int64, 0, len(s.Social))
	for _, c := range s.Social {
		ref := int64(-1)
		if i, ok := rules[c.RuleSeq]; ok && c.RuleSeq >= 0 {
			ref = int64(i)
		}
		row := []int64{c.Tick, c.Seq, int64(blockIndex(c.Block)), int64(in.id(c.Key)), int64(in.id(c.Change)),
			int64(in.id(c.Rule)), int64(in.id(c.Cause)), ref}
		for _, d := range c.Detail {
			row = append(row, int64(in.id(d)))
		}
		out = append(out, row)
	}
	return out
}

// whyNotData is a section's why-not answers: the embedded ticks, each
// pair's change points and the answers, every line by its index in "s".
func whyNotData(in *interner, w *WhyNot) map[string]any {
	pairs := make([]any, 0, len(w.Pairs))
	for _, p := range w.Pairs {
		pairs = append(pairs, []any{in.id(p.NPC), in.id(p.Claim), p.Changes})
	}
	answers := make([]any, 0, len(w.Answers))
	for _, a := range w.Answers {
		answers = append(answers, []any{in.id(a.Cause), in.ids(a.Lines)})
	}
	return map[string]any{"w": []int64{w.From, w.To, int64(bit(w.Capped))}, "k": in.ids(w.Claims), "p": pairs, "a": answers, "c": in.id(w.Command)}
}
