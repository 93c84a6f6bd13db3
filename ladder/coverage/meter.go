package coverage

import (
	"fmt"
	"slices"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/trace"
)

// Meter is a trace.Sink that notes which declared regimes a run's records
// show, as the run emits them: the first tick each was reached and how
// many records showed it. It keeps nothing else of the trace, so its
// memory is the catalogue's size whatever the run's length.
type Meter struct {
	byKind map[trace.Kind][]int // indexes into regimes, by the kind their sign reads
	regs   []declared
	hits   []Hit
	values map[string][]string // each rule's declared value names
	// rules are the catalogue's rules by name, for the reasons each
	// declares; closed the closed sets of record fields (sim.TraceValues),
	// by kind and path.
	rules  map[string]rules.Rule
	closed map[trace.Kind]map[string][]string
	// unlisted are the reasons and other closed-set values a run's
	// records carried that no list of the engine holds, once each in the
	// order met.
	unlisted []string
	// undeclared are the value names a rule wrote that its registry entry
	// does not declare, "rule/name" once each in the order met.
	undeclared []string
	// kind is the last record's kind (once kindSet), ofKind its regimes.
	kind    trace.Kind
	kindSet bool
	ofKind  []int
	// lastIn is the closed-set field in last checked: a trace comes in
	// runs of one kind whose value repeats (a tick's encounters all roll
	// one purpose), and checking it again for each of a city's millions
	// of records cost two map lookups and a search of its list each.
	lastIn closedValue
}

// closedValue is a value of a closed-set field of a kind of record.
type closedValue struct {
	kind    trace.Kind
	path, v string
}

// declared is one regime of the catalogue with its rule.
type declared struct {
	rule   rules.Rule
	regime rules.Regime
}

// Hit is what a run's trace showed of one regime.
type Hit struct {
	// First is the tick of the first record that showed it; Records how
	// many did (0: not reached).
	First   int64 `json:"first"`
	Records int64 `json:"records"`
}

var _ trace.Sink = (*Meter)(nil)

// NewMeter returns a meter over the catalogue's regimes.
func NewMeter() *Meter {
	m := &Meter{byKind: map[trace.Kind][]int{}, values: map[string][]string{}, rules: map[string]rules.Rule{}, closed: map[trace.Kind]map[string][]string{}}
	for _, r := range rules.Catalogue() {
		m.values[r.Name] = r.Values
		m.rules[r.Name] = r
		for _, g := range r.Regimes {
			k := g.Sign.Record()
			m.byKind[k] = append(m.byKind[k], len(m.regs))
			m.regs = append(m.regs, declared{rule: r, regime: g})
		}
	}
	for _, k := range trace.Kinds() {
		for _, f := range trace.Fields(k) {
			if values := sim.TraceValues(k, f.Path); values != nil {
				if m.closed[k] == nil {
					m.closed[k] = map[string][]string{}
				}
				m.closed[k][f.Path] = values
			}
		}
	}
	m.hits = make([]Hit, len(m.regs))
	return m
}

// Emit tests the record against the signs of its kind, a rule record's
// value names against its rule's declaration, and its reason and every
// other closed-set field against the engine's lists.
func (m *Meter) Emit(r trace.Record) {
	switch e := r.Body.(type) {
	case *trace.RuleEval:
		m.declared(e)
	case trace.RuleEval:
		m.declared(&e)
	case *trace.Transmission:
		m.reason(trace.KindTransmission, e.Rule, e.Reason)
	case trace.Transmission:
		m.reason(trace.KindTransmission, e.Rule, e.Reason)
	default:
		m.listed(r.Body)
	}
	// A trace comes in runs of one kind (a tick's encounters, its rule
	// records), so the last kind's regimes are kept rather than looked
	// up again for every record.
	if k := r.Body.Kind(); !m.kindSet || k != m.kind {
		m.kind, m.kindSet, m.ofKind = k, true, m.byKind[k]
	}
	for _, i := range m.ofKind {
		d := &m.regs[i]
		if !shows(&d.regime.Sign, d.rule.Name, r.Body) {
			continue
		}
		h := &m.hits[i]
		if h.Records == 0 {
			h.First = r.Tick
		}
		h.Records++
	}
}

// declared notes each value name of a rule record that its rule does not
// declare: a fixture's values: keys are checked against the declaration,
// so one the engine writes beyond it could never be matched.
func (m *Meter) declared(e *trace.RuleEval) {
	names := m.values[e.Rule]
	for _, v := range e.Values {
		if !slices.Contains(names, v.Name) {
			m.undeclare(e.Rule + "/" + v.Name)
		}
	}
	m.reason(trace.KindRule, e.Rule, e.Reason)
	if e.Roll != nil {
		m.in(trace.KindRule, "roll.purpose", e.Roll.Roll.Key.Purpose)
	}
}

// reason notes a rule or transmission record's reason that its rule does
// not declare (rules.Rule.Reasons): a fixture's reason: is checked
// against the declaration, so one the engine writes beyond it could never
// be matched.
func (m *Meter) reason(k trace.Kind, rule, reason string) {
	if r, ok := m.rules[rule]; ok && !r.Declares(k, reason) {
		m.unlist(fmt.Sprintf("reason %q of %s's %s records (sim/rules/registry.go)", reason, rule, k))
	}
}

// listed notes each value of a record's closed-set field that the
// engine's list for it (sim.TraceValues) does not hold.
func (m *Meter) listed(b trace.Body) {
	switch b := b.(type) {
	case *trace.BeliefChange:
		m.belief(b)
	case trace.BeliefChange:
		m.belief(&b)
	case *trace.Grudge:
		m.in(trace.KindGrudge, "change", b.Change)
	case trace.Grudge:
		m.in(trace.KindGrudge, "change", b.Change)
	case *trace.Obligation:
		m.in(trace.KindObligation, "state", b.State)
	case trace.Obligation:
		m.in(trace.KindObligation, "state", b.State)
	case *trace.Schedule:
		m.in(trace.KindSchedule, "change", b.Change)
	case trace.Schedule:
		m.in(trace.KindSchedule, "change", b.Change)
	case *trace.Role:
		m.in(trace.KindRole, "change", b.Change)
	case trace.Role:
		m.in(trace.KindRole, "change", b.Change)
	case *trace.Event:
		m.in(trace.KindEvent, "event", b.EventKind)
	case trace.Event:
		m.in(trace.KindEvent, "event", b.EventKind)
	case *trace.Reputation:
		m.in(trace.KindReputation, "dimension", b.Dimension)
	case trace.Reputation:
		m.in(trace.KindReputation, "dimension", b.Dimension)
	case *trace.Encounter:
		m.in(trace.KindEncounter, "roll.purpose", b.Roll.Roll.Key.Purpose)
	case trace.Encounter:
		m.in(trace.KindEncounter, "roll.purpose", b.Roll.Roll.Key.Purpose)
	}
}

func (m *Meter) belief(b *trace.BeliefChange) {
	m.in(trace.KindBelief, "change", b.Change)
	m.in(trace.KindBelief, "stage", b.Stage)
	if b.Evidence != nil {
		m.in(trace.KindBelief, "evidence.type", b.Evidence.Type)
	}
}

// in notes v when the closed set of the kind's field at path does not
// hold it.
func (m *Meter) in(k trace.Kind, path, v string) {
	c := closedValue{k, path, v}
	if c == m.lastIn {
		return
	}
	m.lastIn = c
	if values, ok := m.closed[k][path]; ok && !slices.Contains(values, v) {
		m.unlist(fmt.Sprintf("%s %q of a %s record (sim.TraceValues)", path, v, k))
	}
}

func (m *Meter) unlist(what string) {
	if !slices.Contains(m.unlisted, what) {
		m.unlisted = append(m.unlisted, what)
	}
}

// Unlisted lists the reasons and other closed-set values the run's
// records carried that the engine's lists do not hold; a sound run has
// none.
func (m *Meter) Unlisted() []string { return m.unlisted }

func (m *Meter) undeclare(name string) {
	if !slices.Contains(m.undeclared, name) {
		m.undeclared = append(m.undeclared, name)
	}
}

// Undeclared lists the value names rule records carried that the
// registry does not declare for their rule ("rule/name"); a sound run
// has none.
func (m *Meter) Undeclared() []string { return m.undeclared }

// Reached lists the regimes the run reached, in catalogue order.
func (m *Meter) Reached() []Reached {
	var out []Reached
	for i, h := range m.hits {
		if h.Records > 0 {
			d := m.regs[i]
			out = append(out, Reached{Number: d.rule.Number, Rule: d.rule.Name, Regime: d.regime.Name, Hit: h})
		}
	}
	return out
}

// Reached is one regime a run reached.
type Reached struct {
	Number int    `json:"number"`
	Rule   string `json:"rule"`
	Regime string `json:"regime"`
	Hit
}
