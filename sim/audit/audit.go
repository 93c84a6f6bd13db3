package audit

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/claims"
	"github.com/chronicle/ladder/sim/events"
	"github.com/chronicle/ladder/sim/roles"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
	"github.com/chronicle/ladder/sim/social"
	"github.com/chronicle/ladder/sim/trace"
	"github.com/chronicle/ladder/tolerances"
)

// World is what the audit reads; *sim.World has it. A state added to the
// engine adds its accessor here and its invariant to the list in
// invariants.go.
type World interface {
	Now() int64
	NPCs() []string
	Alive(id string) bool
	Defines() rules.Defines
	Store() *claims.Store
	Log() *events.Log
	Grudges() *social.Grudges
	Ledger() *social.Ledger
	Reputation() *social.Reputation
	// The layers a world uses, and the state of Tiers 4 and 5 (empty in
	// a world without their layers).
	Layers() rules.Layers
	// Enabled says whether a rule is on in the run: an invariant that
	// only a rule maintains (a dead holder vacated by role-succession)
	// holds only while it is.
	Enabled(rule string) bool
	Roles() *roles.Book
	References(role string) []roles.Reference
	Schedules(npc string) (base, effective schedule.Schedule, ok bool)
	PairWeights() []sim.PairWeight
}

var _ World = (*sim.World)(nil)

// Finding is one record that breaks one invariant, first seen at Tick.
type Finding struct {
	Invariant string
	Tick      int64
	Grade     tolerances.Grade
	// Record names the offending record: "belief carlotta/theft@10",
	// "variant theft@2#v3", "obligation obligation:favour@4", "store".
	Record string
	// Detail says what is wrong, with the values.
	Detail string
	// Residual and Bound are a float invariant's: how far the value is
	// from what must hold, and what rounding can explain (0 elsewhere).
	Residual, Bound float64
}

// String is the finding as a failure line reads it:
//
//	regime 2 alarm at tick 14: one-belief-per-holder-claim: belief carlotta/theft@10: listed 2 times under carlotta
func (f Finding) String() string {
	return fmt.Sprintf("regime 2 %s at tick %d: %s: %s: %s", f.Grade, f.Tick, f.Invariant, f.Record, f.Detail)
}

// Report is one audit: the tick, whether it examined every record (a
// keyframe, the first audit, the end) or what changed since the last
// audit, its worst grade, and the findings first seen in it.
type Report struct {
	Tick     int64
	Full     bool
	Grade    tolerances.Grade
	Findings []Finding
}

// Failing returns the findings that fail a run: alarms, and warns when
// strict.
func (r Report) Failing(strict bool) []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Grade.Failing(strict) {
			out = append(out, f)
		}
	}
	return out
}

// Examined is how many records one invariant has examined over a run.
type Examined struct {
	Invariant string
	Records   int64
}

// Options configure an Auditor.
type Options struct {
	// FullEvery is the number of ticks between full audits, counted from
	// tick 0; 0 means the world's ticks_per_day, the trace's keyframes.
	// 1 makes every audit full.
	FullEvery int64
}

// ErrUnfed is the error Tick returns when no trace record reached the
// auditor at a tick where the engine always emits one (a keyframe): the
// auditor is not wired to the trace sink, and its incremental audits
// would examine nothing.
var ErrUnfed = errors.New("no trace record reached the audit: feed it every record the engine emits (Auditor.Emit)")

// Auditor runs regime 2 on one world: Emit every trace record to it as
// the engine emits them, and call Tick after every Step.
type Auditor struct {
	w         World
	fullEvery int64
	ticksDay  int64
	audited   int64 // the last tick audited, -1 before the first
	cast      map[string]bool
	entities  map[string]bool // the cast and the player
	castIDs   []string

	// What changed since the last audit, from the trace and the log.
	dirty     changes
	keyframed bool
	logSeen   int

	// Tallies kept between audits, so an incremental audit can tell an
	// undeclared record by a count.
	claimsFound  int
	listed       map[string]int // holder → beliefs listed, as last audited
	listedTotal  int
	variantsSeen map[string]int // claim → variants audited
	variantTotal int
	obligations  map[string]social.ObligationState
	pieces       map[opinionKey]int64 // row → for + against, as last audited
	piecesTotal  int64
	exact        exactness

	reported map[string]bool // invariant + record already reported
	examined []int64         // by invariant, in invariants order
	current  *Report
	last     Changes
}

// New returns an auditor of w, which must be at the start of its run (no
// tick stepped yet) or audit from its current state on.
func New(w World, opt Options) *Auditor {
	d := w.Defines()
	a := &Auditor{
		w: w, fullEvery: opt.FullEvery, ticksDay: d.TicksPerDay, audited: -1,
		cast: map[string]bool{}, entities: map[string]bool{sim.Player: true},
		listed: map[string]int{}, variantsSeen: map[string]int{}, obligations: map[string]social.ObligationState{},
		pieces: map[opinionKey]int64{}, reported: map[string]bool{}, examined: make([]int64, len(invariants)),
	}
	if a.fullEvery <= 0 {
		a.fullEvery = d.TicksPerDay
	}
	a.castIDs = w.NPCs()
	for _, id := range a.castIDs {
		a.cast[id], a.entities[id] = true, true
	}
	a.exact = exactnessOf(w.Reputation().Prior())
	a.dirty.reset()
	return a
}

// Emit notes what a trace record says changed; *Auditor is a trace.Sink.
// It keeps nothing of the record but names.
func (a *Auditor) Emit(r trace.Record) {
	a.dirty.note(r.Body)
	if r.Body.Kind() == trace.KindKeyframe {
		a.keyframed = true
	}
}

var _ trace.Sink = (*Auditor)(nil)

// Tick audits the world as of its current tick: every record at a full
// audit (tick 0, every FullEvery ticks, the first audit), otherwise the
// records the trace and the log say changed since the last audit. It
// returns the findings first seen now. The error is ErrUnfed (with the
// tick) when a keyframe tick passed without a keyframe reaching Emit.
func (a *Auditor) Tick() (Report, error) {
	t := a.w.Now()
	var err error
	if t >= 0 && t%a.ticksDay == 0 && !a.keyframed {
		err = fmt.Errorf("audit at tick %d: %w", t, ErrUnfed)
	}
	full := a.audited < 0 || t%a.fullEvery == 0
	return a.run(full), err
}

// Full audits every record now, whatever the schedule: the end of a run.
func (a *Auditor) Full() Report { return a.run(true) }

func (a *Auditor) run(full bool) Report {
	t := a.w.Now()
	rep := Report{Tick: t, Full: full}
	a.current = &rep
	sc := a.scope(full)
	for i, inv := range invariants {
		before := sc.examined
		inv.check(a, sc)
		a.examined[i] += sc.examined - before
	}
	a.last = sc.changes()
	a.current = nil
	a.audited = t
	a.keyframed = false
	a.dirty.reset()
	for _, f := range rep.Findings {
		rep.Grade = max(rep.Grade, f.Grade)
	}
	return rep
}

// Examined returns, for every invariant in order, how many records it has
// examined over the run so far: a record counts once per audit that
// looked at it.
func (a *Auditor) Examined() []Examined {
	out := make([]Examined, len(invariants))
	for i, inv := range invariants {
		out[i] = Examined{Invariant: inv.name, Records: a.examined[i]}
	}
	return out
}

// Last returns what the last audit examined beyond the tallies: every
// record at a full audit, the changed ones otherwise. It is for the specs
// that hold the incremental audit to a full one, and for triage.
func (a *Auditor) Last() Changes { return a.last }

// record names the record a finding is about. It is built on every
// check and spelt out only for a finding, so a sound record costs no
// allocation.
type record struct {
	kind    string // "belief", "claim", "variant", "obligation", "reputation", "grudge", "store", "reputation book"
	a, b, c string
	index   int // a belief's piece of evidence (-1: the belief itself); a variant's number; no other kind has one
}

func beliefRecord(holder, claim string) record {
	return record{kind: "belief", a: holder, b: claim, index: -1}
}
func named(kind, id string) record { return record{kind: kind, a: id} }

// String is the record as a finding names it: "belief carlotta/theft@10",
// "belief a/theft@1 evidence 0", "grudge b->c", "reputation a/c/standing".
func (r record) String() string {
	switch r.kind {
	case "belief":
		s := "belief " + r.a + "/" + r.b
		if r.index >= 0 {
			s += " evidence " + strconv.Itoa(r.index)
		}
		return s
	case "variant":
		return "variant " + r.a + "#v" + strconv.Itoa(r.index)
	case "grudge":
		return "grudge " + r.a + "->" + r.b
	case "override", "pair":
		return r.kind + " " + r.a + "/" + r.b
	case "reputation":
		return "reputation " + r.a + "/" + r.b + "/" + r.c
	case "store", "reputation book":
		return r.kind
	}
	return r.kind + " " + r.a
}

// find records a finding of the running audit, once per invariant and
// record over the run: a broken record stays broken, and is reported the
// tick it first is.
func (a *Auditor) find(inv string, g tolerances.Grade, rec record, format string, args ...any) {
	a.grade(inv, g, rec, 0, 0, format, args...)
}

func (a *Auditor) grade(inv string, g tolerances.Grade, rec record, residual, bound float64, format string, args ...any) {
	if g == tolerances.OK {
		return
	}
	name := rec.String()
	key := inv + "\x00" + name
	if a.reported[key] {
		return
	}
	a.reported[key] = true
	a.current.Findings = append(a.current.Findings, Finding{
		Invariant: inv, Tick: a.current.Tick, Grade: g, Record: name, Detail: fmt.Sprintf(format, args...),
		Residual: residual, Bound: bound,
	})
}

// unitResidual is how far x, a value inUnit found outside [0, 1], lies
// outside it: NaN, neither above 1 nor below 0, is its own residual.
func unitResidual(x float64) float64 {
	switch {
	case x > 1:
		return x - 1
	case x < 0:
		return -x
	}
	return x
}

// inUnit grades a value that must lie in [0, 1], exactly.
func (a *Auditor) inUnit(inv string, rec record, what string, x float64) {
	if x >= 0 && x <= 1 {
		return
	}
	r := unitResidual(x)
	a.grade(inv, tolerances.Audit.Grade(r, 0), rec, r, 0,
		"%s %s is %s outside [0, 1] (ok bound 0, warn ceiling %s)", what, canon.FormatFloat(x), canon.FormatFloat(r), canon.FormatFloat(tolerances.Audit.Margin))
}

// Changes is what an audit examined: the holders, claims, grudges,
// obligations and reputation rows, each sorted.
type Changes struct {
	Full        bool
	Events      int // log records examined
	Holders     []string
	Claims      []string
	Grudges     [][2]string
	Obligations []string
	Opinions    [][3]string
}

// changes collects the keys the trace names between two audits. Maps are
// only looked up and collected into sorted lists, never ranged into an
// output.
type changes struct {
	holders     map[string]bool
	claims      map[string]bool
	grudges     map[[2]string]bool
	obligations map[string]bool
	opinions    map[opinionKey]bool
}

type opinionKey struct{ observer, subject, dimension string }

func compareOpinion(x, y opinionKey) int {
	return cmp.Or(cmp.Compare(x.observer, y.observer), cmp.Compare(x.subject, y.subject), cmp.Compare(x.dimension, y.dimension))
}

func (c *changes) reset() {
	c.holders, c.claims = map[string]bool{}, map[string]bool{}
	c.grudges, c.obligations, c.opinions = map[[2]string]bool{}, map[string]bool{}, map[opinionKey]bool{}
}

// note records the keys a record says changed: a belief (formed,
// corroborated, contested, repeated…), a telling that reached a listener,
// a supersession, and the social deltas. Kinds that change nothing
// (encounters, rolls, rule evaluations) name nothing; events come from
// the log itself.
func (c *changes) note(b trace.Body) {
	belief := func(holder, claim string) { c.holders[holder], c.claims[claim] = true, true }
	switch x := b.(type) {
	case *trace.BeliefChange:
		belief(x.Holder, x.Claim)
	case trace.BeliefChange:
		belief(x.Holder, x.Claim)
	case *trace.Transmission:
		if x.Fired {
			belief(x.Listener, x.Claim)
		}
	case trace.Transmission:
		if x.Fired {
			belief(x.Listener, x.Claim)
		}
	case *trace.Supersession:
		belief(x.Holder, x.Claim)
	case trace.Supersession:
		belief(x.Holder, x.Claim)
	case *trace.Grudge:
		c.grudges[[2]string{x.Holder, x.Target}] = true
	case trace.Grudge:
		c.grudges[[2]string{x.Holder, x.Target}] = true
	case *trace.Obligation:
		c.obligations[x.ID] = true
	case trace.Obligation:
		c.obligations[x.ID] = true
	case *trace.Reputation:
		c.opinions[opinionKey{x.Observer, x.Subject, x.Dimension}] = true
	case trace.Reputation:
		c.opinions[opinionKey{x.Observer, x.Subject, x.Dimension}] = true
	}
}

// scope is what one audit examines.
type scope struct {
	full        bool
	events      []events.Record // log records to examine
	holders     []string
	lists       [][]*claims.Belief // each holder's beliefs, as the store lists them
	claims      []string
	grudges     []*social.Grudge
	grudgeKeys  [][2]string
	obligations []string
	opinions    []opinionKey
	examined    int64
}

// list fetches each holder's beliefs once, for every invariant.
func (s *scope) list(st *claims.Store) {
	s.lists = make([][]*claims.Belief, len(s.holders))
	for i, h := range s.holders {
		s.lists[i] = st.BeliefsOf(h)
	}
}

func (s *scope) changes() Changes {
	c := Changes{Full: s.full, Events: len(s.events), Holders: s.holders, Claims: s.claims, Grudges: s.grudgeKeys,
		Obligations: s.obligations}
	for _, k := range s.opinions {
		c.Opinions = append(c.Opinions, [3]string{k.observer, k.subject, k.dimension})
	}
	return c
}

// scope builds the audit's scope: everything when full, else what the
// trace named and the log appended since the last audit.
func (a *Auditor) scope(full bool) *scope {
	w := a.w
	if full {
		sc := &scope{full: true, events: w.Log().Since(0), holders: a.castIDs, claims: w.Store().ClaimIDs()}
		for _, g := range w.Grudges().All() {
			sc.grudges = append(sc.grudges, g)
			sc.grudgeKeys = append(sc.grudgeKeys, [2]string{g.Holder, g.Target})
		}
		for _, o := range w.Ledger().All() {
			sc.obligations = append(sc.obligations, o.ID)
		}
		// Obligations audited before but no longer in the ledger are
		// examined too: they vanished.
		ids := maps.Clone(a.obligations)
		for _, id := range sc.obligations {
			delete(ids, id)
		}
		sc.obligations = append(sc.obligations, slices.Sorted(maps.Keys(ids))...)
		slices.Sort(sc.obligations)
		for _, o := range w.Reputation().All() {
			sc.opinions = append(sc.opinions, opinionKey{o.Observer, o.Subject, o.Dimension})
		}
		a.logSeen = w.Log().Len()
		sc.list(w.Store())
		return sc
	}
	sc := &scope{events: w.Log().Since(a.logSeen)}
	a.logSeen = w.Log().Len()
	for _, r := range sc.events {
		a.dirty.claims[r.Event.ID] = true // a claim minted for it, if any
	}
	// Only the cast's beliefs are listed, in a full audit as here; a
	// belief held by anyone else shows in the store's count and in its
	// claim's holders.
	for _, h := range slices.Sorted(maps.Keys(a.dirty.holders)) {
		if a.cast[h] {
			sc.holders = append(sc.holders, h)
		}
	}
	sc.list(w.Store())
	sc.claims = slices.Sorted(maps.Keys(a.dirty.claims))
	sc.grudgeKeys = slices.SortedFunc(maps.Keys(a.dirty.grudges), func(x, y [2]string) int { return slices.Compare(x[:], y[:]) })
	for _, k := range sc.grudgeKeys {
		if g, ok := w.Grudges().Get(k[0], k[1]); ok {
			sc.grudges = append(sc.grudges, g)
		}
	}
	sc.obligations = slices.Sorted(maps.Keys(a.dirty.obligations))
	sc.opinions = slices.SortedFunc(maps.Keys(a.dirty.opinions), compareOpinion)
	return sc
}
