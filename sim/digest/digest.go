package digest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/roles"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/social"
)

// State is what the digest reads of a world; *sim.World has it. A state
// added to the engine adds its accessor here and a Section below.
type State interface {
	Now() int64
	NPCs() []string
	Alive(id string) bool
	Store() *claims.Store
	Log() *events.Log
	Grudges() *social.Grudges
	Ledger() *social.Ledger
	Reputation() *social.Reputation
	Accumulators() *social.Accumulators
	// The layers a world uses, and the state of Tiers 4 and 5 (read only
	// in a world of their layers).
	Layers() rules.Layers
	Schedules(npc string) (base, effective schedule.Schedule, ok bool)
	PairWeights() []sim.PairWeight
	Roles() *roles.Book
}

// Section is one member of the canonical state object: its key and the
// canonical value (package canon) of that part of the state. A value
// spells every float as a string (Num), never as a JSON number. In, when
// set, says in which worlds the section exists (by their layers): a world
// without the state has no member for it, so adding a section moves no
// older world's digest.
type Section struct {
	Name  string
	Value func(s State) (any, error)
	In    func(l rules.Layers) bool
	// spell, when set, spells Value without building it, for the Memo
	// (see Memo.hash): appended to dst, which it hands to h whenever it
	// holds spillAt bytes, and false when it met what it cannot spell.
	spell func(dst []byte, s State, h hash.Hash) ([]byte, bool)
}

// Sections are the parts of the state the digest covers; the canonical
// object has one member per section present, keys sorted. Adding state to
// the engine adds one entry, with In naming the layer that brings it.
var Sections = []Section{
	{Name: "accumulators", Value: accumulators},
	{Name: "beliefs", Value: beliefs},
	{Name: "claims", Value: claimList, spell: appendClaims},
	{Name: "grudges", Value: grudges},
	{Name: "log", Value: logHead},
	{Name: "npcs", Value: npcs, spell: appendNPCs},
	{Name: "obligations", Value: obligations},
	{Name: "pair_weights", Value: pairWeights, In: func(l rules.Layers) bool { return l.Has(rules.Weighting) }},
	{Name: "reputation", Value: reputation},
	{Name: "roles", Value: roleList, In: func(l rules.Layers) bool { return l.Has(rules.Roles) }},
	{Name: "schedules", Value: schedules, In: func(l rules.Layers) bool { return l.Has(rules.Schedule) || l.Has(rules.Roles) }},
	{Name: "supersessions", Value: supersessions},
	{Name: "tick", Value: func(s State) (any, error) { return s.Now(), nil }},
	{Name: "variants", Value: variants, spell: appendVariants},
}

// ErrNotFinite is the cause of a digest refused because a float in the
// state is NaN or infinite: canonical JSON has no spelling for either.
var ErrNotFinite = errors.New("not a finite number")

// Num spells a float64 as the string the digest holds: its Python repr
// (canon.FormatFloat), which names exactly one float64 (shortest digits
// that read back to the same bits; -0.0 apart from 0.0). NaN and the
// infinities are ErrNotFinite.
func Num(f float64) (string, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", fmt.Errorf("%v: %w", f, ErrNotFinite)
	}
	return canon.FormatFloat(f), nil
}

// Canonical returns the canonical JSON of the state: one object whose
// members are the Sections, keys sorted, compact. Its SHA-256 is the
// digest; the text itself is for a person comparing two states.
func Canonical(s State) ([]byte, error) { return canonical(s, nil) }

// canonical is Canonical, spelling what only accumulates from m when m is
// not nil.
func canonical(s State, m *Memo) ([]byte, error) {
	obj := make(canon.Object, 0, len(Sections))
	layers := s.Layers()
	for _, sec := range Sections {
		if sec.In != nil && !sec.In(layers) {
			continue
		}
		value := sec.Value
		if sec.Name == "beliefs" && m != nil {
			value = m.beliefs
		}
		v, err := value(s)
		if err != nil {
			return nil, fmt.Errorf("digest: %s at tick %d: %w", sec.Name, s.Now(), err)
		}
		obj = append(obj, canon.Field{Key: sec.Name, Value: v})
	}
	out, err := canon.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("digest at tick %d: %w", s.Now(), err)
	}
	return out, nil
}

// Of returns the state digest: the lowercase hex SHA-256 of Canonical.
func Of(s State) (string, error) {
	b, err := Canonical(s)
	if err != nil {
		return "", err
	}
	return Sum(b), nil
}

// Sum is the state digest of a canonical text Canonical spelt: for a
// reader that keeps the text and wants its digest without spelling the
// state twice.
func Sum(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:])
}

// Memo takes the digests of one world as it runs, keeping between them
// the canonical spelling of every belief's evidence, which only
// accumulates (a record, once added, never changes, and a belief is never
// dropped): each digest spells only the records added since the last, so
// a run that takes a digest at every checkpoint sample spends the state's
// bytes once per sample on hashing, not on spelling every record again (T3.4
// stretched to a million ticks spent a quarter of its time respelling
// evidence). Its digests equal Of's; a Memo serves one world.
type Memo struct {
	evidence map[*claims.Belief]*spelled
	// sups is the supersessions section spelt so far, "[s0,s1,…" without
	// its closing bracket, and supN how many records that is, for the
	// store supsOf: a store only appends to its supersessions, so each
	// digest spells only the records made since the last.
	sups    []byte
	supN    int
	supsOf  *claims.Store
	scratch []byte // where a list is respelt before it is kept
}

// spelled is a belief's evidence list spelt so far, "[e0,e1,…]", and how
// many records that is; a new record goes in before the closing bracket.
type spelled struct {
	n int
	b []byte
}

// NewMemo returns a Memo for one world's digests.
func NewMemo() *Memo { return &Memo{evidence: map[*claims.Belief]*spelled{}} }

// Of returns the state digest, as digest.Of does. It hashes the
// canonical text as it spells it, a section at a time and the beliefs a
// belief at a time, instead of holding the text and the values it is
// spelt from whole: in a city they are tens of megabytes (6.3 MB of text
// at 10,000 NPCs), and building them at every checkpoint sample set the
// peak of a ladder run's heap. A state it cannot spell is spelt whole
// once more, as Of spells it, so that the refusal is Of's, word for word.
func (m *Memo) Of(s State) (string, error) {
	h := sha256.New()
	if err := m.hash(s, h); err != nil {
		if _, whole := canonical(s, m); whole != nil {
			return "", whole
		}
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hash writes the canonical text of s to h, piece by piece: the same bytes
// as canonical(s, m), the members in key order as canon.Object puts them.
func (m *Memo) hash(s State, h hash.Hash) error {
	layers := s.Layers()
	var present []Section
	for _, sec := range Sections {
		if sec.In == nil || sec.In(layers) {
			present = append(present, sec)
		}
	}
	slices.SortFunc(present, func(a, b Section) int { return strings.Compare(a.Name, b.Name) })
	var buf []byte
	for i, sec := range present {
		if i > 0 && sec.Name == present[i-1].Name {
			return fmt.Errorf("digest: section %q twice", sec.Name)
		}
		sep := byte(',')
		if i == 0 {
			sep = '{'
		}
		buf = append(buf[:0], sep)
		var err error
		if buf, err = canon.AppendMarshal(buf, sec.Name); err != nil {
			return err
		}
		buf = append(buf, ':')
		if sec.Name == "beliefs" {
			h.Write(buf)
			if buf, err = m.hashBeliefs(s, h, buf); err != nil {
				return err
			}
			continue
		}
		if sec.Name == "supersessions" {
			h.Write(buf)
			if err := m.hashSupersessions(s, h); err != nil {
				return err
			}
			continue
		}
		if sec.spell != nil {
			// Spelt by hand, as the beliefs are (hashBeliefs): a city's
			// NPCs, claims and variants boxed as canon.Objects at every
			// checkpoint sample were a quarter of its run's garbage.
			h.Write(buf)
			spelt, ok := sec.spell(buf[:0], s, h)
			if ok {
				h.Write(spelt)
				buf = spelt
				continue
			}
			// What the speller could not spell is the digest's refusal:
			// spelt from the Value, it is Of's, in Of's words.
			v, err := sec.Value(s)
			if err == nil {
				_, err = canon.AppendMarshal(nil, v)
			}
			if err == nil {
				err = fmt.Errorf("digest: section %q: spelt by hand it fails, spelt from its value it does not", sec.Name)
			}
			return err
		}
		v, err := sec.Value(s)
		if err != nil {
			return err
		}
		if buf, err = canon.AppendMarshal(buf, v); err != nil {
			return err
		}
		h.Write(buf)
	}
	h.Write([]byte{'}'})
	return nil
}

// hashBeliefs writes the beliefs section's value to h a belief at a time,
// spelling each in buf, which it returns for reuse.
//
// Each belief is spelt by appendBelief, not as a canon.Object: the
// object boxed every field and sorted its keys again, for every belief
// at every checkpoint sample, which cost a city more than the hashing.
// Of, which the Memo's digests must equal, still spells the objects.
func (m *Memo) hashBeliefs(s State, h hash.Hash, buf []byte) ([]byte, error) {
	st := s.Store()
	var n nums
	sep := byte('[')
	for _, holder := range s.NPCs() {
		for _, b := range st.BeliefsOf(holder) {
			ev, err := m.spelledEvidence(b, &n)
			if err != nil {
				return buf, err
			}
			if buf, err = appendBelief(append(buf[:0], sep), b, ev, &n); err != nil {
				return buf, err
			}
			sep = ','
			h.Write(buf)
		}
	}
	if sep == '[' {
		h.Write([]byte{'['})
	}
	h.Write([]byte{']'})
	return buf, nil // a float n could not spell stopped the belief it was in
}

// appendBelief appends b as eachBelief shows it and canon.AppendMarshal
// spells that object — its members in key order, every string spelt by
// canon.AppendString — with its evidence list already spelt (ev). The
// first string or float it cannot spell is its error (the float's is
// n's).
func appendBelief(dst []byte, b *claims.Belief, ev []byte, n *nums) ([]byte, error) {
	str := func(dst []byte, key, v string) ([]byte, error) {
		return canon.AppendString(append(dst, key...), v)
	}
	var err error
	dst = strconv.AppendInt(append(dst, `{"anchor":`...), b.Anchor, 10)
	if dst, err = str(dst, `,"claim":`, b.Claim); err != nil {
		return dst, err
	}
	if dst, err = str(dst, `,"confidence":`, n.ofBelief(b, "confidence", b.Confidence)); err != nil || n.err != nil {
		return dst, errors.Join(err, n.err)
	}
	dst = append(append(dst, `,"evidence":`...), ev...)
	dst = strconv.AppendInt(append(dst, `,"formed_at":`...), b.FormedAt, 10)
	if dst, err = str(dst, `,"holder":`, b.Holder); err != nil {
		return dst, err
	}
	dst = append(dst, `,"origins":[`...)
	for i, o := range b.Origins {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = canon.AppendString(dst, o); err != nil {
			return dst, err
		}
	}
	if dst, err = str(append(dst, ']'), `,"stage":`, string(b.Stage)); err != nil {
		return dst, err
	}
	if dst, err = str(dst, `,"variant":`, b.Variant); err != nil {
		return dst, err
	}
	return append(dst, '}'), nil
}

// nums spells each float of a list, stopping at the first that cannot be.
type nums struct {
	err error
}

func (n *nums) of(name string, f float64) string {
	s, err := Num(f)
	if err != nil && n.err == nil {
		n.err = fmt.Errorf("%s: %w", name, err)
	}
	return s
}

// ofBelief is of for a float of belief b, named (holder/claim what) only
// when it cannot be spelt: the digest spells every belief's.
func (n *nums) ofBelief(b *claims.Belief, what string, f float64) string {
	s, err := Num(f)
	if err != nil && n.err == nil {
		n.err = fmt.Errorf("%s/%s %s: %w", b.Holder, b.Claim, what, err)
	}
	return s
}

func strs(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func slotList(slots claims.Slots) []any {
	out := make([]any, len(slots))
	for i, sl := range slots {
		out[i] = canon.Object{{Key: "name", Value: sl.Name}, {Key: "type", Value: string(sl.Type)}, {Key: "value", Value: sl.Value}}
	}
	return out
}

// claimList: every claim in id order, with its original slots.
func claimList(s State) (any, error) {
	st := s.Store()
	ids := st.ClaimIDs()
	out := make([]any, 0, len(ids))
	for _, id := range ids {
		c, ok := st.Claim(id)
		if !ok {
			out = append(out, nil)
			continue
		}
		out = append(out, canon.Object{
			{Key: "id", Value: c.ID}, {Key: "kind", Value: c.Kind}, {Key: "slots", Value: slotList(c.Slots)},
			{Key: "tick", Value: c.Tick}, {Key: "variant", Value: c.Variant},
		})
	}
	return out, nil
}

// appendSlots appends slotList(slots) as canon.AppendMarshal spells it.
func appendSlots(dst []byte, slots claims.Slots) ([]byte, bool) {
	dst = append(dst, '[')
	ok := true
	for i, sl := range slots {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, ok = appendStr(append(dst, '{'), `"name":`, sl.Name); !ok {
			return dst, false
		}
		if dst, ok = appendStr(dst, `,"type":`, string(sl.Type)); !ok {
			return dst, false
		}
		if dst, ok = appendStr(dst, `,"value":`, sl.Value); !ok {
			return dst, false
		}
		dst = append(dst, '}')
	}
	return append(dst, ']'), true
}

// appendClaims spells claimList's value as canon.AppendMarshal spells it.
func appendClaims(dst []byte, s State, h hash.Hash) ([]byte, bool) {
	st := s.Store()
	dst = append(dst, '[')
	ok := true
	for i, id := range st.ClaimIDs() {
		if i > 0 {
			dst = append(spill(dst, h), ',')
		}
		c, found := st.Claim(id)
		if !found {
			dst = append(dst, "null"...)
			continue
		}
		if dst, ok = appendStr(append(dst, '{'), `"id":`, c.ID); !ok {
			return dst, false
		}
		if dst, ok = appendStr(dst, `,"kind":`, c.Kind); !ok {
			return dst, false
		}
		if dst, ok = appendSlots(append(dst, `,"slots":`...), c.Slots); !ok {
			return dst, false
		}
		dst = strconv.AppendInt(append(dst, `,"tick":`...), c.Tick, 10)
		if dst, ok = appendStr(dst, `,"variant":`, c.Variant); !ok {
			return dst, false
		}
		dst = append(dst, '}')
	}
	return append(dst, ']'), true
}

// appendVariants spells variants's value as canon.AppendMarshal spells
// it.
func appendVariants(dst []byte, s State, h hash.Hash) ([]byte, bool) {
	st := s.Store()
	dst = append(dst, '[')
	n, ok := 0, true
	for _, id := range st.ClaimIDs() {
		for _, v := range st.Variants(id) {
			if n > 0 {
				dst = append(spill(dst, h), ',')
			}
			n++
			if v == nil {
				dst = append(dst, "null"...)
				continue
			}
			if dst, ok = appendStr(append(dst, '{'), `"claim":`, v.Claim); !ok {
				return dst, false
			}
			dst = append(dst, `,"diff":[`...)
			for j, c := range v.Diff {
				if j > 0 {
					dst = append(dst, ',')
				}
				if dst, ok = appendStr(append(dst, '{'), `"from":`, c.From); !ok {
					return dst, false
				}
				if dst, ok = appendStr(dst, `,"slot":`, c.Slot); !ok {
					return dst, false
				}
				if dst, ok = appendStr(dst, `,"to":`, c.To); !ok {
					return dst, false
				}
				dst = append(dst, '}')
			}
			if dst, ok = appendStr(append(dst, ']'), `,"id":`, v.ID); !ok {
				return dst, false
			}
			if dst, ok = appendStr(dst, `,"origin":{"holder":`, v.Origin.Holder); !ok {
				return dst, false
			}
			if dst, ok = appendStr(dst, `,"reason":`, v.Origin.Reason); !ok {
				return dst, false
			}
			dst = strconv.AppendInt(append(dst, `,"tick":`...), v.Origin.Tick, 10)
			if dst, ok = appendStr(append(dst, '}'), `,"predecessor":`, v.Predecessor); !ok {
				return dst, false
			}
			if dst, ok = appendSlots(append(dst, `,"slots":`...), v.Slots); !ok {
				return dst, false
			}
			dst = append(dst, '}')
		}
	}
	return append(dst, ']'), true
}

// variants: every claim's variants, claims in id order, each claim's in
// creation order.
func variants(s State) (any, error) {
	st := s.Store()
	var out []any
	for _, id := range st.ClaimIDs() {
		for _, v := range st.Variants(id) {
			if v == nil {
				out = append(out, nil)
				continue
			}
			diff := make([]any, len(v.Diff))
			for i, c := range v.Diff {
				diff[i] = canon.Object{{Key: "from", Value: c.From}, {Key: "slot", Value: c.Slot}, {Key: "to", Value: c.To}}
			}
			out = append(out, canon.Object{
				{Key: "claim", Value: v.Claim}, {Key: "diff", Value: diff}, {Key: "id", Value: v.ID},
				{Key: "origin", Value: canon.Object{{Key: "holder", Value: v.Origin.Holder}, {Key: "reason", Value: v.Origin.Reason}, {Key: "tick", Value: v.Origin.Tick}}},
				{Key: "predecessor", Value: v.Predecessor}, {Key: "slots", Value: slotList(v.Slots)},
			})
		}
	}
	if out == nil {
		out = []any{}
	}
	return out, nil
}

// beliefs: every belief with its whole evidence chain and its stage as
// stored (heard or repeated; dormant and forgotten are derived, so they
// are not state), holders in cast order (sorted), each holder's beliefs
// in claim order, as the store lists them.
func beliefs(s State) (any, error) {
	return beliefsWith(s, func(b *claims.Belief, n *nums) (any, error) {
		ev := make([]any, len(b.Evidence))
		for i, e := range b.Evidence {
			ev[i] = evidence(b, e, n)
		}
		return ev, nil
	})
}

// beliefs is the beliefs section with each evidence list spelt from the
// memo.
func (m *Memo) beliefs(s State) (any, error) { return beliefsWith(s, m.evidenceOf) }

// evidenceOf is b's evidence list spelt from the memo, its new records
// appended to what was spelt before.
func (m *Memo) evidenceOf(b *claims.Belief, n *nums) (any, error) {
	ev, err := m.spelledEvidence(b, n)
	if err != nil {
		return nil, err
	}
	return canon.Raw(ev), nil
}

// spelledEvidence is evidenceOf's list as its bytes, which the memo keeps.
func (m *Memo) spelledEvidence(b *claims.Belief, n *nums) ([]byte, error) {
	sp := m.evidence[b]
	if sp == nil {
		sp = &spelled{b: []byte("[]")}
		m.evidence[b] = sp
	}
	if sp.n == len(b.Evidence) {
		return sp.b, nil
	}
	// The new records are spelt after the old in the scratch, and the
	// list kept at its exact size: grown in place by append, the lists of
	// a city's beliefs, which the memo holds for the whole run, kept a
	// third more bytes than they spelt.
	spelt := append(m.scratch[:0], sp.b[:len(sp.b)-1]...) // the closing bracket goes after the new records
	var err error
	for ; sp.n < len(b.Evidence); sp.n++ {
		before := len(spelt)
		if sp.n > 0 {
			spelt = append(spelt, ',')
		}
		if spelt, err = canon.AppendMarshal(spelt, evidence(b, b.Evidence[sp.n], n)); err == nil {
			err = n.err
		}
		if err != nil {
			spelt = spelt[:before] // spelt as far as it went
			break
		}
	}
	m.scratch = spelt
	sp.b = append(append(make([]byte, 0, len(spelt)+1), spelt...), ']')
	if err != nil {
		return nil, err
	}
	return sp.b, nil
}

// evidenceList spells a belief's evidence as the beliefs section holds it.
type evidenceList func(b *claims.Belief, n *nums) (any, error)

// beliefsWith lists every belief, its evidence as list gives it.
func beliefsWith(s State, list evidenceList) (any, error) {
	out := []any{}
	if err := eachBelief(s, list, func(o canon.Object) error { out = append(out, slices.Clone(o)); return nil }); err != nil {
		return nil, err
	}
	return out, nil
}

// eachBelief shows every belief to emit, in the beliefs section's order,
// as the section holds it, its evidence as list gives it; it stops at the
// first error, of list or emit, or returns the first float it could not
// spell.
//
// The object shown to emit is reused for the next belief: an emit that
// keeps it keeps a copy.
func eachBelief(s State, list evidenceList, emit func(canon.Object) error) error {
	st := s.Store()
	var n nums
	o := make(canon.Object, 9)
	for _, h := range s.NPCs() {
		for _, b := range st.BeliefsOf(h) {
			ev, err := list(b, &n)
			if err != nil {
				return err
			}
			o[0], o[1], o[2] = canon.Field{Key: "anchor", Value: b.Anchor}, canon.Field{Key: "claim", Value: b.Claim}, canon.Field{Key: "confidence", Value: n.ofBelief(b, "confidence", b.Confidence)}
			o[3], o[4], o[5] = canon.Field{Key: "evidence", Value: ev}, canon.Field{Key: "formed_at", Value: b.FormedAt}, canon.Field{Key: "holder", Value: b.Holder}
			o[6], o[7], o[8] = canon.Field{Key: "origins", Value: strs(b.Origins)}, canon.Field{Key: "stage", Value: string(b.Stage)}, canon.Field{Key: "variant", Value: b.Variant}
			if err := emit(o); err != nil {
				return err
			}
		}
	}
	return n.err
}

// evidence is one evidence record of b as the digest holds it.
func evidence(b *claims.Belief, e claims.Evidence, n *nums) canon.Object {
	return canon.Object{
		{Key: "chain", Value: strs(e.Chain)}, {Key: "confidence", Value: n.ofBelief(b, "evidence", e.Confidence)},
		{Key: "counted", Value: e.Counted}, {Key: "source", Value: e.Source}, {Key: "tick", Value: e.Tick},
		{Key: "type", Value: string(e.Type)}, {Key: "variant", Value: e.Variant}, {Key: "via", Value: e.Via},
	}
}

// supersessions: every supersession record in the order made.
func supersessions(s State) (any, error) {
	sups := s.Store().Supersessions()
	out := make([]any, len(sups))
	for i, x := range sups {
		out[i] = supersession(x)
	}
	return out, nil
}

func supersession(x claims.Supersession) canon.Object {
	return canon.Object{
		{Key: "claim", Value: x.Claim}, {Key: "holder", Value: x.Holder}, {Key: "kept", Value: x.Kept},
		{Key: "loser", Value: x.Loser}, {Key: "tick", Value: x.Tick}, {Key: "via", Value: x.Via}, {Key: "winner", Value: x.Winner},
	}
}

// hashSupersessions writes the supersessions section's value to h: the
// records spelt before, then those made since, which it keeps. A record
// that cannot be spelt is not kept, and its error returned.
func (m *Memo) hashSupersessions(s State, h hash.Hash) error {
	st := s.Store()
	if n := st.SupersessionCount(); st != m.supsOf || n < m.supN {
		m.sups, m.supN, m.supsOf = append(m.sups[:0], '['), 0, st
	}
	for ; m.supN < st.SupersessionCount(); m.supN++ {
		spelt := m.sups
		if m.supN > 0 {
			spelt = append(spelt, ',')
		}
		spelt, err := canon.AppendMarshal(spelt, supersession(st.SupersessionAt(m.supN)))
		if err != nil {
			return err // m.sups still ends at the last record spelt
		}
		m.sups = spelt
	}
	h.Write(m.sups)
	h.Write([]byte{']'})
	return nil
}

// logHead: the canonical log's head and length. The records themselves
// are exported beside the checkpoints (events.jsonl); the head chains
// every one of them.
func logHead(s State) (any, error) {
	l := s.Log()
	return canon.Object{{Key: "head", Value: l.Head()}, {Key: "length", Value: l.Len()}}, nil
}

// npcs: every cast member, sorted, alive or not.
func npcs(s State) (any, error) {
	ids := s.NPCs()
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = canon.Object{{Key: "alive", Value: s.Alive(id)}, {Key: "id", Value: id}}
	}
	return out, nil
}

// appendNPCs spells npcs's value as canon.AppendMarshal spells it.
func appendNPCs(dst []byte, s State, h hash.Hash) ([]byte, bool) {
	dst = append(dst, '[')
	for i, id := range s.NPCs() {
		if i > 0 {
			dst = append(spill(dst, h), ',')
		}
		dst = strconv.AppendBool(append(dst, `{"alive":`...), s.Alive(id))
		var ok bool
		if dst, ok = appendStr(dst, `,"id":`, id); !ok {
			return dst, false
		}
		dst = append(dst, '}')
	}
	return append(dst, ']'), true
}

// spillAt is how much of a section a speller gathers before handing it
// to the hash: a city's NPCs spell to 350 KB.
const spillAt = 32 << 10

// spill hands dst to h once it holds spillAt bytes, and returns what is
// left to append to.
func spill(dst []byte, h hash.Hash) []byte {
	if len(dst) < spillAt {
		return dst
	}
	h.Write(dst)
	return dst[:0]
}

// appendStr appends key and then v as a canonical JSON string, and
// whether v could be spelt (it is valid UTF-8).
func appendStr(dst []byte, key, v string) ([]byte, bool) {
	out, err := canon.AppendString(append(dst, key...), v)
	return out, err == nil
}

// accumulators: every (victim, offender) accumulator with the offences it
// has noted and whether it is disarmed.
func accumulators(s State) (any, error) {
	all := s.Accumulators().All()
	out := make([]any, len(all))
	for i, a := range all {
		offences := make([]any, len(a.Offences))
		for j, o := range a.Offences {
			offences[j] = canon.Object{{Key: "claim", Value: o.Claim}, {Key: "tick", Value: o.Tick}}
		}
		out[i] = canon.Object{{Key: "disarmed", Value: a.Disarmed}, {Key: "offences", Value: offences}, {Key: "offender", Value: a.Offender}, {Key: "victim", Value: a.Victim}}
	}
	return out, nil
}

// grudges: every grudge with its strengths as stored at its anchor (the
// strengths at any later tick are derived) and its causes in order.
func grudges(s State) (any, error) {
	var n nums
	all := s.Grudges().All()
	out := make([]any, len(all))
	for i, g := range all {
		name := "grudge " + g.Holder + "->" + g.Target
		out[i] = canon.Object{
			{Key: "anchor", Value: g.Anchor}, {Key: "causes", Value: strs(slices.Clone(g.Causes))},
			{Key: "emotional", Value: n.of(name+" emotional", g.Emotional)}, {Key: "evidentiary", Value: n.of(name+" evidentiary", g.Evidentiary)},
			{Key: "formed_at", Value: g.FormedAt}, {Key: "holder", Value: g.Holder}, {Key: "target", Value: g.Target},
		}
	}
	return out, n.err
}

// obligations: every obligation by id.
func obligations(s State) (any, error) {
	all := s.Ledger().All()
	out := make([]any, len(all))
	for i, o := range all {
		out[i] = canon.Object{
			{Key: "cause", Value: o.Cause}, {Key: "creditor", Value: o.Creditor}, {Key: "debtor", Value: o.Debtor},
			{Key: "favour", Value: o.Favour}, {Key: "id", Value: o.ID}, {Key: "since", Value: o.Since}, {Key: "state", Value: string(o.State)},
		}
	}
	return out, nil
}

// reputation: every row, and the (observer, claim) pairs already counted
// (which decide whether a belief will move a row again).
func reputation(s State) (any, error) {
	var n nums
	book := s.Reputation()
	rows := book.All()
	out := make([]any, len(rows))
	for i, o := range rows {
		name := "reputation " + o.Observer + "/" + o.Subject + "/" + o.Dimension
		out[i] = canon.Object{
			{Key: "against", Value: o.Against}, {Key: "alpha", Value: n.of(name+" alpha", o.Alpha)}, {Key: "beta", Value: n.of(name+" beta", o.Beta)},
			{Key: "counted", Value: n.of(name+" counted", o.Counted)}, {Key: "dimension", Value: o.Dimension}, {Key: "for", Value: o.For},
			{Key: "observer", Value: o.Observer}, {Key: "subject", Value: o.Subject}, {Key: "updated", Value: o.Updated},
		}
	}
	pairs := book.Counted()
	counted := make([]any, len(pairs))
	for i, p := range pairs {
		counted[i] = []string{p[0], p[1]}
	}
	return canon.Object{{Key: "counted", Value: counted}, {Key: "rows", Value: out}}, n.err
}

// block is a schedule block as stored.
func block(b schedule.Block) canon.Object {
	return canon.Object{
		{Key: "at", Value: b.At}, {Key: "every", Value: b.Every}, {Key: "from", Value: b.From}, {Key: "meets", Value: b.Meets},
		{Key: "since", Value: b.Since}, {Key: "to", Value: b.To}, {Key: "until", Value: b.Until},
	}
}

// schedules: every cast member, sorted, with the overrides laid over its
// schedule, oldest first (the newest covering one wins). The base is the
// fixture's, never edited, and which of its blocks are suspended follows
// from the roles section (a block meeting a vacant role).
func schedules(s State) (any, error) {
	ids := s.NPCs()
	out := make([]any, 0, len(ids))
	for _, id := range ids {
		_, eff, ok := s.Schedules(id)
		if !ok {
			return nil, fmt.Errorf("npc %s has no schedule", id)
		}
		overrides := make([]any, len(eff.Overrides))
		for i, o := range eff.Overrides {
			overrides[i] = canon.Object{{Key: "block", Value: block(o.Block)}, {Key: "id", Value: o.ID}}
		}
		out = append(out, canon.Object{{Key: "npc", Value: id}, {Key: "overrides", Value: overrides}})
	}
	return out, nil
}

// pairWeights: every pair rule 18 has weighed, with its weight now.
func pairWeights(s State) (any, error) {
	var n nums
	all := s.PairWeights()
	out := make([]any, len(all))
	for i, p := range all {
		out[i] = canon.Object{{Key: "a", Value: p.A}, {Key: "b", Value: p.B}, {Key: "weight", Value: n.of("pair "+p.A+"/"+p.B+" weight", p.Weight)}}
	}
	return out, n.err
}

// roleList: every role by id: its holder ("" while vacant) since when,
// the previous holder, its lapsed duties so far, and what the fixture
// declared of it (faction, appointer, duties).
func roleList(s State) (any, error) {
	all := s.Roles().All()
	out := make([]any, len(all))
	for i, r := range all {
		duties := make([]any, len(r.Duties))
		for j, d := range r.Duties {
			duties[j] = block(d)
		}
		out[i] = canon.Object{
			{Key: "appointer", Value: r.Appointer}, {Key: "duties", Value: duties}, {Key: "faction", Value: r.Faction},
			{Key: "holder", Value: r.Holder}, {Key: "id", Value: r.ID}, {Key: "lapses", Value: int64(r.Lapses)},
			{Key: "previous", Value: r.Previous}, {Key: "since", Value: r.Since},
		}
	}
	return out, nil
}
