package sim

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/mutation"
	"github.com/chronicle/ladder/sim/roles"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/social"
	"github.com/chronicle/ladder/sim/trace"
)

// World is one run of the simulation.
type World struct {
	seedID  string
	defines rules.Defines
	rules   *rules.Set
	roller  *keyed.Roller
	log     *events.Log
	store   *claims.Store
	sink    trace.Sink
	seq     int64

	// The cast and the places are numbered in sorted id order: NPC i is
	// ids[i], location j is locations[j], so ascending numbers are sorted
	// ids wherever an order reaches the trace.
	ids       []string
	index     map[string]int // cast id → NPC number; looked up, never ranged over
	npcs      []npc
	locations []string
	occupancy *schedule.Occupancy // where each NPC is, who is together
	holds     map[string]string   // location → hold
	trust     map[[2]string]float64
	pending   []Injection // in tick order
	next      int         // index of the next injection to apply
	now       int64
	broken    *PanicError       // set by the step that panicked
	entities  []string          // sorted: the cast and the player, what an actor or victim can become
	items     []string          // sorted: the mutation vocabulary for item slots
	policies  []mutation.Policy // tried in order
	rec       records
	topics    []string // what an encounter talks about (converse), reused

	// The social layer (decisions 0012–0019), in use when layers has it.
	layers       rules.Layers
	kin          *social.Kin
	grudges      *social.Grudges
	ledger       *social.Ledger
	reputation   *social.Reputation
	accumulators *social.Accumulators
	// fresh lists the beliefs formed or switched to another variant in
	// this tick's injections and encounters: the social phase's work list.
	fresh []beliefRef
	// dealings are this tick's favours and invocations, in injection
	// order, for the obligations rule.
	dealings []Injection
	// onlookers counts a brawl's witnesses other than its parties, by
	// event id; looked up, never ranged over.
	onlookers map[string]int
	// settling is the grudge calendar: by tick, the grudges whose total
	// strength falls below grudge_settled at it, if their anchor is still
	// the one the entry was computed from. Looked up, never ranged over.
	settling map[int64][]grudgeDue

	// Tier 4a (decision 0020): each location's tags, looked up, never
	// ranged over; the restore calendar of mournings by the tick they end;
	// the (mourner, killing) pairs mourned already.
	tags      map[string][]string
	restoring map[int64][]mourning
	mourned   map[[2]string]bool
	// Tier 4b (decision 0021): the NPC pairs, by number, a grudge has
	// formed between (looked up, never ranged over), and the same sorted.
	paired map[[2]int]bool
	pairs  [][2]int
	// Tier 5 (decision 0022): the roles; the successions due, by tick; each
	// vacant role's vacancy event; the base blocks meeting each role,
	// sorted by NPC then block, and the holder each is kept for ("" while
	// suspended). Maps are looked up, never ranged over.
	roles       *roles.Book
	successions map[int64][]string
	vacancy     map[string]string
	meets       map[string][]blockRef
	partner     map[blockRef]string
}

// beliefRef names one belief for the social phase's work list.
type beliefRef struct{ holder, claim string }

// records holds one record of each kind the engine emits for nearly every
// pair or belief, reused for every record of its kind: a sink sees a
// record only while Emit runs (trace.Sink), so building the trace costs no
// allocation per record.
type records struct {
	encounter    trace.Encounter
	transmission trace.Transmission
	rule         trace.RuleEval
	belief       trace.BeliefChange
	evidence     trace.Evidence
	keyframe     trace.Keyframe
}

type npc struct {
	alive   bool
	faction string
	// schedule is the base, as the fixture wrote it: never edited.
	schedule schedule.Schedule
	// overrides are laid over it by rules (a mourning, a role's duties),
	// oldest first; effective composes the schedule the NPC follows.
	overrides []schedule.Override
	// meets is set when a base block meets a role.
	meets bool
}

// InjectionError is an injection the world could not apply, with its index
// in Config.Injections so a fixture loader can point at its source line.
type InjectionError struct {
	Index int
	Tick  int64
	Err   error
}

func (e *InjectionError) Error() string {
	return fmt.Sprintf("injection %d at tick %d: %v", e.Index, e.Tick, e.Err)
}

func (e *InjectionError) Unwrap() error { return e.Err }

// New builds a world at the start of tick 0.
func New(cfg Config) (*World, error) {
	if err := cfg.Defines.Validate(); err != nil {
		return nil, err
	}
	if cfg.Rules == nil {
		return nil, errors.New("new world: no rule set")
	}
	if cfg.Sink == nil {
		return nil, errors.New("new world: no trace sink (the trace is always on)")
	}
	roller, err := keyed.NewRoller(cfg.SeedID, cfg.Pins)
	if err != nil {
		return nil, fmt.Errorf("new world: %w", err)
	}
	d := cfg.Defines
	w := &World{
		seedID:  cfg.SeedID,
		defines: d,
		rules:   cfg.Rules,
		roller:  roller,
		log:     events.NewLog(cfg.Branch),
		store: claims.NewStore(claims.Memory{
			VerbatimHalfLife: d.VerbatimHalfLifeTicks, GistHalfLife: d.GistHalfLifeTicks,
			DormantGist: d.DormantGist, ForgottenGist: d.ForgottenGist,
			NoDecay:  !cfg.Rules.Enabled(rules.BeliefDecay),
			NoStages: !cfg.Rules.Enabled(rules.RumourStages),
		}),
		sink:  cfg.Sink,
		index: make(map[string]int, len(cfg.Cast)),
		holds: make(map[string]string, len(cfg.Locations)),
		tags:  make(map[string][]string, len(cfg.Locations)),
		trust: make(map[[2]string]float64, len(cfg.Relationships)),
		now:   -1,
	}
	for _, l := range cfg.Locations {
		if _, dup := w.holds[l.ID]; dup {
			return nil, fmt.Errorf("new world: duplicate location %q", l.ID)
		}
		for i, tag := range l.Tags {
			if tag == "" || slices.Contains(l.Tags[:i], tag) {
				return nil, fmt.Errorf("new world: location %q: tag %q is empty or given twice", l.ID, tag)
			}
		}
		w.holds[l.ID] = l.Hold
		w.tags[l.ID] = slices.Clone(l.Tags)
		w.locations = append(w.locations, l.ID)
	}
	slices.Sort(w.locations)
	w.locations = packed(w.locations)
	cast := slices.Clone(cfg.Cast)
	slices.SortStableFunc(cast, func(a, b NPC) int { return strings.Compare(a.ID, b.ID) })
	for _, n := range cfg.Cast {
		if n.ID == Player {
			return nil, fmt.Errorf("new world: %q is reserved for the player", Player)
		}
		if _, dup := w.index[n.ID]; dup {
			return nil, fmt.Errorf("new world: duplicate NPC %q", n.ID)
		}
		if err := w.checkSchedule(n); err != nil {
			return nil, fmt.Errorf("new world: NPC %s: %w", n.ID, err)
		}
		w.index[n.ID] = 0 // numbered below, once every id is known
	}
	for i, n := range cast {
		w.index[n.ID] = i
		w.ids = append(w.ids, n.ID)
		w.npcs = append(w.npcs, npc{alive: true, faction: n.Faction, schedule: n.Schedule})
	}
	w.ids = packed(w.ids)
	if err := w.roleState(cfg); err != nil {
		return nil, fmt.Errorf("new world: %w", err)
	}
	schedules := make([]schedule.Schedule, len(w.npcs))
	for i := range w.npcs {
		schedules[i] = w.effective(i)
	}
	if w.occupancy, err = schedule.NewOccupancy(w.locations, schedules); err != nil {
		return nil, fmt.Errorf("new world: %w", err)
	}
	for _, r := range cfg.Relationships {
		_, from := w.index[r.From]
		_, to := w.index[r.To]
		if !from || !to {
			return nil, fmt.Errorf("new world: relationship %s→%s names an unknown NPC", r.From, r.To)
		}
		if !TrustOK(r.Trust) {
			return nil, fmt.Errorf("new world: relationship %s→%s: trust %v outside [0, 1]", r.From, r.To, r.Trust)
		}
		w.trust[[2]string{r.From, r.To}] = r.Trust
	}
	for i, in := range cfg.Injections {
		if in.Tick < 0 {
			return nil, &InjectionError{Index: i, Tick: in.Tick, Err: errors.New("tick must not be negative")}
		}
		if i > 0 && in.Tick < cfg.Injections[i-1].Tick {
			return nil, &InjectionError{Index: i, Tick: in.Tick, Err: errors.New("injections must be in tick order")}
		}
	}
	w.pending = slices.Clone(cfg.Injections)
	w.entities = append(slices.Clone(w.ids), Player)
	slices.Sort(w.entities)
	items := slices.Clone(cfg.Items)
	for _, in := range cfg.Injections {
		if in.Item != "" {
			items = append(items, in.Item)
		}
	}
	slices.Sort(items)
	w.items = slices.Compact(items)
	w.policies = []mutation.Policy{mutation.Allegiance{}, mutation.Memory{Max: d.MutationMax}}
	if err := w.socialState(cfg); err != nil {
		return nil, fmt.Errorf("new world: %w", err)
	}
	return w, nil
}

// socialState builds the social layer's state: the kinship graph (every
// member of a household must be in the cast) and empty grudges, ledger,
// reputation book and accumulators.
func (w *World) socialState(cfg Config) error {
	w.layers = cfg.Layers()
	for i, h := range cfg.Kin {
		for _, id := range h {
			if _, ok := w.index[id]; !ok {
				return fmt.Errorf("household %d names %q, who is not in the cast", i, id)
			}
		}
	}
	kin, err := social.NewKin(cfg.Kin)
	if err != nil {
		return err
	}
	d := w.defines
	w.kin = kin
	w.grudges = social.NewGrudges(social.Curves{
		EmotionalHalfLife: d.GrudgeEmotionalHalfLifeTicks, EvidentiaryHalfLife: d.GrudgeEvidentiaryHalfLifeTicks,
		Settled: d.GrudgeSettled, NoDecay: !w.rules.Enabled(rules.GrudgeDecay),
	})
	w.ledger = social.NewLedger()
	w.reputation = social.NewReputation(social.Prior{Alpha: d.ReputationPriorAlpha, Beta: d.ReputationPriorBeta, Weight: d.ReputationWeight})
	w.accumulators = social.NewAccumulators()
	w.onlookers = map[string]int{}
	w.settling = map[int64][]grudgeDue{}
	w.restoring = map[int64][]mourning{}
	w.mourned = map[[2]string]bool{}
	w.paired = map[[2]int]bool{}
	return nil
}

// roleState builds the roles (every holder a cast member, every duty at a
// known location), lays each holder's duties over its schedule, and finds
// the base blocks that meet a role, each kept for the role's holder.
func (w *World) roleState(cfg Config) error {
	defs := make([]roles.Role, 0, len(cfg.Roles))
	for _, r := range cfg.Roles {
		if _, ok := w.index[r.Holder]; r.Holder != "" && !ok {
			return fmt.Errorf("role %s: holder %q is not in the cast", r.ID, r.Holder)
		}
		for n, b := range r.Duties {
			if _, ok := w.holds[b.At]; !ok {
				return fmt.Errorf("role %s: duty %d: unknown location %q", r.ID, n, b.At)
			}
		}
		defs = append(defs, roles.Role{ID: r.ID, Faction: r.Faction, Holder: r.Holder, Appointer: r.Appointer, Duties: r.Duties})
	}
	book, err := roles.NewBook(defs)
	if err != nil {
		return err
	}
	w.roles = book
	w.successions, w.vacancy = map[int64][]string{}, map[string]string{}
	w.meets, w.partner = map[string][]blockRef{}, map[blockRef]string{}
	for _, r := range book.All() {
		if r.Holder != "" {
			w.placeDuties(r)
		}
	}
	for i := range w.npcs {
		for k, b := range w.npcs[i].schedule.Blocks {
			if b.Meets == "" {
				continue
			}
			id, ok := roles.Parse(b.Meets)
			r, declared := book.Get(id)
			if !ok || !declared {
				return fmt.Errorf("NPC %s: block %d meets %q, which is not a declared role", w.ids[i], k, b.Meets)
			}
			w.npcs[i].meets = true
			ref := blockRef{i, k}
			w.meets[id] = append(w.meets[id], ref)
			w.partner[ref] = r.Holder
		}
	}
	return nil
}

// packed returns ids with their bytes copied, in order, into one block of
// memory. Every tick rolls a key over two NPC ids and a location id for
// each co-present pair; ids laid out together stay in the processor's
// cache across a city, where ids allocated one by one are scattered over
// the heap.
func packed(ids []string) []string {
	var all strings.Builder
	for _, id := range ids {
		all.WriteString(id)
	}
	block, out := all.String(), make([]string, len(ids))
	for i, id := range ids {
		out[i], block = block[:len(id)], block[len(id):]
	}
	return out
}

func (w *World) checkSchedule(n NPC) error {
	if n.Schedule.Home != "" {
		if _, ok := w.holds[n.Schedule.Home]; !ok {
			return fmt.Errorf("unknown home location %q", n.Schedule.Home)
		}
	}
	for i, b := range n.Schedule.Blocks {
		if err := b.Validate(); err != nil {
			return fmt.Errorf("block %d: %w", i, err)
		}
		if _, ok := w.holds[b.At]; !ok {
			return fmt.Errorf("block %d: unknown location %q", i, b.At)
		}
	}
	return nil
}

// Now returns the tick the world's state is as of: the last tick Step ran,
// or -1 before the first.
func (w *World) Now() int64 { return w.now }

// Defines returns the run's coefficients.
func (w *World) Defines() rules.Defines { return w.defines }

// Store returns the claims store for reading.
func (w *World) Store() *claims.Store { return w.store }

// Log returns the canonical event log for reading.
func (w *World) Log() *events.Log { return w.log }

// NPCs returns the cast ids, sorted.
func (w *World) NPCs() []string { return slices.Clone(w.ids) }

// Alive reports whether an NPC is alive (false for unknown ids).
func (w *World) Alive(id string) bool {
	i, ok := w.index[id]
	return ok && w.npcs[i].alive
}

// At returns where an NPC is at the current tick: "" when dead or nowhere.
func (w *World) At(id string) string {
	i, ok := w.index[id]
	if !ok || w.now < 0 {
		return ""
	}
	return w.at(i)
}

// Presence returns whether NPC number i — its place in NPCs, which is
// fixed for the run — is alive and where it is at the current tick:
// Alive and At without looking the id up, for a reader that visits the
// whole cast every tick (the ladder's dense recorder).
func (w *World) Presence(i int) (alive bool, at string) {
	if w.now < 0 {
		return w.npcs[i].alive, ""
	}
	return w.npcs[i].alive, w.at(i)
}

// at returns where NPC i is: "" when nowhere (the dead are nowhere).
func (w *World) at(i int) string {
	if j := w.occupancy.At(i); j != schedule.Nowhere {
		return w.locations[j]
	}
	return ""
}

// Hold returns the hold a location belongs to.
func (w *World) Hold(location string) string { return w.holds[location] }

// Home returns an NPC's home location ("" when none).
func (w *World) Home(id string) string {
	if i, ok := w.index[id]; ok {
		return w.npcs[i].schedule.Home
	}
	return ""
}

// UnusedPins returns the pins no roll consumed, in fixture order.
func (w *World) UnusedPins() []keyed.Pin { return w.roller.Unused() }

// Layers returns the layers the world uses (Config.Layers).
func (w *World) Layers() rules.Layers { return w.layers }

// Enabled reports whether the run's rule set has rule switched on (a
// fixture's rules.disable switches rules off): what an invariant that
// only a rule maintains asks before it holds the state to it.
func (w *World) Enabled(rule string) bool { return w.rules.Enabled(rule) }

// Kin returns the kinship graph.
func (w *World) Kin() *social.Kin { return w.kin }

// Grudges returns every grudge, for reading.
func (w *World) Grudges() *social.Grudges { return w.grudges }

// Ledger returns every obligation, for reading.
func (w *World) Ledger() *social.Ledger { return w.ledger }

// Reputation returns every observer's opinions, for reading.
func (w *World) Reputation() *social.Reputation { return w.reputation }

// Accumulators returns every (victim, offender) accumulator, for reading;
// Defines().EscalationWindowTicks is the window their counts are within.
func (w *World) Accumulators() *social.Accumulators { return w.accumulators }

// Step runs the next tick. A panic inside it is returned as a
// *PanicError, and the world refuses every later step with it.
func (w *World) Step() (err error) {
	if w.broken != nil {
		return w.broken
	}
	defer func() {
		if p := recover(); p != nil {
			w.broken = &PanicError{Tick: w.now, Value: p, Where: panicFrames()}
			err = w.broken
		}
	}()
	return w.step()
}

func (w *World) step() error {
	w.now++
	t := w.now
	if t == 0 {
		// Decay and stages are derived on read, so a disabled one has no
		// per-tick evaluation to record: say once that it is off (grudge
		// decay only in a world that can have grudges).
		for _, r := range []string{rules.BeliefDecay, rules.RumourStages, rules.GrudgeDecay} {
			if !w.rules.Enabled(r) && w.uses(r) {
				w.ruleEval(r, "", false, "disabled")
			}
		}
	}
	w.occupancy.Advance(t)
	for w.next < len(w.pending) && w.pending[w.next].Tick <= t {
		i, in := w.next, w.pending[w.next]
		w.next++
		if err := w.inject(in); err != nil {
			return &InjectionError{Index: i, Tick: in.Tick, Err: err}
		}
	}
	if w.layers.Has(rules.Roles) {
		if err := w.rolesPhase(t); err != nil {
			return fmt.Errorf("tick %d, roles: %w", t, err)
		}
	}
	if err := w.encounters(t); err != nil {
		return err
	}
	if w.layers.Has(rules.Social) {
		if err := w.socialPhase(t); err != nil {
			return fmt.Errorf("tick %d, social phase: %w", t, err)
		}
	}
	w.stages(t)
	if w.layers.Has(rules.Social) {
		w.settle(t)
	}
	if t%w.defines.TicksPerDay == 0 {
		w.keyframe(t)
	}
	return nil
}

// uses reports whether the world uses the layer a rule belongs to.
func (w *World) uses(rule string) bool {
	r, _ := rules.Find(rule)
	return w.layers.Has(r.Layer)
}

// emit hands one record to the sink. Records of the hot kinds are built
// in w.rec and passed by pointer; the sink must not keep them.
func (w *World) emit(b trace.Body) {
	w.sink.Emit(trace.Record{Seq: w.seq, Tick: w.now, Body: b})
	w.seq++
}

func (w *World) ruleEval(rule, subject string, fired bool, reason string, values ...trace.Value) {
	r := &w.rec.rule
	*r = trace.RuleEval{Rule: rule, Subject: subject, Fired: fired, Reason: reason, Values: append(r.Values[:0], values...)}
	w.emit(r)
}

// transmission emits t from the reused record.
func (w *World) transmission(t trace.Transmission) {
	w.rec.transmission = t
	w.emit(&w.rec.transmission)
}

func (w *World) beliefChange(b *claims.Belief, change string) {
	c := &w.rec.belief
	*c = trace.BeliefChange{
		Holder: b.Holder, Claim: b.Claim, Variant: b.Variant, Change: change,
		Confidence: b.Confidence, Stage: string(b.StageAt(w.now, w.store.Memory())),
	}
	w.emit(c)
}

// beliefHeard emits the change of a belief that has just gained evidence
// (formed, corroborated, reinforced, reactivated, contested), with that
// evidence, its last: the trace alone then gives every belief's
// provenance, as of any tick.
func (w *World) beliefHeard(b *claims.Belief, change string) {
	e := &b.Evidence[len(b.Evidence)-1]
	w.rec.evidence = trace.Evidence{Type: string(e.Type), Variant: e.Variant, Chain: e.Chain, Via: e.Via, Confidence: e.Confidence, Counted: e.Counted}
	c := &w.rec.belief
	*c = trace.BeliefChange{
		Holder: b.Holder, Claim: b.Claim, Variant: b.Variant, Change: change,
		Confidence: b.Confidence, Stage: string(b.StageAt(w.now, w.store.Memory())),
		Evidence: &w.rec.evidence,
	}
	w.emit(c)
}

// mintClaim mints the claim of an event and traces its original variant.
func (w *World) mintClaim(id, kind string, t int64, slots claims.Slots) (*claims.Claim, error) {
	c, err := w.store.MintClaim(id, kind, t, slots)
	if err != nil {
		return nil, err
	}
	v, _ := w.store.Variant(c.Variant)
	w.minted(v)
	return c, nil
}

// derive takes a step of a claim's lineage and traces the variant it
// minted; a step taken before yields its variant again, and no record.
func (w *World) derive(predecessor string, changes []claims.Change, origin claims.Origin) (*claims.Variant, error) {
	n := w.store.VariantCount()
	v, err := w.store.Derive(predecessor, changes, origin)
	if err != nil {
		return nil, err
	}
	if w.store.VariantCount() > n {
		w.minted(v)
	}
	return v, nil
}

// minted emits the record of a variant the store has just minted.
// Variants are few (one per event, one per lineage step), so the record
// is built afresh.
func (w *World) minted(v *claims.Variant) {
	r := &trace.Variant{ID: v.ID, Claim: v.Claim, Predecessor: v.Predecessor, Reason: v.Origin.Reason, By: v.Origin.Holder}
	for _, d := range v.Diff {
		r.Diff = append(r.Diff, trace.SlotChange{Slot: d.Slot, From: d.From, To: d.To})
	}
	for _, sl := range v.Slots {
		r.Slots = append(r.Slots, trace.Slot{Name: sl.Name, Type: string(sl.Type), Value: sl.Value})
	}
	w.emit(r)
}

func (w *World) keyframe(t int64) {
	m := w.store.Memory()
	kf := &w.rec.keyframe
	kf.NPCs, kf.Beliefs = kf.NPCs[:0], kf.Beliefs[:0]
	for i, id := range w.ids {
		kf.NPCs = append(kf.NPCs, trace.NPCState{ID: id, Alive: w.npcs[i].alive, At: w.at(i)})
		for _, b := range w.store.BeliefsOf(id) {
			kf.Beliefs = append(kf.Beliefs, trace.BeliefState{
				Holder: id, Claim: b.Claim, Variant: b.Variant, Confidence: b.Confidence,
				Verbatim: b.VerbatimAt(t, m), Gist: b.GistAt(t, m), Stage: string(b.StageAt(t, m)),
			})
		}
	}
	w.socialKeyframe(kf, t)
	w.emit(kf)
}

// socialKeyframe fills the keyframe's social sections, each sorted as its
// store lists it; in a world without social state they stay empty and are
// not written.
func (w *World) socialKeyframe(kf *trace.Keyframe, t int64) {
	kf.Accumulators, kf.Grudges = kf.Accumulators[:0], kf.Grudges[:0]
	kf.Obligations, kf.Reputation = kf.Obligations[:0], kf.Reputation[:0]
	for _, a := range w.accumulators.All() {
		kf.Accumulators = append(kf.Accumulators, trace.AccumulatorState{
			Victim: a.Victim, Offender: a.Offender, Count: int64(a.Count(t, w.defines.EscalationWindowTicks)), Armed: !a.Disarmed,
		})
	}
	c := w.grudges.Curves()
	for _, g := range w.grudges.All() {
		kf.Grudges = append(kf.Grudges, trace.GrudgeState{
			Holder: g.Holder, Target: g.Target, Emotional: g.EmotionalAt(t, c), Evidentiary: g.EvidentiaryAt(t, c), Settled: g.SettledAt(t, c),
		})
	}
	for _, o := range w.ledger.All() {
		kf.Obligations = append(kf.Obligations, trace.ObligationState{ID: o.ID, Favour: o.Favour, Creditor: o.Creditor, Debtor: o.Debtor, State: string(o.State)})
	}
	for _, o := range w.reputation.All() {
		kf.Reputation = append(kf.Reputation, trace.OpinionState{Observer: o.Observer, Subject: o.Subject, Dimension: o.Dimension, Alpha: o.Alpha, Beta: o.Beta, Mean: o.Mean()})
	}
	kf.Roles = kf.Roles[:0]
	for _, r := range w.roles.All() {
		kf.Roles = append(kf.Roles, trace.RoleState{ID: r.ID, Holder: r.Holder, Since: r.Since})
	}
}
