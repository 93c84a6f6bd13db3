package expect

import (
	"bytes"

	"github.com/chronicle/ladder/sim/canon"
)

// SievedTraceCheck is a KindedTraceCheck that can tell from a record's
// line alone that the record cannot match: trace lines are canonical JSON
// (sorted keys, no spaces, one spelling per value), so a record whose
// field holds a given string or boolean has that key and value, spelt
// canonically, somewhere in its line. Needles are such spellings, each of
// which every matching record's line contains; a line that lacks one
// cannot match, and the runner need not decode it for this check. Decoding
// is most of what a long run's trace expectations cost: T3.4 stretched to
// 100,000 ticks spent 57% of its CPU time decoding records that matched
// nothing.
type SievedTraceCheck interface {
	KindedTraceCheck
	// Needles are the byte strings every matching record's line holds.
	Needles() [][]byte
	// Keys are the record's top-level keys ObserveTrace reads: a record
	// holding only those, decoded from the line, is all it needs.
	Keys() []string
	// Unmatched tells the check that a record of its kind in its range
	// cannot match (its line lacks a needle): it is examined all the same.
	Unmatched(o *Outcome)
}

var _ SievedTraceCheck = (*traceCheck)(nil)

// Needles spells each string and boolean the pattern demands as the
// record's line would hold it: "teller":"frida", "fired":true, a set's
// members as strings. Numbers are left out (a float field and an integer
// one spell the same value differently), so are a rule's values. A
// negative (exists: false, count: 0) has none: it reads every record of
// its kind, noting which of its fields some record holds even where the
// whole pattern does not match (traceCheck.candidate).
func (c *traceCheck) Needles() [][]byte {
	if c.negative() {
		return nil
	}
	var out [][]byte
	for _, p := range c.preds {
		key := p.path[len(p.path)-1]
		switch {
		case p.isSet || p.isSubset:
			for _, m := range append(append([]string(nil), p.set...), p.includes...) {
				if b, err := canon.Marshal(m); err == nil {
					out = append(out, b)
				}
			}
		default:
			switch p.scalar.(type) {
			case string, bool:
				k, err1 := canon.Marshal(key)
				v, err2 := canon.Marshal(p.scalar)
				if err1 == nil && err2 == nil {
					out = append(out, append(append(k, ':'), v...))
				}
			}
		}
	}
	return out
}

// Keys are the kind and the first key of every field the pattern names.
func (c *traceCheck) Keys() []string {
	out := []string{"kind"}
	for _, p := range c.preds {
		out = append(out, p.path[0])
	}
	return out
}

// Unmatched counts a record of the pattern's kind that cannot match.
func (c *traceCheck) Unmatched(o *Outcome) { o.Examine(1) }

// TraceLine shows one trace record, given as its canonical line, to the
// trace checks whose range includes its tick, decoding of it only what
// they read: a check of another kind does not see it; a sieved check
// whose needles the line lacks only counts it as examined; the sieved
// checks left read a record of the top-level keys they name (Keys),
// decoded from the line once for all of them; any other check, or the
// run's roll index, reads the whole record.
func (r *Run) TraceLine(t int64, kind string, line []byte) error {
	var full, part Record
	r.readers = r.readers[:0]
	whole := r.indexer != nil
	var keys []string
	for _, i := range r.traces {
		if !r.items[i].When.Has(t) {
			continue
		}
		c := r.items[i].Check.(TraceCheck)
		if k, ok := c.(KindedTraceCheck); ok && k.TraceKind() != kind {
			continue
		}
		s, sieved := c.(SievedTraceCheck)
		if sieved && !r.holdsNeedles(i, s, line) {
			s.Unmatched(&r.outcomes[i])
			continue
		}
		if sieved {
			keys = append(keys, s.Keys()...)
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
	if r.indexer != nil {
		r.indexer.Add(full, lineOf(full))
	}
	for _, i := range r.readers {
		r.items[i].Check.(TraceCheck).ObserveTrace(part, &r.outcomes[i])
	}
	return nil
}

// holdsNeedles reports whether line holds every needle of item i's check,
// computing them once a run.
func (r *Run) holdsNeedles(i int, s SievedTraceCheck, line []byte) bool {
	if r.needles == nil {
		r.needles = map[int][][]byte{}
	}
	ns, ok := r.needles[i]
	if !ok {
		ns = s.Needles()
		r.needles[i] = ns
	}
	for _, n := range ns {
		if !bytes.Contains(line, n) {
			return false
		}
	}
	return true
}
