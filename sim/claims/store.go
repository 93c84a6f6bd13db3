package claims

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Errors the store returns when an operation would break one of its
// invariants. Callers test them with errors.Is.
var (
	ErrDuplicateClaim  = errors.New("claim already exists for this event")
	ErrDuplicateBelief = errors.New("holder already has a belief in this claim")
	ErrUnknownClaim    = errors.New("unknown claim")
	ErrUnknownVariant  = errors.New("unknown variant")
	ErrNoBelief        = errors.New("holder has no belief in this claim")
	ErrVariantConflict = errors.New("report carries a different variant than the belief")
)

// Store holds every claim, variant and belief of one run, and is the only
// writer of them. Listing methods return items in a documented sorted order
// so nothing downstream depends on map iteration.
type Store struct {
	mem      Memory
	claims   map[string]*Claim
	variants map[string]*Variant
	byPred   map[string][]string // predecessor → derived variant ids, in creation order
	beliefs  map[beliefKey]*Belief
	holders  map[string][]string // claim → holders, sorted
	byHolder map[string]*Holding // holder → beliefs, sorted by claim; what Held lists, kept by create
	claimIDs []string            // sorted
	counts   map[string]int      // claim → variants minted so far

	supersessions []Supersession

	// Phases (see BeginPhase): while one is open, before holds the first
	// copy taken of each belief the phase changed, and nil for each belief
	// it created — together, every belief as the phase found it. Filled
	// by every write (create, Repeat, Corroborate, Resolve), emptied when
	// a phase begins or ends; looked up, never ranged over.
	inPhase bool
	before  map[*Belief]*Belief

	// The stage calendar (see Transitions): by tick, the beliefs whose
	// derived stage may change at it — what a scan of StageAt over every
	// belief would find. Entered whenever an anchor is set (create,
	// Corroborate, Resolve), read and emptied one tick at a time; looked
	// up, never ranged over.
	shifts   [2]int64 // elapsed ticks at which gist may cross dormant_gist and forgotten_gist
	calendar map[int64][]due
}

// due is one calendar entry: b may change stage at the entry's tick if
// its anchor is still the one the entry was computed from.
type due struct {
	b      *Belief
	anchor int64
}

type beliefKey struct{ holder, claim string }

// NewStore returns an empty store whose beliefs decay with the given memory
// coefficients.
func NewStore(m Memory) *Store {
	return &Store{
		mem:      m.withAges(),
		claims:   map[string]*Claim{},
		variants: map[string]*Variant{},
		byPred:   map[string][]string{},
		beliefs:  map[beliefKey]*Belief{},
		holders:  map[string][]string{},
		byHolder: map[string]*Holding{},
		counts:   map[string]int{},
		before:   map[*Belief]*Belief{},
		shifts:   m.shifts(),
		calendar: map[int64][]due{},
	}
}

// Memory returns the decay coefficients the store was built with.
func (s *Store) Memory() Memory { return s.mem }

// MintClaim creates the claim for a canonical event, with its original
// variant v0. A second claim for the same event is ErrDuplicateClaim.
func (s *Store) MintClaim(eventID, kind string, tick int64, slots Slots) (*Claim, error) {
	if _, ok := s.claims[eventID]; ok {
		return nil, fmt.Errorf("mint claim for event %s: %w", eventID, ErrDuplicateClaim)
	}
	c := &Claim{ID: eventID, Kind: kind, Tick: tick, Slots: sortSlots(slots)}
	v := &Variant{ID: s.nextVariantID(eventID), Claim: eventID, Slots: c.Slots, Origin: Origin{Reason: "event", Tick: tick}}
	c.Variant = v.ID
	s.claims[eventID] = c
	s.variants[v.ID] = v
	s.claimIDs = insertSorted(s.claimIDs, eventID)
	return c, nil
}

func (s *Store) nextVariantID(claim string) string {
	n := s.counts[claim]
	s.counts[claim] = n + 1
	return claim + "#v" + strconv.Itoa(n)
}

// Derive returns the variant that follows predecessor by the given slot
// changes, creating it if this lineage step is new. The same step taken twice
// (same predecessor, same diff) yields the same variant, so two witnesses who
// misremember alike share one variant.
func (s *Store) Derive(predecessor string, changes []Change, origin Origin) (*Variant, error) {
	pred, ok := s.variants[predecessor]
	if !ok {
		return nil, fmt.Errorf("derive from %s: %w", predecessor, ErrUnknownVariant)
	}
	if len(changes) == 0 {
		return nil, fmt.Errorf("derive from %s: a variant needs at least one changed slot", predecessor)
	}
	diff := slices.Clone(changes)
	slices.SortFunc(diff, func(a, b Change) int { return strings.Compare(a.Slot, b.Slot) })
	for i := 1; i < len(diff); i++ {
		if diff[i].Slot == diff[i-1].Slot {
			return nil, fmt.Errorf("derive from %s: slot %q changed twice", predecessor, diff[i].Slot)
		}
	}
	slots, err := pred.Slots.Apply(diff)
	if err != nil {
		return nil, fmt.Errorf("derive from %s: %w", predecessor, err)
	}
	for _, id := range s.byPred[predecessor] {
		if slices.Equal(s.variants[id].Diff, diff) {
			return s.variants[id], nil
		}
	}
	v := &Variant{ID: s.nextVariantID(pred.Claim), Claim: pred.Claim, Predecessor: predecessor, Diff: diff, Slots: slots, Origin: origin}
	s.variants[v.ID] = v
	s.byPred[predecessor] = append(s.byPred[predecessor], v.ID)
	return v, nil
}

// Claim returns a claim by id.
func (s *Store) Claim(id string) (*Claim, bool) {
	c, ok := s.claims[id]
	return c, ok
}

// Variant returns a variant by id.
func (s *Store) Variant(id string) (*Variant, bool) {
	v, ok := s.variants[id]
	return v, ok
}

// ClaimIDs returns every claim id, sorted.
func (s *Store) ClaimIDs() []string { return slices.Clone(s.claimIDs) }

// VariantCountOf returns how many variants a claim has (len of Variants,
// without building it); variant i is <claim>#v<i>.
func (s *Store) VariantCountOf(claim string) int { return s.counts[claim] }

// Variants returns every variant of a claim in creation order (v0 first).
func (s *Store) Variants(claim string) []*Variant {
	n := s.counts[claim]
	out := make([]*Variant, 0, n)
	for i := range n {
		out = append(out, s.variants[claim+"#v"+strconv.Itoa(i)])
	}
	return out
}

// Belief returns holder's belief in claim.
func (s *Store) Belief(holder, claim string) (*Belief, bool) {
	b, ok := s.beliefs[beliefKey{holder, claim}]
	return b, ok
}

// Holders returns the holders of a claim, sorted.
func (s *Store) Holders(claim string) []string { return slices.Clone(s.holders[claim]) }

// Held returns the claims a holder has beliefs in, sorted.
func (s *Store) Held(holder string) []string {
	bs := s.BeliefsOf(holder)
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Claim
	}
	return out
}

// BeliefsOf returns holder's beliefs, sorted by claim. The slice is the
// store's own, for the paths that visit many beliefs every tick — an
// encounter merging two holders' claims, a keyframe listing them all —
// without copying: read it, do not modify or keep it (it changes when
// the holder forms a belief).
func (s *Store) BeliefsOf(holder string) []*Belief { return s.byHolder[holder].Beliefs() }

// Holding is one holder's beliefs as the store keeps them: a handle for a
// reader that visits every holder's beliefs every tick (the ladder's
// dense recorder, at city scale), which keeps it instead of looking each
// holder up again by name.
type Holding struct {
	beliefs []*Belief // sorted by claim
}

// Beliefs returns the beliefs held, sorted by claim: the store's own
// slice, as BeliefsOf returns it. A nil Holding holds none.
func (h *Holding) Beliefs() []*Belief {
	if h == nil {
		return nil
	}
	return h.beliefs
}

// Holding returns holder's handle, the same one for the store's life,
// which shows the beliefs the holder forms later as well. A holder with
// no belief yet is given an empty one; nothing the store reports depends
// on which holders have one.
func (s *Store) Holding(holder string) *Holding {
	h, ok := s.byHolder[holder]
	if !ok {
		h = &Holding{}
		s.byHolder[holder] = h
	}
	return h
}

// ClaimCount returns the number of claims in the store (len of ClaimIDs,
// without the copy).
func (s *Store) ClaimCount() int { return len(s.claimIDs) }

// BeliefCount returns the number of beliefs in the store.
func (s *Store) BeliefCount() int { return len(s.beliefs) }

// VariantCount returns the number of variants in the store.
func (s *Store) VariantCount() int { return len(s.variants) }

// Witness forms holder's belief from direct observation of the variant they
// saw, at the given confidence. It is ErrDuplicateBelief if the holder
// already believes the claim.
func (s *Store) Witness(holder, variant string, tick int64, confidence float64, via string) (*Belief, error) {
	v, ok := s.variants[variant]
	if !ok {
		return nil, fmt.Errorf("witness %s: %w", variant, ErrUnknownVariant)
	}
	ev := Evidence{Type: Witnessed, Tick: tick, Variant: variant, Via: via, Confidence: confidence, Counted: true}
	return s.create(holder, v.Claim, variant, tick, confidence, ev)
}

// Testimony is one telling of a claim: who told it, through which chain,
// which variant, and with what confidence the listener receives it (the
// caller applies retell decay and any trust discount, which are rules).
type Testimony struct {
	Teller     string
	Chain      []string // the teller's source chain plus the teller
	Variant    string
	Tick       int64
	Via        string
	Confidence float64
}

func (t Testimony) evidence(counted bool) Evidence {
	return Evidence{Type: Reported, Tick: t.Tick, Variant: t.Variant, Source: t.Teller, Chain: slices.Clone(t.Chain), Via: t.Via, Confidence: t.Confidence, Counted: counted}
}

// checkChain demands a source chain that ends with the teller: the chain
// is how corroboration finds a report's origin, so a report without one
// would count as a new independent source.
func (t Testimony) checkChain() error {
	if len(t.Chain) == 0 || t.Chain[len(t.Chain)-1] != t.Teller {
		return fmt.Errorf("report from %s: source chain %v must end with the teller", t.Teller, t.Chain)
	}
	return nil
}

// Hear forms listener's belief from testimony. It is ErrDuplicateBelief if
// the listener already believes the claim; Corroborate is the path for that.
func (s *Store) Hear(listener string, t Testimony) (*Belief, error) {
	v, ok := s.variants[t.Variant]
	if !ok {
		return nil, fmt.Errorf("hear %s: %w", t.Variant, ErrUnknownVariant)
	}
	if err := t.checkChain(); err != nil {
		return nil, fmt.Errorf("hear %s: %w", t.Variant, err)
	}
	return s.create(listener, v.Claim, t.Variant, t.Tick, t.Confidence, t.evidence(true))
}

func (s *Store) create(holder, claim, variant string, tick int64, confidence float64, ev Evidence) (*Belief, error) {
	key := beliefKey{holder, claim}
	if _, ok := s.beliefs[key]; ok {
		return nil, fmt.Errorf("belief of %s in %s: %w", holder, claim, ErrDuplicateBelief)
	}
	b := &Belief{
		Holder: holder, Claim: claim, Variant: variant, Confidence: confidence,
		FormedAt: tick, Anchor: tick, Stage: Heard,
		Evidence: []Evidence{ev},
		Origins:  []string{ev.Root(holder)},
	}
	s.beliefs[key] = b
	s.holders[claim] = insertSorted(s.holders[claim], holder)
	h := s.Holding(holder)
	i, _ := slices.BinarySearchFunc(h.beliefs, claim, func(b *Belief, c string) int { return strings.Compare(b.Claim, c) })
	h.beliefs = slices.Insert(h.beliefs, i, b)
	if s.inPhase {
		s.before[b] = nil
	}
	s.schedule(b)
	return b, nil
}

// Repeat records that holder has passed the claim on: the stored stage
// becomes Repeated. It reports whether the stage changed.
func (s *Store) Repeat(holder, claim string) bool {
	b, ok := s.beliefs[beliefKey{holder, claim}]
	if !ok || b.Stage == Repeated {
		return false
	}
	s.keep(b)
	b.Stage = Repeated
	return true
}

// Corroboration is the outcome of one report reaching an existing belief.
type Corroboration struct {
	Raised bool
	// Reason is "counted" when confidence rose, otherwise why not:
	// "origin already counted" or "stale".
	Reason        string
	Origin        string
	Before, After float64
}

// Corroborate applies a report to the listener's existing belief of the
// same variant. The report raises confidence by noisy-or,
// c' = 1 − (1 − c)(1 − r), only when its origin (the root of its chain) has
// not been counted yet and the event is no older than window ticks. Either
// way the report is recorded as evidence and reinforces memory: hearing a
// rumour again makes it fresh (strengths back to 1), which is also how a
// dormant rumour reactivates; only an independent origin adds confidence.
func (s *Store) Corroborate(listener string, t Testimony, window int64) (Corroboration, error) {
	v, ok := s.variants[t.Variant]
	if !ok {
		return Corroboration{}, fmt.Errorf("corroborate %s: %w", t.Variant, ErrUnknownVariant)
	}
	b, ok := s.beliefs[beliefKey{listener, v.Claim}]
	if !ok {
		return Corroboration{}, fmt.Errorf("corroborate %s for %s: %w", v.Claim, listener, ErrNoBelief)
	}
	if b.Variant != t.Variant {
		return Corroboration{}, fmt.Errorf("corroborate %s for %s (holds %s): %w", t.Variant, listener, b.Variant, ErrVariantConflict)
	}
	if err := t.checkChain(); err != nil {
		return Corroboration{}, fmt.Errorf("corroborate %s for %s: %w", t.Variant, listener, err)
	}
	s.keep(b)
	ev := t.evidence(false)
	out := Corroboration{Origin: ev.Root(listener), Before: b.Confidence, After: b.Confidence}
	switch {
	case slices.Contains(b.Origins, out.Origin):
		out.Reason = "origin already counted"
	case t.Tick-s.claims[v.Claim].Tick > window:
		out.Reason = "stale"
	default:
		out.Raised, out.Reason = true, "counted"
		out.After = NoisyOr(b.Confidence, t.Confidence)
		b.Confidence = out.After
		b.Origins = insertSorted(b.Origins, out.Origin)
		ev.Counted = true
	}
	b.Evidence = append(b.Evidence, ev)
	s.reanchor(b, t.Tick)
	return out, nil
}

// NoisyOr combines two independent confidences: the chance that at least
// one of two independent sources is right. The explicit conversion keeps
// the product from being fused into the subtraction on FMA hardware.
func NoisyOr(c, r float64) float64 {
	return 1 - float64((1-c)*(1-r))
}

func insertSorted(s []string, v string) []string {
	i, found := slices.BinarySearch(s, v)
	if found {
		return s
	}
	return slices.Insert(s, i, v)
}
