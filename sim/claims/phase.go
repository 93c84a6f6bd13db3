package claims

import "slices"

// A phase is a stretch of a tick during which beliefs change but are read
// as they stood when it began. The engine's encounter phase is one: what a
// holder tells is fixed when the phase starts, so the order in which pairs
// meet never decides what is told. Rather than copy every belief when a
// phase begins — a city's worth, every tick — the store copies a belief
// the first time the phase changes it, and AsOfPhase reads the copy.

// BeginPhase opens a phase, closing any open one.
func (s *Store) BeginPhase() {
	s.EndPhase()
	s.inPhase = true
}

// EndPhase closes the phase and drops its copies: AsOfPhase reads beliefs
// as they are, and the next phase starts with none.
func (s *Store) EndPhase() {
	clear(s.before)
	s.inPhase = false
}

// AsOfPhase returns holder's belief in claim as it stood when the open
// phase began, and whether it existed then; outside a phase it is Belief.
// The belief returned is read-only: it may be a copy the phase keeps.
func (s *Store) AsOfPhase(holder, claim string) (*Belief, bool) {
	b, ok := s.beliefs[beliefKey{holder, claim}]
	if !ok {
		return nil, false
	}
	if was, changed := s.before[b]; changed {
		return was, was != nil
	}
	return b, true
}

// keep copies b as it stands, before its first change in the open phase.
// Every write to an existing belief calls it first.
func (s *Store) keep(b *Belief) {
	if !s.inPhase {
		return
	}
	if _, kept := s.before[b]; kept {
		return
	}
	c := *b
	c.Evidence, c.Origins = slices.Clone(b.Evidence), slices.Clone(b.Origins)
	s.before[b] = &c
}
