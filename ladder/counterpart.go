package ladder

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/chronicle/ladder/ladder/compare"
	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/record"
	"github.com/chronicle/ladder/sim/trace"
)

// A comparison expectation compares its run with another run of the same
// fixture file (its counterpart), roll key by roll key. The counterpart
// reaches it as an index of its rolls — keys, values, where — never as a
// trace, and each run is made once per ladder run:
//
//   - a run that others compare with (fixture.ComparedBy) indexes its own
//     rolls as its trace passes its expectations, and leaves the index
//     here for them; the suite runs a fixture file's runs in an order that
//     puts each counterpart before the runs comparing with it (Order);
//   - a comparison whose counterpart has not run in this process (a
//     focused run, `make ladder RUNG=T2.3/swapped`, or a tool) runs it
//     here, stepping its world with nothing but the index kept.
//
// An index is dropped once every run that compares with it has taken it.

// indexes holds the roll indexes of counterpart runs, by run identity.
type indexes struct {
	mu sync.Mutex
	m  map[string]*indexEntry
}

type indexEntry struct {
	ix    *compare.Index
	users int // runs still to take it
}

var counterparts = &indexes{m: map[string]*indexEntry{}}

// onDemand counts the runs made only to index their rolls.
var onDemand atomic.Int64

// OnDemandRuns is how many runs this process has made only to index their
// rolls for a comparison, because the run compared with had not left its
// index: none in a full ladder run (Order), one for a focused run of a
// case that compares with its rung.
func OnDemandRuns() int64 { return onDemand.Load() }

// runID identifies a run across loads: its file, name and fixture hash.
func runID(f *fixture.Fixture) string { return f.File + "\x00" + f.Name() + "\x00" + f.Hash }

// prepareComparisons hands the run's comparisons their counterparts and,
// when other runs compare with this one and no index of it is held yet,
// returns the indexer that will index this run's rolls.
func prepareComparisons(f *fixture.Fixture, chk *expect.Run) *compare.Indexer {
	chk.Compare(func(name string) (*compare.Index, error) {
		g, ok := f.Counterpart(name)
		if !ok {
			return nil, fmt.Errorf("no run %s beside %s", name, f.Name())
		}
		return counterparts.take(g)
	})
	if len(f.ComparedBy) == 0 || counterparts.holds(f) {
		return nil
	}
	x := compare.NewIndexer()
	chk.Index(x)
	return x
}

// keepIndex leaves a finished run's index for the runs that compare with
// it. A malformed roll leaves none: those runs then index it themselves
// and report the problem.
func keepIndex(f *fixture.Fixture, x *compare.Indexer) {
	if x == nil {
		return
	}
	if ix, err := x.Index(); err == nil {
		counterparts.put(f, ix, len(f.ComparedBy))
	}
}

func (s *indexes) holds(f *fixture.Fixture) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[runID(f)] != nil
}

func (s *indexes) put(f *fixture.Fixture, ix *compare.Index, users int) {
	if users <= 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[runID(f)] = &indexEntry{ix: ix, users: users}
}

// take returns the index of f's run, making it when no run left it.
func (s *indexes) take(f *fixture.Fixture) (*compare.Index, error) {
	id := runID(f)
	s.mu.Lock()
	if e := s.m[id]; e != nil {
		if e.users--; e.users <= 0 {
			delete(s.m, id)
		}
		s.mu.Unlock()
		return e.ix, nil
	}
	s.mu.Unlock()
	onDemand.Add(1)
	ix, err := indexRun(f)
	if err != nil {
		return nil, err
	}
	s.put(f, ix, len(f.ComparedBy)-1)
	return ix, nil
}

// indexRun steps a fixture's world from tick 0 to its end and indexes its
// rolls, a tick's records at a time: the records are encoded and decoded
// as trace.jsonl spells them, so the index is the one its own run would
// have made from its trace.
func indexRun(f *fixture.Fixture) (*compare.Index, error) {
	tr := &trace.Buffer{}
	w, err := Build(f, tr)
	if err != nil {
		return nil, err
	}
	enc, err := trace.NewEncoder(record.TraceHeader(f))
	if err != nil {
		return nil, err
	}
	var head map[string]any
	if err := json.Unmarshal(enc.AppendHeader(nil), &head); err != nil {
		return nil, fmt.Errorf("%s: trace header: %w", f.Name(), err)
	}
	facts, err := trace.FactsOf(head)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	x := compare.NewIndexer()
	var line []byte
	for t := int64(0); t < f.Ticks; t++ {
		if err := w.Step(); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name(), f.Locate(err))
		}
		for _, r := range tr.Records {
			if line, err = enc.AppendRecord(line[:0], r); err != nil {
				return nil, fmt.Errorf("%s: trace.jsonl: %w", f.Name(), err)
			}
			var rec map[string]any
			if err = json.Unmarshal(line, &rec); err == nil {
				err = facts.Restore(rec) // the facts a version-3 line leaves out
			}
			if err != nil {
				return nil, fmt.Errorf("%s: trace record %d: %w", f.Name(), r.Seq, err)
			}
			x.Add(rec, int(r.Seq)+2)
		}
		clear(tr.Records)
		tr.Records = tr.Records[:0]
	}
	if unused := w.UnusedPins(); len(unused) > 0 {
		return nil, f.UnusedPins(unused)
	}
	return x.Index()
}

// Order returns a fixture file's runs (the rung and its cases) in the
// order that makes each once: each run after the runs it compares with,
// file order otherwise. When only runs comparing with each other in a
// cycle are left, the first of them in file order goes next and makes its
// counterpart's index itself.
func Order(fs []*fixture.Fixture) []*fixture.Fixture {
	placed := make(map[string]bool, len(fs))
	ready := func(f *fixture.Fixture) bool {
		for _, g := range fs {
			if !placed[g.Name()] && g != f && slices.Contains(g.ComparedBy, f.Name()) {
				return false
			}
		}
		return true
	}
	out := make([]*fixture.Fixture, 0, len(fs))
	rest := slices.Clone(fs)
	for len(rest) > 0 {
		i := slices.IndexFunc(rest, ready)
		if i < 0 {
			i = 0
		}
		placed[rest[i].Name()] = true
		out = append(out, rest[i])
		rest = slices.Delete(rest, i, i+1)
	}
	return out
}
