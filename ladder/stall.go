package ladder

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/chronicle/ladder/internal/frames"
	"github.com/chronicle/ladder/ladder/record"
)

// DefaultStall is how long a run may go without finishing a tick before
// the suite gives it up as hung. The slowest tick of any committed rung
// takes milliseconds (a tick of 20,000 NPCs, the most a fixture may
// hold, well under a second), under qemu-user emulation perhaps twenty
// times that, so a minute on one tick is a loop that does not end, not a
// slow machine. LADDER_STALL raises or lowers it (StallLimit).
const DefaultStall = time.Minute

// StallLimit is the stall limit the suite and the tools run with:
// LADDER_STALL (a Go duration: "90s", "10m") when it is set, else
// DefaultStall. A value that is not a positive duration is an error that
// names the variable, never a silent default.
func StallLimit() (time.Duration, error) {
	//determinism:environ the stall limit decides only when a hung run is given up, never a byte of what a run writes
	s, ok := os.LookupEnv("LADDER_STALL")
	if !ok || s == "" {
		return DefaultStall, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("LADDER_STALL=%q: want a positive duration such as 90s or 10m", s)
	}
	return d, nil
}

// StallError is a run given up because it finished no tick for Limit:
// the engine, or the ladder's path beside it, is in a loop that does not
// end. A goroutine cannot be stopped from outside, so the run is
// abandoned where it is — it still holds its half-written temporaries in
// the run's directory, and a core — and the process must end soon after;
// the suite stops the ladder there (a hung run is an engine bug, and
// every later run would likely hang the same way).
type StallError struct {
	Run string // the fixture's name
	// Tick is the tick the run was in when it was given up: the one
	// after the last it finished; -1 while the world was being built (or
	// a sweep's seed prepared).
	Tick int64
	// Seed is the seed id a sweep was running, "" for a rung.
	Seed string
	// Ticks is the run's length: a Tick equal to it was the end's work
	// (the artifacts finished, compared and sealed).
	Ticks int64
	Limit time.Duration
	// Where is the innermost frames in this module of the run's goroutine
	// when it was given up, innermost first, as
	// "sim/claims/transitions.go:38 claims.stageTimes": where the loop is.
	Where []string
}

func (e *StallError) Error() string { return e.Run + " " + e.What() }

// What is the error without the run's name, for a line that names it
// already.
func (e *StallError) What() string {
	where := fmt.Sprintf("in tick %d", e.Tick)
	switch {
	case e.Tick < 0:
		where = "before tick 0 (building the world)"
	case e.Tick >= e.Ticks && e.Seed == "":
		where = fmt.Sprintf("after its last tick (%d), finishing its artifacts", e.Ticks-1)
	}
	if e.Seed != "" {
		where += " of seed " + e.Seed
	}
	at := "no frame in the module"
	if len(e.Where) > 0 {
		at = strings.Join(e.Where, " ← ")
	}
	return fmt.Sprintf("made no progress for %s %s, at %s: a loop that does not end, in the engine or the ladder's path; the run was abandoned there (LADDER_STALL raises the limit for a slow machine)",
		e.Limit, where, at)
}

// watched runs run on its own goroutine and returns what it returns, or
// a *StallError once p has not moved for limit. A panic on run's
// goroutine is raised again on the caller's, with run's stack, so it
// fails the caller (a Ginkgo spec) instead of killing the process.
func watched(name string, ticks int64, limit time.Duration, p *record.Progress, run func() (*Result, error)) (*Result, error) {
	type outcome struct {
		res      *Result
		err      error
		panicked any
		stack    []byte
	}
	done := make(chan outcome, 1) // buffered: an abandoned run's send never blocks
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- outcome{panicked: r, stack: debug.Stack()}
			}
		}()
		res, err := run()
		done <- outcome{res: res, err: err}
	}()
	//determinism:wallclock the watchdog decides only whether a run is abandoned as hung; a watched run writes byte for byte what an unwatched one does
	poll := time.NewTicker(min(limit/4, time.Second))
	defer poll.Stop()
	last, since := p.Steps(), time.Now() //determinism:wallclock as above: when the last tick finished, for the stall limit
	for {
		select {
		case o := <-done:
			if o.panicked != nil {
				panic(fmt.Sprintf("%s: %v\n\n%s", name, o.panicked, o.stack))
			}
			return o.res, o.err
		case now := <-poll.C:
			if n := p.Steps(); n != last {
				last, since = n, now
				continue
			}
			if now.Sub(since) < limit {
				continue
			}
			e := &StallError{Run: name, Tick: p.Tick(), Ticks: ticks, Limit: limit, Where: hangFrames()}
			e.Seed = p.Seed()
			return nil, e
		}
	}
}

// hangFrames returns up to eight frames in the module of the goroutine
// watched started, innermost first, read from a dump of every goroutine's
// stack (the runtime stops them all to take it, a loop without calls
// included). It is called once, when a run is given up; nil when that
// goroutine is not found.
func hangFrames() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	for _, g := range strings.Split(string(buf), "\n\n") {
		if !strings.Contains(g, "created by "+frames.Module+"ladder.watched") {
			continue
		}
		// After the "goroutine N [status]:" line, each frame is two lines:
		// the function with its arguments, then its file:line.
		lines := strings.Split(g, "\n")[1:]
		var out []string
		for i := 0; i+1 < len(lines) && len(out) < 8; i += 2 {
			fn, file := lines[i], strings.TrimSpace(lines[i+1])
			if j := strings.LastIndexByte(fn, '('); j > 0 {
				fn = fn[:j] // its arguments
			}
			if j := strings.LastIndexByte(file, ' '); j > 0 {
				file = file[:j] // " +0x1f"
			}
			if name, ok := frames.Name(fn, file); ok {
				out = append(out, name)
			}
		}
		return out
	}
	return nil
}
