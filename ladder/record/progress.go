package record

import "sync/atomic"

// Progress is what a watched run reports as it goes: a count of the
// steps it has finished, and the tick and seed it is in (-1 while the
// world is built). The watcher
// reads them from another goroutine, so they are atomic; a run nobody
// watches has a nil progress, and reporting to it does nothing.
type Progress struct {
	steps atomic.Int64
	tick  atomic.Int64
	seed  atomic.Pointer[string]
}

// At reports that the run has finished everything before tick t and is
// now in it.
func (p *Progress) At(t int64) {
	if p == nil {
		return
	}
	p.tick.Store(t)
	p.steps.Add(1)
}

// InSeed reports that a sweep has begun seed id, before its world is
// built.
func (p *Progress) InSeed(id string) {
	if p == nil {
		return
	}
	p.seed.Store(&id)
	p.At(-1)
}

// Steps is how many steps the run has finished: the watcher's sign of
// progress.
func (p *Progress) Steps() int64 { return p.steps.Load() }

// Tick is the tick the run is in, -1 while a world is built.
func (p *Progress) Tick() int64 { return p.tick.Load() }

// Seed is the seed id a sweep is in, "" for a rung.
func (p *Progress) Seed() string {
	if s := p.seed.Load(); s != nil {
		return *s
	}
	return ""
}
