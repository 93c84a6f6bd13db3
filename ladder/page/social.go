package page

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Block is one kind of social state the panel shows: its dense columns
// are "<Name>/<key parts…>/<field>" (docs/dense-columns.md), so the
// panel reads exactly the values the golden pins.
type Block struct {
	Name   string
	Key    []string // what each part of the key is
	Fields []string // the dense suffixes, in the order a state lists them
}

// Blocks are the social blocks in the dense contract's order; a block's
// code in the embedded data is its index here, and the page's script
// holds the same list.
var Blocks = []Block{
	{"accumulator", []string{"victim", "offender"}, []string{"count", "armed"}},
	{"grudge", []string{"holder", "target"}, []string{"emotional", "evidentiary", "settled"}},
	{"obligation", []string{"favour"}, []string{"state"}},
	{"reputation", []string{"observer", "subject", "dimension"}, []string{"alpha", "beta", "mean"}},
	{"pair", []string{"a", "b"}, []string{"weight"}},
	{"role", []string{"role"}, []string{"holder", "vacant", "lapses"}},
	{"schedule", []string{"npc"}, []string{"base", "override"}},
}

func blockIndex(name string) int {
	return slices.IndexFunc(Blocks, func(b Block) bool { return b.Name == name })
}

// socialColumn splits a dense column into its social block, key and
// field; ok is false for a column of another shape.
func socialColumn(col string) (block int, key, field string, ok bool) {
	parts := strings.Split(col, "/")
	b := blockIndex(parts[0])
	if b < 0 || len(parts) != len(Blocks[b].Key)+2 || !slices.Contains(Blocks[b].Fields, parts[len(parts)-1]) {
		return -1, "", "", false
	}
	return b, strings.Join(parts[1:len(parts)-1], "/"), parts[len(parts)-1], true
}

// SocialState is one social record's dense cells from a tick on, in its
// block's Fields order; every cell is "" while the record does not exist.
type SocialState struct {
	Tick   int64
	Values []string
}

func (st SocialState) exists() bool {
	return slices.ContainsFunc(st.Values, func(v string) bool { return v != "" })
}

// SocialTrack is one social record over the section's rows, as change
// points: a grudge ("grudge", "dagny/player"), an obligation, a
// reputation row, an accumulator, a pair weight, a role or an NPC's
// changed schedule. Key is the dense columns' key, its parts joined by
// "/".
type SocialTrack struct {
	Block   string
	Key     string
	Changes []SocialState
}

// socialKey is a social record's identity in a dense file.
type socialKey struct {
	block int
	key   string
}

func compareSocial(a, b socialKey) int {
	return cmp.Or(cmp.Compare(a.block, b.block), strings.Compare(a.key, b.key))
}

// SocialChange is a trace record that changed (or judged) a social
// record, so a row of the panel can say what last touched it and link
// there: a state delta (kinds grudge, obligation, reputation, schedule,
// role), or a rule evaluation that moves a value no delta kind records
// (rule 11 on an accumulator's count, rule 18 on a pair's weight, a
// vacant role's lapsed duty).
type SocialChange struct {
	Tick, Seq  int64
	Block, Key string
	// Change is the delta's change ("formed", "violated", "overridden",
	// "appointed"…) or the evaluation's reason.
	Change, Rule, Cause string
	// RuleSeq is the seq of the rule evaluation behind the record: the
	// record itself when it is one; for a delta, the last evaluation of
	// its rule that fired earlier in the same tick (the trace writes a
	// rule's evaluation just before the deltas it causes); -1 when none.
	RuleSeq int64
	// Detail is what the delta adds by kind: an obligation's creditor
	// and debtor; a schedule change's override and where it places the
	// NPC; a role's holder after and before.
	Detail []string
}

// Text is how the panel's "last record" cell reads, e.g. "t20 formed —
// grudge-creation ← invoke@20 (trace seq 61)": the tick, the change (with
// a schedule's override and place, or a role's new and old holder), the
// rule, the cause, and the seq to find the record by in trace.jsonl.
func (c SocialChange) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "t%d %s", c.Tick, c.Change)
	switch {
	case len(c.Detail) < 2: // a rule evaluation: its reason says it all
	case c.Block == "schedule":
		fmt.Fprintf(&b, " %s at %s", c.Detail[0], c.Detail[1])
	case c.Block == "role":
		fmt.Fprintf(&b, ": %s", cmp.Or(c.Detail[0], "vacant"))
		if c.Detail[1] != "" {
			fmt.Fprintf(&b, " (was %s)", c.Detail[1])
		}
	}
	b.WriteString(" — " + c.Rule)
	if c.Cause != "" {
		b.WriteString(" ← " + c.Cause)
	}
	fmt.Fprintf(&b, " (trace seq %d)", c.Seq)
	return b.String()
}

// socialCollector gathers the social changes of a trace as it streams
// by: every change from tick from on, and before it only the last change
// of each record, so a long run's
// window still shows what last touched each row without keeping its past.
type socialCollector struct {
	from     int64
	offender func(victim, claim string, tick int64) string
	fired    map[string][2]int64 // rule → tick and seq of its last fired evaluation
	before   map[string]SocialChange
	changes  []SocialChange
}

func newSocialCollector(from int64, offender func(victim, claim string, tick int64) string) *socialCollector {
	return &socialCollector{from: from, offender: offender, fired: map[string][2]int64{}, before: map[string]SocialChange{}}
}

// evaluated are the rules whose evaluations move a social value no delta
// records (evaluation).
var evaluated = []string{"accumulation-threshold", "pairwise-encounter-weighting", "role-succession"}

// deltas are the trace kinds that change social state.
var deltas = []string{"grudge", "obligation", "reputation", "schedule", "role"}

// see is shown every trace record up to the section's last tick, in
// derivation order, by its head; it decodes only the records it keeps: the
// state deltas and the evaluations of the rules in evaluated. Every other
// rule evaluation only moves the rule's last fired evaluation.
func (c *socialCollector) see(h head, decode func() (*traceLine, error)) error {
	switch {
	case h.Kind == string(KindRule) && !slices.Contains(evaluated, h.Rule):
		if h.Fired {
			c.fired[h.Rule] = [2]int64{h.Tick, h.Seq}
		}
		return nil
	case h.Kind != string(KindRule) && !slices.Contains(deltas, h.Kind):
		return nil
	}
	l, err := decode()
	if err != nil {
		return err
	}
	c.line(l)
	return nil
}

// line sees one trace record that is a state delta or a rule evaluation.
func (c *socialCollector) line(l *traceLine) {
	ruleSeq := int64(-1)
	if f, ok := c.fired[l.Rule]; ok && f[0] == l.Tick {
		ruleSeq = f[1]
	}
	ch := SocialChange{Tick: l.Tick, Seq: l.Seq, Change: l.Change, Rule: l.Rule, Cause: l.Cause, RuleSeq: ruleSeq}
	switch Kind(l.Kind) {
	case KindRule:
		if l.Fired {
			c.fired[l.Rule] = [2]int64{l.Tick, l.Seq}
		}
		if l.Reason == "disabled" {
			return
		}
		ch.Change, ch.RuleSeq = l.Reason, l.Seq
		if !c.evaluation(l, &ch) {
			return
		}
	case "grudge":
		ch.Block, ch.Key = "grudge", l.Holder+"/"+l.Target
	case "obligation":
		ch.Block, ch.Key, ch.Change, ch.Detail = "obligation", l.Favour, l.State, []string{l.Creditor, l.Debtor}
	case "reputation":
		// A reputation record has no change field: it says where the
		// opinion moved to.
		ch.Block, ch.Key = "reputation", l.Observer+"/"+l.Subject+"/"+l.Dimension
		ch.Change = "moved to α " + l.Alpha.String() + ", β " + l.Beta.String()
	case "schedule":
		ch.Block, ch.Key, ch.Detail = "schedule", l.NPC, []string{l.Override, l.At}
	case "role":
		ch.Block, ch.Key, ch.Detail = "role", l.Role, []string{l.Holder, l.Previous}
	default:
		return
	}
	if ch.Tick >= c.from {
		c.changes = append(c.changes, ch)
		return
	}
	c.before[ch.Block+"\x00"+ch.Key] = ch
}

// evaluation fills in the record a rule evaluation moves, when it moves
// one no delta records: rule 11 ("victim/claim": the accumulator of the
// victim against the claim's actor), rule 18 ("holder->target/cause":
// the pair's weight) and a vacant role's lapsed duty
// ("role/duties:role:n": the role's lapses).
func (c *socialCollector) evaluation(l *traceLine, ch *SocialChange) bool {
	switch l.Rule {
	case "accumulation-threshold":
		victim, claim, ok := strings.Cut(l.Subject, "/")
		offender := c.offender(victim, claim, l.Tick)
		if !ok || offender == "" {
			return false
		}
		ch.Block, ch.Key, ch.Cause = "accumulator", victim+"/"+offender, claim
	case "pairwise-encounter-weighting":
		holder, rest, ok := strings.Cut(l.Subject, "->")
		target, cause, ok2 := strings.Cut(rest, "/")
		if !ok || !ok2 {
			return false
		}
		a, b := min(holder, target), max(holder, target)
		ch.Block, ch.Key, ch.Cause = "pair", a+"/"+b, cause
	case "role-succession":
		role, duty, ok := strings.Cut(l.Subject, "/")
		if !ok || !l.Fired {
			return false
		}
		ch.Block, ch.Key, ch.Cause = "role", role, duty
	default:
		return false
	}
	return true
}

// done returns every change in derivation order.
func (c *socialCollector) done() []SocialChange {
	out := make([]SocialChange, 0, len(c.before)+len(c.changes))
	for _, ch := range c.before {
		out = append(out, ch)
	}
	slices.SortFunc(out, func(a, b SocialChange) int { return cmp.Compare(a.Seq, b.Seq) })
	return append(out, c.changes...)
}

// offender is the actor of the claim as the victim held it at the tick
// (the variant in the dense belief columns, else the claim's original):
// rule 11 keeps one accumulator per victim and actor. "" when the lineage
// is missing.
func (s *Section) offender(victim, claim string, tick int64) string {
	if s.Lineage == nil {
		return ""
	}
	i, ok := slices.BinarySearchFunc(s.Lineage.Claims, claim, func(c Claim, id string) int { return strings.Compare(c.ID, id) })
	if !ok || len(s.Lineage.Claims[i].Variants) == 0 {
		return ""
	}
	vs := s.Lineage.Claims[i].Variants
	v := vs[0]
	if s.Actual != nil {
		if st := stateAt(s.Actual, victim, claim, tick); st.Held {
			if j := slices.IndexFunc(vs, func(x Variant) bool { return x.ID == st.Variant }); j >= 0 {
				v = vs[j]
			}
		}
	}
	actor, _ := v.Slots.Get("actor")
	return actor.Value
}

// HasSocial reports whether the run (or its golden) has social state:
// only then does the section have a social-state panel.
func (s *Section) HasSocial() bool {
	return s.Actual != nil && len(s.Actual.Social) > 0 || s.Golden != nil && len(s.Golden.Social) > 0
}

// SocialRow is one row of the social-state panel as of a tick: a record
// that exists at the end of the tick (in the run, or in the golden).
type SocialRow struct {
	Block, Key string
	Values     []string // the dense cells, in the block's Fields order
	// Golden is the golden's cells at the tick, set only when they
	// differ (failing rungs).
	Golden []string
	// Last is the last trace record at or before the tick that changed or
	// judged the record; nil when none did.
	Last *SocialChange
	// Where is, for a schedule with an override in force, where the NPC
	// is at the tick (its "<npc>/at" column): where the override puts it.
	Where string
}

// SocialAt returns the social-state panel as of the end of tick t: every
// social record that exists then, by block in the dense contract's order
// and by key, with its values, the golden's where they differ, and the
// trace record that last changed it. The page's script computes the same
// rows from the embedded data. A section without social columns has
// none, and no panel.
func (s *Section) SocialAt(t int64) []SocialRow {
	if s.Actual == nil {
		return nil
	}
	var keys []socialKey
	for _, tr := range []*Tracks{s.Actual, s.Golden} {
		if tr != nil {
			for _, x := range tr.Social {
				keys = append(keys, socialKey{blockIndex(x.Block), x.Key})
			}
		}
	}
	slices.SortFunc(keys, compareSocial)
	keys = slices.Compact(keys)
	var rows []SocialRow
	for _, k := range keys {
		a := socialStateAt(s.Actual, k, t)
		var g SocialState
		if s.Golden != nil {
			g = socialStateAt(s.Golden, k, t)
		}
		if !a.exists() && !g.exists() {
			continue
		}
		b := Blocks[k.block]
		r := SocialRow{Block: b.Name, Key: k.key, Values: a.Values}
		if r.Values == nil {
			r.Values = make([]string, len(b.Fields))
		}
		if s.Golden != nil && !slices.Equal(r.Values, g.Values) {
			r.Golden = make([]string, len(b.Fields))
			copy(r.Golden, g.Values)
		}
		if b.Name == "schedule" && r.Values[1] != "" {
			r.Where = s.whereAt(k.key, t)
		}
		for i := range s.Social {
			ch := &s.Social[i]
			if ch.Tick > t {
				break
			}
			if ch.Block != b.Name || ch.Key != k.key {
				continue
			}
			r.Last = ch
		}
		rows = append(rows, r)
	}
	return rows
}

// whereAt returns where an NPC is at the end of tick t.
func (s *Section) whereAt(npc string, t int64) string {
	i := slices.IndexFunc(s.Actual.NPCs, func(n NPCTrack) bool { return n.ID == npc })
	if i < 0 {
		return ""
	}
	p, _ := at(s.Actual.NPCs[i].Changes, presenceTick, t)
	return p.At
}

func socialStateAt(tr *Tracks, k socialKey, t int64) SocialState {
	i, ok := slices.BinarySearchFunc(tr.Social, k, func(x SocialTrack, k socialKey) int {
		return compareSocial(socialKey{blockIndex(x.Block), x.Key}, k)
	})
	if !ok {
		return SocialState{}
	}
	st, _ := at(tr.Social[i].Changes, func(c SocialState) int64 { return c.Tick }, t)
	return st
}
