package ladder

import (
	"cmp"
	"slices"
	"strings"

	"github.com/chronicle/ladder/dense"
)

// recorder says which dense columns exist and what value each has at the
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
// changes has none of those. The recorder keeps no rows: record hands each
// tick's row to the run, which streams it to dense.csv (stream.go), and
// columns gives the header at the end from the ids it has seen.
type recorder struct {
	v     view
	npcs  []string
	claim map[string]bool
	held  map[[2]string]bool
	// The social blocks' keys seen so far.
	accum   map[[2]string]bool
	grudge  map[[2]string]bool
	oblig   map[string]bool
	opinion map[[3]string]bool
	width   int // the last row's cells: the next row's map is made that size
	// Tiers 4 and 5: weighted pairs, roles, and the NPCs whose schedules
	// a rule has changed (recorded from then on, every tick).
	pair  map[[2]string]bool
	role  map[string]bool
	sched map[string]bool
}

var (
	beliefSuffixes      = []string{"variant", "confidence", "verbatim", "gist", "stage", "sources"}
	accumulatorSuffixes = []string{"count", "armed"}
	grudgeSuffixes      = []string{"emotional", "evidentiary", "settled"}
	opinionSuffixes     = []string{"alpha", "beta", "mean"}
	roleSuffixes        = []string{"holder", "vacant", "lapses"}
	scheduleSuffixes    = []string{"base", "override"}
)

func newRecorder(v view) *recorder {
	return &recorder{v: v, npcs: v.w.NPCs(), claim: map[string]bool{}, held: map[[2]string]bool{},
		accum: map[[2]string]bool{}, grudge: map[[2]string]bool{}, oblig: map[string]bool{}, opinion: map[[3]string]bool{},
		pair: map[[2]string]bool{}, role: map[string]bool{}, sched: map[string]bool{}}
}

// record returns the current tick's row: each column that has a value, by
// name.
func (r *recorder) record() map[string]dense.Cell {
	w := r.v.w
	t, m := w.Now(), w.Store().Memory()
	row := make(map[string]dense.Cell, r.width)
	for _, id := range w.Store().ClaimIDs() {
		r.claim[id] = true
		row[id+"/believers"] = dense.Int(int64(r.v.Believers(id)))
		row[id+"/variants"] = dense.Int(int64(len(w.Store().Variants(id))))
	}
	for _, h := range r.npcs {
		for _, c := range w.Store().Held(h) {
			b, _ := w.Store().Belief(h, c)
			r.held[[2]string{h, c}] = true
			p := h + "/" + c + "/"
			row[p+"variant"] = dense.Str(b.Variant)
			row[p+"confidence"] = dense.Float(b.Confidence)
			row[p+"verbatim"] = dense.Float(b.VerbatimAt(t, m))
			row[p+"gist"] = dense.Float(b.GistAt(t, m))
			row[p+"stage"] = dense.Str(string(b.StageAt(t, m)))
			row[p+"sources"] = dense.Int(int64(len(b.Origins)))
		}
	}
	for _, id := range r.npcs {
		row[id+"/alive"] = dense.Bool(w.Alive(id))
		row[id+"/at"] = dense.Str(w.At(id))
	}
	r.recordSocial(row, t)
	r.recordTier45(row)
	r.width = len(row)
	return row
}

// recordTier45 adds the cells of Tiers 4 and 5: each weighed pair's
// weight now; each role's holder ("" while vacant), whether it is vacant
// and its duty lapses so far; and, for each NPC whose schedule a rule has
// changed — an override laid on, a block suspended — where its base puts
// it and the override in force ("" when the base decides).
func (r *recorder) recordTier45(row map[string]dense.Cell) {
	w := r.v.w
	for _, p := range w.PairWeights() {
		r.pair[[2]string{p.A, p.B}] = true
		row["pair/"+p.A+"/"+p.B+"/weight"] = dense.Float(p.Weight)
	}
	for _, ro := range w.Roles().All() {
		r.role[ro.ID] = true
		p := "role/" + ro.ID + "/"
		row[p+"holder"] = dense.Str(ro.Holder)
		row[p+"vacant"] = dense.Bool(ro.Vacant())
		row[p+"lapses"] = dense.Int(int64(ro.Lapses))
	}
	for _, id := range r.npcs {
		if !r.sched[id] {
			base, eff, _ := w.Schedules(id)
			if len(eff.Overrides) == 0 && len(eff.Blocks) == len(base.Blocks) {
				continue
			}
			r.sched[id] = true
		}
		pl := w.Placement(id)
		row["schedule/"+id+"/base"] = dense.Str(pl.Base)
		row["schedule/"+id+"/override"] = dense.Str(pl.Override)
	}
}

// recordSocial adds the social blocks' cells: accumulators (the offences
// counted within the window at t, and whether it can fire), grudges (their
// strengths at t), obligations and reputation rows.
func (r *recorder) recordSocial(row map[string]dense.Cell, t int64) {
	w := r.v.w
	for _, a := range w.Accumulators().All() {
		r.accum[[2]string{a.Victim, a.Offender}] = true
		p := "accumulator/" + a.Victim + "/" + a.Offender + "/"
		row[p+"count"] = dense.Int(int64(a.Count(t, w.Defines().EscalationWindowTicks)))
		row[p+"armed"] = dense.Bool(!a.Disarmed)
	}
	c := w.Grudges().Curves()
	for _, g := range w.Grudges().All() {
		r.grudge[[2]string{g.Holder, g.Target}] = true
		p := "grudge/" + g.Holder + "/" + g.Target + "/"
		row[p+"emotional"] = dense.Float(g.EmotionalAt(t, c))
		row[p+"evidentiary"] = dense.Float(g.EvidentiaryAt(t, c))
		row[p+"settled"] = dense.Bool(g.SettledAt(t, c))
	}
	for _, o := range w.Ledger().All() {
		r.oblig[o.Favour] = true
		row["obligation/"+o.Favour+"/state"] = dense.Str(string(o.State))
	}
	for _, o := range w.Reputation().All() {
		r.opinion[[3]string{o.Observer, o.Subject, o.Dimension}] = true
		p := "reputation/" + o.Observer + "/" + o.Subject + "/" + o.Dimension + "/"
		row[p+"alpha"] = dense.Float(o.Alpha)
		row[p+"beta"] = dense.Float(o.Beta)
		row[p+"mean"] = dense.Float(o.Mean())
	}
}

// columns returns the header after tick, in contract order: every column
// record has given a value so far.
func (r *recorder) columns() []string {
	var cols []string
	for _, id := range r.npcs {
		cols = append(cols, id+"/alive", id+"/at")
	}
	claimIDs := make([]string, 0, len(r.claim))
	for c := range r.claim {
		claimIDs = append(claimIDs, c)
	}
	slices.Sort(claimIDs)
	for _, c := range claimIDs {
		cols = append(cols, c+"/believers", c+"/variants")
	}
	pairs := make([][2]string, 0, len(r.held))
	for p := range r.held {
		pairs = append(pairs, p)
	}
	slices.SortFunc(pairs, func(a, b [2]string) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	})
	for _, p := range pairs {
		for _, s := range beliefSuffixes {
			cols = append(cols, p[0]+"/"+p[1]+"/"+s)
		}
	}
	cols = append(cols, r.socialColumns()...)
	return cols
}

// socialColumns returns the social blocks' columns, each block sorted by
// its key.
func (r *recorder) socialColumns() []string {
	var cols []string
	block := func(prefix string, keys [][]string, suffixes []string) {
		slices.SortFunc(keys, slices.Compare)
		for _, k := range keys {
			for _, s := range suffixes {
				cols = append(cols, prefix+strings.Join(k, "/")+"/"+s)
			}
		}
	}
	var accum, grudge, oblig, opinion, pair, role, sched [][]string
	for k := range r.accum {
		accum = append(accum, k[:])
	}
	for k := range r.grudge {
		grudge = append(grudge, k[:])
	}
	for k := range r.oblig {
		oblig = append(oblig, []string{k})
	}
	for k := range r.opinion {
		opinion = append(opinion, k[:])
	}
	for k := range r.pair {
		pair = append(pair, k[:])
	}
	for k := range r.role {
		role = append(role, []string{k})
	}
	for k := range r.sched {
		sched = append(sched, []string{k})
	}
	block("accumulator/", accum, accumulatorSuffixes)
	block("grudge/", grudge, grudgeSuffixes)
	block("obligation/", oblig, []string{"state"})
	block("reputation/", opinion, opinionSuffixes)
	block("pair/", pair, []string{"weight"})
	block("role/", role, roleSuffixes)
	block("schedule/", sched, scheduleSuffixes)
	return cols
}
