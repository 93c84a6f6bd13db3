package trace

import (
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

//determinism:concurrency the pipe is the one goroutine beside the engine: one reader takes whole batches first in, first out, so the sink behind it sees every record in the engine's order and writes the same bytes; only when the work happens moves (decision 0041)

// Pipe sizes: a batch is handed over whole, so the two goroutines meet
// once every batchRecords records rather than once a record, and at most
// batchesInFlight of them are in flight, which bounds the pipe's memory
// (about 1.3 MB of encounters and records, reached only by a run that
// long: batches grow as they fill) and how far the engine runs ahead.
//
// The engine emits a tick's records in a burst while it steps, and then
// builds the dense row and audits with none: the sink behind falls
// behind in the burst and catches up after it. Six batches are half a
// city's burst (13,200 records a tick at 10,000 NPCs): with four the
// engine waited for the pipe in every burst, and with six the ladder's
// city run took about a tenth less wall time in three comparisons of
// four (docs/performance.md, "The pipe's depth"); eight gained little
// more for another 0.4 MB held all run.
const (
	batchRecords    = 1024
	batchesInFlight = 6
)

// Pipe is a Sink that shows every record it is given to another sink, in
// the same order, on a goroutine of its own: what that sink does with a
// record (spell it, write it, compare it) then runs beside the engine, on
// a second core, instead of between the engine's steps.
//
// The engine reuses a record's storage once Emit returns, so the pipe
// copies each record before handing it over. An encounter, the commonest
// kind by far, is copied into storage the pipe reuses, with no
// allocation; a keyframe, whose copy would be the size of the world's
// state (megabytes in a city, and the peak heap with it), is not copied:
// Emit hands it over uncopied and returns once the sink has been shown
// it, once a game day; any other kind is its Clone. Nothing about the
// order of the records changes, and there is one goroutine behind the
// pipe, so what the sink behind it produces is byte for byte what it
// would produce were it shown the records directly: only when it does
// the work moves.
//
// The sink behind the pipe must not be touched by anyone else until
// Close returns. Its errors arrive late: Err reports the sink's first
// error once the pipe's goroutine has seen it, which may be some records
// after the one that caused it, and Close reports it for certain.
type Pipe struct {
	next Sink
	// errOf is the sink's own error, read on the pipe's goroutine after
	// each batch; nil when the sink has none to report.
	errOf func() error
	cur   *batch
	full  chan *batch
	free  chan *batch
	shown chan struct{} // a batch that waits has been shown
	done  chan struct{}
	err   atomic.Pointer[error]
	close sync.Once
}

var _ Sink = (*Pipe)(nil)

// batch is a batch of records in flight, with the storage its
// encounters are copied into. Both start empty and grow by append, so a
// short run never pays for a long one's batches: when enc moves, the
// encounters recs already points at stay in the array they were copied
// to, which nothing writes again before the batch is reset.
type batch struct {
	recs []Record
	enc  []Encounter
	// wait is set when the batch holds a record the pipe did not copy:
	// Emit waits for the batch to be shown (Pipe.shown).
	wait bool
}

// NewPipe starts a pipe into next. errOf, when not nil, is next's first
// error (a Writer's Err), which the pipe reads on its own goroutine after
// each batch so that Err can report it without a data race.
func NewPipe(next Sink, errOf func() error) *Pipe {
	p := &Pipe{next: next, errOf: errOf,
		full: make(chan *batch, batchesInFlight), free: make(chan *batch, batchesInFlight), shown: make(chan struct{}), done: make(chan struct{})}
	for range batchesInFlight {
		p.free <- &batch{}
	}
	p.cur = <-p.free
	go p.drain()
	return p
}

// Emit copies r into the batch being filled, and hands the batch over
// when it is full, waiting for a free one if the sink has fallen
// batchesInFlight behind.
func (p *Pipe) Emit(r Record) {
	b := p.cur
	switch e := r.Body.(type) {
	case *Encounter:
		r.Body = b.encounter(e)
	case Encounter:
		r.Body = b.encounter(&e)
	case *Keyframe, Keyframe:
		b.wait = true // shown before Emit returns, as it is
	default:
		r.Body = r.Body.Clone()
	}
	b.recs = append(b.recs, r)
	if wait := b.wait; wait || len(b.recs) == batchRecords {
		p.full <- b // b is the pipe's goroutine's until it is free again
		if wait {
			<-p.shown
		}
		p.cur = <-p.free
	}
}

// encounter copies e into the batch's own storage.
func (b *batch) encounter(e *Encounter) *Encounter {
	b.enc = append(b.enc, *e)
	c := &b.enc[len(b.enc)-1]
	c.own()
	return c
}

// drain shows each batch's records to the sink, in order, and returns
// the batch. A panic in the sink is kept as the pipe's error, not let
// loose on a goroutine no caller can recover on; the records after it
// are dropped, so that Emit never waits for a batch that will not come
// back.
func (p *Pipe) drain() {
	defer close(p.done)
	broken := false
	for b := range p.full {
		if !broken {
			broken = !p.show(b)
		}
		wait := b.wait
		clear(b.recs) // drop the clones
		b.recs, b.enc, b.wait = b.recs[:0], b.enc[:0], false
		p.free <- b
		if wait {
			p.shown <- struct{}{}
		}
	}
}

// show hands one batch to the sink and publishes its error; it reports
// false if the sink panicked.
func (p *Pipe) show(b *batch) (ok bool) {
	defer func() {
		if v := recover(); v != nil {
			err := fmt.Errorf("trace pipe: the sink panicked at record %d (tick %d): %v\n%s", b.recs[0].Seq, b.recs[0].Tick, v, debug.Stack())
			p.err.Store(&err)
			ok = false
		}
	}()
	for _, r := range b.recs {
		p.next.Emit(r)
	}
	if p.errOf != nil && p.err.Load() == nil {
		if err := p.errOf(); err != nil {
			p.err.Store(&err)
		}
	}
	return true
}

// Err returns the first error the pipe's goroutine has seen, from the sink
// or a panic in it; nil so far. It may lag the record that caused it.
func (p *Pipe) Err() error {
	if e := p.err.Load(); e != nil {
		return *e
	}
	return nil
}

// Close hands over what is left, waits until the sink has been shown
// every record, and returns the first error. After Close the sink is the
// caller's again; Emit must not be called. Close may be called again,
// and returns the same error.
func (p *Pipe) Close() error {
	p.close.Do(func() {
		p.full <- p.cur
		p.cur = nil
		close(p.full)
		<-p.done
	})
	return p.Err()
}
