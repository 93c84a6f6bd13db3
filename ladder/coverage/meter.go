package coverage

import (
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
	m := &Meter{byKind: map[trace.Kind][]int{}}
	for _, r := range rules.Catalogue() {
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

// Emit tests the record against the signs of its kind.
func (m *Meter) Emit(r trace.Record) {
	for _, i := range m.byKind[r.Body.Kind()] {
		d := &m.regs[i]
		if !d.regime.Sign.Shows(d.rule.Name, r.Body) {
			continue
		}
		h := &m.hits[i]
		if h.Records == 0 {
			h.First = r.Tick
		}
		h.Records++
	}
}

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
