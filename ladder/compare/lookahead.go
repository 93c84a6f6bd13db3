package compare

import (
	"errors"
	"io"
)

// Lookahead reads a trace one record ahead, so that whoever walks two
// traces side by side can gather a tick's records from each: Head is the
// next record while More holds.
type Lookahead struct {
	rd   *Reader
	Head Record
	More bool
}

// NewLookahead reads rd's first record.
func NewLookahead(rd *Reader) (*Lookahead, error) {
	l := &Lookahead{rd: rd}
	return l, l.Advance()
}

// Advance reads the next record into Head; at the end More turns false.
func (l *Lookahead) Advance() error {
	rec, err := l.rd.Next()
	if errors.Is(err, io.EOF) {
		l.More = false
		return nil
	}
	if err != nil {
		return err
	}
	l.Head, l.More = rec, true
	return nil
}

// NextTick is the earliest tick at which a or b has a record next; ok is
// false when both have ended.
func NextTick(a, b *Lookahead) (t int64, ok bool) {
	switch {
	case !a.More && !b.More:
		return 0, false
	case !a.More || (b.More && b.Head.Tick < a.Head.Tick):
		return b.Head.Tick, true
	}
	return a.Head.Tick, true
}
