package artifact

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/chronicle/ladder/sim/trace"
)

// TraceFollower reads a golden trace alongside a trace whose lines arrive
// one at a time, and names their first divergence exactly as
// trace.Compare names it for the two whole files. It holds one golden
// line at a time (and the first pair that differs).
//
// Given a cut (NewTraceFollowerCut), the golden is another run's trace
// read only up to a tick: its header and the records before the cut, which
// must be lines of JSON with a tick and a newline each. A golden that
// breaks that rule is Finish's error, like a golden that cannot be read.
type TraceFollower struct {
	r     *bufio.Reader
	buf   []byte
	lines int   // actual lines seen
	read  int   // golden lines read
	cut   int64 // -1: none
	ended bool  // the golden (or its part before the cut) has ended
	err   error
	d     *trace.Divergence
	// facts are what each side's records leave out, read from its header
	// (the first line of each), so a divergence names facts.
	goldenFacts, actualFacts trace.Facts
}

// NewTraceFollower follows the whole of golden.
func NewTraceFollower(golden io.Reader) *TraceFollower {
	return &TraceFollower{r: bufio.NewReaderSize(golden, 64<<10), cut: -1}
}

// NewTraceFollowerCut follows golden's header and its records before tick
// cut.
func NewTraceFollowerCut(golden io.Reader, cut int64) *TraceFollower {
	return &TraceFollower{r: bufio.NewReaderSize(golden, 64<<10), cut: cut}
}

// next reads the golden's next line (with its newline when it has one),
// valid until the following call; nil when the golden has ended. A line
// that fits the reader's buffer is returned where the reader holds it,
// not copied: that is every line of a trace but an extraordinary one.
//
// A longer line (a city's keyframe: megabytes) is compared with want, the
// line it is to be compared with, a piece at a time as the reader holds
// it, and is returned as want's bytes while it is the same: only a line
// that differs from want is copied whole (to buf). Held whole, a
// keyframe's golden line kept a buffer of its size all run.
func (t *TraceFollower) next(want []byte) []byte {
	if t.ended || t.err != nil {
		return nil
	}
	line, err := t.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		same, copied := 0, false // want[:same] is the line so far, until it is copied
		for {
			switch {
			case copied:
				t.buf = append(t.buf, line...)
			case bytes.HasPrefix(want[same:], line):
				same += len(line)
			default:
				t.buf = append(append(t.buf[:0], want[:same]...), line...)
				copied = true
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
			line, err = t.r.ReadSlice('\n')
		}
		line = want[:same]
		if copied {
			line = t.buf
		}
	}
	if err != nil && !errors.Is(err, io.EOF) {
		t.err = err
		return nil
	}
	t.read++
	n := t.read // this line's number
	if len(line) == 0 {
		if t.cut >= 0 && n == 1 {
			t.err = errors.New("no header line")
		}
		t.ended = true
		return nil
	}
	if t.cut < 0 {
		if n == 1 {
			t.goldenFacts = trace.HeaderFacts(line)
		}
		return line
	}
	switch {
	case line[len(line)-1] != '\n' && n == 1:
		t.err = errors.New("no header line")
	case line[len(line)-1] != '\n':
		t.err = fmt.Errorf("line %d: no final newline", n)
	case n == 1:
		t.goldenFacts = trace.HeaderFacts(line)
		return line
	default:
		var rec struct {
			Tick *int64 `json:"tick"`
		}
		if err := json.Unmarshal(line, &rec); err != nil || rec.Tick == nil {
			t.err = fmt.Errorf("line %d: not a trace record with a tick", n)
		} else if *rec.Tick >= t.cut {
			t.ended = true
		} else {
			return line
		}
	}
	return nil
}

// Line compares the next line of the followed trace, newline included.
func (t *TraceFollower) Line(line []byte) {
	if t.lines == 0 {
		t.actualFacts = trace.HeaderFacts(line)
	}
	if t.d == nil && t.err == nil {
		if g := t.next(line); t.err == nil && !bytes.Equal(g, line) {
			t.diverged(g, line)
		}
	}
	t.lines++
}

func (t *TraceFollower) diverged(golden, actual []byte) {
	t.d = trace.CompareFacts(golden, actual, t.goldenFacts, t.actualFacts)
	t.d.Line = t.lines + 1
}

// Finish reads what is left of the golden and returns the first
// divergence, nil when the two traces are identical (up to the cut); an
// error means the golden could not be read (or, cut, is not a trace).
func (t *TraceFollower) Finish() (*trace.Divergence, error) {
	if t.d == nil && t.err == nil {
		if g := t.next(nil); g != nil {
			t.diverged(g, nil)
		}
	}
	for t.cut >= 0 && t.err == nil && t.next(nil) != nil {
		// The rest of a cut golden, up to the cut, must still be a trace.
	}
	if t.err != nil {
		return nil, t.err
	}
	return t.d, nil
}

// CompareTraceFiles is trace.Compare for two files, read in chunks and
// lines: nil when they are identical.
func CompareTraceFiles(golden, actual string) (*trace.Divergence, error) {
	return CompareFiles(golden, actual, CompareTraces)
}

// CompareTraces is trace.Compare for two traces read a line at a time.
func CompareTraces(golden, actual io.Reader) (*trace.Divergence, error) {
	f := NewTraceFollower(golden)
	if err := Lines(actual, func(line []byte) bool { f.Line(line); return false }); err != nil {
		return nil, err
	}
	return f.Finish()
}

// Lines calls fn with each line of r, its newline included when it has
// one, until fn returns true or r ends. A line is valid only during fn.
func Lines(r io.Reader, fn func(line []byte) (stop bool)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	for {
		line = line[:0]
		for {
			part, err := br.ReadSlice('\n')
			line = append(line, part...)
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return err
			}
			break
		}
		if len(line) == 0 || fn(line) {
			return nil
		}
	}
}
