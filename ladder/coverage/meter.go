package coverage

import (
	"slices"

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
	// undeclared are the value names a rule wrote that its registry entry
	// does not declare, "rule/name" once each in the order met.
	undeclared []string
	// kind is the last record's kind (once kindSet), ofKind its regimes.
	kind    trace.Kind
	kindSet bool
	ofKind  []int
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
	m := &Meter{byKind: map[trace.Kind][]int{}, values: map[string][]string{}}
	for _, r := range rules.Catalogue() {
		m.values[r.Name] = r.Values
		for _, g := range r.Regimes {
			k := g.Sign.Kind
			if k == "" {
				k = trace.KindRule
			}
			m.byKind[k] = append(m.byKind[k], len(m.regs))
			m.regs = append(m.regs, declared{rule: r, regime: g})
		}
	}
	m.hits = make([]Hit, len(m.regs))
	return m
}

// Emit tests the record against the signs of its kind, and a rule
// record's value names against its rule's declaration.
func (m *Meter) Emit(r trace.Record) {
	switch e := r.Body.(type) {
	case *trace.RuleEval:
		m.declared(e)
	case trace.RuleEval:
		m.declared(&e)
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
}

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
