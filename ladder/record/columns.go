package record

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/chronicle/ladder/dense"
	"github.com/chronicle/ladder/sim/claims"
)

// Recorder says which dense columns exist and what value each has at the
// current tick, following the column contract in docs/dense-columns.md:
//
//	tick
//	<npc>/alive, <npc>/at                           for every NPC, sorted
//	<claim>/believers, <claim>/variants             for every claim, sorted
//	<holder>/<claim>/{variant,confidence,verbatim,gist,stage,sources}
//	                                                for every belief, sorted by holder then claim
//	accumulator/<victim>/<offender>/{count,armed}   for every accumulator, sorted
//	grudge/<holder>/<target>/{emotional,evidentiary,settled}
//	                                                for every grudge, sorted
//	obligation/<favour>/state                       for every obligation, sorted by favour
//	reputation/<observer>/<subject>/<dimension>/{alpha,beta,mean}
//	                                                for every reputation row, sorted
//	pair/<a>/<b>/weight                             for every NPC pair rule 18 has weighed, sorted
//	role/<id>/{holder,vacant,lapses}                for every role, sorted
//	schedule/<npc>/{base,override}                  for every NPC whose schedule a rule has changed, sorted
//
// Claims, beliefs and the social state appear mid-run, so the header is the
// sorted union over the whole run; a cell is empty while its claim, belief
// or social record does not exist. A world without social state has no
// social columns at all; one without pair weights, roles or schedule
// changes has none of those. The recorder keeps no rows: Record fills in
// each tick's row, which the run streams to dense.csv (streams.go), and
// Columns gives the header at the end from the ids it has seen.
//
// A row has a cell for every column of every NPC and belief, tens of
// thousands a tick in a city, so the recorder names each column once,
// when it first has a value, and numbers it: it keeps, for each NPC,
// claim, belief and social key, the number of its first column (the
// others follow, one a suffix), and fills the same row of cells by
// number every tick. dense.Stream takes the cells by number.
type Recorder struct {
	v View
	// name gives the string to hold for a column name as built: the
	// golden header's own, when it has the column (dense.Stream.Name), so
	// that a run with a golden holds its tens of thousands of names once.
	name func(string) string
	// width is how many columns the recorder makes room for at once: the
	// golden's (dense.Stream.GoldenColumns), which a passing run reaches,
	// so that its rows of cells are made once, at their size, and not
	// grown by doubling to as much as twice it (each is 2.6 MB in a city).
	width int
	// npcs are the cast as the world numbers it (sim.World.NPCs), so
	// that an NPC's number reads its presence and schedule without its
	// id being looked up.
	npcs []string
	npc  []npcColumns // by index in npcs
	// names are the columns by number, cells the current tick's row by
	// number: Empty where a column has no value this tick.
	names []string
	cells []dense.Cell
	// The first column of each key seen so far.
	claim map[string]int
	// tally counts, by claim, its alive holders who have not forgotten
	// it at the current tick: record counts them as it visits every
	// belief, where asking the store for each claim's holders would copy
	// them and look each one's belief and life up again. A claim's place
	// in tally is numbered once (tallies) and kept with each belief's
	// columns, so that counting a belief looks nothing up: a city visits
	// millions of beliefs a run.
	tally   []int64
	tallies map[string]int
	accum   map[[2]string]int
	grudge  map[[2]string]int
	oblig   map[string]int
	opinion map[[3]string]int
	// Tiers 4 and 5: weighted pairs, roles, and (in npcColumns) the NPCs
	// whose schedules a rule has changed (recorded from then on, every
	// tick).
	pair map[[2]string]int
	role map[string]int
}

// npcColumns are an NPC's first columns: its alive and at, each belief's
// (sorted by claim), and its schedule's (-1 until a rule changes it).
// The beliefs' are a slice, not a map: a city has an npcColumns for each
// of its tens of thousands of NPCs, most holding a belief or two, and a
// map each cost ten times the columns' numbers.
type npcColumns struct {
	alive int
	// beliefs is the NPC's handle in the claims store, taken once: a
	// lookup by id every tick cost a city more than the cells it fills.
	beliefs *claims.Holding
	held    []heldColumns
	sched   int
}

// heldColumns are the columns of an NPC's belief in one claim, from
// number first.
type heldColumns struct {
	claim string
	first int
	tally int // the claim's place in Recorder.tally
}

// belief returns the columns of npc n's belief in claim, adding them —
// h/claim/ followed by each belief suffix — when the belief is new.
func (r *Recorder) belief(n int, h, claim string) heldColumns {
	held := r.npc[n].held
	k, found := slices.BinarySearchFunc(held, claim, func(c heldColumns, claim string) int { return strings.Compare(c.claim, claim) })
	if !found {
		r.npc[n].held = slices.Insert(held, k, heldColumns{claim, r.add(h+"/"+claim+"/", beliefSuffixes), r.tallyOf(claim)})
	}
	return r.npc[n].held[k]
}

// tallyOf returns claim's place in tally, numbering it when new.
func (r *Recorder) tallyOf(claim string) int {
	i, ok := r.tallies[claim]
	if !ok {
		i = len(r.tally)
		r.tallies[claim] = i
		r.tally = append(r.tally, 0)
	}
	return i
}

// believers is claim's count of believers at the current tick.
func (r *Recorder) believers(claim string) int64 {
	if i, ok := r.tallies[claim]; ok {
		return r.tally[i]
	}
	return 0
}

var (
	npcSuffixes         = []string{"alive", "at"}
	claimSuffixes       = []string{"believers", "variants"}
	beliefSuffixes      = []string{"variant", "confidence", "verbatim", "gist", "stage", "sources"}
	accumulatorSuffixes = []string{"count", "armed"}
	grudgeSuffixes      = []string{"emotional", "evidentiary", "settled"}
	obligationSuffixes  = []string{"state"}
	opinionSuffixes     = []string{"alpha", "beta", "mean"}
	pairSuffixes        = []string{"weight"}
	roleSuffixes        = []string{"holder", "vacant", "lapses"}
	scheduleSuffixes    = []string{"base", "override"}
)

// NewRecorder is the recorder of the world v reads, with the golden
// header's names and width (see Recorder.name and Recorder.width).
func NewRecorder(v View, name func(string) string, width int) *Recorder {
	r := &Recorder{v: v, name: name, width: width, names: make([]string, 0, width), cells: make([]dense.Cell, 0, width), npcs: v.w.NPCs(), claim: map[string]int{}, tallies: map[string]int{},
		accum: map[[2]string]int{}, grudge: map[[2]string]int{}, oblig: map[string]int{}, opinion: map[[3]string]int{},
		pair: map[[2]string]int{}, role: map[string]int{}}
	r.npc = make([]npcColumns, len(r.npcs))
	for i, id := range r.npcs {
		r.npc[i] = npcColumns{alive: r.add(id+"/", npcSuffixes), beliefs: v.w.Store().Holding(id), sched: -1}
	}
	return r
}

// add numbers the columns prefix+suffix, one a suffix, and returns the
// first's number.
func (r *Recorder) add(prefix string, suffixes []string) int {
	first := len(r.names)
	for _, s := range suffixes {
		r.names = append(r.names, r.name(prefix+s))
	}
	r.cells = append(r.cells, make([]dense.Cell, len(suffixes))...)
	return first
}

// first returns the number of key k's first column in m, adding its
// columns — prefix() followed by each suffix — when k is new.
func first[K comparable](r *Recorder, m map[K]int, k K, prefix func() string, suffixes []string) int {
	i, ok := m[k]
	if !ok {
		i = r.add(prefix(), suffixes)
		m[k] = i
	}
	return i
}

// Fill has the next Record fill in cells, a row the table is done with
// (rows.put), grown to the columns so far; nil is a row to make.
func (r *Recorder) Fill(cells []dense.Cell) { r.cells = cells }

// Record fills in the current tick's row: the columns so far by number,
// and each one's cell (Empty where it has no value this tick). names is
// the recorder's, which later ticks append to; cells are filled again by
// the next tick, unless fill hands it other cells to fill.
func (r *Recorder) Record() (names []string, cells []dense.Cell) {
	w := r.v.w
	s := w.Store()
	t, m := w.Now(), s.Memory()
	r.cells = slices.Grow(r.cells[:0], max(len(r.names), r.width))[:len(r.names)]
	clear(r.cells)
	clear(r.tally)
	for n, h := range r.npcs {
		alive, at := w.Presence(n)
		held := r.npc[n].held // in claim order, as the beliefs are
		for k, b := range r.npc[n].beliefs.Beliefs() {
			var col heldColumns
			if k < len(held) && held[k].claim == b.Claim {
				col = held[k] // no belief formed before this one since the last tick
			} else {
				col, held = r.belief(n, h, b.Claim), r.npc[n].held
			}
			i := col.first
			stage := b.StageAt(t, m)
			c := r.cells[i : i+len(beliefSuffixes)]
			c[0] = dense.Str(b.Variant)
			c[1] = dense.Float(b.Confidence)
			c[2] = dense.Float(b.VerbatimAt(t, m))
			c[3] = dense.Float(b.GistAt(t, m))
			c[4] = dense.Str(string(stage))
			c[5] = dense.Int(int64(len(b.Origins)))
			if alive && stage != claims.Forgotten {
				r.tally[col.tally]++
			}
		}
		i := r.npc[n].alive
		r.cells[i] = dense.Bool(alive)
		r.cells[i+1] = dense.Str(at)
	}
	for _, id := range s.ClaimIDs() {
		i := first(r, r.claim, id, func() string { return id + "/" }, claimSuffixes)
		r.cells[i] = dense.Int(r.believers(id))
		r.cells[i+1] = dense.Int(int64(s.VariantCountOf(id)))
	}
	r.recordSocial(t)
	r.recordTier45()
	return r.names, r.cells
}

// recordTier45 fills in the cells of Tiers 4 and 5: each weighed pair's
// weight now; each role's holder ("" while vacant), whether it is vacant
// and its duty lapses so far; and, for each NPC whose schedule a rule has
// changed — an override laid on, a block suspended — where its base puts
// it and the override in force ("" when the base decides).
func (r *Recorder) recordTier45() {
	w := r.v.w
	for _, p := range w.PairWeights() {
		i := first(r, r.pair, [2]string{p.A, p.B}, func() string { return "pair/" + p.A + "/" + p.B + "/" }, pairSuffixes)
		r.cells[i] = dense.Float(p.Weight)
	}
	for _, ro := range w.Roles().All() {
		i := first(r, r.role, ro.ID, func() string { return "role/" + ro.ID + "/" }, roleSuffixes)
		r.cells[i] = dense.Str(ro.Holder)
		r.cells[i+1] = dense.Bool(ro.Vacant())
		r.cells[i+2] = dense.Int(int64(ro.Lapses))
	}
	for n, id := range r.npcs {
		if r.npc[n].sched < 0 {
			if !w.Rescheduled(n) {
				continue
			}
			r.npc[n].sched = r.add("schedule/"+id+"/", scheduleSuffixes)
		}
		pl := w.Placement(id)
		i := r.npc[n].sched
		r.cells[i] = dense.Str(pl.Base)
		r.cells[i+1] = dense.Str(pl.Override)
	}
}

// recordSocial fills in the social blocks' cells: accumulators (the
// offences counted within the window at t, and whether it can fire),
// grudges (their strengths at t), obligations and reputation rows.
func (r *Recorder) recordSocial(t int64) {
	w := r.v.w
	for _, a := range w.Accumulators().All() {
		i := first(r, r.accum, [2]string{a.Victim, a.Offender}, func() string { return "accumulator/" + a.Victim + "/" + a.Offender + "/" }, accumulatorSuffixes)
		r.cells[i] = dense.Int(int64(a.Count(t, w.Defines().EscalationWindowTicks)))
		r.cells[i+1] = dense.Bool(!a.Disarmed)
	}
	c := w.Grudges().Curves()
	for _, g := range w.Grudges().All() {
		i := first(r, r.grudge, [2]string{g.Holder, g.Target}, func() string { return "grudge/" + g.Holder + "/" + g.Target + "/" }, grudgeSuffixes)
		r.cells[i] = dense.Float(g.EmotionalAt(t, c))
		r.cells[i+1] = dense.Float(g.EvidentiaryAt(t, c))
		r.cells[i+2] = dense.Bool(g.SettledAt(t, c))
	}
	for _, o := range w.Ledger().All() {
		i := first(r, r.oblig, o.Favour, func() string { return "obligation/" + o.Favour + "/" }, obligationSuffixes)
		r.cells[i] = dense.Str(string(o.State))
	}
	for _, o := range w.Reputation().All() {
		k := [3]string{o.Observer, o.Subject, o.Dimension}
		i := first(r, r.opinion, k, func() string { return "reputation/" + o.Observer + "/" + o.Subject + "/" + o.Dimension + "/" }, opinionSuffixes)
		r.cells[i] = dense.Float(o.Alpha)
		r.cells[i+1] = dense.Float(o.Beta)
		r.cells[i+2] = dense.Float(o.Mean())
	}
}

// Columns returns the header after tick, in contract order: every column
// record has given a value so far, as record named it.
func (r *Recorder) Columns() []string {
	var cols []string
	for _, n := range r.npc {
		cols = append(cols, r.block(n.alive, npcSuffixes)...)
	}
	cols = appendKeyed(r, cols, r.claim, cmp.Compare[string], claimSuffixes)
	for _, n := range r.npc { // r.npcs is sorted: by holder, then claim
		for _, b := range n.held {
			cols = append(cols, r.block(b.first, beliefSuffixes)...)
		}
	}
	cols = appendKeyed(r, cols, r.accum, pairOrder, accumulatorSuffixes)
	cols = appendKeyed(r, cols, r.grudge, pairOrder, grudgeSuffixes)
	cols = appendKeyed(r, cols, r.oblig, cmp.Compare[string], obligationSuffixes)
	cols = appendKeyed(r, cols, r.opinion, func(a, b [3]string) int { return slices.Compare(a[:], b[:]) }, opinionSuffixes)
	cols = appendKeyed(r, cols, r.pair, pairOrder, pairSuffixes)
	cols = appendKeyed(r, cols, r.role, cmp.Compare[string], roleSuffixes)
	for _, n := range r.npc {
		if n.sched >= 0 {
			cols = append(cols, r.block(n.sched, scheduleSuffixes)...)
		}
	}
	return cols
}

// block returns the names of the columns from number first, one a suffix.
func (r *Recorder) block(first int, suffixes []string) []string {
	return r.names[first : first+len(suffixes)]
}

// appendKeyed appends the columns of m's keys to cols, the keys in order
// (compare), each key's one a suffix.
func appendKeyed[K comparable](r *Recorder, cols []string, m map[K]int, compare func(a, b K) int, suffixes []string) []string {
	for _, k := range slices.SortedFunc(maps.Keys(m), compare) {
		cols = append(cols, r.block(m[k], suffixes)...)
	}
	return cols
}

func pairOrder(a, b [2]string) int { return slices.Compare(a[:], b[:]) }
