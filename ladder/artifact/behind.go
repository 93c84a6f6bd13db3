package artifact

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Behind sizes: what a Behind writer gathers before handing it over, and
// how many such chunks may be in flight before Write waits. Four chunks
// of 64 KiB bound its memory to a quarter of a megabyte.
const (
	behindChunk    = 64 << 10
	behindInFlight = 4
)

// ErrBehindClosed means a Behind writer was written to after Close.
var ErrBehindClosed = errors.New("artifact: write after Close")

// Behind is an io.Writer that writes to another on a goroutine of its
// own, in the same order and the same pieces of at most 64 KiB: a run's
// trace is gigabytes, and writing it (the system call's copy into the
// page cache, the seal's digest of every byte) then runs beside the
// spelling instead of between its lines. Write copies what it is given,
// so the caller may reuse its buffer at once.
//
// The writer behind must not be touched by anyone else until Close
// returns. Its errors arrive late: Write returns the first error once the
// goroutine has seen it, which may be some chunks after the write that
// caused it, and Close returns it for certain.
type Behind struct {
	w     io.Writer
	cur   []byte
	full  chan []byte
	free  chan []byte
	done  chan struct{}
	err   atomic.Pointer[error]
	close sync.Once
}

// NewBehind starts writing to w behind the caller.
func NewBehind(w io.Writer) *Behind {
	b := &Behind{w: w, full: make(chan []byte, behindInFlight), free: make(chan []byte, behindInFlight), done: make(chan struct{})}
	for range behindInFlight {
		b.free <- make([]byte, 0, behindChunk)
	}
	b.cur = <-b.free
	go b.drain()
	return b
}

// Write copies p into the chunk being filled, handing each full chunk
// over, and returns the first error the writer behind has returned so
// far.
func (b *Behind) Write(p []byte) (int, error) {
	if b.cur == nil {
		return 0, ErrBehindClosed
	}
	if err := b.Err(); err != nil {
		return 0, err
	}
	n := len(p)
	for len(p) > 0 {
		k := copy(b.cur[len(b.cur):cap(b.cur)], p)
		b.cur, p = b.cur[:len(b.cur)+k], p[k:]
		if len(b.cur) == cap(b.cur) {
			b.full <- b.cur
			b.cur = (<-b.free)[:0]
		}
	}
	return n, nil
}

// drain writes each chunk, in order; after an error, or a panic in the
// writer (kept as the error, not let loose on a goroutine no caller can
// recover on), it writes no more but still returns every chunk, so that
// Write never waits for one that will not come back.
func (b *Behind) drain() {
	defer close(b.done)
	for c := range b.full {
		if b.err.Load() == nil {
			b.write(c)
		}
		b.free <- c
	}
}

func (b *Behind) write(c []byte) {
	defer func() {
		if v := recover(); v != nil {
			err := fmt.Errorf("artifact: the writer behind panicked: %v\n%s", v, debug.Stack())
			b.err.Store(&err)
		}
	}()
	if _, err := b.w.Write(c); err != nil {
		b.err.Store(&err)
	}
}

// Err returns the first error the writer behind has returned so far,
// which may lag the write that caused it.
func (b *Behind) Err() error {
	if e := b.err.Load(); e != nil {
		return *e
	}
	return nil
}

// Close hands over what is left, waits until it has all been written,
// and returns the first error. After Close the writer behind is the
// caller's again, and Write returns ErrBehindClosed. Close may be
// called again, and returns the same error; a nil Behind's Close does
// nothing.
func (b *Behind) Close() error {
	if b == nil {
		return nil
	}
	b.close.Do(func() {
		if len(b.cur) > 0 {
			b.full <- b.cur
		}
		b.cur = nil
		close(b.full)
		<-b.done
	})
	return b.Err()
}
