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
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
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
	entities  []string          // sorted: the cast and the player, what an actor or victim can become
	items     []string          // sorted: the mutation vocabulary for item slots
	policies  []mutation.Policy // tried in order
	rec       records
	topics    []string // what an encounter talks about (converse), reused
}

// records holds one record of each kind the engine emits for nearly every
// pair or belief, reused for every record of its kind: a sink sees a
// record only while Emit runs (trace.Sink), so building the trace costs no
// allocation per record.
type records struct {
	encounter    trace.Encounter
	transmission trace.Transmission
	rule         trace.RuleEval
	belief       trace.BeliefChange
	keyframe     trace.Keyframe
}

type npc struct {
	alive    bool
	faction  string
	schedule schedule.Schedule
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
		trust: make(map[[2]string]float64, len(cfg.Relationships)),
		now:   -1,
	}
	for _, l := range cfg.Locations {
		if _, dup := w.holds[l.ID]; dup {
			return nil, fmt.Errorf("new world: duplicate location %q", l.ID)
		}
		w.holds[l.ID] = l.Hold
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
	schedules := make([]schedule.Schedule, 0, len(cast))
	for i, n := range cast {
		w.index[n.ID] = i
		w.ids = append(w.ids, n.ID)
		w.npcs = append(w.npcs, npc{alive: true, faction: n.Faction, schedule: n.Schedule})
		schedules = append(schedules, n.Schedule)
	}
	w.ids = packed(w.ids)
	if w.occupancy, err = schedule.NewOccupancy(w.locations, schedules); err != nil {
		return nil, fmt.Errorf("new world: %w", err)
	}
	for _, r := range cfg.Relationships {
		_, from := w.index[r.From]
		_, to := w.index[r.To]
		if !from || !to {
			return nil, fmt.Errorf("new world: relationship %s→%s names an unknown NPC", r.From, r.To)
		}
		if !(r.Trust >= 0 && r.Trust <= 1) {
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
	return w, nil
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

// Step runs the next tick.
func (w *World) Step() error {
	w.now++
	t := w.now
	if t == 0 {
		// Decay and stages are derived on read, so a disabled one has no
		// per-tick evaluation to record: say once that it is off.
		for _, r := range []string{rules.BeliefDecay, rules.RumourStages} {
			if !w.rules.Enabled(r) {
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
	if err := w.encounters(t); err != nil {
		return err
	}
	w.stages(t)
	if t%w.defines.TicksPerDay == 0 {
		w.keyframe(t)
	}
	return nil
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
	w.emit(kf)
}
