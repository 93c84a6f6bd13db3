package social

import (
	"fmt"
	"slices"
)

// ObligationState is where an obligation stands. The only transitions are
// Issued → Fulfilled and Issued → Violated.
type ObligationState string

const (
	Issued    ObligationState = "issued"
	Fulfilled ObligationState = "fulfilled"
	Violated  ObligationState = "violated"
)

// ObligationStates lists every state an obligation can be in, in the
// order it can pass through them.
func ObligationStates() []ObligationState { return []ObligationState{Issued, Fulfilled, Violated} }

// Obligation is owed by Debtor to Creditor for the favour event Favour.
type Obligation struct {
	ID       string // "obligation:" + the favour's event id
	Favour   string
	Creditor string
	Debtor   string
	State    ObligationState
	Since    int64  // tick of the last transition
	Cause    string // event id of the last transition (the favour, then the invocation)
}

// ObligationID names the obligation a favour creates.
func ObligationID(favour string) string { return "obligation:" + favour }

// Ledger holds every obligation of a run.
type Ledger struct {
	by  map[string]*Obligation
	ids []string // sorted
}

// NewLedger returns an empty ledger.
func NewLedger() *Ledger { return &Ledger{by: map[string]*Obligation{}} }

// Issue records that debtor owes creditor for the favour event at tick t.
// A favour issues one obligation; a second Issue for it is an error.
func (l *Ledger) Issue(favour, creditor, debtor string, t int64) (*Obligation, error) {
	id := ObligationID(favour)
	if _, dup := l.by[id]; dup {
		return nil, fmt.Errorf("issue %s: already issued", id)
	}
	if creditor == debtor {
		return nil, fmt.Errorf("issue %s: %s cannot owe itself", id, debtor)
	}
	o := &Obligation{ID: id, Favour: favour, Creditor: creditor, Debtor: debtor, State: Issued, Since: t, Cause: favour}
	l.by[id] = o
	i, _ := slices.BinarySearch(l.ids, id)
	l.ids = slices.Insert(l.ids, i, id)
	return o, nil
}

// Settle applies an invocation's outcome (Fulfilled or Violated) to the
// obligation of favour. It returns the obligation and "" when the state
// changed; when it cannot change — no such obligation, or it is no longer
// issued — it returns the reason and changes nothing.
func (l *Ledger) Settle(favour string, outcome ObligationState, invocation string, t int64) (*Obligation, string) {
	if outcome != Fulfilled && outcome != Violated {
		return nil, fmt.Sprintf("outcome %q is neither fulfilled nor violated", outcome)
	}
	o, ok := l.by[ObligationID(favour)]
	switch {
	case !ok:
		return nil, "no obligation was issued for " + favour
	case o.State != Issued:
		return o, "already " + string(o.State)
	}
	o.State, o.Since, o.Cause = outcome, t, invocation
	return o, ""
}

// Get returns an obligation by id.
func (l *Ledger) Get(id string) (*Obligation, bool) {
	o, ok := l.by[id]
	return o, ok
}

// All returns every obligation, sorted by id.
func (l *Ledger) All() []*Obligation {
	out := make([]*Obligation, len(l.ids))
	for i, id := range l.ids {
		out[i] = l.by[id]
	}
	return out
}
