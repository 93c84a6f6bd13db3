package whynot

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/schedule"
)

// World is what a run's files do not say and its fixture does: the hold
// each location belongs to (the dense file names places, not holds), and
// each NPC's base schedule — a carrier killed before it set out is on no
// row of the dense file anywhere but where it died.
type World struct {
	Holds     map[string]string            // location → hold; "" outside every hold (a road)
	Schedules map[string]schedule.Schedule // NPC → its base schedule
	Fixture   string                       // the fixture's file, cited where a schedule is the evidence
}

// WorldOf reads a fixture's holds and schedules.
func WorldOf(f *fixture.Fixture) World {
	w := World{Holds: map[string]string{}, Schedules: map[string]schedule.Schedule{}, Fixture: f.File}
	for _, l := range f.Locations {
		w.Holds[l.ID] = l.Hold
	}
	for _, n := range f.Cast {
		w.Schedules[n.ID] = n.Schedule.Base()
	}
	return w
}

// Files are a run's artifacts, each read once, front to back. Events may
// be nil: goldens keep no event log, and without one a death is named by
// the trace's death event of its tick.
type Files struct {
	Trace, Dense, Events io.Reader
}

// Run is one run's files, indexed once for every question Explain is
// asked about it.
type Run struct {
	Name string // the run, "T2.7" or "T2.3/swapped"
	Dir  string // where its files were read from, for an answer's heading

	world World

	first int64 // the first row's tick; rows are every tick from it
	rows  int

	npcs, places, claims names

	// alive, at and stays are the dense file's NPCs' (the first in npcs;
	// one only the trace names has none): alive per row, at a place per
	// row (-1 for nowhere), and those rows cut where it moves or dies.
	alive [][]bool
	at    [][]int32
	stays [][]stay

	pairs   map[[2]int32]*pair // (npc, claim) → what the files say of that belief
	holders [][]int32          // [claim] → every NPC with a belief column for it, sorted

	enc     [][]encounter     // [npc] → the encounters it was in, in trace order
	offs    []ref             // every encounter-sampling decline, one a tick, in tick order
	events  []event           // every event record, in trace order
	mints   map[int32]ref     // claim → the record that minted it
	vacated map[string]string // NPC → the death event its role's vacancy names
	victims map[string]string // death event id → the dead NPC, from events.jsonl
	actors  map[string]string // killing event id → its actor, from events.jsonl

	witnessed map[int32][]rule // claim → its witness-creates-belief evaluations; other is the witness

	spreads map[spreadKey]*spread // holders' whereabouts over a window, per claim, as asked
	everIn  [][]string            // [npc] → every hold it is ever in (dense or schedule), sorted; made on first use
}

// Read indexes a run from its files: the dense file first (it names the
// NPCs, places and claims), then the trace, then the event log if any.
func Read(name, dir string, f Files, w World) (*Run, error) {
	if f.Trace == nil || f.Dense == nil {
		return nil, errors.New("why-not: a run needs its trace.jsonl and its dense.csv")
	}
	r := &Run{Name: name, Dir: dir, world: w, pairs: map[[2]int32]*pair{},
		mints: map[int32]ref{}, vacated: map[string]string{},
		victims: map[string]string{}, actors: map[string]string{}, witnessed: map[int32][]rule{}, spreads: map[spreadKey]*spread{}}
	if err := r.readDense(f.Dense); err != nil {
		return nil, fmt.Errorf("%s/dense.csv: %w", dir, err)
	}
	r.cutStays()
	if err := r.readTrace(f.Trace); err != nil {
		return nil, fmt.Errorf("%s/trace.jsonl: %w", dir, err)
	}
	if f.Events != nil {
		if err := r.readEvents(f.Events); err != nil {
			return nil, fmt.Errorf("%s/events.jsonl: %w", dir, err)
		}
	}
	return r, nil
}

// NPCs are the run's NPCs, sorted.
func (r *Run) NPCs() []string { return slices.Clone(r.npcs.list[:len(r.alive)]) }

// Claims are the run's claims (those with a believers column), sorted.
func (r *Run) Claims() []string { return slices.Sorted(slices.Values(r.claims.list[:len(r.holders)])) }

// Ticks are the first and last tick the run's files cover.
func (r *Run) Ticks() (first, last int64) { return r.first, r.first + int64(r.rows) - 1 }

// Holds reports whether npc holds claim at tick t as the dense file's
// believer count counts it: alive, with a rumour heard, repeated or
// dormant — not forgotten. An NPC, claim or tick the run does not have
// holds nothing.
func (r *Run) Holds(npc, claim string, t int64) bool {
	x, okX := r.npcs.index[npc]
	c, okC := r.claims.index[claim]
	row := int(t - r.first)
	if !okX || !okC || row < 0 || row >= r.rows || int(x) >= len(r.alive) {
		return false
	}
	return r.holds(x, c, row)
}

func (r *Run) holds(x, c int32, row int) bool {
	if int(x) >= len(r.alive) || !r.alive[x][row] {
		return false
	}
	s := r.stage(x, c, row)
	return s != none && s != forgotten
}

// stage is npc's stage of claim at a row; none when it holds no belief.
func (r *Run) stage(x, c int32, row int) stage {
	p := r.pairs[[2]int32{x, c}]
	if p == nil || p.stage == nil {
		return none
	}
	return p.stage[row]
}

// names numbers ids in order of first use.
type names struct {
	list  []string
	index map[string]int32
}

func (n *names) id(s string) int32 {
	if i, ok := n.index[s]; ok {
		return i
	}
	if n.index == nil {
		n.index = map[string]int32{}
	}
	n.index[s] = int32(len(n.list))
	n.list = append(n.list, s)
	return int32(len(n.list) - 1)
}

// pair is what the files say of one NPC's belief in one claim.
type pair struct {
	stage   []stage                     // per row, from the dense file; nil when it never held it
	formed  *formation                  // the record that formed it, and how; nil when it never held it
	changes []change                    // every belief record, in trace order
	told    []transmission              // every transmission of the claim to this NPC
	keeps   []rule                      // tell-decision declines to tell it to this NPC
	witness *rule                       // its witness-creates-belief evaluation, if it witnessed the event
	stages  []rule                      // its rumour-stages transitions
	last    struct{ told, witness int } // the latest telling and witness records, to link a formation to
}

// ref is a record: its tick and its line in trace.jsonl.
type ref struct {
	tick int64
	line int
}

// stage is a rumour's stage as the dense file spells it.
type stage uint8

const (
	none stage = iota
	heard
	repeated
	dormant
	forgotten
)

var stageNames = [...]string{"", "heard", "repeated", "dormant", "forgotten"}

func (s stage) String() string { return stageNames[s] }

func stageOf(s string) (stage, bool) {
	i := slices.Index(stageNames[:], s)
	return stage(max(i, 0)), i >= 0
}

// The files a run leaves in its directory (reports/<run>/, or a golden
// set, which keeps no event log).
const (
	TraceFile  = "trace.jsonl"
	DenseFile  = "dense.csv"
	EventsFile = "events.jsonl"
)

// Open reads the run whose files are in dir: trace.jsonl and dense.csv,
// and events.jsonl when it is there.
func Open(name, dir string, w World) (*Run, error) {
	var f Files
	for _, a := range []struct {
		file     string
		into     *io.Reader
		optional bool
	}{{TraceFile, &f.Trace, false}, {DenseFile, &f.Dense, false}, {EventsFile, &f.Events, true}} {
		file, err := os.Open(filepath.Join(dir, a.file))
		if a.optional && errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("why-not: %s: %w", name, err)
		}
		defer file.Close()
		*a.into = file
	}
	return Read(name, filepath.ToSlash(dir), f, w)
}
