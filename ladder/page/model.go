package page

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/ladder/lineage"
	"github.com/chronicle/ladder/ladder/whynot"
)

// Input is one rung (or case) run, as the page needs it.
type Input struct {
	Name   string // "T2.1" or "T2.3/swapped": the section's name in links
	Tier   string // "0" … "6", "4a": the overview sorts failures by it
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
	Dense, Trace Artifact
	// GoldenDense and GoldenTrace are the committed goldens; nil when
	// missing.
	GoldenDense, GoldenTrace Artifact
	// Commands is the tail every failure line ends with (how to
	// reproduce and regenerate the rung): the section shows it once and
	// the lines without it.
	Commands string
	// TraceFile is where the run's full trace was written, for the note
	// shown when the feed is capped.
	TraceFile string
	// Locations are the fixture's, for the map (nil: no map).
	Locations []Location
	// Partners are other runs to compare this one with, beside its
	// golden.
	Partners []Partner
	// Sweep is a sweep rung's summary, instead of a run to scrub through.
	Sweep *SweepInput
	// MaxRecords, when positive, caps this section's feed below
	// Options.MaxRecords: a section shown for a look around (a sweep's
	// seed world) embeds fewer records than a failing rung.
	MaxRecords int
	// WhyNot is what the fixture says and the run's files do not (holds,
	// schedules), for the section's "why not?" answers; nil for none.
	// Events is the run's canonical log, which names the dead in them;
	// nil when the run left none.
	WhyNot *whynot.World
	Events Artifact
}

// Options bound what one section embeds.
type Options struct {
	// MaxRecords caps the feed records one section embeds (0: the
	// default, DefaultMaxRecords). A run with more keeps a window of
	// ticks around its first divergence (or from its start) and says so.
	MaxRecords int
	// MaxRows caps the dense rows whose belief table the section embeds
	// (0: DefaultMaxRows). A longer run embeds that many ticks around its
	// first divergence (or from its start); its curves still cover the
	// whole run.
	MaxRows int
	// CurvePoints is how many stretches of ticks a believer curve is
	// sampled in when the run has more rows (0: DefaultCurvePoints).
	CurvePoints int
	// MaxCompareBytes bounds the traces aligned roll by roll for a
	// comparison (0: DefaultMaxCompareBytes).
	MaxCompareBytes int64
	// MaxStrengths bounds the belief-ticks of memory strengths a section
	// embeds (0: DefaultMaxStrengths): a run with more keeps a window of
	// ticks around the one it opens at.
	MaxStrengths int
	// MaxWhyNot bounds the bytes of why-not answers a section embeds (0:
	// DefaultMaxWhyNot): a run with more keeps the ticks around the one it
	// opens at, and says so.
	MaxWhyNot int
	// MaxSectionBytes bounds one section's embedded data, and
	// MaxPageBytes all sections' together (0: DefaultMaxSectionBytes,
	// DefaultMaxPageBytes): a section past either is shown bare, its
	// failure lines and a note (Render).
	MaxSectionBytes int
	MaxPageBytes    int
}

// DefaultMaxSectionBytes is eight times today's largest section (T2.8's
// seed world of a thousand NPCs, 1.2 MB): every bound of Build together
// keeps a section within a few megabytes, so a section past it is a run
// no bound foresaw.
const DefaultMaxSectionBytes = 8 << 20

// DefaultMaxPageBytes is eight times today's whole page (about 8 MB for
// a hundred sections): a page a browser still opens in seconds, where a
// run of raised budgets once wrote 311 MB.
const DefaultMaxPageBytes = 64 << 20

// DefaultMaxRecords keeps a section of a rung like T2.1 (about eight
// thousand encounters over ten days) whole, and a ten-times larger run
// within a few megabytes.
const DefaultMaxRecords = 20000

// DefaultMaxRows keeps every rung of today's ladder whole (the longest,
// T2.5, has 2,160 rows) and a million-tick run's section small.
const DefaultMaxRows = 20000

// DefaultCurvePoints is finer than the curves' 596 pixels.
const DefaultCurvePoints = 2000

// Failure is one failure line as the section shows it: the gate's line
// without the commands and the page link it ends with, the tick it names
// (-1 when none), and where its link goes (the line's own page link when
// it has one; else the section at Tick).
type Failure struct {
	Text string
	Tick int64
	Link State
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

// Rows are the dense rows of a run and those a section embeds.
type Rows struct {
	First, Last int64 // the run's first and last tick
	N           int   // rows in the run
	// From and To are the ticks the belief table and the scrubber cover:
	// First and Last unless Capped.
	From, To int64
	Capped   bool
	// Sample is how many ticks each point of a believer curve covers (1:
	// every change is a point).
	Sample int64
}

// Section is the page model of one rung run: everything its section
// shows, before it is rendered.
type Section struct {
	Name, Tier, Title, Source string
	Failures                  []Failure
	Commands                  string // shown once, under the failure lines
	Notes                     []string
	// Rows are the run's dense rows; N is 0 when the run did not
	// complete.
	Rows   Rows
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
	// cover every tick of Rows.From–Rows.To, embedded or not.
	Counts map[int64][5]int
	// Lineage is the run's claims, variants, contests and evidence, read
	// from its trace (nil when it could not be: a note says why);
	// GoldenLineage the golden's, for a failing run's tree beside it.
	Lineage, GoldenLineage *lineage.Lineage
	Evidence               map[[2]string][]Evidence // by (holder, claim), oldest first
	// Social are the trace records that changed social state, in
	// derivation order: every one within Rows.From–Rows.To, and before
	// that the last of each record (SocialAt reads them).
	Social []SocialChange
	// Map is the rumour map (nil when the input names no locations).
	Map *MapView
	// Others are the second timelines: the golden of a failing run
	// (first, when there is one) and the partner runs.
	Others []Other
	// Dents are the contests' effect on the winner's confidence, by
	// dentKey(tick, holder/claim), within the embedded rows.
	Dents map[string]Dent
	// Sweep is a sweep rung's bounds and per-seed aggregates.
	Sweep *SweepView
	// Strengths are the beliefs' verbatim and gist over a window of the
	// embedded rows (nil: the run has no beliefs).
	Strengths *Strengths
	// WhyNot is why each NPC does not hold each claim, at the embedded
	// ticks (nil when the input asks for none).
	WhyNot *WhyNot
}

// failure reads one line the gate printed for the rung: it drops the
// " (page: …)" link the line ends with, keeping where it goes, and the
// commands before it.
func failure(name, line, commands string) Failure {
	f := Failure{Text: line, Tick: -1}
	if i := strings.LastIndex(f.Text, pageLinkPrefix); i >= 0 && strings.HasSuffix(f.Text, ")") {
		if st, err := ParseFragment(f.Text[i+len(pageLinkPrefix) : len(f.Text)-1]); err == nil && st.Name == name {
			f.Text, f.Link = f.Text[:i], st
		}
	}
	if commands != "" {
		f.Text = strings.TrimSuffix(strings.TrimSuffix(f.Text, commands), " ")
	}
	if m := tickRef.FindStringSubmatch(f.Text); m != nil {
		if t, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			f.Tick = t
		}
	}
	if f.Link.Name == "" {
		f.Link = State{Name: name, Tick: f.Tick}
	}
	return f
}

// pageLinkPrefix starts the page link a failure line ends with:
// " (page: reports/index.html#T2.1@44)".
const pageLinkPrefix = " (page: " + File + "#"

// Failed reports whether the gate failed this rung.
func (s *Section) Failed() bool { return len(s.Failures) > 0 }

var tickRef = regexp.MustCompile(`\btick (\d+)\b`)

// Build makes a section's model from a run, reading its artifacts a row
// or a record at a time: the dense CSV twice (curves and the change
// against the golden over the whole run, then the belief table over the
// embedded rows), the trace once or twice (counts, then the feed's
// window), and never a whole file. A malformed actual artifact is an
// error; a malformed golden is a note (the overlay is left out).
func Build(in Input, opt Options) (*Section, error) {
	if opt.MaxRecords <= 0 {
		opt.MaxRecords = DefaultMaxRecords
	}
	if opt.MaxRows <= 0 {
		opt.MaxRows = DefaultMaxRows
	}
	if opt.CurvePoints <= 0 {
		opt.CurvePoints = DefaultCurvePoints
	}
	if opt.MaxCompareBytes <= 0 {
		opt.MaxCompareBytes = DefaultMaxCompareBytes
	}
	if opt.MaxWhyNot <= 0 {
		opt.MaxWhyNot = DefaultMaxWhyNot
	}
	if opt.MaxStrengths <= 0 {
		opt.MaxStrengths = DefaultMaxStrengths
	}
	if in.MaxRecords > 0 {
		opt.MaxRecords = min(opt.MaxRecords, in.MaxRecords)
	}
	s := &Section{Name: in.Name, Tier: in.Tier, Title: in.Title, Source: in.Source, Notes: slices.Clone(in.Notes), Divergence: -1,
		Commands: in.Commands}
	for _, f := range in.Failures {
		s.Failures = append(s.Failures, failure(in.Name, f, in.Commands))
	}
	if in.Sweep != nil {
		sv, err := BuildSweep(in.Sweep)
		if err != nil {
			s.Notes = append(s.Notes, fmt.Sprintf("The sweep's summary could not be read: %v.", err))
		}
		s.Sweep = sv
	}
	golden, err := s.compare(in, opt)
	if err != nil {
		return nil, err
	}
	s.lineages(in)
	// The artifacts name what diverged; a failure line's tick only counts
	// when it is earlier (an expectation that failed before any golden).
	for _, f := range s.Failures {
		if f.Tick >= 0 {
			s.diverged(f.Tick, "failure: "+f.Text)
		}
	}
	if in.Dense != nil {
		if err := s.track(in.Dense, golden, opt); err != nil {
			return nil, fmt.Errorf("%s: dense.csv: %w", in.Name, err)
		}
	}
	if in.Trace != nil {
		if err := s.feed(in.Trace, opt.MaxRecords, in.TraceFile); err != nil {
			return nil, fmt.Errorf("%s: trace.jsonl: %w", in.Name, err)
		}
		if err := s.others(in, opt); err != nil {
			return nil, err
		}
	}
	// A second pass over the dense file, for the memory strengths: their
	// window is centred on the tick the section opens at, which only the
	// divergence found above decides. It stops past the window.
	if in.Dense != nil && s.Rows.N > 0 {
		if err := s.strengths(in.Dense, opt.MaxStrengths); err != nil {
			return nil, fmt.Errorf("%s: dense.csv: strengths: %w", in.Name, err)
		}
	}
	if s.Actual != nil {
		s.Map = buildMap(in.Locations, s.Actual.NPCs)
	}
	s.evidence()
	if err := s.whyNot(in, opt); err != nil {
		s.WhyNot = nil
		s.Notes = append(s.Notes, fmt.Sprintf("The why-not answers could not be made from the run's files: %v.", err))
	}
	return s, nil
}

// lineages reads the variant tree, contests and evidence from the run's
// trace, and for a failing run the golden's from the golden trace. A
// trace they cannot be read from is a note, not an error: the rest of the
// section stands without them.
func (s *Section) lineages(in Input) {
	if in.Trace != nil {
		l, err := readLineage(in.Trace)
		if err != nil {
			s.Notes = append(s.Notes, fmt.Sprintf("The variant tree and contests are not shown: trace.jsonl: %v.", err))
		}
		s.Lineage = l
	}
	if in.GoldenTrace != nil && s.Failed() {
		l, err := readLineage(in.GoldenTrace)
		if err != nil {
			s.Notes = append(s.Notes, fmt.Sprintf("The golden's variant tree is not shown: its trace.jsonl: %v.", err))
		}
		s.GoldenLineage = l
	}
}

// others reads the second timelines over the embedded window: the
// golden's feed for a failing run, and each partner's beliefs, feed and
// comparison.
func (s *Section) others(in Input, opt Options) error {
	for i := range s.Others {
		o := &s.Others[i]
		if o.Name != "golden" || in.GoldenTrace == nil {
			continue
		}
		o.Tracks = s.Golden
		feed, err := otherFeed(in.GoldenTrace, s.Window, opt.MaxRecords)
		if err != nil {
			s.Notes = append(s.Notes, fmt.Sprintf("The golden trace.jsonl's records are not shown: %v.", err))
			continue
		}
		o.Feed = feed
	}
	for _, p := range in.Partners {
		o := Other{Name: p.Name}
		if p.Trace == nil || p.Dense == nil {
			// A partner run that left no files (it aborted before
			// writing them, or a caller passed none) has nothing to set
			// beside this one.
			s.Notes = append(s.Notes, fmt.Sprintf("%s is not compared with %s: %s has no trace.jsonl and dense.csv to read.", in.Name, p.Name, p.Name))
			continue
		}
		c, err := compareRuns(p.Name, p.Trace, in.Trace, in.Name, opt.MaxCompareBytes)
		if err != nil {
			s.Notes = append(s.Notes, fmt.Sprintf("%s could not be compared with %s: %v.", in.Name, p.Name, err))
			continue
		}
		o.Cmp = c
		if o.Tracks, err = readTracks(p.Dense, s.Rows.From, s.Rows.To); err != nil {
			s.Notes = append(s.Notes, fmt.Sprintf("%s's dense.csv is not shown beside %s: %v.", p.Name, in.Name, err))
			continue
		}
		if o.Feed, err = otherFeed(p.Trace, s.Window, opt.MaxRecords); err != nil {
			s.Notes = append(s.Notes, fmt.Sprintf("%s's trace.jsonl is not shown beside %s: %v.", p.Name, in.Name, err))
			continue
		}
		s.Others = append(s.Others, o)
	}
	return nil
}

// compare reads the actual dense CSV once, for its rows and believer
// curves, and — for a failing rung — compares the run with its goldens to
// find where it first diverges. It returns the golden dense CSV when it
// is to be overlaid.
func (s *Section) compare(in Input, opt Options) (Artifact, error) {
	var overlay Artifact
	if in.Dense != nil {
		golden := in.GoldenDense
		if !s.Failed() {
			golden = nil
		}
		var err error
		if overlay, err = s.scan(in.Dense, golden, opt); err != nil {
			return nil, fmt.Errorf("%s: dense.csv: %w", in.Name, err)
		}
	}
	if s.Failed() && in.GoldenTrace != nil && in.Trace != nil {
		c, err := compareRuns("golden", in.GoldenTrace, in.Trace, in.Name, opt.MaxCompareBytes)
		switch {
		case err != nil:
			s.Notes = append(s.Notes, fmt.Sprintf("The golden trace.jsonl could not be compared: %v.", err))
		default:
			s.Others = append(s.Others, Other{Name: "golden", Cmp: c})
			if d := c.FirstRecord; d != nil {
				s.diverged(d.Tick, fmt.Sprintf("trace.jsonl: %s %s", d.Kind, d.Key))
			}
		}
	}
	return overlay, nil
}

// scan is the first pass over the dense CSV (and the golden's, given one):
// the run's rows, every believer curve, and the change against the
// golden. It returns golden when the golden could be read throughout.
func (s *Section) scan(actual, golden Artifact, opt Options) (Artifact, error) {
	n, err := countRows(actual)
	if err != nil {
		return nil, err
	}
	sample := int64(1)
	if n > opt.CurvePoints {
		sample = int64((n + opt.CurvePoints - 1) / opt.CurvePoints)
	}
	a, err := openDense(actual)
	if err != nil {
		return nil, err
	}
	defer a.close()
	ca := newCurves(columnsOf(a.cols).claims, sample)
	var g *denseReader
	if golden != nil {
		if g, err = openDense(golden); err != nil {
			s.Notes = append(s.Notes, fmt.Sprintf("The golden dense.csv is not shown: %v.", err))
			g, golden = nil, nil
		} else {
			defer g.close()
		}
	}
	var cg *curveSampler
	var diff *differ
	rowsDiffer := false
	onGolden := func() error { return nil }
	both := func() {}
	if g != nil {
		cg = newCurves(columnsOf(g.cols).claims, sample)
		diff = newDiffer(g, a)
		onGolden = func() error {
			if g.tick != a.tick || a.rows == 0 {
				rowsDiffer = true
			}
			firstValue(g, diff.d.Removed, diff.firstRemoved)
			return cg.row(g)
		}
		both = diff.common
	}
	onActual := func() error {
		if a.rows == 1 {
			s.Rows.First = a.tick
		}
		s.Rows.Last = a.tick
		if diff != nil {
			firstValue(a, diff.d.Added, diff.firstAdded)
		}
		return ca.row(a)
	}
	goldenErr, err := merge(a, g, onActual, onGolden, both)
	if err != nil {
		return nil, err
	}
	s.Rows.N, s.Rows.Sample = a.rows, sample
	s.Rows.From, s.Rows.To = s.Rows.First, s.Rows.Last
	s.Actual = &Tracks{Believers: ca.done()}
	if g == nil {
		return nil, nil
	}
	if goldenErr != nil {
		s.Notes = append(s.Notes, fmt.Sprintf("The golden dense.csv is not shown: %v.", goldenErr))
		return nil, nil
	}
	s.Golden = &Tracks{Believers: cg.done()}
	d := diff.done()
	d.RowsDiffer = rowsDiffer || g.rows != a.rows
	s.Diff = &d
	if d.FirstTick >= 0 {
		s.diverged(d.FirstTick, fmt.Sprintf("dense.csv: column %q", d.FirstColumn))
	}
	return golden, nil
}

// track is the second pass over the dense CSV (and the overlaid golden):
// NPC presence and belief states over the rows the section embeds, a
// window of opt.MaxRows around the first divergence when the run is
// longer.
func (s *Section) track(actual, golden Artifact, opt Options) error {
	r := &s.Rows
	if r.N > opt.MaxRows {
		center := r.First
		if s.Divergence >= r.First && s.Divergence <= r.Last {
			center = s.Divergence
		}
		r.From = max(r.First, center-int64(opt.MaxRows/2))
		r.To = min(r.Last, r.From+int64(opt.MaxRows)-1)
		r.From = max(r.First, r.To-int64(opt.MaxRows)+1)
		r.Capped = true
		s.Notes = append(s.Notes, fmt.Sprintf("The run has %d rows: the belief table and the feed cover ticks %d–%d; "+
			"the curves cover the whole run, each point the most believers in %d ticks.", r.N, r.From, r.To, r.Sample))
	}
	believers := s.Actual.Believers
	tracks, err := readTracks(actual, r.From, r.To)
	if err != nil {
		return err
	}
	s.Actual = tracks
	s.Actual.Believers = believers
	if golden != nil {
		believers := s.Golden.Believers
		tracks, err := readTracks(golden, r.From, r.To)
		if err != nil {
			return fmt.Errorf("golden: %w", err)
		}
		s.Golden = tracks
		s.Golden.Believers = believers
	}
	return nil
}

// readTracks reads one dense file's rows from tick from to tick to.
func readTracks(src Artifact, from, to int64) (*Tracks, error) {
	d, err := openDense(src)
	if err != nil {
		return nil, err
	}
	defer d.close()
	t := newTracker(columnsOf(d.cols), from, to)
	for {
		ok, err := d.next()
		if err != nil {
			return nil, err
		}
		if !ok || d.tick > to {
			return t.done(), nil
		}
		t.row(d)
	}
}

// diverged records a divergence at tick when it is the earliest so far.
func (s *Section) diverged(tick int64, what string) {
	if s.Divergence < 0 || tick < s.Divergence {
		s.Divergence, s.DivergenceWhat = tick, what
	}
}

// feed keeps the feed records of as many whole ticks as fit the cap,
// growing a range outwards from the first divergence (or from the first
// tick) within the embedded rows, and counts every such tick's records.
// It reads the trace once when the records fit, twice when they do not,
// and stops each time past the last embedded tick.
func (s *Section) feed(src Artifact, limit int, traceFile string) error {
	s.Counts = map[int64][5]int{}
	perTick := map[int64]int{}
	var ticks []int64
	var kept []Record
	total := 0
	social := newSocialCollector(s.Rows.From, s.offender)
	err := eachLine(src, func(h head, decode func() (*traceLine, error)) (bool, error) {
		in, past := s.within(h.Tick)
		if past {
			return true, nil
		}
		// What last touched a social record may lie before the window:
		// the collector sees every record up to its end.
		if err := social.see(h, decode); err != nil {
			return true, err
		}
		if h.Kind == string(KindRule) && h.Rule == "variant-resolution" && h.Fired {
			if err := s.dent(h, decode); err != nil {
				return true, err
			}
		}
		if !in || !shown(h.Kind) {
			return false, nil
		}
		c := s.Counts[h.Tick]
		switch {
		case h.Kind == string(KindEncounter) && h.Fired:
			c[0]++
		case h.Kind == string(KindEncounter):
			c[1]++
		case h.Kind == string(KindTransmission) && h.Fired:
			c[2]++
		case h.Kind == string(KindTransmission):
			c[3]++
		default:
			c[4]++
		}
		s.Counts[h.Tick] = c
		if perTick[h.Tick] == 0 {
			ticks = append(ticks, h.Tick)
		}
		perTick[h.Tick]++
		total++
		if total > limit {
			kept = nil
			return false, nil
		}
		r, err := record(decode)
		kept = append(kept, r)
		return false, err
	})
	if err != nil {
		return err
	}
	s.Social = social.done()
	if total <= limit {
		s.Feed = kept
		switch {
		case s.Rows.N > 0:
			s.Window = Window{From: s.Rows.From, To: s.Rows.To}
		case len(ticks) > 0:
			s.Window = Window{From: ticks[0], To: ticks[len(ticks)-1]}
		}
		return nil
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
	err = eachLine(src, func(h head, decode func() (*traceLine, error)) (bool, error) {
		switch {
		case h.Tick > w.To:
			return true, nil
		case h.Tick < w.From || !shown(h.Kind):
			return false, nil
		case len(s.Feed) == limit:
			w.Truncated = true
			return false, nil
		}
		r, err := record(decode)
		s.Feed = append(s.Feed, r)
		return false, err
	})
	if err != nil {
		return err
	}
	w.Dropped = total - len(s.Feed)
	s.Window = w
	note := fmt.Sprintf("The feed is capped at %d records: it embeds ticks %d–%d (%d of %d records); other ticks show counts only.",
		limit, w.From, w.To, len(s.Feed), total)
	if w.Truncated {
		note += fmt.Sprintf(" Tick %d alone has more: only its first %d records are embedded.", w.From, limit)
	}
	if traceFile != "" {
		note += " The full trace is " + traceFile + "."
	}
	s.Notes = append(s.Notes, note)
	return nil
}

// dent keeps what a contest did to the winner's confidence, from its
// variant-resolution evaluation (values before and after).
func (s *Section) dent(h head, decode func() (*traceLine, error)) error {
	l, err := decode()
	if err != nil {
		return err
	}
	vals, err := values(l.Values)
	if err != nil {
		return err
	}
	d := Dent{Reason: l.Reason}
	for i := 0; i+1 < len(vals); i += 2 {
		switch vals[i] {
		case "before":
			d.Before = vals[i+1]
		case "after":
			d.After = vals[i+1]
		}
	}
	if s.Dents == nil {
		s.Dents = map[string]Dent{}
	}
	s.Dents[dentKey(h.Tick, l.Subject)] = d
	return nil
}

// within says whether a record of tick t is in the embedded rows, and
// whether every later one is past them.
func (s *Section) within(t int64) (in, past bool) {
	if s.Rows.N == 0 {
		return true, false
	}
	return t >= s.Rows.From && t <= s.Rows.To, t > s.Rows.To
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
	if s.Lineage == nil {
		return
	}
	s.Evidence = map[[2]string][]Evidence{}
	for _, b := range s.Lineage.Beliefs {
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
