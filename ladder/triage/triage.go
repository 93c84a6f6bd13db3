package triage

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/compare"
	"github.com/chronicle/ladder/sim/trace"
)

// Change is how one record differs between the golden and the run.
type Change int

// The changes, in the order a summary counts them.
const (
	Moved    Change = iota // the same record, a value moved
	Flipped                // the same record, a decision moved (fired, reason)
	Appeared               // a record only the run has
	Vanished               // a record only the golden has
	Renamed                // the same record under another id
)

var changeNames = [...]string{"moved", "flipped", "appeared", "vanished", "renamed"}

func (c Change) String() string { return changeNames[c] }

// decisions are the fields whose change is a decision taken otherwise,
// not a number moved: whether a rule, an encounter or a retelling fired,
// and why it declined (isDecision adds a roll drawn on one side only).
var decisions = []string{"fired", "reason"}

// Difference is one record that is not the same in both traces.
type Difference struct {
	Change Change
	Tick   int64
	Kind   string
	// Key is what the record is about (trace.RecordKey, quoted): the
	// golden's, or the run's for a record that appeared; NewKey is the
	// run's for a renamed record.
	Key, NewKey string
	// Line is the record's line in the run's trace (the golden's for a
	// record that vanished), the header being line 1; Seq its seq there,
	// -1 for a record that vanished.
	Line int
	Seq  int64
	// Rule is the rule the record names, when it names one.
	Rule string
	// Field is the first field that differs, with both values (compact
	// JSON), for a record that moved, flipped or was renamed.
	Field, Golden, Actual string
	// More counts the other fields that differ.
	More int
	pos  int // place in its tick, for ordering
}

// Report is how a run's trace compares with its golden.
type Report struct {
	// Count counts the differences of each change; First keeps the
	// earliest of each, Earliest the earliest of all (nil when the traces
	// agree record for record).
	Count    [5]int
	First    [5]*Difference
	Earliest *Difference
	// Layer is the section of state (beliefs, grudges, …) where the
	// earliest differing keyframe first differs, at LayerTick; "" when
	// every keyframe agrees.
	Layer     string
	LayerTick int64
}

// Class is a run's drift, from its trace alone.
type Class int

// The classes. Input drift (a define or the fixture moved) is the
// ladder's to say: the trace does not record the inputs.
const (
	NoDrift Class = iota
	ValueDrift
	ControlFlowDrift
	IdentityDrift
)

var classNames = [...]string{"no trace drift", "value drift", "control-flow drift", "identity drift"}

func (c Class) String() string { return classNames[c] }

// Class classifies the run by its earliest change that is not a value:
// identity drift when it is a record renamed (an id moved and nothing
// else), control-flow drift when it is a decision that flipped or a
// record that appeared or vanished; value drift when only values moved.
// Renamed records after a flipped decision are its consequences — an id
// naming the tick of an event that happened at another tick — so they do
// not make the run identity drift.
func (r *Report) Class() Class {
	switch d := earliest(r.First[Renamed], r.FirstControlFlow()); {
	case d != nil && d.Change == Renamed:
		return IdentityDrift
	case d != nil:
		return ControlFlowDrift
	case r.Count[Moved] > 0:
		return ValueDrift
	}
	return NoDrift
}

// FirstControlFlow is the earliest decision that flipped or record that
// appeared or vanished; nil when there is none.
func (r *Report) FirstControlFlow() *Difference {
	return earliest(r.First[Flipped], r.First[Appeared], r.First[Vanished])
}

func earliest(ds ...*Difference) *Difference {
	var out *Difference
	for _, d := range ds {
		if d != nil && (out == nil || before(d, out)) {
			out = d
		}
	}
	return out
}

func before(a, b *Difference) bool {
	return cmp.Or(cmp.Compare(a.Tick, b.Tick), cmp.Compare(a.pos, b.pos)) < 0
}

// Align compares a golden trace with a run's, both read once as streams.
func Align(golden, actual io.Reader) (*Report, error) {
	return alignBefore(golden, actual, math.MaxInt64)
}

// AlignFilesBefore is AlignFiles over the ticks before end only: the
// ticks a run that stopped part way finished. Its trace ends there, or
// part way through tick end, so the golden's later records are missing
// because the run stopped, not because anything it did moved; they are
// not differences.
func AlignFilesBefore(golden, actual string, end int64) (*Report, error) {
	var rep *Report
	err := artifact.OpenBoth(golden, actual, func(g, a *os.File) (err error) {
		rep, err = alignBefore(g, a, end)
		return err
	})
	return rep, err
}

func alignBefore(golden, actual io.Reader, end int64) (*Report, error) {
	g, err := newSide(golden)
	if err != nil {
		return nil, fmt.Errorf("golden: %w", err)
	}
	a, err := newSide(actual)
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	rep := &Report{}
	for {
		t, ok := compare.NextTick(g.Lookahead, a.Lookahead)
		if !ok || t >= end {
			break
		}
		if err := g.tick(t); err != nil {
			return nil, fmt.Errorf("golden: %w", err)
		}
		if err := a.tick(t); err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
		rep.align(t, g.recs, a.recs)
	}
	return rep, nil
}

// AlignFiles is Align over two trace files.
func AlignFiles(golden, actual string) (*Report, error) {
	return AlignFilesBefore(golden, actual, math.MaxInt64)
}

// side reads one trace a tick at a time.
type side struct {
	*compare.Lookahead
	recs []compare.Record
}

func newSide(r io.Reader) (*side, error) {
	rd, err := compare.NewReader(r)
	if err != nil {
		return nil, err
	}
	l, err := compare.NewLookahead(rd)
	return &side{Lookahead: l}, err
}

func (s *side) tick(t int64) error {
	s.recs = s.recs[:0]
	for s.More && s.Head.Tick == t {
		s.recs = append(s.recs, s.Head)
		if err := s.Advance(); err != nil {
			return err
		}
	}
	return nil
}

// align pairs one tick's records by kind and key and notes what differs.
func (rep *Report) align(t int64, gs, as []compare.Record) {
	key := func(r compare.Record) string { return r.Kind + " " + trace.RecordKey(r.Fields) }
	byKey := map[string][]int{}
	for j, r := range as {
		byKey[key(r)] = append(byKey[key(r)], j)
	}
	paired := make([]bool, len(as))
	var lost []int
	for i, g := range gs {
		k := key(g)
		js := byKey[k]
		if len(js) == 0 {
			lost = append(lost, i)
			continue
		}
		j := js[0]
		byKey[k] = js[1:]
		paired[j] = true
		rep.pair(t, i, g, as, j)
	}
	for _, i := range lost {
		g := gs[i]
		found := false
		for j, a := range as {
			if !paired[j] && trace.IDChanged(g.Fields, a.Fields) {
				paired[j], found = true, true
				d := rep.difference(Renamed, t, j, a)
				d.pos = i
				d.provenance(as, j)
				d.Key, d.NewKey = trace.RecordKey(g.Fields), trace.RecordKey(a.Fields)
				d.firstField(trace.FieldDiff(g.Fields, a.Fields))
				rep.note(d)
				break
			}
		}
		if !found {
			d := rep.difference(Vanished, t, i, g)
			d.Seq = -1
			d.provenance(gs, i)
			rep.note(d)
		}
	}
	for j, a := range as {
		if !paired[j] {
			d := rep.difference(Appeared, t, j, a)
			d.provenance(as, j)
			rep.note(d)
		}
	}
}

// pair notes how two records of one key differ, if they do.
func (rep *Report) pair(t int64, pos int, g compare.Record, as []compare.Record, j int) {
	a := as[j]
	fields := trace.FieldDiff(g.Fields, a.Fields)
	if len(fields) == 0 {
		return
	}
	change := Moved
	for _, f := range fields {
		if isDecision(f) {
			change = Flipped
			break
		}
	}
	d := rep.difference(change, t, pos, a)
	d.provenance(as, j)
	d.firstField(fields)
	if g.Kind == "keyframe" && rep.Layer == "" {
		rep.Layer, rep.LayerTick = section(fields[0].Path), t
	}
	rep.note(d)
}

// isDecision reports whether a field change is a decision taken
// otherwise: a decision field moved, or a roll drawn in one run and not
// in the other (its key on one side only), which ladder compare calls
// control flow too.
func isDecision(f trace.FieldChange) bool {
	if f.Path == "roll.key" && (f.Golden == trace.Missing || f.Actual == trace.Missing) {
		return true
	}
	return slices.Contains(decisions, f.Path)
}

// section is the first segment of a flattened path: "grudges" of
// "grudges[0].emotional".
func section(path string) string {
	if i := strings.IndexAny(path, ".["); i >= 0 {
		return path[:i]
	}
	return path
}

func (rep *Report) difference(c Change, t int64, pos int, r compare.Record) *Difference {
	d := &Difference{Change: c, Tick: t, Kind: r.Kind, Key: trace.RecordKey(r.Fields), Line: r.Line, Seq: -1, pos: pos}
	if s, ok := r.Fields["seq"].(float64); ok {
		d.Seq = int64(s)
	}
	d.Rule, _ = r.Fields["rule"].(string)
	return d
}

// provenance fills in the rule behind a record that names none (a belief
// record): the rule evaluation or the transmission earlier in its tick
// that made it — a belief's holder and claim are that rule record's
// subject, or that transmission's listener and claim.
func (d *Difference) provenance(recs []compare.Record, i int) {
	if d.Rule != "" {
		return
	}
	r := recs[i].Fields
	holder, _ := r["holder"].(string)
	claim, _ := r["claim"].(string)
	if holder == "" || claim == "" {
		return
	}
	for k := i - 1; k >= 0; k-- {
		c := recs[k].Fields
		switch recs[k].Kind {
		case "rule":
			if c["subject"] == holder+"/"+claim {
				d.Rule, _ = c["rule"].(string)
				return
			}
		case "transmission":
			if c["listener"] == holder && c["claim"] == claim && c["fired"] == true {
				d.Rule, _ = c["rule"].(string)
				return
			}
		}
	}
}

// firstField keeps the field a summary names: a decision first, else the
// first that differs.
func (d *Difference) firstField(fields []trace.FieldChange) {
	if len(fields) == 0 {
		return
	}
	// A decision first; else the first field that is not the event hash,
	// which only follows the rest.
	f := fields[0]
	for _, c := range fields {
		if c.Path != "hash" {
			f = c
			break
		}
	}
	for _, c := range fields {
		if isDecision(c) {
			f = c
			break
		}
	}
	d.Field, d.Golden, d.Actual, d.More = f.Path, f.Golden, f.Actual, len(fields)-1
}

func (rep *Report) note(d *Difference) {
	rep.Count[d.Change]++
	if f := rep.First[d.Change]; f == nil || before(d, f) {
		rep.First[d.Change] = d
	}
	if rep.Earliest == nil || before(d, rep.Earliest) {
		rep.Earliest = d
	}
}
