package expect

import (
	"bytes"
	"slices"

	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/trace"
)

// SievedTraceCheck is a KindedTraceCheck that can tell from a record's
// line alone that the record cannot count: trace lines are canonical JSON
// (sorted keys, no spaces, one spelling per value), so a record whose
// field holds a given string or boolean has that key and value, spelt
// canonically, somewhere in its line. A check's sieve lists such
// spellings; a line it does not need is one the check would only count as
// examined, and the runner need not decode it for this check. Decoding is
// most of what a long run's trace expectations cost: T3.4 stretched to
// 100,000 ticks spent 57% of its CPU time decoding records that matched
// nothing.
type SievedTraceCheck interface {
	KindedTraceCheck
	// Sieve says which lines the check needs to read.
	Sieve() Sieve
	// Keys are the record's top-level keys ObserveTrace reads: a record
	// holding only those, decoded from the line, is all it needs.
	Keys() []string
	// Unmatched tells the check that a record of its kind in its range
	// is one it does not need (Sieve): it is examined all the same.
	Unmatched(o *Outcome)
}

// Sieve is what a line must hold for a check to read it: every spelling
// of All (a record that matches holds them all), or one of Any (a
// negative reads a record holding one of its free fields even where the
// pattern does not match, to know that the field occurs in the run).
type Sieve struct {
	All, Any [][]byte
}

// Needed reports whether the check must read the record of line.
func (s Sieve) Needed(line []byte) bool {
	for _, n := range s.Any {
		if holds(line, n) {
			return true
		}
	}
	for _, n := range s.All {
		if !holds(line, n) {
			return false
		}
	}
	return true
}

// holds reports whether line contains needle. Every needle is a JSON
// string or key and starts with a quote, the commonest byte of a line, on
// which a search stops at every field: it looks for the rest of the needle
// instead and checks the quote before it (bytes.Contains, about twice as
// fast on trace lines).
func holds(line, needle []byte) bool {
	if len(needle) < 2 || needle[0] != '"' {
		return bytes.Contains(line, needle)
	}
	rest := needle[1:]
	for from := 1; from <= len(line)-len(rest); {
		i := bytes.Index(line[from:], rest)
		if i < 0 {
			return false
		}
		if line[from+i-1] == '"' {
			return true
		}
		from += i + 1
	}
	return false
}

var _ SievedTraceCheck = (*traceCheck)(nil)

// Sieve spells each string and boolean the pattern demands as the
// record's line would hold it: "teller":"frida", "fired":true, a set's
// members as strings. Numbers are left out (a float field and an integer
// one spell the same value differently), so are a rule's values. A
// negative (exists: false, count: 0) also reads every record holding one
// of its free fields (a subject, a reason: traceCheck.candidate notes
// which occur), each a string, so each spelt too.
//
// A field a version-3 line may leave out (trace.Implied: an encounter's
// site, a variant's claim) has no spelling the line must hold, so it adds
// no needle; a negative with such a free field reads every line.
func (c *traceCheck) Sieve() Sieve {
	var s Sieve
	for _, p := range c.preds {
		if trace.Implied(trace.Kind(c.kind), p.path[0]) {
			if p.free && c.negative() {
				return Sieve{}
			}
			continue
		}
		key := p.path[len(p.path)-1]
		switch {
		case p.isSet || p.isSubset:
			for _, m := range append(append([]string(nil), p.set...), p.includes...) {
				if b, err := canon.Marshal(m); err == nil {
					s.All = append(s.All, b)
				}
			}
		default:
			switch p.scalar.(type) {
			case string, bool:
				if spelt := spell(key, p.scalar); spelt != nil {
					s.All = append(s.All, spelt)
					if p.free && c.negative() {
						s.Any = append(s.Any, spelt)
					}
				}
			}
		}
	}
	// A line lacking one needle is decided at that needle: the longer
	// (a reason, an id) are the rarer, so they go first.
	slices.SortStableFunc(s.All, func(a, b []byte) int { return len(b) - len(a) })
	return s
}

// spell is a member as a canonical line holds it, "key":value; nil for a
// value with no spelling.
func spell(key string, v any) []byte {
	k, err1 := canon.Marshal(key)
	b, err2 := canon.Marshal(v)
	if err1 != nil || err2 != nil {
		return nil
	}
	return append(append(k, ':'), b...)
}

// Keys are the kind and the first key of every field the pattern names,
// with the fields a version-3 line puts such a field back from
// (trace.Sources).
func (c *traceCheck) Keys() []string {
	out := []string{"kind", "seq", "tick"} // seq and tick: where the first match is, for a failure's link
	for _, p := range c.preds {
		out = append(out, p.path[0])
		out = append(out, trace.Sources(trace.Kind(c.kind), p.path[0])...)
	}
	return out
}

// Unmatched counts a record of the pattern's kind that cannot match.
func (c *traceCheck) Unmatched(o *Outcome) { o.Examine(1) }

// TraceLine shows one trace record, given as its canonical line, to the
// trace checks whose range includes its tick, decoding of it only what
// they read: a check of another kind does not see it; a sieved check
// that does not need the line (Sieve) only counts it as examined; the sieved
// checks left read a record of the top-level keys they name (Keys),
// decoded from the line once for all of them; any other check, or the
// run's roll index, reads the whole record.
func (r *Run) TraceLine(t int64, kind string, line []byte) error {
	r.evaluations(t, kind, func(e *evaluator) bool {
		return slices.ContainsFunc(e.spelt, func(n []byte) bool { return holds(line, n) })
	})
	var full, part Record
	r.readers = r.readers[:0]
	whole := r.indexer != nil
	var keys []string
	for _, i := range r.tracesOf(kind) {
		if !r.items[i].When.Has(t) {
			continue
		}
		s, sieved := r.items[i].Check.(SievedTraceCheck)
		if sieved && !r.sieveOf(i, s).Needed(line) {
			s.Unmatched(&r.outcomes[i])
			continue
		}
		if sieved {
			keys = append(keys, r.keysOf(i, s)...)
		} else {
			whole = true
		}
		r.readers = append(r.readers, i)
	}
	if len(r.readers) == 0 && r.indexer == nil {
		return nil
	}
	var err error
	if whole {
		if full, err = DecodeRecord(line); err != nil {
			return err
		}
		part = full
	} else if part, err = DecodeKeys(line, keys); err != nil {
		return err
	}
	if err := r.facts.Restore(part); err != nil {
		return err
	}
	if r.indexer != nil {
		r.indexer.Add(full, lineOf(full))
	}
	for _, i := range r.readers {
		r.items[i].Check.(TraceCheck).ObserveTrace(part, &r.outcomes[i])
	}
	return nil
}

// keysOf is item i's Keys, listed once a run.
func (r *Run) keysOf(i int, s SievedTraceCheck) []string {
	if r.keys == nil {
		r.keys = make([][]string, len(r.items))
	}
	if r.keys[i] == nil {
		r.keys[i] = s.Keys()
	}
	return r.keys[i]
}

// sieveOf is item i's sieve, made once a run.
func (r *Run) sieveOf(i int, s SievedTraceCheck) *Sieve {
	if r.sieves == nil {
		r.sieves = make([]*Sieve, len(r.items))
	}
	if r.sieves[i] == nil {
		v := s.Sieve()
		r.sieves[i] = &v
	}
	return r.sieves[i]
}
