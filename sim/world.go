package sim

import (
	"errors"
	"fmt"
	"slices"

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

	ids     []string // cast ids, sorted
	npcs    map[string]*npc
	holds   map[string]string // location → hold
	trust   map[[2]string]float64
	pending []Injection // in tick order
	next    int         // index of the next injection to apply
	now     int64
	// tellable is what each active holder can tell in this tick's
	// encounter phase, fixed when the phase starts (see encounters).
	tellable  map[[2]string]told
	locations []string          // sorted
	items     []string          // sorted: the mutation vocabulary for item slots
	policies  []mutation.Policy // tried in order
}

type npc struct {
	id       string
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
		npcs:  make(map[string]*npc, len(cfg.Cast)),
		holds: make(map[string]string, len(cfg.Locations)),
		trust: make(map[[2]string]float64, len(cfg.Relationships)),
		now:   -1,
	}
	for _, l := range cfg.Locations {
		if _, dup := w.holds[l.ID]; dup {
			return nil, fmt.Errorf("new world: duplicate location %q", l.ID)
		}
		w.holds[l.ID] = l.Hold
	}
	for _, n := range cfg.Cast {
		if n.ID == Player {
			return nil, fmt.Errorf("new world: %q is reserved for the player", Player)
		}
		if _, dup := w.npcs[n.ID]; dup {
			return nil, fmt.Errorf("new world: duplicate NPC %q", n.ID)
		}
		if err := w.checkSchedule(n); err != nil {
			return nil, fmt.Errorf("new world: NPC %s: %w", n.ID, err)
		}
		w.npcs[n.ID] = &npc{id: n.ID, alive: true, faction: n.Faction, schedule: n.Schedule}
		w.ids = append(w.ids, n.ID)
	}
	slices.Sort(w.ids)
	for _, r := range cfg.Relationships {
		if w.npcs[r.From] == nil || w.npcs[r.To] == nil {
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
	for id := range w.holds {
		w.locations = append(w.locations, id)
	}
	slices.Sort(w.locations)
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
	n := w.npcs[id]
	return n != nil && n.alive
}

// At returns where an NPC is at the current tick: "" when dead or nowhere.
func (w *World) At(id string) string {
	n := w.npcs[id]
	if n == nil || !n.alive || w.now < 0 {
		return ""
	}
	return n.schedule.At(w.now)
}

// Hold returns the hold a location belongs to.
func (w *World) Hold(location string) string { return w.holds[location] }

// Home returns an NPC's home location ("" when none).
func (w *World) Home(id string) string {
	if n := w.npcs[id]; n != nil {
		return n.schedule.Home
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
	w.tellable = nil
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

func (w *World) emit(b trace.Body) {
	w.sink.Emit(trace.Record{Seq: w.seq, Tick: w.now, Body: b})
	w.seq++
}

func (w *World) ruleEval(rule, subject string, fired bool, reason string, values ...trace.Value) {
	w.emit(trace.RuleEval{Rule: rule, Subject: subject, Fired: fired, Reason: reason, Values: values})
}

func (w *World) beliefChange(b *claims.Belief, change string) {
	w.emit(trace.BeliefChange{
		Holder: b.Holder, Claim: b.Claim, Variant: b.Variant, Change: change,
		Confidence: b.Confidence, Stage: string(b.StageAt(w.now, w.store.Memory())),
	})
}

func (w *World) keyframe(t int64) {
	m := w.store.Memory()
	kf := trace.Keyframe{NPCs: make([]trace.NPCState, 0, len(w.ids))}
	for _, id := range w.ids {
		kf.NPCs = append(kf.NPCs, trace.NPCState{ID: id, Alive: w.npcs[id].alive, At: w.At(id)})
		for _, c := range w.store.Held(id) {
			b, _ := w.store.Belief(id, c)
			kf.Beliefs = append(kf.Beliefs, trace.BeliefState{
				Holder: id, Claim: c, Variant: b.Variant, Confidence: b.Confidence,
				Verbatim: b.VerbatimAt(t, m), Gist: b.GistAt(t, m), Stage: string(b.StageAt(t, m)),
			})
		}
	}
	w.emit(kf)
}
