package page

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"github.com/chronicle/ladder/sim/trace"
)

// Input is one rung (or case) run, as the page needs it.
type Input struct {
	Name   string // "T2.1" or "T2.3/swapped": the section's name in links
	Title  string
	Source string // where the rung is defined, e.g. "fixtures/T2.1-spread.yaml:1"
	// Failures are the failure lines the gate printed for this rung, one
	// per line; none for a passing rung.
	Failures []string
	// Notes are other things the reader must know (a run that did not
	// complete, a missing golden), shown under the failures.
	Notes []string
	// Dense and Trace are the run's artifacts; nil when the run did not
	// complete.
	Dense, Trace []byte
	// GoldenDense and GoldenTrace are the committed goldens; nil when
	// missing.
	GoldenDense, GoldenTrace []byte
	// TraceFile is where the run's full trace was written, for the note
	// shown when the feed is capped.
	TraceFile string
	Engine    *Engine
}

// Options bound what one section embeds.
type Options struct {
	// MaxRecords caps the feed records one section embeds (0: the
	// default, DefaultMaxRecords). A run with more keeps a window of
	// ticks around its first divergence (or from its start) and says so.
	MaxRecords int
}

// DefaultMaxRecords keeps a section of a rung like T2.1 (about eight
// thousand encounters over ten days) whole, and a ten-times larger run
// within a few megabytes.
const DefaultMaxRecords = 20000

// Failure is one failure line and the tick it names (-1 when none).
type Failure struct {
	Text string
	Tick int64
}

// Window is the tick range whose feed records a section embeds.
type Window struct {
	From, To int64 // inclusive
	Capped   bool
	Dropped  int // records left out
	// Truncated is set when even the window's one tick had more records
	// than the cap: the tick's first MaxRecords records are kept.
	Truncated bool
}

// Section is the page model of one rung run: everything its section
// shows, before it is rendered.
type Section struct {
	Name, Title, Source string
	Failures            []Failure
	Notes               []string
	// Ticks are the run's ticks, one per dense row; empty when the run did
	// not complete.
	Ticks  []int64
	Actual *Tracks
	// Golden is the golden's tracks, kept for a failing rung only: the
	// curves and the belief table show it beside the actual run.
	Golden *Tracks
	// Diff is the dense change against the golden (failing rungs only).
	Diff *DenseDiff
	// Divergence is the earliest tick any evidence diverges at: the dense
	// CSV, the trace, or a failure line; -1 when none is known.
	Divergence     int64
	DivergenceWhat string
	Feed           []Record // the embedded records, in derivation order
	Window         Window
	// Counts are per tick: encounters met, encounters declined,
	// transmissions passed, transmissions declined, other records. They
	// cover every tick, embedded or not.
	Counts   map[int64][5]int
	Engine   *Engine
	Evidence map[[2]string][]Evidence // by (holder, claim), oldest first
}

// Failed reports whether the gate failed this rung.
func (s *Section) Failed() bool { return len(s.Failures) > 0 }

var tickRef = regexp.MustCompile(`\btick (\d+)\b`)

// Build makes a section's model from a run. A malformed actual artifact
// is an error; a malformed golden is a note (the overlay is left out).
func Build(in Input, opt Options) (*Section, error) {
	if opt.MaxRecords <= 0 {
		opt.MaxRecords = DefaultMaxRecords
	}
	s := &Section{Name: in.Name, Title: in.Title, Source: in.Source, Notes: slices.Clone(in.Notes), Divergence: -1, Engine: in.Engine}
	for _, f := range in.Failures {
		tick := int64(-1)
		if m := tickRef.FindStringSubmatch(f); m != nil {
			if t, err := strconv.ParseInt(m[1], 10, 64); err == nil {
				tick = t
			}
		}
		s.Failures = append(s.Failures, Failure{Text: f, Tick: tick})
	}
	if err := s.compare(in); err != nil {
		return nil, err
	}
	// The artifacts name what diverged; a failure line's tick only counts
	// when it is earlier (an expectation that failed before any golden).
	for _, f := range s.Failures {
		if f.Tick >= 0 {
			s.diverged(f.Tick, "failure: "+f.Text)
		}
	}
	if in.Trace != nil {
		all, err := parseTrace(in.Trace)
		if err != nil {
			return nil, fmt.Errorf("%s: trace.jsonl: %w", in.Name, err)
		}
		s.window(all, opt.MaxRecords, in.TraceFile)
	}
	s.evidence()
	return s, nil
}

// compare reads the actual dense CSV and, for a failing rung, compares the
// run with its goldens to find where it first diverges.
func (s *Section) compare(in Input) error {
	if in.Dense == nil {
		return nil
	}
	actual, err := parseDense(in.Dense)
	if err != nil {
		return fmt.Errorf("%s: dense.csv: %w", in.Name, err)
	}
	s.Ticks = actual.ticks
	if s.Actual, err = tracksOf(actual); err != nil {
		return fmt.Errorf("%s: dense.csv: %w", in.Name, err)
	}
	if s.Failed() && in.GoldenDense != nil {
		if err := s.overlay(actual, in.GoldenDense); err != nil {
			s.Notes = append(s.Notes, fmt.Sprintf("The golden dense.csv is not shown: %v.", err))
		}
	}
	if s.Failed() && in.GoldenTrace != nil && in.Trace != nil {
		if d := trace.Compare(in.GoldenTrace, in.Trace); d != nil {
			s.diverged(d.Tick, fmt.Sprintf("trace.jsonl: %s %s", d.Kind, d.Key))
		}
	}
	return nil
}

func (s *Section) overlay(actual *table, data []byte) error {
	golden, err := parseDense(data)
	if err != nil {
		return err
	}
	if s.Golden, err = tracksOf(golden); err != nil {
		return err
	}
	d := diffDense(golden, actual)
	s.Diff = &d
	if d.FirstTick >= 0 {
		s.diverged(d.FirstTick, fmt.Sprintf("dense.csv: column %q", d.FirstColumn))
	}
	return nil
}

// diverged records a divergence at tick when it is the earliest so far.
func (s *Section) diverged(tick int64, what string) {
	if s.Divergence < 0 || tick < s.Divergence {
		s.Divergence, s.DivergenceWhat = tick, what
	}
}

// window keeps the feed records of as many whole ticks as fit the cap,
// growing a range outwards from the first divergence (or from the first
// tick), and counts every tick's records.
func (s *Section) window(all []Record, limit int, traceFile string) {
	s.Counts = map[int64][5]int{}
	perTick := map[int64]int{}
	var ticks []int64
	for _, r := range all {
		c := s.Counts[r.Tick]
		switch {
		case r.Kind == KindEncounter && r.Fired:
			c[0]++
		case r.Kind == KindEncounter:
			c[1]++
		case r.Kind == KindTransmission && r.Fired:
			c[2]++
		case r.Kind == KindTransmission:
			c[3]++
		default:
			c[4]++
		}
		s.Counts[r.Tick] = c
		if perTick[r.Tick] == 0 {
			ticks = append(ticks, r.Tick)
		}
		perTick[r.Tick]++
	}
	if len(all) <= limit {
		s.Feed = all
		switch {
		case len(s.Ticks) > 0:
			s.Window = Window{From: s.Ticks[0], To: s.Ticks[len(s.Ticks)-1]}
		case len(ticks) > 0:
			s.Window = Window{From: ticks[0], To: ticks[len(ticks)-1]}
		}
		return
	}
	// ticks is ascending: the trace is in derivation order.
	center := 0
	if s.Divergence >= 0 {
		center, _ = slices.BinarySearch(ticks, s.Divergence)
		center = min(center, len(ticks)-1)
	}
	lo, hi, n := center, center, perTick[ticks[center]]
	for {
		grew := false
		if hi+1 < len(ticks) && n+perTick[ticks[hi+1]] <= limit {
			hi++
			n += perTick[ticks[hi]]
			grew = true
		}
		if lo > 0 && n+perTick[ticks[lo-1]] <= limit {
			lo--
			n += perTick[ticks[lo]]
			grew = true
		}
		if !grew {
			break
		}
	}
	w := Window{From: ticks[lo], To: ticks[hi], Capped: true}
	for _, r := range all {
		if r.Tick < w.From || r.Tick > w.To {
			continue
		}
		if len(s.Feed) == limit {
			w.Truncated = true
			break
		}
		s.Feed = append(s.Feed, r)
	}
	w.Dropped = len(all) - len(s.Feed)
	s.Window = w
	note := fmt.Sprintf("The feed is capped at %d records: it embeds ticks %d–%d (%d of %d records); other ticks show counts only.",
		limit, w.From, w.To, len(s.Feed), len(all))
	if w.Truncated {
		note += fmt.Sprintf(" Tick %d alone has more: only its first %d records are embedded.", w.From, limit)
	}
	if traceFile != "" {
		note += " The full trace is " + traceFile + "."
	}
	s.Notes = append(s.Notes, note)
}

// Evidence is one piece of a belief's evidence as the page shows it.
type Evidence struct {
	Tick       int64
	Type       string // "witnessed" or "reported"
	Chain      []string
	Via        string
	Variant    string
	Confidence string
	Counted    bool
}

func (s *Section) evidence() {
	if s.Engine == nil {
		return
	}
	s.Evidence = map[[2]string][]Evidence{}
	for _, b := range s.Engine.Beliefs {
		var out []Evidence
		for _, e := range b.Evidence {
			out = append(out, Evidence{
				Tick: e.Tick, Type: string(e.Type), Chain: slices.Clone(e.Chain), Via: e.Via,
				Variant: e.Variant, Confidence: formatFloat(e.Confidence), Counted: e.Counted,
			})
		}
		s.Evidence[[2]string{b.Holder, b.Claim}] = out
	}
}
