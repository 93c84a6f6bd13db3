package ladder

import (
	"cmp"
	"slices"

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
//
// Claims and beliefs appear mid-run, so the header is the sorted union over
// the whole run; a cell is empty while its claim or belief does not exist.
// The recorder keeps no rows: record hands each tick's row to the run,
// which streams it to dense.csv (stream.go), and columns gives the header
// at the end from the ids it has seen.
type recorder struct {
	v     view
	npcs  []string
	claim map[string]bool
	held  map[[2]string]bool
	width int // the last row's cells: the next row's map is made that size
}

var beliefSuffixes = []string{"variant", "confidence", "verbatim", "gist", "stage", "sources"}

func newRecorder(v view) *recorder {
	return &recorder{v: v, npcs: v.w.NPCs(), claim: map[string]bool{}, held: map[[2]string]bool{}}
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
	r.width = len(row)
	return row
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
	return cols
}
