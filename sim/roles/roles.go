package roles

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/chronicle/ladder/sim/schedule"
)

// Prefix opens a reference to a role: role:steward.
const Prefix = "role:"

// Ref returns the reference to role id.
func Ref(id string) string { return Prefix + id }

// Parse returns the role a reference names, and whether s is a reference
// at all.
func Parse(s string) (string, bool) {
	id, ok := strings.CutPrefix(s, Prefix)
	return id, ok && id != ""
}

// Role is one office and its state. Holder is "" while it is vacant;
// Since is the tick the holder took it, or the role fell vacant.
type Role struct {
	ID      string
	Faction string
	// Appointer is the role whose holder appoints this one's successor
	// ("" when none does: the role stays vacant once it falls so).
	Appointer string
	Duties    []schedule.Block
	Holder    string
	Since     int64
	// Previous is the last holder before the role fell vacant ("" while it
	// never has): the kin bonus is for kin of Previous.
	Previous string
	// Lapses counts the duty blocks that would have started while the role
	// was vacant.
	Lapses int
}

// Vacant reports whether the role has no holder.
func (r *Role) Vacant() bool { return r.Holder == "" }

// DutyID names duty block n of the role, as the override its holder
// carries: duties:steward:0.
func DutyID(role string, n int) string { return fmt.Sprintf("duties:%s:%d", role, n) }

// Book is every role of a world, by id.
type Book struct {
	roles []*Role // sorted by id
}

// NewBook validates the roles and holds them: ids unique, an appointer
// that is another declared role, no NPC holding two roles (a holder's
// duties would collide, and a candidate is someone who holds none), and
// valid duty blocks.
func NewBook(defs []Role) (*Book, error) {
	b := &Book{}
	held := map[string]string{} // holder → role; looked up, never ranged over
	for _, d := range defs {
		if d.ID == "" {
			return nil, fmt.Errorf("a role has no id")
		}
		if _, dup := b.Get(d.ID); dup {
			return nil, fmt.Errorf("role %q is declared twice", d.ID)
		}
		for i, blk := range d.Duties {
			if err := blk.Validate(); err != nil {
				return nil, fmt.Errorf("role %s: duty %d: %w", d.ID, i, err)
			}
		}
		if d.Holder != "" {
			if other, two := held[d.Holder]; two {
				return nil, fmt.Errorf("%s holds two roles, %s and %s", d.Holder, other, d.ID)
			}
			held[d.Holder] = d.ID
		}
		r := d
		r.Duties = slices.Clone(d.Duties)
		i, _ := slices.BinarySearchFunc(b.roles, r.ID, func(x *Role, id string) int { return cmp.Compare(x.ID, id) })
		b.roles = slices.Insert(b.roles, i, &r)
	}
	for _, r := range b.roles {
		if r.Appointer == "" {
			continue
		}
		if r.Appointer == r.ID {
			return nil, fmt.Errorf("role %s appoints itself", r.ID)
		}
		if _, ok := b.Get(r.Appointer); !ok {
			return nil, fmt.Errorf("role %s: appointer %q is not a declared role", r.ID, r.Appointer)
		}
	}
	return b, nil
}

// Get returns a role by id.
func (b *Book) Get(id string) (*Role, bool) {
	i, ok := slices.BinarySearchFunc(b.roles, id, func(x *Role, id string) int { return cmp.Compare(x.ID, id) })
	if !ok {
		return nil, false
	}
	return b.roles[i], true
}

// All returns every role, sorted by id.
func (b *Book) All() []*Role { return slices.Clone(b.roles) }

// Len returns how many roles there are.
func (b *Book) Len() int { return len(b.roles) }

// Of returns the role npc holds, if any.
func (b *Book) Of(npc string) (*Role, bool) {
	for _, r := range b.roles {
		if r.Holder == npc && npc != "" {
			return r, true
		}
	}
	return nil, false
}

// Resolve returns whom a reference names now: a role's holder ("" when it
// is vacant), or s itself when s is not a role reference. ok is false for
// a reference to a role the book does not hold.
func (b *Book) Resolve(s string) (who string, ok bool) {
	id, isRef := Parse(s)
	if !isRef {
		return s, true
	}
	r, ok := b.Get(id)
	if !ok {
		return "", false
	}
	return r.Holder, true
}

// Vacate makes the role vacant from tick t, remembering its last holder.
func (b *Book) Vacate(id string, t int64) (*Role, error) {
	r, ok := b.Get(id)
	switch {
	case !ok:
		return nil, fmt.Errorf("vacate: no role %q", id)
	case r.Vacant():
		return nil, fmt.Errorf("vacate: role %s is vacant already", id)
	}
	r.Previous, r.Holder, r.Since = r.Holder, "", t
	return r, nil
}

// Appoint gives a vacant role to npc from tick t.
func (b *Book) Appoint(id, npc string, t int64) (*Role, error) {
	r, ok := b.Get(id)
	switch {
	case !ok:
		return nil, fmt.Errorf("appoint: no role %q", id)
	case !r.Vacant():
		return nil, fmt.Errorf("appoint: role %s is held by %s", id, r.Holder)
	case npc == "":
		return nil, fmt.Errorf("appoint: role %s to nobody", id)
	}
	if other, two := b.Of(npc); two {
		return nil, fmt.Errorf("appoint: %s holds %s already", npc, other.ID)
	}
	r.Holder, r.Since = npc, t
	return r, nil
}

// Candidate is one NPC considered for a vacant role: the trust the
// appointer's holder has in it, whether it is kin of the previous holder,
// and its score.
type Candidate struct {
	NPC   string
	Trust float64
	Kin   bool
	Score float64
}

// Score is a candidate's succession score: trust, plus bonus for kin of
// the previous holder (one rounding).
func Score(trust float64, kin bool, bonus float64) float64 {
	if kin {
		return float64(trust + bonus)
	}
	return trust
}

// Top returns the candidates sharing the highest score, bit for bit, in
// the order given (the engine gives them sorted by id). None for none.
func Top(cands []Candidate) []Candidate {
	var out []Candidate
	best := math.Inf(-1)
	for _, c := range cands {
		switch {
		case c.Score > best:
			best, out = c.Score, append(out[:0], c)
		case math.Float64bits(c.Score) == math.Float64bits(best):
			out = append(out, c)
		}
	}
	return out
}

// Reference is one place in a world's live state that names a role — an
// obligation's creditor or debtor, a base block that meets it, a duty
// carried as an override — and what it resolves to as the engine uses it
// now. The no-orphans invariant (T5.3) holds every reference to Names the
// role, never a person, and to resolve to the role's holder or, while the
// role is vacant, to nobody.
type Reference struct {
	Role  string // the role's id
	Where string // what holds it: "obligation:favour@2 creditor", "petitioner's block 1", "duties:steward:0"
	// Names is what the record itself stores: role:<id> when the record
	// points at the office, a person's id when it does not.
	Names string
	// Resolved is whom the engine acts on through it now: the NPC whose
	// schedule carries a duty, the holder a block meets or an obligation
	// is owed by or to; "" for nobody.
	Resolved string
}
